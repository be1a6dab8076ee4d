package scheduler

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/memory"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// Briefing sections, as named in "skip the … section".
const (
	SectionCalendar  = "calendar"
	SectionBirthdays = "birthdays"
	SectionDeadlines = "deadlines"
	SectionPrep      = "prep"
	SectionFamily    = "family"
	SectionLists     = "lists"
	SectionMail      = "email"
)

// EmptyDay is the whole briefing of a day with nothing in it, after the
// greeting.
const EmptyDay = "Nothing on your calendar today and no deadlines or birthdays coming up. Enjoy the day! ☀️"

// Greeting opens a briefing written at local time t: "briefing now" in the
// evening is not greeted with "Good morning".
func Greeting(t time.Time) string {
	switch h := t.Hour(); {
	case h >= 4 && h < 12:
		return "Good morning!"
	case h >= 12 && h < 18:
		return "Good afternoon!"
	default:
		return "Good evening!"
	}
}

// Briefing writes a user's daily briefing for the local day of at:
// Calendar today, Birthdays & anniversaries (today and the next 7 days),
// Deadlines (next 7 days and overdue), Meeting prep and Family updates
// (the events, today and the next 7 days, of the family members who let
// the user see their events, by person), Family lists (what is left
// on them) and Email (unread mail from people Hearth knows, or marked
// important), leaving out empty sections and those in skip.
func (s *Scheduler) Briefing(ctx context.Context, userID int64, loc *time.Location, at time.Time, skip []string) (string, error) {
	if loc == nil {
		return "", fmt.Errorf("briefing for user %d: %w", userID, hearth.Invalidf("no time zone"))
	}
	today := recur.DateOf(at, loc)
	dayStart := recur.At(today, recur.TimeOfDay{}, loc)
	dayEnd := recur.At(today.AddDays(1), recur.TimeOfDay{}, loc)
	weekEnd := recur.At(today.AddDays(8), recur.TimeOfDay{}, loc)
	d, err := s.cfg.Store.BriefingData(ctx, userID, dayStart, dayEnd, weekEnd)
	if err != nil {
		return "", fmt.Errorf("briefing for user %d: %w", userID, err)
	}
	return s.composeBriefing(d, today, dayStart, loc, skip, Greeting(at.In(loc))), nil
}

