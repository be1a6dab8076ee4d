package recur

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"
)

func TestString(t *testing.T) {
	t.Parallel()
	nine := TimeOfDay{9, 0}
	tests := []struct {
		rule Rule
		want string
	}{
		{Rule{Freq: Weekly, Weekdays: WeekdaysOf(time.Monday), At: nine}, "every Monday at 09:00"},
		{Rule{Freq: Weekly, Weekdays: WorkWeek, At: TimeOfDay{8, 30}}, "every weekday at 08:30"},
		{Rule{Freq: Weekly, Weekdays: WeekdaysOf(time.Friday, time.Monday, time.Wednesday), At: nine}, "every Monday, Wednesday and Friday at 09:00"},
		{Rule{Freq: Weekly, Weekdays: Weekend, At: nine}, "every Saturday and Sunday at 09:00"},
		{Rule{Freq: Weekly, Weekdays: AllWeek, At: nine}, "every day at 09:00"},
		{Rule{Freq: Weekly, Interval: 2, Weekdays: WeekdaysOf(time.Tuesday), At: nine, Start: d(2026, 3, 10)}, "every other Tuesday at 09:00"},
		{Rule{Freq: Weekly, Interval: 3, Weekdays: WeekdaysOf(time.Tuesday), At: nine, Start: d(2026, 3, 10)}, "every 3 weeks on Tuesday at 09:00"},
		{Rule{Freq: Weekly, At: nine, Start: d(2026, 3, 13)}, "every Friday at 09:00"},
		{Rule{Freq: Daily, At: TimeOfDay{7, 30}}, "every day at 07:30"},
		{Rule{Freq: Daily, Interval: 2, At: TimeOfDay{7, 30}, Start: d(2026, 1, 1)}, "every other day at 07:30"},
		{Rule{Freq: Daily, Interval: 10, At: TimeOfDay{7, 30}, Start: d(2026, 1, 1)}, "every 10 days at 07:30"},
		{Rule{Freq: Monthly, MonthDay: 1, At: nine}, "on the 1st of every month at 09:00"},
		{Rule{Freq: Monthly, Nth: 1, Weekdays: WeekdaysOf(time.Sunday), At: nine}, "on the first Sunday of every month at 09:00"},
		{Rule{Freq: Monthly, Nth: LastDay, Weekdays: WeekdaysOf(time.Friday), At: nine}, "on the last Friday of every month at 09:00"},
		{Rule{Freq: Monthly, MonthDay: 22, At: nine}, "on the 22nd of every month at 09:00"},
		{Rule{Freq: Monthly, MonthDay: 13, At: nine}, "on the 13th of every month at 09:00"},
		{Rule{Freq: Monthly, MonthDay: LastDay, At: nine}, "on the last day of every month at 09:00"},
		{Rule{Freq: Monthly, Interval: 3, MonthDay: 3, At: nine, Start: d(2026, 1, 1)}, "on the 3rd of every 3 months at 09:00"},
		{Rule{Freq: Yearly, Month: time.March, MonthDay: 15, At: nine}, "every year on March 15 at 09:00"},
		{Rule{Freq: Yearly, Month: time.February, MonthDay: LastDay, At: nine}, "every year on the last day of February at 09:00"},
		{Rule{Freq: Yearly, Interval: 2, Month: time.March, MonthDay: 15, At: nine, Start: d(2026, 1, 1)}, "every other year on March 15 at 09:00"},
		{Rule{Freq: Daily, At: nine, Start: d(2026, 1, 1), Count: 10}, "every day at 09:00, 10 times"},
		{Rule{Freq: Daily, At: nine, Start: d(2026, 1, 1), Count: 1}, "every day at 09:00, once"},
		{Rule{Freq: Daily, At: nine, Until: d(2026, 6, 30)}, "every day at 09:00, until June 30, 2026"},
		{Rule{}, "never"},
	}
	for _, tt := range tests {
		if got := tt.rule.String(); got != tt.want {
			t.Errorf("%+v.String() = %q, want %q", tt.rule, got, tt.want)
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	t.Parallel()
	rules := []Rule{
		{Freq: Weekly, Interval: 2, Weekdays: WeekdaysOf(time.Tuesday, time.Sunday), At: TimeOfDay{8, 5}, Start: d(2026, 3, 10), Until: d(2026, 12, 31)},
		{Freq: Monthly, MonthDay: LastDay, At: TimeOfDay{23, 59}},
		{Freq: Monthly, Interval: 2, Nth: LastDay, Weekdays: WeekdaysOf(time.Friday), At: TimeOfDay{18, 0}, Start: d(2026, 12, 1)},
		{Freq: Yearly, Month: time.February, MonthDay: 29, At: TimeOfDay{0, 0}},
		{Freq: Daily, At: TimeOfDay{7, 30}, Start: d(2026, 1, 1), Count: 5},
	}
	for _, r := range rules {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("Marshal(%+v): %v", r, err)
		}
		var back Rule
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("Unmarshal(%s): %v", b, err)
		}
		if !reflect.DeepEqual(back, r) {
			t.Errorf("round trip %s: got %+v, want %+v", b, back, r)
		}
	}
	b, _ := json.Marshal(rules[0])
	if want := `{"freq":"weekly","interval":2,"weekdays":["tue","sun"],"at":"08:05","start":"2026-03-10","until":"2026-12-31"}`; string(b) != want {
		t.Errorf("stored form %s, want %s", b, want)
	}
	// Unknown fields are tolerated (rolling upgrades); interval 1 is the
	// default.
	var r Rule
	if err := json.Unmarshal([]byte(`{"freq":"daily","at":"06:00","tz_hint":"x"}`), &r); err != nil || !reflect.DeepEqual(r, Rule{Freq: Daily, At: TimeOfDay{6, 0}}) {
		t.Errorf("lenient decode: %+v, %v", r, err)
	}
	if _, err := json.Marshal(Rule{}); !errors.Is(err, ErrInvalid) {
		t.Errorf("Marshal of the zero rule: %v, want ErrInvalid", err)
	}
}

