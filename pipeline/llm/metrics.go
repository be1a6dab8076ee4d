package llm

import (
	"context"
	"errors"

	"github.com/prometheus/client_golang/prometheus"
)

// stageKey carries the pipeline stage a model call is for.
type stageKey struct{}

// WithStage returns ctx labelled with the pipeline stage (intent, plan,
// reply, embed) its model calls are for, so metrics can tell them apart.
func WithStage(ctx context.Context, stage string) context.Context {
	return context.WithValue(ctx, stageKey{}, stage)
}

// StageOf returns the stage ctx was labelled with, or "other".
func StageOf(ctx context.Context) string {
	if s, ok := ctx.Value(stageKey{}).(string); ok && s != "" {
		return s
	}
	return "other"
}

// Metrics are the Prometheus metrics of model calls, by provider, model
// and stage.
type Metrics struct {
	calls   *prometheus.CounterVec
	tokens  *prometheus.CounterVec
	errors  *prometheus.CounterVec
	latency *prometheus.HistogramVec
}

// NewMetrics registers the model metrics with reg.
func NewMetrics(reg prometheus.Registerer) *Metrics {
	labels := []string{"provider", "model", "stage"}
	m := &Metrics{
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hearth_llm_calls_total", Help: "Requests sent to models, retries included.",
		}, labels),
		tokens: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hearth_llm_tokens_total", Help: "Tokens the providers reported, by direction (input, output).",
		}, append(labels, "direction")),
		errors: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "hearth_llm_errors_total", Help: "Model requests that failed, by reason (timeout, rate_limited, unavailable, invalid_output, other).",
		}, append(labels, "reason")),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "hearth_llm_latency_seconds", Help: "Wall time of model requests, retries and repair included.",
			Buckets: []float64{.1, .25, .5, 1, 2, 3, 5, 10, 30},
		}, labels),
	}
	reg.MustRegister(m.calls, m.tokens, m.errors, m.latency)
	return m
}

// Instrumented is a Chat that records every request to its inner Chat in
// Metrics and names the model that answered in Response.Model.
type Instrumented struct {
	// Provider names the provider in metrics (openai, bedrock).
	Provider string
	// Model is the model answering requests that name none.
	Model string
	// Chat is the provider.
	Chat Chat
	// Metrics receives the observations; nil records nothing.
	Metrics *Metrics
}

var _ Chat = (*Instrumented)(nil)

// Complete forwards r and records what it cost.
func (i *Instrumented) Complete(ctx context.Context, r Request) (Response, error) {
	model := r.Model
	if model == "" {
		model = i.Model
	}
	resp, err := i.Chat.Complete(ctx, r)
	resp.Provider, resp.Model = i.Provider, model
	if m := i.Metrics; m != nil {
		stage := StageOf(ctx)
		m.calls.WithLabelValues(i.Provider, model, stage).Add(float64(resp.Usage.Calls))
		m.tokens.WithLabelValues(i.Provider, model, stage, "input").Add(float64(resp.Usage.InputTokens))
		m.tokens.WithLabelValues(i.Provider, model, stage, "output").Add(float64(resp.Usage.OutputTokens))
		m.latency.WithLabelValues(i.Provider, model, stage).Observe(resp.Usage.Latency.Seconds())
		if err != nil {
			m.errors.WithLabelValues(i.Provider, model, stage, Reason(err)).Inc()
		}
	}
	return resp, err
}

// Reason names the sentinel err wraps, for metrics and traces: timeout,
// rate_limited, unavailable, invalid_output, or other.
func Reason(err error) string {
	switch {
	case errors.Is(err, ErrTimeout), errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.Is(err, ErrRateLimited):
		return "rate_limited"
	case errors.Is(err, ErrUnavailable):
		return "unavailable"
	case errors.Is(err, ErrInvalidOutput):
		return "invalid_output"
	}
	return "other"
}

// InstrumentedEmbedder is an Embedder that records every request to its
// inner Embedder in Metrics, like Instrumented does for chats.
type InstrumentedEmbedder struct {
	// Provider and Model name the embedder in metrics.
	Provider, Model string
	// Embedder is the provider.
	Embedder Embedder
	// Metrics receives the observations; nil records nothing.
	Metrics *Metrics
}

var _ Embedder = (*InstrumentedEmbedder)(nil)

// Embed forwards texts and records what it cost.
func (i *InstrumentedEmbedder) Embed(ctx context.Context, texts []string) ([][]float32, Usage, error) {
	vecs, used, err := i.Embedder.Embed(ctx, texts)
	if m := i.Metrics; m != nil {
		stage := StageOf(ctx)
		m.calls.WithLabelValues(i.Provider, i.Model, stage).Add(float64(used.Calls))
		m.tokens.WithLabelValues(i.Provider, i.Model, stage, "input").Add(float64(used.InputTokens))
		m.latency.WithLabelValues(i.Provider, i.Model, stage).Observe(used.Latency.Seconds())
		if err != nil {
			m.errors.WithLabelValues(i.Provider, i.Model, stage, Reason(err)).Inc()
		}
	}
	return vecs, used, err
}
