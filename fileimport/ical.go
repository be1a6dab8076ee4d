package fileimport

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/emersion/go-ical"
	"github.com/teambition/rrule-go"

	"github.com/hearthbot/hearth"
)

// ICalHeader is the header calendar events are read into. Start and End
// are "2006-01-02" for all-day events, RFC 3339 for times with a zone,
// and "2006-01-02T15:04:05" for floating times (the user's zone).
var ICalHeader = []string{"Title", "Start", "End", "All day", "Location", "Description"}

// ICalTodoHeader is the header a calendar file with to-dos and no events
// is read into.
var ICalTodoHeader = []string{"Title", "Due", "Status", "Priority", "Description"}

// Recurrences are expanded into their occurrences from RecurPast before
// the import to RecurAhead after it, at most MaxOccurrences a series: a
// weekly meeting becomes a year of meetings, not an endless one.
const (
	RecurPast      = 30 * 24 * time.Hour
	RecurAhead     = 366 * 24 * time.Hour
	MaxOccurrences = 400
)

const floatingLayout = "2006-01-02T15:04:05"

// readICal reads the events of an .ics file (or its to-dos when it has
// no events), each recurring series expanded around now.
func readICal(data []byte, now time.Time) (Table, error) {
	text, _, err := decodeText(data)
	if err != nil {
		return Table{}, err
	}
	dec := ical.NewDecoder(strings.NewReader(text))
	var events, todos []*ical.Component
	for {
		cal, err := dec.Decode()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return Table{}, hearth.Invalidf("the calendar file is broken: %v", shortErr(err))
		}
		for _, c := range cal.Children {
			switch c.Name {
			case ical.CompEvent:
				events = append(events, c)
			case ical.CompToDo:
				todos = append(todos, c)
			}
		}
	}
	if len(events) == 0 && len(todos) == 0 && strings.Contains(strings.ToUpper(text), "BEGIN:VEVENT") {
		return Table{}, hearth.Invalidf("the calendar file is broken: it ends before its events do")
	}
	if len(events) == 0 && len(todos) > 0 {
		return readTodos(todos)
	}
	t := Table{Format: ICal, Header: ICalHeader, HasHeader: true}
	unknownZones := map[string]bool{}
	for _, ev := range events {
		rows, err := eventRows(ev, now, unknownZones)
		if err != nil {
			return Table{}, err
		}
		if len(t.Rows)+len(rows) > MaxRows {
			return Table{}, tooManyRows()
		}
		t.Rows = append(t.Rows, rows...)
	}
	for z := range unknownZones {
		t.Notes = append(t.Notes, fmt.Sprintf("I don't know the time zone %q, so its times are read in yours", z))
	}
	return t, nil
}

// icalTime is one DTSTART/DTEND/DUE value: its instant (in its zone, or
// in UTC standing for a floating wall time), whether it is a date, and
// whether it floats.
type icalTime struct {
	t        time.Time
	date     bool
	floating bool
}

func (x icalTime) String() string {
	switch {
	case x.date:
		return x.t.Format(time.DateOnly)
	case x.floating:
		return x.t.Format(floatingLayout)
	}
	return x.t.Format(time.RFC3339)
}

func propTime(p *ical.Prop, unknown map[string]bool) (icalTime, error) {
	v := strings.TrimSpace(p.Value)
	if p.ValueType() == ical.ValueDate || len(v) == 8 {
		d, err := time.ParseInLocation("20060102", v, time.UTC)
		return icalTime{t: d, date: true}, err
	}
	if strings.HasSuffix(v, "Z") {
		t, err := time.ParseInLocation("20060102T150405Z", v, time.UTC)
		return icalTime{t: t}, err
	}
	if tzid := p.Params.Get(ical.PropTimezoneID); tzid != "" {
		if loc, err := time.LoadLocation(strings.Trim(tzid, `"/`)); err == nil && tzid != "Local" {
			t, err := time.ParseInLocation("20060102T150405", v, loc)
			return icalTime{t: t}, err
		}
		unknown[tzid] = true
	}
	t, err := time.ParseInLocation("20060102T150405", v, time.UTC)
	return icalTime{t: t, floating: true}, err
}

