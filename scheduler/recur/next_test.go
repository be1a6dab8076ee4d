package recur

import (
	"testing"
	"time"
)

func zone(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("load %s: %v", name, err)
	}
	return loc
}

const layout = "2006-01-02 15:04 MST"

func fmtAll(ts []time.Time) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Format(layout)
	}
	return out
}

func TestAt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		zone string
		d    Date
		at   TimeOfDay
		want string // wall clock and zone abbreviation of the answer
		utc  string
	}{
		// Spring forward: the skipped wall time moves forward by the gap,
		// whichever side of it Go's time.Date chose for the zone.
		{"America/New_York", Date{2026, 3, 8}, TimeOfDay{2, 30}, "2026-03-08 03:30 EDT", "07:30"},
		{"America/New_York", Date{2026, 3, 8}, TimeOfDay{2, 0}, "2026-03-08 03:00 EDT", "07:00"},
		{"Europe/Berlin", Date{2026, 3, 29}, TimeOfDay{2, 30}, "2026-03-29 03:30 CEST", "01:30"},
		// Fall back: the repeated wall time resolves to its first instant,
		// again whichever one time.Date chose.
		{"America/New_York", Date{2026, 11, 1}, TimeOfDay{1, 30}, "2026-11-01 01:30 EDT", "05:30"},
		{"Europe/Berlin", Date{2026, 10, 25}, TimeOfDay{2, 30}, "2026-10-25 02:30 CEST", "00:30"},
		{"Europe/Berlin", Date{2026, 10, 25}, TimeOfDay{2, 0}, "2026-10-25 02:00 CEST", "00:00"},
		// Ordinary times on transition days are untouched.
		{"America/New_York", Date{2026, 3, 8}, TimeOfDay{7, 30}, "2026-03-08 07:30 EDT", "11:30"},
		{"Europe/Berlin", Date{2026, 10, 25}, TimeOfDay{3, 0}, "2026-10-25 03:00 CET", "02:00"},
		{"UTC", Date{2026, 6, 1}, TimeOfDay{9, 0}, "2026-06-01 09:00 UTC", "09:00"},
	}
	for _, tt := range tests {
		got := At(tt.d, tt.at, zone(t, tt.zone))
		if got.Format(layout) != tt.want || got.UTC().Format("15:04") != tt.utc {
			t.Errorf("At(%v, %v, %s) = %s (%s UTC), want %s (%s UTC)", tt.d, tt.at, tt.zone,
				got.Format(layout), got.UTC().Format("15:04"), tt.want, tt.utc)
		}
	}
	if !At(Date{2026, 1, 1}, TimeOfDay{9, 0}, nil).IsZero() {
		t.Error("At with a nil location should be the zero time")
	}
}

