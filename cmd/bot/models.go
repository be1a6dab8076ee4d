package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hearthbot/hearth/pipeline/hybrid"
	"github.com/hearthbot/hearth/pipeline/llm"
	"github.com/hearthbot/hearth/store"
)

// provider is one configured model provider: its strong and fast chats,
// its embedder, and the variables that configure it (named on failure).
type provider struct {
	name  string
	chat  llm.Chat
	fast  llm.Chat
	embed llm.Embedder
	model string
	fastM string
}

// embeddings is the embedding provider, "" when off. The zero Config is
// offline, like HEARTH_LLM=none and HEARTH_EMBEDDINGS=none.
func (c Config) embeddings() string {
	if c.Embeddings == "none" {
		return ""
	}
	return c.Embeddings
}

// llmTimeout is HEARTH_LLM_TIMEOUT, 10s when zero.
func (c Config) llmTimeout() time.Duration {
	if c.LLMTimeout > 0 {
		return c.LLMTimeout
	}
	return 10 * time.Second
}

func (c Config) providerNames() []string {
	if c.LLM == "none" || c.LLM == "" {
		return nil
	}
	names := []string{c.LLM}
	for _, f := range c.LLMFallback {
		if f = strings.TrimSpace(f); f != "" && !slices.Contains(names, f) {
			names = append(names, f)
		}
	}
	return names
}

func (c Config) validateModels() error {
	switch c.LLM {
	case "", "none", "openai", "bedrock":
	default:
		return fmt.Errorf("config: HEARTH_LLM %q must be none, openai or bedrock", c.LLM)
	}
	for _, f := range c.LLMFallback {
		if f = strings.TrimSpace(f); f != "" && f != "openai" && f != "bedrock" {
			return fmt.Errorf("config: HEARTH_LLM_FALLBACK: %q must be openai or bedrock", f)
		}
	}
	if len(c.providerNames()) == 0 && len(c.LLMFallback) > 0 {
		return errors.New("config: HEARTH_LLM_FALLBACK needs HEARTH_LLM set to openai or bedrock")
	}
	uses := func(p string) bool { return slices.Contains(c.providerNames(), p) || c.embeddings() == p }
	switch c.Embeddings {
	case "", "none", "offline", "openai", "bedrock":
	default:
		return fmt.Errorf("config: HEARTH_EMBEDDINGS %q must be none, offline, openai or bedrock", c.Embeddings)
	}
	if slices.Contains(c.providerNames(), "openai") && c.OpenAIModel == "" {
		return errors.New("config: OPENAI_MODEL is required when openai is a model provider (HEARTH_LLM or HEARTH_LLM_FALLBACK)")
	}
	if slices.Contains(c.providerNames(), "bedrock") && c.BedrockModel == "" {
		return errors.New("config: BEDROCK_MODEL_ID is required when bedrock is a model provider (HEARTH_LLM or HEARTH_LLM_FALLBACK)")
	}
	if uses("openai") && c.OpenAIBaseURL != "" {
		if u, err := url.Parse(c.OpenAIBaseURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("config: OPENAI_BASE_URL %q is not an http(s) URL", c.OpenAIBaseURL)
		}
	}
	if uses("bedrock") && c.BedrockURL != "" {
		if u, err := url.Parse(c.BedrockURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("config: BEDROCK_ENDPOINT_URL %q is not an http(s) URL", c.BedrockURL)
		}
	}
	switch {
	case c.LLMTimeout < 0:
		return errors.New("config: HEARTH_LLM_TIMEOUT must not be negative (0 means 10s)")
	case c.LLMDeadline < 0:
		return errors.New("config: HEARTH_LLM_TURN_DEADLINE must not be negative (0 means 2.5s)")
	case len(c.providerNames()) > 0 && (c.LLMConfident <= 0 || c.LLMConfident > 1):
		return errors.New("config: HEARTH_LLM_CONFIDENT must be above 0 and at most 1")
	case len(c.providerNames()) > 0 && (c.LLMSpokenConfident < 0 || c.LLMSpokenConfident > 1):
		return errors.New("config: HEARTH_LLM_SPOKEN_CONFIDENT must be between 0 and 1")
	case c.LLMDailyTokens < 0:
		return errors.New("config: HEARTH_LLM_DAILY_TOKENS must not be negative")
	case c.embeddings() != "" && c.EmbedInterval <= 0:
		return errors.New("config: HEARTH_EMBED_INTERVAL must be positive")
	}
	if c.embeddings() != "" {
		allowed := store.EmbeddingDimensions
		if c.Embeddings == "bedrock" {
			allowed = []int{256, 512, 1024} // what Titan Text Embeddings V2 makes
		}
		if !slices.Contains(allowed, c.EmbeddingDims) {
			return fmt.Errorf("config: HEARTH_EMBEDDING_DIMENSIONS %d must be one of %v for %s", c.EmbeddingDims, allowed, c.Embeddings)
		}
	}
	if _, err := parsePrices(c.LLMPrices); err != nil {
		return fmt.Errorf("config: HEARTH_LLM_PRICES: %w", err)
	}
	return nil
}