func eventRows(ev *ical.Component, now time.Time, unknown map[string]bool) ([][]string, error) {
	title := propText(ev, ical.PropSummary)
	if title == "" {
		title = "(untitled event)"
	}
	sp := ev.Props.Get(ical.PropDateTimeStart)
	if sp == nil {
		return nil, hearth.Invalidf("the calendar file is broken: the event %q has no start", title)
	}
	start, err := propTime(sp, unknown)
	if err != nil {
		return nil, hearth.Invalidf("the calendar file is broken: the event %q has a start I can't read (%s)", title, sp.Value)
	}
	var length time.Duration
	noEnd := false
	if ep := ev.Props.Get(ical.PropDateTimeEnd); ep != nil {
		end, err := propTime(ep, unknown)
		if err != nil {
			return nil, hearth.Invalidf("the calendar file is broken: the event %q has an end I can't read (%s)", title, ep.Value)
		}
		length = end.t.Sub(start.t)
	} else if dp := ev.Props.Get(ical.PropDuration); dp != nil {
		if length, err = dp.Duration(); err != nil {
			return nil, hearth.Invalidf("the calendar file is broken: the event %q has a duration I can't read (%s)", title, dp.Value)
		}
	} else if start.date {
		length = 24 * time.Hour
	} else {
		noEnd = true // Items gives it the usual hour
	}
	if length < 0 {
		length = 0
	}
	allDay := ""
	if start.date {
		allDay = "yes"
	}
	row := func(s time.Time) []string {
		a, b := start, start
		a.t, b.t = s, s.Add(length)
		if start.date {
			b.t = s.AddDate(0, 0, max(1, int(length/(24*time.Hour))))
		}
		end := b.String()
		if noEnd {
			end = ""
		}
		return []string{title, a.String(), end, allDay, propText(ev, ical.PropLocation), propText(ev, ical.PropDescription)}
	}
	ro, err := ev.Props.RecurrenceRule()
	if err != nil {
		return nil, hearth.Invalidf("the calendar file is broken: the event %q repeats by a rule I can't read", title)
	}
	if ro == nil {
		return [][]string{row(start.t)}, nil
	}
	ro.Dtstart = start.t
	rule, err := rrule.NewRRule(*ro)
	if err != nil {
		return nil, hearth.Invalidf("the calendar file is broken: the event %q repeats by a rule I can't read", title)
	}
	set := rrule.Set{}
	set.RRule(rule)
	for _, p := range ev.Props.Values(ical.PropRecurrenceDates) {
		if d, err := propTime(&p, unknown); err == nil {
			set.RDate(d.t)
		}
	}
	for _, p := range ev.Props.Values(ical.PropExceptionDates) {
		for v := range strings.SplitSeq(p.Value, ",") {
			q := p
			q.Value = v
			if d, err := propTime(&q, unknown); err == nil {
				set.ExDate(d.t)
			}
		}
	}
	// The window is in the series' own clock: a floating series is kept
	// in UTC standing for wall time, which a day either side covers.
	from, to := now.Add(-RecurPast), now.Add(RecurAhead)
	var rows [][]string
	next := set.Iterator()
	for s, ok := next(); ok && s.Before(to) && len(rows) < MaxOccurrences; s, ok = next() {
		if s.Add(length).Before(from) {
			continue
		}
		rows = append(rows, row(s))
	}
	return rows, nil
}

func readTodos(todos []*ical.Component) (Table, error) {
	t := Table{Format: ICal, Header: ICalTodoHeader, HasHeader: true}
	for _, td := range todos {
		if len(t.Rows) >= MaxRows {
			return Table{}, tooManyRows()
		}
		due := ""
		if p := td.Props.Get(ical.PropDue); p != nil {
			if d, err := propTime(p, map[string]bool{}); err == nil {
				due = d.String()
			}
		}
		prio := ""
		if p := td.Props.Get(ical.PropPriority); p != nil {
			// RFC 5545: 1 is highest, 9 lowest, 0 undefined.
			if n, err := p.Int(); err == nil && n > 0 {
				prio = map[bool]string{true: "high", false: "low"}[n <= 4]
				if n == 5 {
					prio = "normal"
				}
			}
		}
		t.Rows = append(t.Rows, []string{propText(td, ical.PropSummary), due, propText(td, ical.PropStatus), prio, propText(td, ical.PropDescription)})
	}
	return t, nil
}

func propText(c *ical.Component, name string) string {
	p := c.Props.Get(name)
	if p == nil {
		return ""
	}
	s, err := p.Text()
	if err != nil {
		return strings.TrimSpace(p.Value)
	}
	return strings.TrimSpace(s)
}