// TestDST expands rules across both 2026 transitions in both zones.
func TestDST(t *testing.T) {
	t.Parallel()
	daily := func(h, m int) Rule { return Rule{Freq: Daily, At: TimeOfDay{h, m}} }
	tests := []struct {
		name     string
		zone     string
		rule     Rule
		from, to string // local, in zone
		want     []string
	}{
		{"US spring 07:30 stays local", "America/New_York", daily(7, 30), "2026-03-06 12:00", "2026-03-10 12:00",
			[]string{"2026-03-07 07:30 EST", "2026-03-08 07:30 EDT", "2026-03-09 07:30 EDT", "2026-03-10 07:30 EDT"}},
		{"US fall 07:30 stays local", "America/New_York", daily(7, 30), "2026-10-30 12:00", "2026-11-02 12:00",
			[]string{"2026-10-31 07:30 EDT", "2026-11-01 07:30 EST", "2026-11-02 07:30 EST"}},
		{"EU spring 07:30 stays local", "Europe/Berlin", daily(7, 30), "2026-03-28 00:00", "2026-03-30 12:00",
			[]string{"2026-03-28 07:30 CET", "2026-03-29 07:30 CEST", "2026-03-30 07:30 CEST"}},
		{"EU fall 07:30 stays local", "Europe/Berlin", daily(7, 30), "2026-10-24 00:00", "2026-10-26 12:00",
			[]string{"2026-10-24 07:30 CEST", "2026-10-25 07:30 CET", "2026-10-26 07:30 CET"}},
		{"US spring gap 02:30 → 03:30", "America/New_York", daily(2, 30), "2026-03-07 00:00", "2026-03-09 12:00",
			[]string{"2026-03-07 02:30 EST", "2026-03-08 03:30 EDT", "2026-03-09 02:30 EDT"}},
		{"EU spring gap 02:30 → 03:30", "Europe/Berlin", daily(2, 30), "2026-03-28 00:00", "2026-03-30 12:00",
			[]string{"2026-03-28 02:30 CET", "2026-03-29 03:30 CEST", "2026-03-30 02:30 CEST"}},
		{"US fall 01:30 once", "America/New_York", daily(1, 30), "2026-10-31 00:00", "2026-11-02 12:00",
			[]string{"2026-10-31 01:30 EDT", "2026-11-01 01:30 EDT", "2026-11-02 01:30 EST"}},
		{"EU fall 02:30 once", "Europe/Berlin", daily(2, 30), "2026-10-24 00:00", "2026-10-26 12:00",
			[]string{"2026-10-24 02:30 CEST", "2026-10-25 02:30 CEST", "2026-10-26 02:30 CET"}},
		{"weekday 08:30 across US spring", "America/New_York", Rule{Freq: Weekly, Weekdays: WorkWeek, At: TimeOfDay{8, 30}},
			"2026-03-05 12:00", "2026-03-10 12:00",
			[]string{"2026-03-06 08:30 EST", "2026-03-09 08:30 EDT", "2026-03-10 08:30 EDT"}},
		{"Sunday 02:30 on EU spring day", "Europe/Berlin", Rule{Freq: Weekly, Weekdays: WeekdaysOf(time.Sunday), At: TimeOfDay{2, 30}},
			"2026-03-20 00:00", "2026-04-06 00:00",
			[]string{"2026-03-22 02:30 CET", "2026-03-29 03:30 CEST", "2026-04-05 02:30 CEST"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			loc := zone(t, tt.zone)
			from, _ := time.ParseInLocation("2006-01-02 15:04", tt.from, loc)
			to, _ := time.ParseInLocation("2006-01-02 15:04", tt.to, loc)
			got := fmtAll(tt.rule.Between(from, to, loc))
			if !equal(got, tt.want) {
				t.Errorf("Between = %q\nwant      %q", got, tt.want)
			}
			// Next, chained from the window's start, agrees with Between.
			var chain []string
			for at := from; ; {
				n, ok := tt.rule.Next(at, loc)
				if !ok || n.After(to) {
					break
				}
				chain = append(chain, n.Format(layout))
				at = n
			}
			if !equal(chain, tt.want) {
				t.Errorf("Next chain = %q\nwant         %q", chain, tt.want)
			}
		})
	}
}

