package nlucmd

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hearthbot/hearth/pipeline/nlu/timex"
)

// timeInput is one input line of `bot nlu time`.
type timeInput struct {
	Text          *string `json:"text"`
	ReferenceTime string  `json:"reference_time"`
	TZ            string  `json:"tz"`
}

// timeOutput is one output line of `bot nlu time`. Fields that do not
// apply are omitted: a value has "value", an interval "from" and/or "to"
// (an open interval omits its open side), "none" has neither, and "span"
// is the matched part of the text. Times are RFC 3339 in the reference's
// zone.
type timeOutput struct {
	Text  string `json:"text"`
	Type  string `json:"type,omitempty"`
	Value string `json:"value,omitempty"`
	From  string `json:"from,omitempty"`
	To    string `json:"to,omitempty"`
	Grain string `json:"grain,omitempty"`
	Span  string `json:"span,omitempty"`
	Error string `json:"error,omitempty"`
}

// runTime implements `bot nlu time`: one JSON line out for every non-empty
// line in. An input line is a JSON object {"text", "reference_time"
// (RFC 3339, optional), "tz" (IANA name, optional)} or plain text. Without
// a reference_time the reference is env.Now(); with a tz the reference is
// converted into that zone, else it keeps the offset it was written with
// (UTC for env.Now()), never the host's zone. A bad line gets an "error"
// field and the run goes on.
func runTime(ctx context.Context, env Env) error {
	return mapLines(ctx, env, "nlu time", func(b []byte) any { return timeLine(b, env) })
}

// timeLine resolves one trimmed, non-empty input line.
func timeLine(b []byte, env Env) timeOutput {
	in := timeInput{}
	if b[0] == '{' {
		if err := json.Unmarshal(b, &in); err != nil {
			return timeOutput{Text: string(b), Error: "not a valid JSON object: " + err.Error()}
		}
		if in.Text == nil {
			return timeOutput{Error: `missing "text"`}
		}
	} else {
		s := string(b)
		in.Text = &s
	}
	text := *in.Text
	ref, err := timeReference(in.ReferenceTime, in.TZ, env.Now)
	if err != nil {
		return timeOutput{Text: text, Error: err.Error()}
	}
	out := timeOutput{Text: text, Type: "none"}
	m, ok := timex.Parse(text, ref, timex.Options{})
	if !ok {
		return out
	}
	out.Type, out.Grain, out.Span = m.Kind.String(), m.Grain.String(), m.Text
	if m.Kind == timex.Value {
		out.Value = timeFormat(m.Value)
	} else {
		out.From, out.To = timeFormat(m.From), timeFormat(m.To)
	}
	return out
}

// timeReference builds the reference instant of a row. A written offset
// becomes a fixed zone (time.Parse would otherwise pick the host's zone
// when the offsets agree); a tz moves the instant into that IANA zone.
func timeReference(refText, tz string, now func() time.Time) (time.Time, error) {
	var ref time.Time
	if refText == "" {
		ref = now().UTC()
	} else {
		t, err := time.Parse(time.RFC3339, refText)
		if err != nil {
			return time.Time{}, fmt.Errorf("bad reference_time %q: want RFC 3339, e.g. 2026-03-10T14:20:00-05:00", refText)
		}
		_, off := t.Zone()
		ref = t.In(time.FixedZone("", off))
	}
	if tz != "" {
		if tz == "Local" {
			return time.Time{}, fmt.Errorf("unknown tz %q: give an IANA name such as Europe/Berlin", tz)
		}
		loc, err := time.LoadLocation(tz)
		if err != nil {
			return time.Time{}, fmt.Errorf("unknown tz %q: %w", tz, err)
		}
		ref = ref.In(loc)
	}
	return ref, nil
}

func timeFormat(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}

// timeRow is a labelled row for `bot nlu test`, in the format of the
// shared Duckling-derived corpus.
type timeRow struct {
	Text          string  `json:"text"`
	Type          string  `json:"type"`
	Value         string  `json:"value"`
	From          string  `json:"from"`
	To            string  `json:"to"`
	Grain         string  `json:"grain"`
	Direction     string  `json:"direction"`
	ReferenceTime string  `json:"reference_time"`
	Latent        bool    `json:"latent"`
	Holiday       *string `json:"holiday"`
}

// timeFailuresShown bounds the failures listed on stderr.
const timeFailuresShown = 20

// timeTally counts correct rows in one category.
type timeTally struct{ ok, n int }

func (t *timeTally) add(ok bool) {
	t.n++
	if ok {
		t.ok++
	}
}

func (t timeTally) percent() string {
	if t.n == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(t.ok)/float64(t.n))
}