func TestJSONBad(t *testing.T) {
	t.Parallel()
	bad := map[string]string{
		"not json":             `{"freq":`,
		"not an object":        `[1,2]`,
		"null freq":            `{}`,
		"unknown freq":         `{"freq":"hourly","at":"09:00"}`,
		"freq as number":       `{"freq":1,"at":"09:00"}`,
		"bad time":             `{"freq":"daily","at":"9"}`,
		"hour 24":              `{"freq":"daily","at":"24:00"}`,
		"minute 60":            `{"freq":"daily","at":"09:60"}`,
		"time not a string":    `{"freq":"daily","at":900}`,
		"bad weekday":          `{"freq":"weekly","weekdays":["funday"],"at":"09:00"}`,
		"weekdays on daily":    `{"freq":"daily","weekdays":["mon"],"at":"09:00"}`,
		"negative interval":    `{"freq":"daily","interval":-1,"at":"09:00"}`,
		"huge interval":        `{"freq":"daily","interval":100000,"start":"2026-01-01","at":"09:00"}`,
		"month day 32":         `{"freq":"monthly","month_day":32,"at":"09:00"}`,
		"nth on weekly":        `{"freq":"weekly","nth":1,"weekdays":["sun"],"at":"09:00"}`,
		"nth with no weekday":  `{"freq":"monthly","nth":1,"at":"09:00"}`,
		"nth of two weekdays":  `{"freq":"monthly","nth":1,"weekdays":["sun","mon"],"at":"09:00"}`,
		"sixth sunday":         `{"freq":"monthly","nth":6,"weekdays":["sun"],"at":"09:00"}`,
		"nth and a month day":  `{"freq":"monthly","nth":2,"month_day":3,"weekdays":["sun"],"at":"09:00"}`,
		"weekdays on monthly":  `{"freq":"monthly","weekdays":["sun"],"at":"09:00"}`,
		"month day -2":         `{"freq":"monthly","month_day":-2,"at":"09:00"}`,
		"february 30":          `{"freq":"yearly","month":2,"month_day":30,"at":"09:00"}`,
		"month 13":             `{"freq":"yearly","month":13,"month_day":1,"at":"09:00"}`,
		"month on monthly":     `{"freq":"monthly","month":3,"month_day":1,"at":"09:00"}`,
		"month day on weekly":  `{"freq":"weekly","weekdays":["mon"],"month_day":1,"at":"09:00"}`,
		"bad start":            `{"freq":"daily","start":"2026-02-30","at":"09:00"}`,
		"until before start":   `{"freq":"daily","start":"2026-03-01","until":"2026-02-01","at":"09:00"}`,
		"negative count":       `{"freq":"daily","count":-1,"start":"2026-03-01","at":"09:00"}`,
		"interval needs start": `{"freq":"weekly","interval":2,"weekdays":["tue"],"at":"09:00"}`,
		"count needs start":    `{"freq":"daily","count":3,"at":"09:00"}`,
		"weekly needs a day":   `{"freq":"weekly","at":"09:00"}`,
	}
	for name, in := range bad {
		r := Rule{Freq: Daily}
		err := json.Unmarshal([]byte(in), &r)
		if err == nil {
			t.Errorf("%s: decoded %s as %+v, want an error", name, in, r)
			continue
		}
		// Syntax errors come from encoding/json before our UnmarshalJSON
		// runs; everything that reaches it is wrapped in ErrInvalid.
		var syn *json.SyntaxError
		if !errors.Is(err, ErrInvalid) && !errors.As(err, &syn) {
			t.Errorf("%s: error %v does not wrap ErrInvalid", name, err)
		}
		if !reflect.DeepEqual(r, Rule{Freq: Daily}) {
			t.Errorf("%s: failed decode changed the rule to %+v", name, r)
		}
	}
	var r Rule
	if err := json.Unmarshal([]byte(`{"freq":"weekly","interval":2,"weekdays":["tue"],"at":"09:00"}`), &r); !errors.Is(err, ErrNoStart) {
		t.Errorf("missing start: %v, want ErrNoStart", err)
	}
}

