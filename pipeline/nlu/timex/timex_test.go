package timex

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func mustLoad(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Skipf("time zone %s not available: %v", name, err)
	}
	return loc
}

// want describes one expected match: span text, then either a value or an
// interval ("" for an open side), in the reference's location, as
// "2006-01-02 15:04:05".
type want struct {
	span  string
	value string
	from  string
	to    string
	grain Grain
}

const layout = "2006-01-02 15:04:05"

func check(t *testing.T, text string, ref time.Time, opts Options, w want) {
	t.Helper()
	m, ok := Parse(text, ref, opts)
	if w.span == "" {
		if ok {
			t.Errorf("%q: want nothing, got %q %v", text, m.Text, m)
		}
		return
	}
	if !ok {
		t.Errorf("%q: want %q, got nothing", text, w.span)
		return
	}
	if m.Text != w.span || text[m.Start:m.End] != m.Text {
		t.Errorf("%q: span %q [%d:%d], want %q", text, m.Text, m.Start, m.End, w.span)
	}
	if m.Grain != w.grain {
		t.Errorf("%q: grain %s, want %s", text, m.Grain, w.grain)
	}
	f := func(x time.Time) string {
		if x.IsZero() {
			return ""
		}
		if x.Location() != ref.Location() {
			t.Errorf("%q: time %v not in the reference's location", text, x)
		}
		return x.Format(layout)
	}
	if w.value != "" {
		if m.Kind != Value || f(m.Value) != w.value {
			t.Errorf("%q: got %s %s/%s/%s, want value %s", text, m.Kind, f(m.Value), f(m.From), f(m.To), w.value)
		}
		return
	}
	if m.Kind != Interval || f(m.From) != w.from || f(m.To) != w.to {
		t.Errorf("%q: got %s %s [%s, %s), want interval [%s, %s)", text, m.Kind, f(m.Value), f(m.From), f(m.To), w.from, w.to)
	}
}