// TestFallBackFiresOnce asks for the next occurrence from inside the
// repeated hour: the second 01:30 must not fire again.
func TestFallBackFiresOnce(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		zone string
		at   TimeOfDay
		day  Date
		next string
	}{
		{"America/New_York", TimeOfDay{1, 30}, Date{2026, 11, 1}, "2026-11-02 01:30 EST"},
		{"Europe/Berlin", TimeOfDay{2, 30}, Date{2026, 10, 25}, "2026-10-26 02:30 CET"},
	} {
		loc := zone(t, tc.zone)
		r := Rule{Freq: Daily, At: tc.at}
		first := At(tc.day, tc.at, loc)
		for _, after := range []time.Time{first, first.Add(time.Minute), first.Add(59 * time.Minute), first.Add(time.Hour)} {
			got, ok := r.Next(after, loc)
			if !ok || got.Format(layout) != tc.next {
				t.Errorf("%s: Next(%s) = %s, %v; want %s", tc.zone, after.Format(time.RFC3339), got.Format(layout), ok, tc.next)
			}
		}
		// Just before the first instant, the first instant is next.
		if got, _ := r.Next(first.Add(-time.Minute), loc); !got.Equal(first) {
			t.Errorf("%s: Next(just before) = %s, want %s", tc.zone, got.Format(layout), first.Format(layout))
		}
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func d(y int, m time.Month, day int) Date { return Date{y, m, day} }

// TestExpansion checks which dates rules fire on (in UTC, where the wall
// clock is trivial; DST is TestDST's job).
func TestExpansion(t *testing.T) {
	t.Parallel()
	nine := TimeOfDay{9, 0}
	tests := []struct {
		name     string
		rule     Rule
		from, to Date // window (from 00:00, to 23:59]
		want     []string
	}{
		{"every Monday", Rule{Freq: Weekly, Weekdays: WeekdaysOf(time.Monday), At: nine}, d(2026, 3, 1), d(2026, 3, 31),
			[]string{"2026-03-02", "2026-03-09", "2026-03-16", "2026-03-23", "2026-03-30"}},
		{"every Monday and Thursday", Rule{Freq: Weekly, Weekdays: WeekdaysOf(time.Monday, time.Thursday), At: nine}, d(2026, 3, 1), d(2026, 3, 13),
			[]string{"2026-03-02", "2026-03-05", "2026-03-09", "2026-03-12"}},
		{"every weekday", Rule{Freq: Weekly, Weekdays: WorkWeek, At: nine}, d(2026, 3, 5), d(2026, 3, 11),
			[]string{"2026-03-05", "2026-03-06", "2026-03-09", "2026-03-10", "2026-03-11"}},
		{"every other Tuesday from Tue Mar 10", Rule{Freq: Weekly, Interval: 2, Weekdays: WeekdaysOf(time.Tuesday), At: nine, Start: d(2026, 3, 10)},
			d(2026, 3, 1), d(2026, 4, 30), []string{"2026-03-10", "2026-03-24", "2026-04-07", "2026-04-21"}},
		{"every other Tuesday from Thu Mar 12: phase from the coming Tuesday", Rule{Freq: Weekly, Interval: 2, Weekdays: WeekdaysOf(time.Tuesday), At: nine, Start: d(2026, 3, 12)},
			d(2026, 3, 1), d(2026, 4, 30), []string{"2026-03-17", "2026-03-31", "2026-04-14", "2026-04-28"}},
		{"every 2 weeks on Tue and Thu from Wed: this Thursday starts the phase", Rule{Freq: Weekly, Interval: 2, Weekdays: WeekdaysOf(time.Tuesday, time.Thursday), At: nine, Start: d(2026, 3, 11)},
			d(2026, 3, 1), d(2026, 3, 31), []string{"2026-03-12", "2026-03-24", "2026-03-26"}},
		{"every other Tuesday, window mid-series keeps phase", Rule{Freq: Weekly, Interval: 2, Weekdays: WeekdaysOf(time.Tuesday), At: nine, Start: d(2026, 3, 10)},
			d(2026, 3, 25), d(2026, 4, 30), []string{"2026-04-07", "2026-04-21"}},
		{"weekly on Start's weekday", Rule{Freq: Weekly, At: nine, Start: d(2026, 3, 11)}, d(2026, 3, 1), d(2026, 3, 31),
			[]string{"2026-03-11", "2026-03-18", "2026-03-25"}},
		{"every 3 days", Rule{Freq: Daily, Interval: 3, At: nine, Start: d(2026, 2, 26)}, d(2026, 3, 1), d(2026, 3, 10),
			[]string{"2026-03-01", "2026-03-04", "2026-03-07", "2026-03-10"}},
		{"monthly on the 31st skips short months", Rule{Freq: Monthly, MonthDay: 31, At: nine}, d(2026, 1, 1), d(2026, 8, 31),
			[]string{"2026-01-31", "2026-03-31", "2026-05-31", "2026-07-31", "2026-08-31"}},
		{"the first Sunday of every month", Rule{Freq: Monthly, Nth: 1, Weekdays: WeekdaysOf(time.Sunday), At: nine}, d(2026, 11, 2), d(2027, 2, 28),
			[]string{"2026-12-06", "2027-01-03", "2027-02-07"}},
		{"the last Friday of every month", Rule{Freq: Monthly, Nth: LastDay, Weekdays: WeekdaysOf(time.Friday), At: nine}, d(2026, 12, 1), d(2027, 3, 31),
			[]string{"2026-12-25", "2027-01-29", "2027-02-26", "2027-03-26"}},
		{"the fifth Tuesday skips months without one", Rule{Freq: Monthly, Nth: 5, Weekdays: WeekdaysOf(time.Tuesday), At: nine}, d(2026, 1, 1), d(2026, 12, 31),
			[]string{"2026-03-31", "2026-06-30", "2026-09-29", "2026-12-29"}},
		{"the second Tuesday of every other month", Rule{Freq: Monthly, Interval: 2, Nth: 2, Weekdays: WeekdaysOf(time.Tuesday), At: nine, Start: d(2026, 12, 1)},
			d(2026, 12, 1), d(2027, 5, 31), []string{"2026-12-08", "2027-02-09", "2027-04-13"}},
		{"monthly on the last day", Rule{Freq: Monthly, MonthDay: LastDay, At: nine}, d(2028, 1, 1), d(2028, 4, 30),
			[]string{"2028-01-31", "2028-02-29", "2028-03-31", "2028-04-30"}},
		{"monthly on the 1st", Rule{Freq: Monthly, MonthDay: 1, At: nine}, d(2026, 1, 2), d(2026, 4, 1),
			[]string{"2026-02-01", "2026-03-01", "2026-04-01"}},
		{"every other month on the 15th", Rule{Freq: Monthly, Interval: 2, MonthDay: 15, At: nine, Start: d(2026, 1, 20)},
			d(2026, 1, 1), d(2026, 8, 1), []string{"2026-02-15", "2026-04-15", "2026-06-15"}},
		{"every other month on the 31st: phase from the first month that has one", Rule{Freq: Monthly, Interval: 2, MonthDay: 31, At: nine, Start: d(2026, 4, 1)},
			d(2026, 1, 1), d(2026, 12, 31), []string{"2026-05-31", "2026-07-31"}},
		{"monthly on Start's day (30th) skips February", Rule{Freq: Monthly, At: nine, Start: d(2026, 1, 30)},
			d(2026, 1, 1), d(2026, 4, 1), []string{"2026-01-30", "2026-03-30"}},
		{"yearly March 15", Rule{Freq: Yearly, Month: time.March, MonthDay: 15, At: nine}, d(2026, 3, 16), d(2029, 3, 15),
			[]string{"2027-03-15", "2028-03-15", "2029-03-15"}},
		{"yearly Feb 29 only in leap years", Rule{Freq: Yearly, Month: time.February, MonthDay: 29, At: nine}, d(2026, 1, 1), d(2036, 12, 31),
			[]string{"2028-02-29", "2032-02-29", "2036-02-29"}},
		{"yearly Feb 29 skips 2100", Rule{Freq: Yearly, Month: time.February, MonthDay: 29, At: nine}, d(2095, 1, 1), d(2105, 1, 1),
			[]string{"2096-02-29", "2104-02-29"}},
		{"yearly last day of February", Rule{Freq: Yearly, Month: time.February, MonthDay: LastDay, At: nine}, d(2027, 1, 1), d(2028, 12, 31),
			[]string{"2027-02-28", "2028-02-29"}},
		{"yearly on Start's date", Rule{Freq: Yearly, At: nine, Start: d(2026, 7, 4)}, d(2026, 1, 1), d(2027, 12, 31),
			[]string{"2026-07-04", "2027-07-04"}},
		{"every 2 years on a fixed date, anchored", Rule{Freq: Yearly, Interval: 2, Month: time.December, MonthDay: 1, At: nine, Start: d(2026, 5, 1)},
			d(2026, 1, 1), d(2031, 1, 1), []string{"2026-12-01", "2028-12-01", "2030-12-01"}},
		{"count 3", Rule{Freq: Daily, At: nine, Start: d(2026, 3, 1), Count: 3}, d(2026, 2, 1), d(2026, 3, 31),
			[]string{"2026-03-01", "2026-03-02", "2026-03-03"}},
		{"count counts from Start, not from the window", Rule{Freq: Daily, At: nine, Start: d(2026, 3, 1), Count: 3}, d(2026, 3, 2), d(2026, 3, 31),
			[]string{"2026-03-02", "2026-03-03"}},
		{"count skips missing days without counting them", Rule{Freq: Monthly, MonthDay: 31, At: nine, Start: d(2026, 1, 1), Count: 3}, d(2026, 1, 1), d(2027, 1, 1),
			[]string{"2026-01-31", "2026-03-31", "2026-05-31"}},
		{"until inclusive", Rule{Freq: Weekly, Weekdays: WeekdaysOf(time.Friday), At: nine, Until: d(2026, 3, 20)}, d(2026, 3, 1), d(2026, 4, 30),
			[]string{"2026-03-06", "2026-03-13", "2026-03-20"}},
		{"start excludes earlier dates", Rule{Freq: Daily, At: nine, Start: d(2026, 3, 5)}, d(2026, 3, 1), d(2026, 3, 6),
			[]string{"2026-03-05", "2026-03-06"}},
		{"yearly Feb 29 every 4 years from a common year: phase from the first leap day", Rule{Freq: Yearly, Interval: 4, Month: time.February, MonthDay: 29, At: nine, Start: d(2025, 1, 1)},
			d(2025, 1, 1), d(2036, 12, 31), []string{"2028-02-29", "2032-02-29", "2036-02-29"}},
		{"yearly Feb 29 every 100 years skips three centuries", Rule{Freq: Yearly, Interval: 100, Month: time.February, MonthDay: 29, At: nine, Start: d(2000, 1, 1)},
			d(2000, 1, 1), d(2900, 1, 1), []string{"2000-02-29", "2400-02-29", "2800-02-29"}},
		{"monthly on the 30th every 12 months from February: phase from March", Rule{Freq: Monthly, Interval: 12, MonthDay: 30, At: nine, Start: d(2026, 2, 1)},
			d(2026, 1, 1), d(2028, 12, 31), []string{"2026-03-30", "2027-03-30", "2028-03-30"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			from := time.Date(tt.from.Year, tt.from.Month, tt.from.Day, 0, 0, 0, 0, time.UTC)
			to := time.Date(tt.to.Year, tt.to.Month, tt.to.Day, 23, 59, 0, 0, time.UTC)
			var got []string
			for _, x := range tt.rule.Between(from, to, time.UTC) {
				if x.Format("15:04") != "09:00" {
					t.Errorf("occurrence at %s, want 09:00", x)
				}
				got = append(got, x.Format(time.DateOnly))
			}
			if !equal(got, tt.want) {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestNextEnds(t *testing.T) {
	t.Parallel()
	ny := zone(t, "America/New_York")
	r := Rule{Freq: Daily, At: TimeOfDay{9, 0}, Start: d(2026, 3, 1), Count: 2}
	at := time.Date(2026, 3, 1, 0, 0, 0, 0, ny)
	var got []string
	for {
		n, ok := r.Next(at, ny)
		if !ok {
			break
		}
		got = append(got, n.Format(layout))
		at = n
	}
	if want := []string{"2026-03-01 09:00 EST", "2026-03-02 09:00 EST"}; !equal(got, want) {
		t.Errorf("count 2 chain = %q, want %q", got, want)
	}
	if _, ok := (Rule{Freq: Daily, At: TimeOfDay{9, 0}, Until: d(2026, 3, 1)}).Next(time.Date(2026, 3, 1, 9, 0, 0, 0, ny), ny); ok {
		t.Error("Next after the last date of Until should report false")
	}
	if _, ok := (Rule{Freq: Daily}).Next(at, nil); ok {
		t.Error("Next with a nil location should report false, never use the host zone")
	}
	if _, ok := (Rule{}).Next(at, ny); ok {
		t.Error("the zero rule should never fire")
	}
	if _, ok := (Rule{Freq: Weekly, Interval: 2, Weekdays: WorkWeek}).Next(at, ny); ok {
		t.Error("an interval rule without Start should not fire")
	}
	// The answer is in loc even when after is in another zone.
	n, _ := Rule{Freq: Daily, At: TimeOfDay{9, 0}}.Next(at.UTC(), ny)
	if n.Location() != ny {
		t.Errorf("Next returned location %v, want %v", n.Location(), ny)
	}
	// Far future: still terminates, and nothing after year 9999.
	if _, ok := (Rule{Freq: Monthly, MonthDay: 31, At: TimeOfDay{}}).Next(time.Date(9999, 12, 31, 12, 0, 0, 0, time.UTC), time.UTC); ok {
		t.Error("no occurrence exists after 9999-12-31")
	}
}

func TestBetweenCapped(t *testing.T) {
	t.Parallel()
	berlin := zone(t, "Europe/Berlin")
	r := Rule{Freq: Daily, At: TimeOfDay{7, 30}}
	from := time.Date(2026, 1, 1, 0, 0, 0, 0, berlin)
	got := r.Between(from, from.AddDate(10, 0, 0), berlin)
	if len(got) != MaxBetween {
		t.Fatalf("len = %d, want the cap %d", len(got), MaxBetween)
	}
	if got[0].Format(layout) != "2026-01-01 07:30 CET" {
		t.Errorf("first = %s, want the earliest", got[0].Format(layout))
	}
	for i := 1; i < len(got); i++ {
		if !got[i].After(got[i-1]) || got[i].Format("15:04") != "07:30" {
			t.Fatalf("occurrence %d = %s after %s", i, got[i], got[i-1])
		}
	}
	if r.Between(from, from, berlin) != nil || r.Between(from.Add(time.Hour), from, berlin) != nil {
		t.Error("an empty or inverted window should give nil")
	}
	// Half-open: an occurrence exactly at from is excluded, one exactly
	// at to is included.
	at := time.Date(2026, 1, 2, 7, 30, 0, 0, berlin)
	if got := r.Between(at, at.AddDate(0, 0, 1), berlin); len(got) != 1 || !got[0].Equal(at.AddDate(0, 0, 1)) {
		t.Errorf("Between(occurrence, next occurrence) = %v", got)
	}
}

func TestLeadTimes(t *testing.T) {
	t.Parallel()
	ny := zone(t, "America/New_York")
	berlin := zone(t, "Europe/Berlin")
	nine := TimeOfDay{9, 0}
	tests := []struct {
		name string
		due  time.Time
		days []int
		at   TimeOfDay
		loc  *time.Location
		now  time.Time
		want []string
	}{
		{"7/3/1 before, across US spring forward, date stored as UTC midnight",
			time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC), []int{7, 3, 1}, nine, ny,
			time.Date(2026, 3, 1, 0, 0, 0, 0, ny),
			[]string{"2026-03-03 09:00 EST", "2026-03-07 09:00 EST", "2026-03-09 09:00 EDT"}},
		{"past ones skipped, order and duplicates normalised",
			time.Date(2026, 10, 30, 0, 0, 0, 0, berlin), []int{1, 7, 3, 3, 0}, TimeOfDay{8, 0}, berlin,
			time.Date(2026, 10, 25, 12, 0, 0, 0, berlin),
			[]string{"2026-10-27 08:00 CET", "2026-10-29 08:00 CET", "2026-10-30 08:00 CET"}},
		{"lead time in the spring-forward gap",
			time.Date(2026, 3, 9, 0, 0, 0, 0, time.UTC), []int{1}, TimeOfDay{2, 30}, ny,
			time.Date(2026, 3, 1, 0, 0, 0, 0, ny),
			[]string{"2026-03-08 03:30 EDT"}},
		{"now equal to a lead time excludes it",
			time.Date(2026, 6, 10, 0, 0, 0, 0, time.UTC), []int{3, 1}, nine, ny,
			time.Date(2026, 6, 7, 9, 0, 0, 0, ny),
			[]string{"2026-06-09 09:00 EDT"}},
		{"negative and absurd days ignored",
			time.Date(2026, 6, 10, 0, 0, 0, 0, time.UTC), []int{-1, 100000}, nine, ny,
			time.Date(2026, 1, 1, 0, 0, 0, 0, ny), nil},
		{"invalid time", time.Date(2026, 6, 10, 0, 0, 0, 0, time.UTC), []int{1}, TimeOfDay{24, 0}, ny, time.Time{}, nil},
		{"nil location", time.Date(2026, 6, 10, 0, 0, 0, 0, time.UTC), []int{1}, nine, nil, time.Time{}, nil},
	}
	for _, tt := range tests {
		got := fmtAll(LeadTimes(tt.due, tt.days, tt.at, tt.loc, tt.now))
		if !equal(got, tt.want) && len(got)+len(tt.want) > 0 {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

func TestDateArithmetic(t *testing.T) {
	tests := []struct {
		from Date
		n    int
		want Date
	}{
		{d(2026, time.March, 28), 3, d(2026, time.March, 31)},
		{d(2026, time.March, 31), 1, d(2026, time.April, 1)},
		{d(2024, time.February, 28), 1, d(2024, time.February, 29)},
		{d(2026, time.January, 1), -1, d(2025, time.December, 31)},
		{d(1969, time.December, 31), 1, d(1970, time.January, 1)},
	}
	for _, tt := range tests {
		if got := tt.from.AddDays(tt.n); got != tt.want {
			t.Errorf("%v + %d = %v; want %v", tt.from, tt.n, got, tt.want)
		}
		if got := tt.from.DaysUntil(tt.want); got != tt.n {
			t.Errorf("%v until %v = %d; want %d", tt.from, tt.want, got, tt.n)
		}
	}
}

// TestSkip: a skipped date does not fire, still counts towards Count, and
// survives the stored form; a rule skipping too much, or a date that
// cannot be, is invalid.
func TestSkip(t *testing.T) {
	t.Parallel()
	loc := zone(t, "Europe/Berlin")
	r := Rule{Freq: Daily, At: TimeOfDay{8, 0}, Start: Date{2026, 11, 29}, Count: 4, Skip: []Date{{2026, 11, 30}}}
	after := time.Date(2026, 11, 29, 9, 0, 0, 0, loc)
	got := fmtAll(r.Between(after, after.AddDate(0, 0, 10), loc))
	want := []string{"2026-12-01 08:00 CET", "2026-12-02 08:00 CET"}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("Between = %v; want %v (the 30th skipped, four counted from the 29th)", got, want)
	}
	if next, ok := r.Next(after, loc); !ok || next.Format(layout) != want[0] {
		t.Fatalf("Next = %v, %v; want %s", next, ok, want[0])
	}
	b, err := r.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var back Rule
	if err := back.UnmarshalJSON(b); err != nil || len(back.Skip) != 1 || back.Skip[0] != (Date{2026, 11, 30}) {
		t.Fatalf("round trip of %s: %+v, %v", b, back, err)
	}
	for _, bad := range []Rule{
		{Freq: Daily, Skip: []Date{{2026, 2, 30}}},
		{Freq: Daily, Skip: make([]Date, MaxSkip+1)},
	} {
		if err := bad.Validate(); err == nil {
			t.Errorf("Validate(%+v) = nil; want invalid", bad.Skip[:1])
		}
	}
}
