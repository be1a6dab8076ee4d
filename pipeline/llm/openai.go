package llm

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// OpenAIConfig configures an OpenAI-compatible provider. Unset fields fall
// back to the openai-go defaults, which read OPENAI_BASE_URL and
// OPENAI_API_KEY from the environment.
type OpenAIConfig struct {
	// BaseURL is the API root, e.g. http://localhost:11434/v1 for Ollama.
	// Defaults to OPENAI_BASE_URL, then https://api.openai.com/v1.
	BaseURL string
	// APIKey is sent as a bearer token. Defaults to OPENAI_API_KEY; with
	// neither, no Authorization header is sent, which local servers accept.
	APIKey string
	// Model answers requests that name none. Required unless every Request
	// sets Model.
	Model string
	// EmbeddingModel is used by Embed. Required to embed.
	EmbeddingModel string
	// Dimensions asks the embedding model for vectors of this size; zero
	// leaves the model's own.
	Dimensions int
	// HTTPClient sends the requests. Defaults to http.DefaultClient.
	HTTPClient *http.Client
	// Policy sets timeouts and retries.
	Policy
}

// OpenAI is a Chat and Embedder backed by an OpenAI-compatible server.
type OpenAI struct {
	cfg    OpenAIConfig
	client openai.Client
}

var (
	_ Chat     = (*OpenAI)(nil)
	_ Embedder = (*OpenAI)(nil)
)

// NewOpenAI returns a provider for cfg. It makes no request.
func NewOpenAI(cfg OpenAIConfig) *OpenAI {
	// Our Policy retries; the SDK's retryer would multiply attempts and
	// ignore our clock.
	opts := []option.RequestOption{option.WithMaxRetries(0)}
	if cfg.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(cfg.BaseURL))
	}
	if cfg.APIKey != "" {
		opts = append(opts, option.WithAPIKey(cfg.APIKey))
	}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	return &OpenAI{cfg: cfg, client: openai.NewClient(opts...)}
}

// Complete sends r as a chat completion. A Schema becomes a strict
// json_schema response format (OpenAI's strict mode wants every property
// required and additionalProperties false), Tools become function tools.
// MaxTokens is sent as max_completion_tokens.
func (o *OpenAI) Complete(ctx context.Context, r Request) (Response, error) {
	model := cmp.Or(r.Model, o.cfg.Model)
	if model == "" {
		return Response{}, fmt.Errorf("llm: openai: %w: no model configured", ErrUnavailable)
	}
	return complete(ctx, o.cfg.Policy, "openai "+model, r, func(ctx context.Context, r Request) (Response, error) {
		params, err := openAIParams(model, r)
		if err != nil {
			return Response{}, permanent(err)
		}
		cc, err := o.client.Chat.Completions.New(ctx, params)
		if err != nil {
			return Response{}, err
		}
		return openAIResponse(cc, r.Schema != nil)
	}, inspectOpenAI)
}

func openAIParams(model string, r Request) (openai.ChatCompletionNewParams, error) {
	p := openai.ChatCompletionNewParams{Model: model}
	for _, m := range r.Messages {
		switch m.Role {
		case RoleSystem:
			p.Messages = append(p.Messages, openai.SystemMessage(m.Text))
		case RoleUser:
			p.Messages = append(p.Messages, openai.UserMessage(m.Text))
		case RoleAssistant:
			p.Messages = append(p.Messages, openai.AssistantMessage(m.Text))
		}
	}
	if r.MaxTokens > 0 {
		p.MaxCompletionTokens = openai.Int(int64(r.MaxTokens))
	}
	if r.Schema != nil {
		var schema map[string]any
		if err := json.Unmarshal(r.Schema, &schema); err != nil {
			return p, fmt.Errorf("request schema: %w", err)
		}
		p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{
			OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
				JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{
					Name:   "answer",
					Strict: openai.Bool(true),
					Schema: schema,
				},
			},
		}
	}
	for _, t := range r.Tools {
		fn := shared.FunctionDefinitionParam{Name: t.Name}
		if t.Description != "" {
			fn.Description = openai.String(t.Description)
		}
		if t.Schema != nil {
			if err := json.Unmarshal(t.Schema, &fn.Parameters); err != nil {
				return p, fmt.Errorf("tool %q schema: %w", t.Name, err)
			}
		}
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(fn))
	}
	return p, nil
}