func TestParse(t *testing.T) {
	t.Parallel()
	ny := mustLoad(t, "America/New_York")
	// Wednesday 2026-06-17 14:20:30 in New York.
	ref := time.Date(2026, 6, 17, 14, 20, 30, 0, ny)
	tests := []struct {
		text string
		want want
	}{
		// absolute dates
		{"June 20th", want{span: "June 20th", value: "2026-06-20 00:00:00", grain: Day}},
		{"the 4th of july", want{span: "the 4th of july", value: "2026-07-04 00:00:00", grain: Day}},
		{"20/6", want{span: "20/6", value: "2026-06-20 00:00:00", grain: Day}},
		{"6/20", want{span: "6/20", value: "2026-06-20 00:00:00", grain: Day}},
		{"2026-09-01", want{span: "2026-09-01", value: "2026-09-01 00:00:00", grain: Day}},
		{"born 4/5/81", want{span: "4/5/81", value: "1981-04-05 00:00:00", grain: Day}},
		{"January 3", want{span: "January 3", value: "2027-01-03 00:00:00", grain: Day}},
		{"Sat, Aug 1", want{span: "Sat, Aug 1", value: "2026-08-01 00:00:00", grain: Day}},
		{"September 2027", want{span: "September 2027", value: "2027-09-01 00:00:00", grain: Month}},
		{"in 2030", want{span: "in 2030", value: "2030-01-01 00:00:00", grain: Year}},
		// weekdays
		{"thursday", want{span: "thursday", value: "2026-06-18 00:00:00", grain: Day}},
		{"wednesday", want{span: "wednesday", value: "2026-06-24 00:00:00", grain: Day}},
		{"next friday", want{span: "next friday", value: "2026-06-26 00:00:00", grain: Day}},
		{"last monday", want{span: "last monday", value: "2026-06-15 00:00:00", grain: Day}},
		{"tuesday after next", want{span: "tuesday after next", value: "2026-06-30 00:00:00", grain: Day}},
		{"monday of next week", want{span: "monday of next week", value: "2026-06-22 00:00:00", grain: Day}},
		// relative
		{"in 3 hours", want{span: "in 3 hours", value: "2026-06-17 17:20:00", grain: Minute}},
		{"in 10 minutes", want{span: "in 10 minutes", value: "2026-06-17 14:30:30", grain: Second}},
		{"in a couple of days", want{span: "in a couple of days", value: "2026-06-19 14:00:00", grain: Hour}},
		{"two weeks from tomorrow", want{span: "two weeks from tomorrow", value: "2026-07-02 00:00:00", grain: Day}},
		{"2 fridays from now", want{span: "2 fridays from now", value: "2026-06-26 00:00:00", grain: Day}},
		{"5 days ago", want{span: "5 days ago", value: "2026-06-12 14:00:00", grain: Hour}},
		{"in half an hour", want{span: "in half an hour", value: "2026-06-17 14:50:30", grain: Second}},
		// times
		{"6pm", want{span: "6pm", value: "2026-06-17 18:00:00", grain: Hour}},
		{"18:45", want{span: "18:45", value: "2026-06-17 18:45:00", grain: Minute}},
		// a dot between hour and minutes, with am/pm or after "at"; a bare
		// "7.30" is a price or a decimal, not a time
		{"7.30pm", want{span: "7.30pm", value: "2026-06-17 19:30:00", grain: Minute}},
		{"at 19.45", want{span: "at 19.45", value: "2026-06-17 19:45:00", grain: Minute}},
		{"it costs 7.30", want{}},
		{"noon", want{span: "noon", value: "2026-06-18 12:00:00", grain: Hour}},
		{"at 9am", want{span: "at 9am", value: "2026-06-18 09:00:00", grain: Hour}},
		{"at 2:05", want{span: "at 2:05", value: "2026-06-17 14:05:00", grain: Minute}},
		{"at 4", want{span: "at 4", value: "2026-06-17 16:00:00", grain: Hour}},
		{"a quarter past 7", want{span: "a quarter past 7", value: "2026-06-17 19:15:00", grain: Minute}},
		{"half past eleven pm", want{span: "half past eleven pm", value: "2026-06-17 23:30:00", grain: Minute}},
		{"ten to midnight", want{span: "ten to midnight", value: "2026-06-17 23:50:00", grain: Minute}},
		{"this evening at 8", want{span: "this evening at 8", value: "2026-06-17 20:00:00", grain: Hour}},
		{"6 tomorrow evening", want{span: "6 tomorrow evening", value: "2026-06-18 18:00:00", grain: Hour}},
		{"friday at 07:15", want{span: "friday at 07:15", value: "2026-06-19 07:15:00", grain: Minute}},
		{"at 10am UTC", want{span: "at 10am UTC", value: "2026-06-18 06:00:00", grain: Minute}},
		// parts of day
		{"tomorrow morning", want{span: "tomorrow morning", from: "2026-06-18 00:00:00", to: "2026-06-18 12:00:00", grain: Hour}},
		{"tonight", want{span: "tonight", from: "2026-06-17 18:00:00", to: "2026-06-18 00:00:00", grain: Hour}},
		{"last night", want{span: "last night", from: "2026-06-16 18:00:00", to: "2026-06-17 00:00:00", grain: Hour}},
		// periods
		{"next month", want{span: "next month", value: "2026-07-01 00:00:00", grain: Month}},
		{"this week", want{span: "this week", value: "2026-06-15 00:00:00", grain: Week}},
		{"last year", want{span: "last year", value: "2025-01-01 00:00:00", grain: Year}},
		{"Q4", want{span: "Q4", value: "2026-10-01 00:00:00", grain: Quarter}},
		{"end of the month", want{span: "end of the month", from: "2026-06-21 00:00:00", to: "2026-07-01 00:00:00", grain: Day}},
		{"the beginning of next week", want{span: "the beginning of next week", from: "2026-06-22 00:00:00", to: "2026-06-25 00:00:00", grain: Day}},
		{"this weekend", want{span: "this weekend", from: "2026-06-19 18:00:00", to: "2026-06-22 00:00:00", grain: Hour}},
		{"first monday of august", want{span: "first monday of august", value: "2026-08-03 00:00:00", grain: Day}},
		{"last day of february", want{span: "last day of february", value: "2027-02-28 00:00:00", grain: Day}},
		// intervals
		{"from 10:30 to 12 on friday", want{span: "from 10:30 to 12 on friday", from: "2026-06-19 10:30:00", to: "2026-06-19 12:01:00", grain: Minute}},
		{"between 1 and 3pm", want{span: "between 1 and 3pm", from: "2026-06-17 13:00:00", to: "2026-06-17 16:00:00", grain: Hour}},
		{"Aug 3-7", want{span: "Aug 3-7", from: "2026-08-03 00:00:00", to: "2026-08-08 00:00:00", grain: Day}},
		{"from 2 to 5 September", want{span: "from 2 to 5 September", from: "2026-09-02 00:00:00", to: "2026-09-06 00:00:00", grain: Day}},
		{"until 6pm", want{span: "until 6pm", to: "2026-06-17 18:00:00", grain: Hour}},
		{"after 5", want{span: "after 5", from: "2026-06-17 17:00:00", grain: Hour}},
		{"since 2020", want{span: "since 2020", from: "2020-01-01 00:00:00", grain: Year}},
		{"by 5pm", want{span: "by 5pm", from: "2026-06-17 14:20:30", to: "2026-06-17 17:00:00", grain: Second}},
		{"next 2 days", want{span: "next 2 days", from: "2026-06-18 00:00:00", to: "2026-06-20 00:00:00", grain: Day}},
		{"9am for 45 minutes", want{span: "9am for 45 minutes", from: "2026-06-18 09:00:00", to: "2026-06-18 09:46:00", grain: Minute}},
		{"ASAP", want{span: "ASAP", from: "2026-06-17 14:20:30", grain: Second}},
		// holidays
		{"christmas eve", want{span: "christmas eve", value: "2026-12-24 00:00:00", grain: Day}},
		{"thanksgiving", want{span: "thanksgiving", value: "2026-11-26 00:00:00", grain: Day}},
		{"easter 2027", want{span: "easter 2027", value: "2027-03-28 00:00:00", grain: Day}},
		// inside sentences: the span is what a caller strips
		{"remind me to water the plants tomorrow at 6pm", want{span: "tomorrow at 6pm", value: "2026-06-18 18:00:00", grain: Hour}},
		{"book the dentist for next tuesday at 10:30am please", want{span: "for next tuesday at 10:30am", value: "2026-06-23 10:30:00", grain: Minute}},
		{"ping me in 20 minutes about the build", want{span: "in 20 minutes", value: "2026-06-17 14:40:30", grain: Second}},
		{"rent is due on the 1st", want{span: "on the 1st", value: "2026-07-01 00:00:00", grain: Day}},
		{"send the draft by friday", want{span: "by friday", from: "2026-06-17 14:20:30", to: "2026-06-19 00:00:00", grain: Second}},
		{"gym session from 7 to 8:30 tomorrow morning", want{span: "from 7 to 8:30 tomorrow morning", from: "2026-06-18 07:00:00", to: "2026-06-18 08:31:00", grain: Minute}},
		// not dates
		{"I sat in the sun for a while", want{}},
		{"we have 7 cats and 2 dogs", want{}},
		{"you may want to march on", want{}},
		{"call 650-555-1234", want{}},
		{"in 99999999999 years", want{}},
		{"the meeting ran three twenty minutes over", want{}},
	}
	for _, tt := range tests {
		check(t, tt.text, ref, Options{}, tt.want)
	}
}

