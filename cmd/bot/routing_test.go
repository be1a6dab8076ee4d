package main

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// readConversations reads testdata/conversations.txt: blocks separated by
// blank lines, one message a line, # lines skipped.
func readConversations(t *testing.T) [][]string {
	t.Helper()
	f, err := os.Open("testdata/conversations.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]string
	var cur []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(l, "#"):
		case l == "":
			if len(cur) > 0 {
				out = append(out, cur)
				cur = nil
			}
		default:
			cur = append(cur, l)
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

func median(xs []int) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return float64(s[n/2])
	}
	return float64(s[n/2-1]+s[n/2]) / 2
}

func percentile(xs []int, p float64) int {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[min(len(s)-1, int(p*float64(len(s))))]
}

// TestModelRouting measures the hybrid routing with a scripted model
// configured: model calls and tokens per turn over the scenario
// conversations and 50 more (testdata/conversations.txt). The fake's
// token counts are chars/4 estimates of what was actually sent and
// answered. The targets (median ≤ 1 call and ≤ 700 tokens a turn) are
// checked because, with a deterministic fake, they are counts, not
// timings. Run with -v to see the figures:
//
//	go test -run TestModelRouting -v ./cmd/bot
func TestModelRouting(t *testing.T) {
	t.Parallel()
	convs := readConversations(t)
	if len(convs) < 60 {
		t.Fatalf("%d conversations; want the scenarios and 50 more", len(convs))
	}
	b := newBrain(t)
	base, app, _ := startModelApp(t, b, nil)
	var calls, tokens []int
	stages := map[string]int{}
	for i, conv := range convs {
		c := newChatter(t, base, app, fmt.Sprintf("Router%d", i), "America/Chicago")
		for _, msg := range conv {
			r := c.say(msg)
			if r.Text == "" {
				t.Fatalf("no reply text to %q", msg)
			}
			tr := c.lastTrace()
			calls = append(calls, tr.ModelCalls)
			tokens = append(tokens, tr.InputTokens+tr.OutputTokens)
			for _, m := range tr.Models {
				if m.Calls > 0 {
					stages[m.Stage] += m.Calls
				} else {
					stages[m.Stage+" skipped ("+m.Skipped+")"]++
				}
			}
		}
	}
	zero := 0
	for _, c := range calls {
		if c == 0 {
			zero++
		}
	}
	sumCalls, sumTokens := 0, 0
	for i := range calls {
		sumCalls += calls[i]
		sumTokens += tokens[i]
	}
	t.Logf("%d conversations, %d turns; turns with no model call: %d (%.0f%%)", len(convs), len(calls), zero, 100*float64(zero)/float64(len(calls)))
	t.Logf("model calls per turn: median %.1f, mean %.2f, p90 %d, max %d", median(calls), float64(sumCalls)/float64(len(calls)), percentile(calls, 0.9), slices.Max(calls))
	t.Logf("tokens per turn: median %.0f, mean %.0f, p90 %d, max %d", median(tokens), float64(sumTokens)/float64(len(tokens)), percentile(tokens, 0.9), slices.Max(tokens))
	keys := make([]string, 0, len(stages))
	for k := range stages {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		t.Logf("  %-32s %d", k, stages[k])
	}
	if m := median(calls); m > 1 {
		t.Errorf("median model calls per turn %.1f; target ≤ 1", m)
	}
	if m := median(tokens); m > 700 {
		t.Errorf("median tokens per turn %.0f; target ≤ 700", m)
	}
}