func (s *Scheduler) composeBriefing(d hearth.Briefing, today recur.Date, dayStart time.Time, loc *time.Location, skip []string, greeting string) string {
	var sections []string
	add := func(name, title string, lines []string) {
		if len(lines) == 0 || slices.Contains(skip, name) {
			return
		}
		sections = append(sections, "**"+title+"**\n"+strings.Join(lines, "\n"))
	}

	var cal []string
	for _, e := range d.Events {
		line := "• "
		if e.AllDay {
			line += "All day"
		} else {
			line += e.Start.In(loc).Format("3:04 PM")
		}
		line += " " + markdown.Escape(e.Title)
		var extra []string
		if e.Location != "" {
			extra = append(extra, markdown.Escape(e.Location))
		}
		if len(e.Attendees) > 0 {
			extra = append(extra, "with "+strings.Join(markdown.EscapeAll(e.Attendees), ", "))
		}
		if len(extra) > 0 {
			line += " (" + strings.Join(extra, "; ") + ")"
		}
		cal = append(cal, line)
	}
	add(SectionCalendar, "Calendar today", cal)

	type bday struct {
		in   int
		line string
	}
	var bdays []bday
	for _, b := range d.Birthdays {
		for in := 0; in <= 7; in++ {
			day := today.AddDays(in)
			if int(day.Month) == b.Month && day.Day == b.Day {
				what := markdown.Escape(prose.Possessive(b.About) + " " + b.What)
				switch in {
				case 0:
					bdays = append(bdays, bday{in, "• Today: " + what + " 🎉"})
				case 1:
					bdays = append(bdays, bday{in, "• Tomorrow: " + what})
				default:
					bdays = append(bdays, bday{in, "• " + dateWords(day) + ": " + what + " (in " + strconv.Itoa(in) + " days)"})
				}
			}
		}
	}
	slices.SortStableFunc(bdays, func(a, b bday) int { return a.in - b.in })
	var blines []string
	for _, b := range bdays {
		blines = append(blines, b.line)
	}
	add(SectionBirthdays, "Birthdays & anniversaries", blines)

	var dl []string
	for _, t := range d.Deadlines {
		due := t.Due.In(loc)
		when := dateWords(recur.DateOf(due, loc))
		if !t.AllDay {
			when += " " + due.Format("3:04 PM")
		}
		if t.Due.Before(dayStart) {
			dl = append(dl, "• "+markdown.Escape(t.Title)+" — overdue since "+when)
		} else {
			dl = append(dl, "• "+markdown.Escape(t.Title)+" — due "+when)
		}
	}
	add(SectionDeadlines, "Deadlines", dl)

	var prep []string
	for _, e := range d.Events {
		var notes []string
		for _, a := range e.Attendees {
			for _, m := range d.Memories[a] {
				notes = append(notes, markdown.Escape(m))
			}
			for _, t := range d.Tasks[a] {
				notes = append(notes, "open task: "+markdown.Escape(t))
			}
		}
		if len(notes) > 0 {
			prep = append(prep, "• "+markdown.Escape(e.Title)+": "+strings.Join(dedupe(notes), "; "))
		}
	}
	add(SectionPrep, "Meeting prep", prep)

	var fam []string
	var member int64
	for _, e := range d.Family {
		if e.UserID != member {
			member = e.UserID
			fam = append(fam, markdown.Escape(e.Member)+":")
		}
		fam = append(fam, "• "+s.familyWhen(e, today, loc)+" — "+markdown.Escape(e.Title)+placeWords(e.Location))
	}
	add(SectionFamily, "Family updates", fam)

	var lists []string
	for _, n := range d.Lists {
		var left []string
		for _, it := range n.Items {
			if !it.Done {
				left = append(left, markdown.Escape(it.Text))
			}
		}
		if len(left) > 0 {
			lists = append(lists, "• "+markdown.Escape(n.Title)+": "+strings.Join(left, ", "))
		}
	}
	add(SectionLists, "Family lists", lists)
	// What's going on: the memory graph's storylines, one line.
	if line := memory.GoingOnLine(d.Storylines); line != "" {
		sections = append(sections, line)
	}

	// Mail is quoted as data: its text is the sender's, never followed.
	var mail []string
	for _, m := range d.Mail {
		who := m.FromName
		if who == "" {
			who = m.From
		}
		line := "• " + markdown.Escape(who) + ": “" + markdown.Escape(clip(m.Subject, 80)) + "”"
		if sn := clip(m.Snippet, 90); sn != "" {
			line += " — “" + markdown.Escape(sn) + "”"
		}
		mail = append(mail, line)
	}
	add(SectionMail, "Email", mail)

	if len(sections) == 0 {
		return greeting + " " + EmptyDay
	}
	return greeting + " Here's your day, " + dateWords(today) + ".\n\n" + strings.Join(sections, "\n\n")
}

// familyWhen says when a family member's event is, in the reader's zone:
// "Today at 6:00 PM", "Tomorrow", "Friday, November 27 at 9:00 AM". An all-day
// event is on its date in its owner's zone; one that began before today
// is "Ongoing".
func (s *Scheduler) familyWhen(e hearth.FamilyEvent, today recur.Date, loc *time.Location) string {
	day := recur.DateOf(e.Start, loc)
	if e.AllDay {
		if owner, ok := s.zones.load(e.MemberZone); ok {
			day = recur.DateOf(e.Start, owner)
		}
	}
	var when string
	switch in := today.DaysUntil(day); {
	case in < 0:
		return "Ongoing"
	case in == 0:
		when = "Today"
	case in == 1:
		when = "Tomorrow"
	default:
		when = dateWords(day)
	}
	if e.AllDay {
		return when + " (all day)"
	}
	return when + " at " + e.Start.In(loc).Format("3:04 PM")
}

func placeWords(location string) string {
	if location == "" {
		return ""
	}
	return " (" + markdown.Escape(location) + ")"
}

func dedupe(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

func dateWords(d recur.Date) string {
	return time.Date(d.Year, d.Month, d.Day, 12, 0, 0, 0, time.UTC).Format("Monday, January 2")
}

// clip shortens s to n runes on one line.
func clip(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