func TestLatent(t *testing.T) {
	t.Parallel()
	ref := time.Date(2026, 6, 17, 14, 20, 0, 0, time.UTC)
	for _, text := range []string{"7", "May", "afternoon", "2019"} {
		if m, ok := Parse(text, ref, Options{}); ok {
			t.Errorf("%q: strict mode found %q", text, m.Text)
		}
		m, ok := Parse(text, ref, Options{Latent: true})
		if !ok || !m.Latent {
			t.Errorf("%q: latent mode: got %v %v, want a latent match", text, m, ok)
		}
	}
}

func TestFindSeveral(t *testing.T) {
	t.Parallel()
	ref := time.Date(2026, 6, 17, 14, 20, 0, 0, time.UTC)
	text := "Dinner on Friday at 7pm, then brunch Sunday at 11."
	ms := Find(text, ref, Options{})
	var spans []string
	for _, m := range ms {
		spans = append(spans, m.Text)
	}
	if got := strings.Join(spans, "|"); got != "on Friday at 7pm|Sunday at 11" {
		t.Fatalf("spans %q", got)
	}
	if ms[1].Value.Format(layout) != "2026-06-21 11:00:00" {
		t.Errorf("second value %v", ms[1].Value)
	}
}

// TestDST checks that days are moved on the wall clock and that a time
// skipped by spring-forward is moved forward by the gap.
func TestDST(t *testing.T) {
	t.Parallel()
	ny := mustLoad(t, "America/New_York")
	berlin := mustLoad(t, "Europe/Berlin")
	tests := []struct {
		name string
		ref  time.Time
		text string
		want want
	}{
		// New York springs forward on 2026-03-08 at 02:00 → 03:00.
		{"ny tomorrow keeps wall time", time.Date(2026, 3, 7, 9, 0, 0, 0, ny), "tomorrow at 9am",
			want{span: "tomorrow at 9am", value: "2026-03-08 09:00:00", grain: Hour}},
		{"ny gap moves forward", time.Date(2026, 3, 7, 9, 0, 0, 0, ny), "tomorrow at 2:30am",
			want{span: "tomorrow at 2:30am", value: "2026-03-08 03:30:00", grain: Minute}},
		{"ny in 2 days across the change", time.Date(2026, 3, 7, 9, 0, 0, 0, ny), "in 2 days",
			want{span: "in 2 days", value: "2026-03-09 09:00:00", grain: Hour}},
		{"ny in 24 hours is elapsed time", time.Date(2026, 3, 7, 9, 0, 0, 0, ny), "in 24 hours",
			want{span: "in 24 hours", value: "2026-03-08 10:00:00", grain: Minute}},
		{"ny tonight on the short day", time.Date(2026, 3, 8, 12, 0, 0, 0, ny), "tonight",
			want{span: "tonight", from: "2026-03-08 18:00:00", to: "2026-03-09 00:00:00", grain: Hour}},
		// New York falls back on 2026-11-01 at 02:00 → 01:00.
		{"ny fall back ambiguous hour is the first", time.Date(2026, 10, 31, 9, 0, 0, 0, ny), "tomorrow at 1:30am",
			want{span: "tomorrow at 1:30am", value: "2026-11-01 01:30:00", grain: Minute}},
		{"ny next week across fall back", time.Date(2026, 10, 30, 9, 0, 0, 0, ny), "next week",
			want{span: "next week", value: "2026-11-02 00:00:00", grain: Week}},
		// Berlin springs forward on 2026-03-29 at 02:00 → 03:00.
		{"berlin gap", time.Date(2026, 3, 28, 20, 0, 0, 0, berlin), "tomorrow at 2:30am",
			want{span: "tomorrow at 2:30am", value: "2026-03-29 03:30:00", grain: Minute}},
		{"berlin sunday morning", time.Date(2026, 3, 28, 20, 0, 0, 0, berlin), "sunday morning",
			want{span: "sunday morning", from: "2026-03-29 00:00:00", to: "2026-03-29 12:00:00", grain: Hour}},
		{"berlin in a week", time.Date(2026, 3, 25, 10, 0, 0, 0, berlin), "in a week",
			want{span: "in a week", value: "2026-04-01 00:00:00", grain: Day}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { check(t, tt.text, tt.ref, Options{}, tt.want) })
	}
	// The gap instant is exactly one hour after 01:30 EST.
	m, _ := Parse("tomorrow at 2:30am", time.Date(2026, 3, 7, 9, 0, 0, 0, ny), Options{})
	if _, off := m.Value.Zone(); off != -4*3600 || m.Value.UTC().Hour() != 7 {
		t.Errorf("gap value %v, want 03:30 EDT (07:30 UTC)", m.Value)
	}
	// 24 hours before the change in wall time are 23 elapsed hours.
	m, _ = Parse("tomorrow", time.Date(2026, 3, 7, 9, 0, 0, 0, ny), Options{})
	n, _ := Parse("tomorrow", time.Date(2026, 3, 8, 9, 0, 0, 0, ny), Options{})
	if d := n.Value.Sub(m.Value); d != 23*time.Hour {
		t.Errorf("day across spring-forward is %v, want 23h", d)
	}
}

