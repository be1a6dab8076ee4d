package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/adapters/webchat"
)

// BenchmarkPipeline measures whole turns, offline: 32 conversations each
// send a message through the web chat API and wait for the delivered reply
// on their event stream before sending the next. It reports turns/s and
// the p50/p99 time from POST to reply. (In this closed loop the mean
// latency is 32 / throughput, by Little's law.)
//
//	go test -run NONE -bench 'Pipeline$' -benchtime 3000x ./cmd/bot
func BenchmarkPipeline(b *testing.B) { benchPipeline(b, 0) }

// BenchmarkPipelinePaced offers a steady rate of turns over the 32
// conversations; each turn is timed from the instant it was due, so a
// late reply also counts against the turns queued behind it.
//
//	go test -run NONE -bench PipelinePaced -benchtime 3000x ./cmd/bot
func BenchmarkPipelinePaced(b *testing.B) {
	for _, rate := range []float64{100, 200, 300} {
		b.Run(fmt.Sprintf("rate=%.0f", rate), func(b *testing.B) { benchPipeline(b, rate) })
	}
}

func benchPipeline(b *testing.B, rate float64) {
	const conversations = 32
	base, _, _ := startAppWith(b, func(c *Config) {
		c.TurnWorkers, c.DeliverWorkers, c.ActionWorkers = 32, 16, 4
		c.LogLevel = 8 // quiet: errors only
	})
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 2 * conversations}}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	streams := make([]<-chan webchat.Message, conversations)
	for c := range conversations {
		user := fmt.Sprintf("bench%d", c)
		post(b, client, base+"/api/webchat/users", fmt.Sprintf(`{"user":%q,"tz":"Europe/Berlin"}`, user))
		streams[c] = openStream(b, ctx, client, base, user)
	}

	var next atomic.Int64
	latencies := make([][]time.Duration, conversations)
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for c := range conversations {
		wg.Go(func() {
			user := fmt.Sprintf("bench%d", c)
			for {
				i := next.Add(1)
				if i > int64(b.N) {
					return
				}
				text := benchMessage(int(i), 1, 0)
				t0 := time.Now()
				if rate > 0 {
					t0 = start.Add(time.Duration(float64(i) / rate * float64(time.Second)))
					time.Sleep(time.Until(t0)) // pacing the offered load, not waiting for an outcome
				}
				post(b, client, base+"/api/webchat/messages", fmt.Sprintf(`{"user":%q,"text":%q}`, user, text))
				for m := range streams[c] {
					if m.From == hearth.FromBot {
						break
					}
				}
				latencies[c] = append(latencies[c], time.Since(t0))
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	all := slices.Concat(latencies...)
	slices.Sort(all)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "turns/s")
	b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
}

func post(b *testing.B, client *http.Client, url, body string) {
	res, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		b.Error(err)
		return
	}
	io.Copy(io.Discard, res.Body) //nolint:errcheck // draining for keep-alive
	res.Body.Close()
	if res.StatusCode >= 300 {
		b.Errorf("POST %s: %d", url, res.StatusCode)
	}
}

func openStream(b *testing.B, ctx context.Context, client *http.Client, base, user string) <-chan webchat.Message {
	req, _ := http.NewRequestWithContext(ctx, "GET", base+"/api/webchat/events?user="+user, nil)
	res, err := client.Do(req)
	if err != nil || res.StatusCode != 200 {
		b.Fatalf("stream for %s: %v %v", user, res, err)
	}
	out := make(chan webchat.Message, 64)
	go func() {
		defer res.Body.Close()
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				var m webchat.Message
				if json.Unmarshal([]byte(data), &m) == nil {
					out <- m
				}
			}
		}
	}()
	return out
}