// parsePrices reads "model=in/out,model2=in/out" in US dollars per
// million tokens.
func parsePrices(s string) (hybrid.Prices, error) {
	out := hybrid.Prices{}
	for _, entry := range strings.Split(s, ",") {
		if entry = strings.TrimSpace(entry); entry == "" {
			continue
		}
		model, price, ok := strings.Cut(entry, "=")
		in, outp, ok2 := strings.Cut(price, "/")
		if !ok || !ok2 || strings.TrimSpace(model) == "" {
			return nil, fmt.Errorf("%q is not model=input/output", entry)
		}
		pi, err1 := strconv.ParseFloat(strings.TrimSpace(in), 64)
		po, err2 := strconv.ParseFloat(strings.TrimSpace(outp), 64)
		if err1 != nil || err2 != nil || !(pi >= 0 && po >= 0) || math.IsInf(pi, 0) || math.IsInf(po, 0) {
			return nil, fmt.Errorf("%q: prices must be non-negative numbers (dollars per million tokens)", entry)
		}
		out[strings.TrimSpace(model)] = hybrid.Price{Input: pi, Output: po}
	}
	return out, nil
}

// openProvider builds one provider from the configuration.
func openProvider(ctx context.Context, cfg Config, name string, metrics *llm.Metrics) (provider, error) {
	// Turns have seconds, not minutes: one quick retry, and a provider that
	// asks to wait longer than a second is skipped for the next one.
	pol := llm.Policy{Timeout: cfg.llmTimeout(), MaxAttempts: 2, BaseDelay: 200 * time.Millisecond, MaxDelay: time.Second}
	switch name {
	case "offline":
		// Embeddings only: word and word-piece vectors made here, no model.
		return provider{name: name, embed: llm.Hashed{Dims: cfg.EmbeddingDims}}, nil
	case "openai":
		fast := cfg.OpenAIFast
		if fast == "" {
			fast = cfg.OpenAIModel
		}
		base := llm.OpenAIConfig{BaseURL: cfg.OpenAIBaseURL, APIKey: cfg.OpenAIAPIKey, EmbeddingModel: cfg.OpenAIEmbed, Dimensions: cfg.EmbeddingDims, Policy: pol}
		strong, quick := base, base
		strong.Model, quick.Model = cfg.OpenAIModel, fast
		s := llm.NewOpenAI(strong)
		return provider{
			name: name, model: cfg.OpenAIModel, fastM: fast, embed: s,
			chat: &llm.Instrumented{Provider: name, Model: cfg.OpenAIModel, Chat: s, Metrics: metrics},
			fast: &llm.Instrumented{Provider: name, Model: fast, Chat: llm.NewOpenAI(quick), Metrics: metrics},
		}, nil
	case "bedrock":
		fast := cfg.BedrockFast
		if fast == "" {
			fast = cfg.BedrockModel
		}
		base := llm.BedrockConfig{Region: cfg.BedrockRegion, EndpointURL: cfg.BedrockURL, EmbeddingModelID: cfg.BedrockEmbed, Dimensions: cfg.EmbeddingDims, Policy: pol}
		strong, quick := base, base
		strong.ModelID, quick.ModelID = cfg.BedrockModel, fast
		s, err := llm.NewBedrock(ctx, strong)
		if err != nil {
			return provider{}, fmt.Errorf("bedrock (check BEDROCK_REGION or AWS_REGION and the AWS credentials): %w", err)
		}
		q, err := llm.NewBedrock(ctx, quick)
		if err != nil {
			return provider{}, fmt.Errorf("bedrock (check BEDROCK_REGION or AWS_REGION and the AWS credentials): %w", err)
		}
		return provider{
			name: name, model: cfg.BedrockModel, fastM: fast, embed: s,
			chat: &llm.Instrumented{Provider: name, Model: cfg.BedrockModel, Chat: s, Metrics: metrics},
			fast: &llm.Instrumented{Provider: name, Model: fast, Chat: q, Metrics: metrics},
		}, nil
	}
	return provider{}, fmt.Errorf("unknown model provider %q", name)
}

// openModels builds the model configuration of the stages: nil when
// HEARTH_LLM is none. The embedder is nil when HEARTH_EMBEDDINGS is none.
func openModels(ctx context.Context, cfg Config, metrics *llm.Metrics, usage hybrid.UsageLog, log *slog.Logger) (*hybrid.Models, llm.Embedder, string, error) {
	var chain, fast llm.Chain
	for _, name := range cfg.providerNames() {
		p, err := openProvider(ctx, cfg, name, metrics)
		if err != nil {
			return nil, nil, "", err
		}
		chain, fast = append(chain, p.chat), append(fast, p.fast)
	}
	var embedder llm.Embedder
	var embedModel string
	if cfg.embeddings() != "" {
		p, err := openProvider(ctx, cfg, cfg.Embeddings, metrics)
		if err != nil {
			return nil, nil, "", err
		}
		model := cfg.OpenAIEmbed
		switch p.name {
		case "bedrock":
			model = cfg.BedrockEmbed
		case "offline":
			model = llm.HashedModel
		}
		embedder = &llm.InstrumentedEmbedder{Provider: p.name, Model: model, Embedder: p.embed, Metrics: metrics}
		// Rows embedded under another name (model or size) are embedded
		// again by the job.
		embedModel = fmt.Sprintf("%s/%s@%d", p.name, model, cfg.EmbeddingDims)
	}
	if len(chain) == 0 {
		return nil, embedder, embedModel, nil
	}
	prices, _ := parsePrices(cfg.LLMPrices) // validated with the configuration
	return &hybrid.Models{
		Chat: chain, Fast: fast, Confident: cfg.LLMConfident, SpokenConfident: cfg.LLMSpokenConfident, TurnDeadline: cfg.LLMDeadline,
		DailyTokens: cfg.LLMDailyTokens, Prices: prices, Usage: usage, Log: log.With("component", "models"),
	}, embedder, embedModel, nil
}