func TestNoPanicOnOddInput(t *testing.T) {
	t.Parallel()
	ref := time.Date(2026, 6, 17, 14, 20, 0, 0, time.UTC)
	for _, s := range []string{
		"", " ", "in", "at", "from", "between 3 and", "in 99999999999999999999 years",
		"99999999999/99999/9999", "2026-13-45", "31/31", "feb 30", "Q9", "the 0th",
		"\xff\xfe at 5pm", "mañana à 5pm ✓", "3 — 5pm", "in 1/0 h", "in 0.0000001 years",
		strings.Repeat("next ", 200) + "week", strings.Repeat("9", 5000),
	} {
		for _, m := range Find(s, ref, Options{Latent: true}) {
			if m.Start < 0 || m.End > len(s) || m.Start >= m.End || !utf8.ValidString(m.Text) && utf8.ValidString(s) {
				t.Errorf("%q: bad span %d:%d", s, m.Start, m.End)
			}
		}
	}
}

func TestGrainAndKindStrings(t *testing.T) {
	t.Parallel()
	for g := Second; g <= Year; g++ {
		back, ok := ParseGrain(g.String())
		if !ok || back != g {
			t.Errorf("grain %d round trip: %q", g, g.String())
		}
	}
	if Value.String() != "value" || Interval.String() != "interval" {
		t.Error("kind strings")
	}
}

