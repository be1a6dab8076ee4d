package webchat_test

import (
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkIngress measures the web chat API from request to "persisted and
// enqueued" (the 202): 64 concurrent clients over keep-alive HTTP, each its
// own user, with no workers draining the queue, each sending its next
// request as soon as the last is answered. It reports the most requests/s
// the server sustains and the latency at that load (where, by Little's
// law, the mean is 64 / throughput).
//
//	go test -run NONE -bench Ingress -benchtime 20000x ./adapters/webchat
func BenchmarkIngress(b *testing.B) { benchIngress(b, 0) }

// BenchmarkIngressPaced offers a steady load from 64 clients and measures
// each request from the instant it was due, so a slow answer also counts
// against the requests queued behind it (no coordinated omission).
func BenchmarkIngressPaced(b *testing.B) {
	for _, rate := range []float64{1000, 1500, 2000} {
		b.Run(fmt.Sprintf("rate=%.0f", rate), func(b *testing.B) { benchIngress(b, rate) })
	}
}

func benchIngress(b *testing.B, rate float64) {
	const clients = 64
	bundle := setup(b, "", false)
	transport := &http.Transport{MaxIdleConnsPerHost: clients, MaxConnsPerHost: clients}
	client := &http.Client{Transport: transport}
	for c := range clients {
		res, err := client.Post(bundle.srv.URL+"/api/webchat/users", "application/json", strings.NewReader(fmt.Sprintf(`{"user":"bench%d","tz":"UTC"}`, c)))
		if err != nil || res.StatusCode != 200 {
			b.Fatalf("sign in: %v %v", res, err)
		}
		res.Body.Close()
	}
	latencies := make([][]time.Duration, clients)
	var next atomic.Int64
	var failed atomic.Int64
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			for {
				i := next.Add(1)
				if i > int64(b.N) {
					return
				}
				body := fmt.Sprintf(`{"user":"bench%d","text":"message %d","id":"b%d"}`, c, i, i)
				t0 := time.Now()
				if rate > 0 {
					t0 = start.Add(time.Duration(float64(i) / rate * float64(time.Second)))
					time.Sleep(time.Until(t0)) // pacing the offered load, not waiting for an outcome
				}
				res, err := client.Post(bundle.srv.URL+"/api/webchat/messages", "application/json", strings.NewReader(body))
				if err != nil {
					failed.Add(1)
					continue
				}
				io.Copy(io.Discard, res.Body) //nolint:errcheck // draining for keep-alive
				res.Body.Close()
				if res.StatusCode != http.StatusAccepted {
					failed.Add(1)
				}
				latencies[c] = append(latencies[c], time.Since(t0))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	if n := failed.Load(); n > 0 {
		b.Fatalf("%d requests failed", n)
	}
	all := slices.Concat(latencies...)
	slices.Sort(all)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
	b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
}
