package llm

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
)

// counter reads the counter of reg named name whose labels are labels.
func counter(t *testing.T, reg *prometheus.Registry, name string, labels map[string]string) float64 {
	t.Helper()
	mfs, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
	metrics:
		for _, m := range mf.GetMetric() {
			for _, l := range m.GetLabel() {
				if labels[l.GetName()] != l.GetValue() {
					continue metrics
				}
			}
			return m.GetCounter().GetValue()
		}
	}
	return 0
}

func TestInstrumented(t *testing.T) {
	t.Parallel()
	reg := prometheus.NewRegistry()
	m := NewMetrics(reg)
	fail := false
	inner := ChatFunc(func(context.Context, Request) (Response, error) {
		u := Usage{Calls: 2, InputTokens: 30, OutputTokens: 5, Latency: 1500 * time.Millisecond}
		if fail {
			return Response{Usage: u}, fmt.Errorf("x: %w", ErrRateLimited)
		}
		return Response{Text: "hi", Usage: u}, nil
	})
	c := Chain{&Instrumented{Provider: "openai", Model: "small", Chat: inner, Metrics: m}}
	resp, err := c.Complete(WithStage(context.Background(), "intent"), Request{})
	if err != nil || resp.Provider != "openai" || resp.Model != "small" {
		t.Fatalf("resp %+v, %v; want the answering provider and model named through the Chain", resp, err)
	}
	fail = true
	if _, err := c.Complete(context.Background(), Request{Model: "big"}); !errors.Is(err, ErrRateLimited) {
		t.Fatal(err)
	}
	small := map[string]string{"provider": "openai", "model": "small", "stage": "intent"}
	big := map[string]string{"provider": "openai", "model": "big", "stage": "other"}
	with := func(m map[string]string, k, v string) map[string]string {
		out := map[string]string{k: v}
		for a, b := range m {
			out[a] = b
		}
		return out
	}
	for _, tt := range []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"hearth_llm_calls_total", small, 2},
		{"hearth_llm_calls_total", big, 2},
		{"hearth_llm_tokens_total", with(small, "direction", "input"), 30},
		{"hearth_llm_tokens_total", with(small, "direction", "output"), 5},
		{"hearth_llm_errors_total", with(big, "reason", "rate_limited"), 1},
		{"hearth_llm_errors_total", with(small, "reason", "rate_limited"), 0},
	} {
		if got := counter(t, reg, tt.name, tt.labels); got != tt.want {
			t.Errorf("%s%v = %v; want %v", tt.name, tt.labels, got, tt.want)
		}
	}
}

func TestReason(t *testing.T) {
	t.Parallel()
	for err, want := range map[error]string{
		fmt.Errorf("a: %w", ErrTimeout):       "timeout",
		context.DeadlineExceeded:              "timeout",
		fmt.Errorf("b: %w", ErrUnavailable):   "unavailable",
		fmt.Errorf("c: %w", ErrInvalidOutput): "invalid_output",
		errors.New("bad request"):             "other",
	} {
		if got := Reason(err); got != want {
			t.Errorf("Reason(%v) = %s; want %s", err, got, want)
		}
	}
}