func FuzzFind(f *testing.F) {
	for _, s := range []string{
		"remind me to call mom tomorrow at 5pm", "from 9:30 to 11 on thursday",
		"in a couple of days", "3 fridays from now", "a quarter past 1", "Q3 2027",
		"10/31/74", "end of the month", "until 2pm", "after 5", "July 13-15",
		"last weekend of October", "2015-03-28 17:00:00/2015-03-29 21:00:00",
		"in 2.5 hours", "mañana à 5pm", "at 650-650-6500",
		"half three", "twenty after 3pm", "ten to six", "3ish", "around 1030", "5-ish",
		"in two and a half hours", "in an hour and a half", "in 2 more minutes",
		"15 minutes from 1pm", "the 20th of next month", "the week of October 6th",
		"31/Oct/1974", "2/2013", "next March", "tomorrow's 3pm", "plant number 4 tomorrow at 5pm",
		"1 hour and 2 minutes and 3 seconds from 4pm", "half half half", "'s's's", "12/2013/12",
	} {
		f.Add(s)
	}
	ref := time.Date(2026, 3, 7, 9, 0, 0, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		last := 0
		for _, m := range Find(s, ref, Options{Latent: true}) {
			if m.Start < last || m.Start >= m.End || m.End > len(s) {
				t.Fatalf("bad span %d:%d (previous end %d) in %q", m.Start, m.End, last, s)
			}
			if m.Text != s[m.Start:m.End] {
				t.Fatalf("text %q != s[%d:%d]", m.Text, m.Start, m.End)
			}
			if !utf8.ValidString(s[:m.Start]) && utf8.ValidString(s) {
				t.Fatalf("start %d splits a rune in %q", m.Start, s)
			}
			if utf8.ValidString(s) && (!utf8.ValidString(s[:m.Start]) || !utf8.ValidString(s[m.End:])) {
				t.Fatalf("span %d:%d splits a rune in %q", m.Start, m.End, s)
			}
			last = m.End
		}
	})
}

var benchMessages = []string{
	"remind me to call mom tomorrow at 5pm",
	"can we move the standup to next monday at 9:30?",
	"dentist appointment on March 15th from 2 to 3pm",
	"pay the electricity bill by the end of the month",
	"ok thanks, see you later",
	"book a table for 4 people this friday evening at 8",
}

func BenchmarkParse(b *testing.B) {
	ref := time.Date(2026, 6, 17, 14, 20, 0, 0, time.UTC)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		Parse(benchMessages[i%len(benchMessages)], ref, Options{})
	}
}

func BenchmarkFind10KB(b *testing.B) {
	ref := time.Date(2026, 6, 17, 14, 20, 0, 0, time.UTC)
	var sb strings.Builder
	for sb.Len() < 10*1024 {
		for _, m := range benchMessages {
			sb.WriteString(m)
			sb.WriteString(" ")
		}
	}
	text := sb.String()
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		Find(text, ref, Options{})
	}
}

