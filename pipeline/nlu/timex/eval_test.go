package timex

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"testing"
	"time"
)

// evalPath is the shared development corpus (Duckling's English time
// corpus). It lives outside the repository; the test skips without it.
const evalPath = "../../../../shared/eval/dates_duckling_dev.jsonl"

type evalRow struct {
	Text      string  `json:"text"`
	Type      string  `json:"type"`
	Value     string  `json:"value"`
	From      string  `json:"from"`
	To        string  `json:"to"`
	Grain     string  `json:"grain"`
	Direction string  `json:"direction"`
	Ref       string  `json:"reference_time"`
	Latent    bool    `json:"latent"`
	Holiday   *string `json:"holiday"`
}

// evalMatch reports whether the parse of row is exactly right.
func evalMatch(r evalRow) (bool, string) {
	ref, err := time.Parse(time.RFC3339, r.Ref)
	if err != nil {
		return false, "bad reference_time"
	}
	m, ok := Parse(r.Text, ref, Options{Latent: r.Latent})
	got := "none"
	if ok {
		if m.Kind == Value {
			got = fmt.Sprintf("value %s %s [%s]", m.Value.Format(time.RFC3339), m.Grain, m.Text)
		} else {
			got = fmt.Sprintf("interval %s/%s %s [%s]", fmtT(m.From), fmtT(m.To), m.Grain, m.Text)
		}
	}
	if r.Type == "none" {
		return !ok, got
	}
	if !ok || m.Grain.String() != r.Grain {
		return false, got
	}
	switch r.Type {
	case "value":
		return m.Kind == Value && fmtT(m.Value) == r.Value, got
	case "interval":
		return m.Kind == Interval && fmtT(m.From) == r.From && fmtT(m.To) == r.To, got
	case "open_interval":
		if m.Kind != Interval {
			return false, got
		}
		if r.Direction == "after" {
			return fmtT(m.From) == r.From && m.To.IsZero(), got
		}
		return fmtT(m.To) == r.To && m.From.IsZero(), got
	}
	return false, got
}

func fmtT(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}

func TestDevCorpus(t *testing.T) {
	f, err := os.Open(evalPath)
	if err != nil {
		t.Skipf("development corpus not present: %v", err)
	}
	defer f.Close()
	type score struct{ ok, n int }
	by := map[string]*score{}
	bump := func(k string, ok bool) {
		s := by[k]
		if s == nil {
			s = &score{}
			by[k] = s
		}
		s.n++
		if ok {
			s.ok++
		}
	}
	var fails []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var r evalRow
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		ok, got := evalMatch(r)
		bump("type "+r.Type, ok)
		if r.Type == "value" && !r.Latent && r.Holiday == nil {
			bump("core", ok)
			bump("core grain "+r.Grain, ok)
		}
		if r.Type == "interval" && r.Holiday == nil && !r.Latent {
			bump("interval non-holiday non-latent", ok)
		}
		if !ok {
			want := r.Value
			if r.Type != "value" {
				want = r.From + "/" + r.To
			}
			fails = append(fails, fmt.Sprintf("%-13s %q want %s %s, got %s", r.Type, r.Text, want, r.Grain, got))
		}
	}
	keys := make([]string, 0, len(by))
	for k := range by {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		s := by[k]
		t.Logf("%-36s %4d/%4d = %5.1f%%", k, s.ok, s.n, 100*float64(s.ok)/float64(s.n))
	}
	// Floors a little under the current scores (core 98.3%, intervals
	// 88.6%, none 14/14) so that a regression fails without flaking.
	floor := func(k string, min float64) {
		if s := by[k]; s != nil && float64(s.ok)/float64(s.n) < min {
			t.Errorf("%s: %d/%d is under the floor %.0f%%", k, s.ok, s.n, 100*min)
		}
	}
	floor("core", 0.95)
	floor("type interval", 0.85)
	floor("type open_interval", 0.85)
	floor("type none", 0.92)
	if os.Getenv("TIMEX_FAILS") != "" {
		for _, f := range fails {
			t.Log(f)
		}
	}
}