func openAIResponse(cc *openai.ChatCompletion, wantJSON bool) (Response, error) {
	resp := Response{Usage: Usage{
		InputTokens:  int(cc.Usage.PromptTokens),
		OutputTokens: int(cc.Usage.CompletionTokens),
	}}
	if len(cc.Choices) == 0 {
		return resp, nil // an empty answer; the checker decides if that is wrong
	}
	msg := cc.Choices[0].Message
	resp.Text = msg.Content
	for _, tc := range msg.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			continue // custom tools are never offered, so never expected
		}
		resp.ToolCalls = append(resp.ToolCalls, ToolCall{
			ID:        tc.ID,
			Name:      tc.Function.Name,
			Arguments: json.RawMessage(tc.Function.Arguments),
		})
	}
	if wantJSON && len(resp.ToolCalls) == 0 && msg.Content != "" {
		resp.JSON = json.RawMessage(stripFence(msg.Content))
	}
	return resp, nil
}

// Embed embeds texts in one /embeddings request.
func (o *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, Usage, error) {
	model := o.cfg.EmbeddingModel
	if model == "" {
		return nil, Usage{}, fmt.Errorf("llm: openai embeddings: %w: no embedding model configured", ErrUnavailable)
	}
	if len(texts) == 0 {
		return nil, Usage{}, nil
	}
	p := o.cfg.Policy
	start := p.now()
	var vectors [][]float32
	_, used, err := p.retry(ctx, func(ctx context.Context) (Response, error) {
		params := openai.EmbeddingNewParams{
			Model: model,
			Input: openai.EmbeddingNewParamsInputUnion{OfArrayOfStrings: texts},
		}
		if o.cfg.Dimensions > 0 {
			params.Dimensions = openai.Int(int64(o.cfg.Dimensions))
		}
		res, err := o.client.Embeddings.New(ctx, params)
		if err != nil {
			return Response{}, err
		}
		if vectors, err = openAIVectors(res, len(texts)); err != nil {
			return Response{}, permanent(err)
		}
		return Response{Usage: Usage{InputTokens: int(res.Usage.PromptTokens)}}, nil
	}, inspectOpenAI)
	used.Latency = p.now().Sub(start)
	if err != nil {
		return nil, used, fmt.Errorf("llm: openai embeddings %s: %w", model, err)
	}
	return vectors, used, nil
}

// openAIVectors orders the vectors by their index, which servers need not
// keep in input order.
func openAIVectors(res *openai.CreateEmbeddingResponse, n int) ([][]float32, error) {
	if len(res.Data) != n {
		return nil, fmt.Errorf("%w: %d vectors for %d texts", ErrInvalidOutput, len(res.Data), n)
	}
	out := make([][]float32, n)
	for _, e := range res.Data {
		if e.Index < 0 || int(e.Index) >= n || out[e.Index] != nil {
			return nil, fmt.Errorf("%w: bad or repeated vector index %d", ErrInvalidOutput, e.Index)
		}
		v := make([]float32, len(e.Embedding))
		for i, x := range e.Embedding {
			v[i] = float32(x)
		}
		out[e.Index] = v
	}
	return out, nil
}

func inspectOpenAI(err error) httpFailure {
	var apiErr *openai.Error
	if errors.As(err, &apiErr) {
		f := httpFailure{status: apiErr.StatusCode, ok: true}
		if apiErr.Response != nil {
			f.header = apiErr.Response.Header
		}
		return f
	}
	return httpFailure{}
}
