package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"
)

// otlpCollector is a fake OpenTelemetry collector: it keeps the names of
// the spans exported to it over OTLP/HTTP.
type otlpCollector struct {
	mu    sync.Mutex
	spans []string
}

func (c *otlpCollector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/traces" {
		http.NotFound(w, r)
		return
	}
	body, _ := io.ReadAll(r.Body)
	var req coltrace.ExportTraceServiceRequest
	if err := proto.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c.mu.Lock()
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			for _, s := range ss.Spans {
				c.spans = append(c.spans, s.Name)
			}
		}
	}
	c.mu.Unlock()
	b, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
	w.Header().Set("Content-Type", "application/x-protobuf")
	w.Write(b) //nolint:errcheck // test server
}

// TestOpenTelemetry: with OTEL_EXPORTER_OTLP_ENDPOINT set, each turn is
// exported as a "turn" span with its stages as children, flushed at
// shutdown at the latest.
func TestOpenTelemetry(t *testing.T) {
	t.Parallel()
	col := &otlpCollector{}
	srv := httptest.NewServer(col)
	defer srv.Close()
	base, app, stop := startAppWith(t, func(c *Config) { c.OTLPEndpoint = srv.URL })
	c := newChatter(t, base, app, "Otto", "UTC")
	mustContain(t, c.say("Remind me to call the bank tomorrow at 9am"), "bank")
	stop() // flushes the traces
	col.mu.Lock()
	defer col.mu.Unlock()
	for _, want := range []string{"turn", "turn trace", "stage intent", "stage respond"} {
		if !slices.Contains(col.spans, want) {
			t.Errorf("no %q span exported (got %q)", want, col.spans)
		}
	}
}
