package main

import (
	"slices"
	"time"

	"github.com/hearthbot/hearth/store"
)

// benchSecond is one second of a turns window.
type benchSecond struct {
	// At is the second's start, in seconds from the window's.
	At       int     `json:"at"`
	Messages int     `json:"messages"`
	P50MS    float64 `json:"p50_ms"`
	P99MS    float64 `json:"p99_ms"`
	MaxMS    float64 `json:"max_ms"`
}

// latencies are the waits of rl.
func latencies(rl []store.ReplyLatency) []time.Duration {
	lat := make([]time.Duration, len(rl))
	for i, r := range rl {
		lat[i] = r.Latency
	}
	return lat
}

// answeredIn is the time from start to the last reply of rl (to now when
// there is none): the rate is the turns answered in it, not counting how
// long the bench took to see that they were.
func answeredIn(rl []store.ReplyLatency, start time.Time) time.Duration {
	var last time.Time
	for _, r := range rl {
		if t := r.Stored.Add(r.Latency); t.After(last) {
			last = t
		}
	}
	if last.IsZero() {
		return time.Since(start)
	}
	return last.Sub(start)
}

// bySecond groups rl by the second from start its message was stored in.
func bySecond(rl []store.ReplyLatency, start time.Time) []benchSecond {
	var secs [][]time.Duration
	for _, r := range rl {
		i := max(0, int(r.Stored.Sub(start)/time.Second))
		for len(secs) <= i {
			secs = append(secs, nil)
		}
		secs[i] = append(secs[i], r.Latency)
	}
	out := make([]benchSecond, 0, len(secs))
	for i, lat := range secs {
		if len(lat) == 0 {
			continue
		}
		sum := summarize(lat, 0, time.Second)
		out = append(out, benchSecond{At: i, Messages: len(lat), P50MS: sum.P50MS, P99MS: sum.P99MS, MaxMS: ms(lat[len(lat)-1])})
	}
	return out
}

// ms is d in milliseconds, to the microsecond.
func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// summarize turns latencies of successful operations into a result.
func summarize(lat []time.Duration, errs int, elapsed time.Duration) benchResult {
	slices.Sort(lat)
	pct := func(p int) float64 {
		if len(lat) == 0 {
			return 0
		}
		return ms(lat[min(len(lat)-1, len(lat)*p/100)])
	}
	return benchResult{
		Count: len(lat) + errs, OK: len(lat), Errors: errs,
		Seconds: elapsed.Seconds(), Rate: float64(len(lat)) / elapsed.Seconds(),
		P50MS: pct(50), P95MS: pct(95), P99MS: pct(99),
	}
}
