package llm

import (
	"net/http"
	"testing"
	"time"
)

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		header http.Header
		want   time.Duration
		wantOK bool
	}{
		{"none", http.Header{}, 0, false},
		{"seconds", http.Header{"Retry-After": {"12"}}, 12 * time.Second, true},
		{"http date", http.Header{"Retry-After": {testNow.Add(90 * time.Second).Format(http.TimeFormat)}}, 90 * time.Second, true},
		{"date in the past", http.Header{"Retry-After": {testNow.Add(-time.Hour).Format(http.TimeFormat)}}, 0, true},
		{"milliseconds", http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"1"}}, 250 * time.Millisecond, true},
		{"negative", http.Header{"Retry-After": {"-3"}}, 0, false},
		{"garbage", http.Header{"Retry-After": {"soon"}}, 0, false},
		{"absurd is clamped, not overflowed", http.Header{"Retry-After": {"99999999999999"}}, (1 << 20) * time.Second, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := retryAfter(tt.header, testNow)
			if got != tt.want || ok != tt.wantOK {
				t.Errorf("retryAfter = %s, %t; want %s, %t", got, ok, tt.want, tt.wantOK)
			}
		})
	}
}

func TestStripFence(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"a":1}`:                 `{"a":1}`,
		"```json\n{\"a\":1}\n```": `{"a":1}`,
		"```\n[1]\n```":           `[1]`,
		"```{\"a\":1}```":         `{"a":1}`,
		"  {\"a\":1}\n":           `{"a":1}`,
		"not json at all":         "not json at all",
	} {
		if got := stripFence(in); got != want {
			t.Errorf("stripFence(%q) = %q, want %q", in, got, want)
		}
	}
}