// testTimes implements the time half of `bot nlu test`: exact-match
// accuracy by type and by grain, the core score (non-latent, non-holiday
// value rows), and up to 20 failures on stderr. A row matches when the
// best expression in its text has the labelled kind, grain and times; an
// open interval matches when its one bound does; a "none" row matches
// when nothing is found. Latent rows are parsed with Options.Latent.
func testTimes(ctx context.Context, env Env, rows []json.RawMessage) error {
	types := []string{"value", "interval", "open_interval", "none"}
	byType := map[string]*timeTally{}
	byGrain := map[string]*timeTally{}
	for _, t := range types {
		byType[t] = &timeTally{}
	}
	var core timeTally
	var fails []string
	failed := 0
	for i, raw := range rows {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("nlu test: %w", err)
		}
		var r timeRow
		if err := json.Unmarshal(raw, &r); err != nil {
			return fmt.Errorf("nlu test: time row %d: %w", i+1, err)
		}
		tally := byType[r.Type]
		if tally == nil {
			return fmt.Errorf("nlu test: time row %d (%q): unknown type %q, want one of %s", i+1, r.Text, r.Type, strings.Join(types, ", "))
		}
		ok, got := timeRowMatches(r, env)
		tally.add(ok)
		if r.Type != "none" {
			g := byGrain[r.Grain]
			if g == nil {
				g = &timeTally{}
				byGrain[r.Grain] = g
			}
			g.add(ok)
		}
		if r.Type == "value" && !r.Latent && r.Holiday == nil {
			core.add(ok)
		}
		if !ok {
			failed++
			if len(fails) < timeFailuresShown {
				fails = append(fails, fmt.Sprintf("%s %q: want %s, got %s", r.Type, r.Text, timeWant(r), got))
			}
		}
	}
	w := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "time rows: %d\t\t\t\n", len(rows))
	fmt.Fprintf(w, "type\tcorrect\ttotal\taccuracy\t\n")
	for _, t := range types {
		if s := byType[t]; s.n > 0 {
			fmt.Fprintf(w, "%s\t%d\t%d\t%s\t\n", t, s.ok, s.n, s.percent())
		}
	}
	fmt.Fprintf(w, "grain\tcorrect\ttotal\taccuracy\t\n")
	for g := timex.Second; g <= timex.Year; g++ {
		if s := byGrain[g.String()]; s != nil {
			fmt.Fprintf(w, "%s\t%d\t%d\t%s\t\n", g, s.ok, s.n, s.percent())
		}
	}
	for name, s := range byGrain {
		if _, known := timex.ParseGrain(name); !known {
			fmt.Fprintf(w, "%q\t%d\t%d\t%s\t\n", name, s.ok, s.n, s.percent())
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("nlu test: write report: %w", err)
	}
	if _, err := fmt.Fprintf(env.Stdout, "core (non-latent, non-holiday value rows): %d/%d = %s\n", core.ok, core.n, core.percent()); err != nil {
		return fmt.Errorf("nlu test: write report: %w", err)
	}
	if failed > 0 {
		fmt.Fprintf(env.Stderr, "time failures: %d (showing %d)\n", failed, len(fails))
		for _, f := range fails {
			fmt.Fprintln(env.Stderr, "  "+f)
		}
	}
	return nil
}

// timeRowMatches parses one labelled row and compares it with the label.
// got describes what the parser said, for the failure list.
func timeRowMatches(r timeRow, env Env) (bool, string) {
	ref, err := timeReference(r.ReferenceTime, "", env.Now)
	if err != nil {
		return false, "error: " + err.Error()
	}
	m, found := timex.Parse(r.Text, ref, timex.Options{Latent: r.Latent})
	got := "none"
	if found {
		if m.Kind == timex.Value {
			got = fmt.Sprintf("value %s %s (span %q)", timeFormat(m.Value), m.Grain, m.Text)
		} else {
			got = fmt.Sprintf("interval %s/%s %s (span %q)", timeFormat(m.From), timeFormat(m.To), m.Grain, m.Text)
		}
	}
	if r.Type == "none" {
		return !found, got
	}
	if !found || m.Grain.String() != r.Grain {
		return false, got
	}
	same := func(t time.Time, want string) bool {
		if want == "" {
			return t.IsZero()
		}
		w, err := time.Parse(time.RFC3339, want)
		if err != nil {
			// years before 0000 do not parse back; compare the text
			return timeFormat(t) == want
		}
		return t.Equal(w)
	}
	switch r.Type {
	case "value":
		return m.Kind == timex.Value && same(m.Value, r.Value), got
	case "interval":
		return m.Kind == timex.Interval && same(m.From, r.From) && same(m.To, r.To), got
	case "open_interval":
		if m.Kind != timex.Interval {
			return false, got
		}
		if r.Direction == "before" {
			return m.From.IsZero() && same(m.To, r.To), got
		}
		return m.To.IsZero() && same(m.From, r.From), got
	}
	return false, got
}

// timeWant describes a row's label for the failure list.
func timeWant(r timeRow) string {
	switch r.Type {
	case "value":
		return fmt.Sprintf("value %s %s", r.Value, r.Grain)
	case "none":
		return "none"
	}
	return fmt.Sprintf("interval %s/%s %s", r.From, r.To, r.Grain)
}
