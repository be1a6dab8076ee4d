package main

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
)

// openTracing exports OpenTelemetry traces over OTLP/HTTP when
// OTEL_EXPORTER_OTLP_ENDPOINT is set (the exporter reads the other
// OTEL_EXPORTER_OTLP_* variables, such as headers, itself). It returns the tracer and
// a function that flushes and stops the export; without an endpoint, a
// tracer that records nothing.
func openTracing(ctx context.Context, cfg Config) (trace.Tracer, func(context.Context) error, error) {
	if cfg.OTLPEndpoint == "" {
		return noop.NewTracerProvider().Tracer("hearth"), func(context.Context) error { return nil }, nil
	}
	// The variable is the collector's base URL; traces go to /v1/traces
	// under it, as the OpenTelemetry specification says.
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(strings.TrimRight(cfg.OTLPEndpoint, "/")+"/v1/traces"))
	if err != nil {
		return nil, nil, fmt.Errorf("opentelemetry (check OTEL_EXPORTER_OTLP_ENDPOINT): %w", err)
	}
	attrs := []attribute.KeyValue{semconv.ServiceName("hearth")}
	if cfg.ReplicaID != "" {
		attrs = append(attrs, semconv.ServiceInstanceID(cfg.ReplicaID))
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(resource.NewSchemaless(attrs...)))
	return tp.Tracer("github.com/hearthbot/hearth"), tp.Shutdown, nil
}

// turnTracer makes a "turn" span around each turn and, when the turn's
// trace is saved (as its answer commits, after the handler returned),
// the stages as child spans of it.
type turnTracer struct {
	tracer trace.Tracer
	mu     sync.Mutex
	open   map[int64]trace.SpanContext // by inbound event id, until the trace is saved
}

func newTurnTracer(tracer trace.Tracer) *turnTracer {
	return &turnTracer{tracer: tracer, open: map[int64]trace.SpanContext{}}
}

// Handler wraps the turn handler in a "turn" span.
func (tt *turnTracer) Handler(next pipeline.Handler) pipeline.Handler {
	return pipeline.HandlerFunc(func(ctx context.Context, t pipeline.Turn) (pipeline.Answer, error) {
		ctx, span := tt.tracer.Start(ctx, "turn", trace.WithAttributes(
			attribute.String("hearth.channel", string(t.Event.Channel)),
			attribute.Int64("hearth.event_id", t.Event.ID),
			attribute.Int64("hearth.conversation_id", t.Event.ConversationID),
			attribute.String("hearth.event_kind", string(t.Event.Kind)),
		))
		defer span.End()
		ans, err := next.HandleTurn(ctx, t)
		if err != nil {
			span.RecordError(err)
			span.SetStatus(codes.Error, "turn failed")
		}
		span.SetAttributes(attribute.Int("hearth.replies", len(ans.Replies)))
		if span.IsRecording() {
			tt.mu.Lock()
			if err == nil {
				tt.open[t.Event.ID] = span.SpanContext()
			} else {
				delete(tt.open, t.Event.ID)
			}
			tt.mu.Unlock()
		}
		return ans, err
	})
}

// stageOrder is the order the stages of a turn run in.
var stageOrder = []string{"intent", "context", "plan", "action", "respond"}

// stages records the stages of a turn's trace as child spans of its turn
// span, laid end to end in their order and ending now (the trace is saved
// as the turn commits), with the intent and model use as attributes.
func (tt *turnTracer) stages(ctx context.Context, tr hearth.Trace) {
	if tt == nil {
		return
	}
	tt.mu.Lock()
	parent, ok := tt.open[tr.EventID]
	delete(tt.open, tr.EventID)
	tt.mu.Unlock()
	if !ok {
		return
	}
	ctx = trace.ContextWithSpanContext(ctx, parent)
	_, summary := tt.tracer.Start(ctx, "turn trace", trace.WithAttributes(attribute.String("hearth.intent", tr.Intent), attribute.Float64("hearth.confidence", tr.Confidence),
		attribute.Int("hearth.model_calls", tr.ModelCalls), attribute.Int("hearth.input_tokens", tr.InputTokens),
		attribute.Int("hearth.output_tokens", tr.OutputTokens), attribute.Int("hearth.actions", len(tr.Actions))))
	summary.End()
	var stages []string
	var total time.Duration
	for s, us := range tr.Timings {
		if s != "total" {
			stages = append(stages, s)
			total += time.Duration(us) * time.Microsecond
		}
	}
	slices.SortFunc(stages, func(a, b string) int {
		ia, ib := slices.Index(stageOrder, a), slices.Index(stageOrder, b)
		if ia < 0 {
			ia = len(stageOrder)
		}
		if ib < 0 {
			ib = len(stageOrder)
		}
		if ia != ib {
			return ia - ib
		}
		return cmp.Compare(a, b)
	})
	at := time.Now().Add(-total)
	for _, s := range stages {
		d := time.Duration(tr.Timings[s]) * time.Microsecond
		_, span := tt.tracer.Start(ctx, "stage "+s, trace.WithTimestamp(at),
			trace.WithAttributes(attribute.String("hearth.stage", s), attribute.Int64("hearth.duration_us", tr.Timings[s])))
		at = at.Add(d)
		span.End(trace.WithTimestamp(at))
	}
}
