package fileimport

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/memory"
)

// Item is one row of a file as what it becomes. Exactly one of Person,
// Task, Event and Fact is set, unless Skip says why the row becomes
// nothing.
type Item struct {
	// Row is the row's number in the file, counting the header.
	Row    int
	Person *Person
	Task   *hearth.Task
	Event  *hearth.CalendarEvent
	Fact   *hearth.Memory
	Skip   string
}

// Person is a row of a contact list. Until Hearth keeps people as
// entities of their own it is remembered as facts about them (Facts).
type Person struct {
	Name         string
	Birthday     *Date
	Phones       []string
	Emails       []string
	Addresses    []string
	Organization string
	// Notes are the columns kept as notes, "Header: value".
	Notes []string
}

// Facts are what Hearth remembers about a person, one sentence each in
// the words the rest of Hearth reads (a birthday fact schedules its
// reminders), each with its tier by memory.Tier.
func (p Person) Facts() []hearth.Memory {
	var out []hearth.Memory
	add := func(content string) {
		tier, _ := memory.Tier(content)
		out = append(out, hearth.Memory{Content: content, About: p.Name, Category: hearth.MemoryPersonal, Tier: tier})
	}
	if b := p.Birthday; b != nil {
		when := b.Month.String() + " " + strconv.Itoa(b.Day)
		if b.Year != 0 {
			when += ", " + strconv.Itoa(b.Year)
		}
		add(p.Name + "'s birthday is " + when)
	}
	if len(p.Phones) == 1 {
		add(p.Name + "'s phone number is " + p.Phones[0])
	} else if len(p.Phones) > 1 {
		add(p.Name + "'s phone numbers are " + strings.Join(p.Phones, ", "))
	}
	if len(p.Emails) == 1 {
		add(p.Name + "'s email is " + p.Emails[0])
	} else if len(p.Emails) > 1 {
		add(p.Name + "'s emails are " + strings.Join(p.Emails, ", "))
	}
	for _, a := range p.Addresses {
		add(p.Name + "'s address is " + a)
	}
	if p.Organization != "" {
		add(p.Name + " works at " + p.Organization)
	}
	for _, n := range p.Notes {
		add(p.Name + " — " + n)
	}
	if len(out) == 0 {
		add(p.Name + " is one of my contacts")
	}
	return out
}

// Items turns every row of t into what it becomes under m, with dates
// in loc (the user's zone) and yearless due dates and starts in now's
// year. This is the one place file rows become Hearth's items.
func Items(t Table, m Mapping, loc *time.Location, now time.Time) []Item {
	out := make([]Item, 0, len(t.Rows))
	first := 1
	if t.HasHeader {
		first = 2
	}
	for i, r := range t.Rows {
		it := rowItem(r, m, loc, now)
		it.Row = first + i
		out = append(out, it)
	}
	return out
}

// cell is one mapped value of a row.
type cell struct {
	col   Column
	value string
}