// TestClockOnly checks which expressions say a time of day without a
// date: only those may take another date (an event's own) when used.
func TestClockOnly(t *testing.T) {
	t.Parallel()
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, ny)
	tests := []struct {
		text string
		want bool
	}{
		{"4pm", true},
		{"at 4:30", true},
		{"at 3 in the afternoon", true},
		{"noon", true},
		{"tomorrow at 4pm", false},
		{"4pm tomorrow", false},
		{"friday at 4", false},
		{"tonight at 8", false},
		{"in 2 hours", false},
		{"friday", false},
		{"from 3 to 4pm", false},
	}
	for _, tt := range tests {
		m, ok := Parse(tt.text, ref, Options{})
		if !ok {
			t.Errorf("%q: no match", tt.text)
			continue
		}
		if m.ClockOnly != tt.want {
			t.Errorf("%q: ClockOnly %v, want %v (%+v)", tt.text, m.ClockOnly, tt.want, m)
		}
	}
}

func TestParseClock(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		h, m int
		ok   bool
	}{
		{"6:45", 6, 45, true}, {"6.45", 6, 45, true}, {"7pm", 19, 0, true}, {"7 p.m.", 19, 0, true},
		{"12am", 0, 0, true}, {"18:30", 18, 30, true}, {"18h30", 18, 30, true}, {"noon", 12, 0, true},
		{"7", 7, 0, true}, {"9 o'clock", 9, 0, true},
		{"", 0, 0, false}, {"25:00", 0, 0, false}, {"6:75", 0, 0, false}, {"13pm", 0, 0, false},
		{"6:45 tomorrow", 0, 0, false}, {"soon", 0, 0, false},
	}
	for _, tt := range tests {
		h, m, ok := ParseClock(tt.text)
		if ok != tt.ok || ok && (h != tt.h || m != tt.m) {
			t.Errorf("ParseClock(%q) = %d:%02d %v; want %d:%02d %v", tt.text, h, m, ok, tt.h, tt.m, tt.ok)
		}
	}
}

// TestBareHour: an hour without am/pm is a waking hour, as a repeating
// reminder's is: 1 to 6 in the afternoon, 7 to 11 in the morning when
// still ahead; a part of day or am/pm says otherwise.
func TestBareHour(t *testing.T) {
	t.Parallel()
	night := time.Date(2026, 3, 10, 2, 0, 0, 0, time.UTC)
	evening := time.Date(2026, 3, 10, 20, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		ref  time.Time
		text string
		want string
	}{
		{night, "at 5", "2026-03-10 17:00"},
		{night, "tomorrow at 5", "2026-03-11 17:00"},
		{night, "at 9", "2026-03-10 09:00"},
		{night, "at 5 in the morning", "2026-03-10 05:00"},
		{night, "at 5am", "2026-03-10 05:00"},
		{evening, "at 5", "2026-03-11 17:00"},
		{evening, "at 9", "2026-03-10 21:00"},
	} {
		m, ok := Parse(tt.text, tt.ref, Options{})
		if got := m.Value.Format("2006-01-02 15:04"); !ok || got != tt.want {
			t.Errorf("%q at %s: %s (%v); want %s", tt.text, tt.ref.Format("15:04"), got, ok, tt.want)
		}
	}
}

// TestDayFirstZones: a numeric date puts the day first where people
// write it so, and the month first elsewhere; one that can only be read
// one way is read that way anywhere.
func TestDayFirstZones(t *testing.T) {
	for _, tt := range []struct {
		zone, text, want string
	}{
		{"Europe/Berlin", "3/12", "2026-12-03"},
		{"Australia/Sydney", "3/12/2026", "2026-12-03"},
		{"America/New_York", "3/12", "2027-03-12"},
		{"UTC", "3/12", "2027-03-12"},
		{"Europe/Berlin", "3/15", "2027-03-15"},
		{"America/New_York", "15/3", "2027-03-15"},
	} {
		loc, err := time.LoadLocation(tt.zone)
		if err != nil {
			t.Fatal(err)
		}
		ref := time.Date(2026, 11, 28, 12, 0, 0, 0, loc)
		m, ok := Parse(tt.text, ref, Options{})
		if !ok || m.Value.Format(time.DateOnly) != tt.want {
			t.Errorf("%s: Parse(%q) = %v %v; want %s", tt.zone, tt.text, m.Value, ok, tt.want)
		}
	}
}
