package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/caarlos0/env/v11"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/llm"
	"github.com/hearthbot/hearth/store"
)

// LoadModelConfig reads the environment like LoadConfig but needs no
// database: bot llm check only talks to the model providers.
func LoadModelConfig() (Config, error) {
	if os.Getenv("DATABASE_URL") != "" {
		return LoadConfig()
	}
	environ := env.ToMap(os.Environ())
	environ["DATABASE_URL"] = "postgres://unused@localhost/unused"
	cfg, err := env.ParseAsWithOptions[Config](env.Options{Environment: environ})
	if err != nil {
		return Config{}, fmt.Errorf("config: %w", err)
	}
	return cfg, cfg.validateModels()
}

// LLMCheck prints the configured model providers and makes a one-token
// round trip to each model (and one embedding when embeddings are on),
// naming the variable to fix when one fails.
func LLMCheck(ctx context.Context, cfg Config, out io.Writer) error {
	names := cfg.providerNames()
	if len(names) == 0 && cfg.embeddings() == "" {
		fmt.Fprintln(out, "HEARTH_LLM=none and HEARTH_EMBEDDINGS=none: Hearth runs offline; nothing to check.")
		return nil
	}
	failed := 0
	for i, name := range names {
		p, err := openProvider(ctx, cfg, name, nil)
		role := "fallback"
		if i == 0 {
			role = "primary"
		}
		if err != nil {
			fmt.Fprintf(out, "%-8s %-8s FAILED: %v\n", name, role, err)
			failed++
			continue
		}
		for _, m := range []struct {
			what, model string
			chat        llm.Chat
		}{{"plan/reply", p.model, p.chat}, {"intent", p.fastM, p.fast}} {
			cctx, cancel := context.WithTimeout(ctx, cfg.llmTimeout())
			start := time.Now()
			resp, err := m.chat.Complete(cctx, llm.Request{Messages: []llm.Message{{Role: llm.RoleUser, Text: "Reply with the single word OK."}}, MaxTokens: 1})
			cancel()
			if err != nil {
				fmt.Fprintf(out, "%-8s %-8s %-10s %s: FAILED: %v\n         fix: %s\n", name, role, m.what, m.model, err, fixFor(name, m.what, err))
				failed++
				continue
			}
			fmt.Fprintf(out, "%-8s %-8s %-10s %s: ok in %s (%d in, %d out tokens): %q\n", name, role, m.what, m.model,
				time.Since(start).Round(time.Millisecond), resp.Usage.InputTokens, resp.Usage.OutputTokens, strings.TrimSpace(resp.Text))
		}
	}
	if cfg.embeddings() != "" {
		p, err := openProvider(ctx, cfg, cfg.Embeddings, nil)
		if err == nil {
			cctx, cancel := context.WithTimeout(ctx, cfg.llmTimeout())
			var vecs [][]float32
			vecs, _, err = p.embed.Embed(cctx, []string{"ok"})
			cancel()
			if err == nil && (len(vecs) != 1 || len(vecs[0]) != cfg.EmbeddingDims) {
				err = fmt.Errorf("got %d vectors of %d dimensions; want 1 of %d (HEARTH_EMBEDDING_DIMENSIONS)", len(vecs), dimsOf(vecs), cfg.EmbeddingDims)
			}
		}
		if err != nil {
			fmt.Fprintf(out, "%-8s %-8s %-10s FAILED: %v\n         fix: %s\n", cfg.Embeddings, "embed", "", err, fixFor(cfg.Embeddings, "embed", err))
			failed++
		} else {
			fmt.Fprintf(out, "%-8s %-8s ok: %d dimensions\n", cfg.Embeddings, "embed", cfg.EmbeddingDims)
		}
	}
	if failed > 0 {
		return fmt.Errorf("llm check: %d of the configured models failed", failed)
	}
	return nil
}

func usageDays(args []string) (int, error) {
	if len(args) == 0 {
		return 7, nil
	}
	if len(args) == 2 && args[0] == "-days" {
		if n, err := strconv.Atoi(args[1]); err == nil && n > 0 && n <= 366 {
			return n, nil
		}
	}
	return 0, errors.New("usage: bot llm usage [-days N] (N from 1 to 366)")
}

// LLMUsage prints model use per user and day for the last days days.
func LLMUsage(ctx context.Context, cfg Config, days int, out io.Writer) error {
	st, err := store.Open(ctx, cfg.DatabaseURL, store.Config{MaxConns: 2})
	if err != nil {
		return err
	}
	defer st.Close()
	rows, err := st.UsageSince(ctx, time.Now().AddDate(0, 0, -(days-1)))
	if err != nil {
		return err
	}
	return writeUsage(out, rows)
}

func writeUsage(out io.Writer, rows []hearth.DailyUsage) error {
	if len(rows) == 0 {
		_, err := fmt.Fprintln(out, "no model use recorded")
		return err
	}
	fmt.Fprintf(out, "%-10s  %-20s %6s %10s %10s %10s\n", "day", "user", "calls", "input", "output", "cost $")
	for _, r := range rows {
		who := r.User
		if r.UserID == 0 {
			who = "(background)"
		} else if who == "" {
			who = fmt.Sprintf("user %d", r.UserID)
		}
		if _, err := fmt.Fprintf(out, "%-10s  %-20s %6d %10d %10d %10.4f\n", r.Day.Format("2006-01-02"), who, r.Calls, r.InputTokens, r.OutputTokens, r.CostUSD); err != nil {
			return err
		}
	}
	return nil
}

func dimsOf(v [][]float32) int {
	if len(v) == 0 {
		return 0
	}
	return len(v[0])
}

// fixFor names the setting most likely wrong for a failed check.
func fixFor(provider, what string, err error) string {
	status := llm.Status(err)
	switch provider {
	case "openai":
		model := "OPENAI_MODEL"
		switch what {
		case "intent":
			model = "OPENAI_FAST_MODEL (or OPENAI_MODEL)"
		case "embed":
			model = "OPENAI_EMBEDDING_MODEL"
		}
		switch {
		case status == 401 || status == 403:
			return "OPENAI_API_KEY (the server refused it)"
		case status == 404 || status == 400:
			return model + " (the server does not know the model), or OPENAI_BASE_URL (it should end in /v1)"
		case status == 0 || errors.Is(err, llm.ErrUnavailable) || errors.Is(err, llm.ErrTimeout):
			return "OPENAI_BASE_URL (no answer from the server)"
		}
		return "OPENAI_BASE_URL, OPENAI_API_KEY and " + model
	default:
		model := "BEDROCK_MODEL_ID"
		switch what {
		case "intent":
			model = "BEDROCK_FAST_MODEL_ID (or BEDROCK_MODEL_ID)"
		case "embed":
			model = "BEDROCK_EMBEDDING_MODEL_ID"
		}
		switch {
		case status == 401 || status == 403:
			return "the AWS credentials (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or AWS_PROFILE) and their Bedrock model access"
		case status == 404 || status == 400:
			return model + " (unknown model, or not enabled in BEDROCK_REGION)"
		case status == 0 || errors.Is(err, llm.ErrUnavailable) || errors.Is(err, llm.ErrTimeout):
			return "BEDROCK_REGION (or AWS_REGION) and BEDROCK_ENDPOINT_URL (no answer from the endpoint)"
		}
		return "BEDROCK_REGION, " + model + " and the AWS credentials"
	}
}