func rowItem(r []string, m Mapping, loc *time.Location, now time.Time) Item {
	byField := map[Field][]cell{}
	for _, c := range m.Columns {
		if c.Index >= len(r) || r[c.Index] == "" || c.Field == "" || c.Field == Ignore {
			continue
		}
		byField[c.Field] = append(byField[c.Field], cell{c, r[c.Index]})
	}
	first := func(f Field) (cell, bool) {
		cs := byField[f]
		if len(cs) == 0 {
			return cell{}, false
		}
		return cs[0], true
	}
	var notes []string
	for _, c := range byField[Note] {
		notes = append(notes, c.col.Header+": "+c.value)
	}
	switch m.Kind {
	case People:
		p := Person{Notes: notes}
		if c, ok := first(Name); ok {
			p.Name = c.value
		} else {
			var parts []string
			for _, f := range []Field{FirstName, LastName} {
				if c, ok := first(f); ok {
					parts = append(parts, c.value)
				}
			}
			p.Name = strings.Join(parts, " ")
		}
		if p.Name == "" {
			return Item{Skip: "no name"}
		}
		if c, ok := first(Birthday); ok {
			if d, ok := readDate(c); ok {
				p.Birthday = &d
			} else {
				p.Notes = append(p.Notes, c.col.Header+": "+c.value)
			}
		}
		for _, c := range byField[Phone] {
			p.Phones = append(p.Phones, splitList(c.value)...)
		}
		for _, c := range byField[Email] {
			p.Emails = append(p.Emails, splitList(c.value)...)
		}
		for _, c := range byField[Address] {
			p.Addresses = append(p.Addresses, splitList(c.value)...)
		}
		if c, ok := first(Organization); ok {
			p.Organization = c.value
		}
		for _, c := range byField[Description] {
			p.Notes = append(p.Notes, c.col.Header+": "+c.value)
		}
		return Item{Person: &p}
	case Tasks:
		c, ok := first(Title)
		if !ok {
			return Item{Skip: "no title"}
		}
		task := hearth.Task{Title: clip(c.value, 500), Status: hearth.TaskOpen}
		if c, ok := first(Due); ok {
			d, ok := readDate(c)
			if !ok {
				return Item{Skip: fmt.Sprintf("a due date I can't read (%q)", clip(c.value, 40))}
			}
			task.Due, task.AllDay = d.In(loc, now.Year()), !d.HasTime
		}
		if c, ok := first(Priority); ok {
			task.Priority = priority(c.value)
		}
		if c, ok := first(Status); ok {
			if done, ok := isBool(c.value); ok && done || strings.EqualFold(c.value, "completed") {
				task.Status, task.CompletedAt = hearth.TaskDone, now
			}
		}
		var body []string
		for _, c := range byField[Description] {
			body = append(body, c.value)
		}
		task.Notes = strings.Join(append(body, notes...), "\n")
		return Item{Task: &task}
	case Events:
		c, ok := first(Title)
		if !ok {
			return Item{Skip: "no title"}
		}
		ev := hearth.CalendarEvent{Title: clip(c.value, 500)}
		sc, ok := first(Start)
		if !ok {
			return Item{Skip: "no start"}
		}
		sd, ok := readDate(sc)
		if !ok {
			return Item{Skip: fmt.Sprintf("a start I can't read (%q)", clip(sc.value, 40))}
		}
		ev.Start, ev.AllDay = sd.In(loc, now.Year()), !sd.HasTime
		if c, ok := first(AllDay); ok {
			if v, ok := isBool(c.value); ok {
				ev.AllDay = v
			}
		}
		if ev.AllDay {
			ev.Start = time.Date(ev.Start.Year(), ev.Start.Month(), ev.Start.Day(), 0, 0, 0, 0, loc)
			ev.End = ev.Start.AddDate(0, 0, 1)
		} else {
			ev.End = ev.Start.Add(time.Hour)
		}
		if c, ok := first(End); ok {
			if ed, ok := readDate(c); ok {
				end := ed.In(loc, ev.Start.Year())
				if !ed.HasTime && !ev.AllDay {
					end = time.Date(end.Year(), end.Month(), end.Day(), ev.Start.Hour(), ev.Start.Minute(), 0, 0, loc)
				}
				if !end.Before(ev.Start) {
					ev.End = end
				}
			}
		}
		if c, ok := first(Location); ok {
			ev.Location = clip(c.value, 500)
		}
		var body []string
		for _, c := range byField[Description] {
			body = append(body, c.value)
		}
		ev.Description = strings.Join(append(body, notes...), "\n")
		return Item{Event: &ev}
	default: // Facts
		var parts []string
		for _, c := range byField[Fact] {
			parts = append(parts, c.value)
		}
		if len(parts) == 0 {
			return Item{Skip: "nothing to remember"}
		}
		content := strings.Join(append(parts, notes...), "; ")
		f := hearth.Memory{Content: clip(content, 2000), Category: hearth.MemoryPersonal}
		if c, ok := first(About); ok {
			f.About = c.value
		}
		f.Tier, _ = memory.Tier(content)
		return Item{Fact: &f}
	}
}

func readDate(c cell) (Date, bool) { return c.col.ReadDate(c.value) }

// ReadDate reads a value of the column as a date, in the column's day
// order.
func (c Column) ReadDate(v string) (Date, bool) {
	order := dayFirstUnknown // the separator decides: dots day first, slashes month first
	switch c.DateOrder {
	case DayFirst:
		order = dayFirst
	case MonthFirst:
		order = monthFirst
	}
	return parseDate(v, order)
}

func splitList(s string) []string {
	var out []string
	for p := range strings.SplitSeq(s, ";") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// priority reads 1-3, high/medium/low in a few languages, or "!".
func priority(s string) int {
	switch n := normalise(s); n {
	case "3", "high", "hoch", "haute", "elevee", "alta", "alto", "hoog", "urgent", "important", "a", "!!!", "1 high":
		return 3
	case "2", "medium", "normal", "mittel", "moyenne", "media", "medio", "normaal", "b", "!!":
		return 2
	case "1", "low", "niedrig", "basse", "faible", "baja", "bassa", "baixa", "laag", "c", "!":
		return 1
	}
	return 0
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	return strings.ToValidUTF8(s, "")
}