func TestDate(t *testing.T) {
	t.Parallel()
	ny := zone(t, "America/New_York")
	// 03:00 UTC on March 10 is still March 9 in New York.
	if got := DateOf(time.Date(2026, 3, 10, 3, 0, 0, 0, time.UTC), ny); got != d(2026, 3, 9) {
		t.Errorf("DateOf = %v", got)
	}
	if d(2026, 3, 10).Weekday() != time.Tuesday || d(1969, 12, 31).Weekday() != time.Wednesday {
		t.Error("Weekday wrong")
	}
	if d(2026, 2, 29).Valid() || !d(2028, 2, 29).Valid() || (Date{}).Valid() {
		t.Error("Valid wrong")
	}
	for _, tt := range []struct {
		from  Date
		month time.Month
		day   int
		want  Date
		ok    bool
	}{
		{d(2026, 3, 10), time.March, 15, d(2026, 3, 15), true},
		{d(2026, 3, 10), time.March, 10, d(2026, 3, 10), true}, // today included
		{d(2026, 3, 10), time.March, 9, d(2027, 3, 9), true},
		{d(2026, 3, 10), time.February, 29, d(2028, 2, 29), true}, // leap years only
		{d(2026, 3, 10), time.February, 30, Date{}, false},
	} {
		if got, ok := tt.from.NextYearly(tt.month, tt.day); got != tt.want || ok != tt.ok {
			t.Errorf("%v.NextYearly(%v, %d) = %v, %v; want %v, %v", tt.from, tt.month, tt.day, got, ok, tt.want, tt.ok)
		}
	}
	if got := WeekdaysOf(time.Sunday, time.Monday, 9).Days(); len(got) != 2 || got[0] != time.Monday || got[1] != time.Sunday {
		t.Errorf("Days = %v, want Monday first", got)
	}
	if Freq(9).String() != "Freq(9)" || Weekly.String() != "weekly" {
		t.Error("Freq.String wrong")
	}
}

// FuzzRuleJSON: whatever a stored rule's JSON holds, it is refused as
// invalid or read as a valid rule that is stored again as the same rule,
// and whose next occurrence is found without looping for long.
func FuzzRuleJSON(f *testing.F) {
	for _, s := range []string{
		`{"freq":"daily","at":"08:00"}`,
		`{"freq":"weekly","weekdays":["tue"],"at":"19:00","skip":["2026-03-03","2026-03-10"]}`,
		`{"freq":"monthly","nth":-1,"weekdays":["fri"],"at":"09:00","count":3,"start":"2026-01-01"}`,
		`{"freq":"daily","at":"08:00","skip":["2026-02-30"]}`, `{"skip":null}`, `[]`,
	} {
		f.Add(s)
	}
	loc := time.UTC
	after := time.Date(2026, 3, 1, 0, 0, 0, 0, loc)
	f.Fuzz(func(t *testing.T, s string) {
		var r Rule
		if err := r.UnmarshalJSON([]byte(s)); err != nil {
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Unmarshal(%s): %v, not ErrInvalid", s, err)
			}
			return
		}
		if err := r.Validate(); err != nil {
			t.Fatalf("Unmarshal(%s) gave an invalid rule: %v", s, err)
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatalf("Marshal of %+v read from %s: %v", r, s, err)
		}
		var back Rule
		if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(normal(back), normal(r)) {
			t.Fatalf("%s → %s → %+v, %v; want %+v", s, b, back, err, r)
		}
		r.Next(after, loc)
	})
}

// normal is r with an Interval of 1 said as 0, as its stored form says it.
func normal(r Rule) Rule {
	if r.Interval == 1 {
		r.Interval = 0
	}
	return r
}
