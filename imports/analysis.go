package imports

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/fileimport"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/memory"
)

// analysis is what an import will write, worked out from the file, the
// mapping and what the user already has.
type analysis struct {
	batch  hearth.ImportBatch
	people int
	// matched counts rows (or facts) that match existing items; example
	// names one.
	matched int
	example string
	// known counts facts Hearth already has word for word.
	known int
	// skipped lists the rows left out, by reason.
	skipped     map[string][]int
	unsureTiers int
}

// analyse maps every row and matches it against the user's items. With
// Matches "merge" a matching row updates the item it matches; with
// "skip" (or not yet chosen) it is left out.
func (s *session) analyse(ctx context.Context) (analysis, error) {
	a := analysis{skipped: map[string][]int{}}
	items := fileimport.Items(s.tab, s.p.Mapping, s.loc, s.now)
	var titles, abouts []string
	for _, it := range items {
		switch {
		case it.Task != nil:
			titles = append(titles, it.Task.Title)
		case it.Event != nil:
			titles = append(titles, it.Event.Title)
		case it.Person != nil:
			abouts = append(abouts, it.Person.Name)
		case it.Fact != nil && it.Fact.About != "":
			abouts = append(abouts, it.Fact.About)
		}
	}
	ex, err := s.im.cfg.Store.ImportExisting(ctx, s.t.User.ID, dedupe(titles), dedupe(abouts))
	if err != nil {
		return a, err
	}
	tasks := map[string]hearth.Task{}
	for _, t := range ex.Tasks {
		tasks[strings.ToLower(t.Title)] = t
	}
	events := map[string]hearth.CalendarEvent{}
	for _, e := range ex.Events {
		events[eventKey(e)] = e
	}
	facts := map[string]hearth.Memory{}    // by lower-cased content
	subjects := map[string]hearth.Memory{} // by subject
	for _, f := range ex.Facts {
		facts[strings.ToLower(f.Content)] = f
		if subj := memory.Subject(f.Content); subj != "" {
			subjects[subj] = f
		}
	}
	merge := s.p.Matches == "merge"
	seen := map[string]int{} // within the file: key → first row
	dup := func(key string, row int) bool {
		if first, ok := seen[key]; ok {
			a.skipped[fmt.Sprintf("the same as row %d", first)] = append(a.skipped[fmt.Sprintf("the same as row %d", first)], row)
			return true
		}
		seen[key] = row
		return false
	}
	addFact := func(f hearth.Memory) {
		key := strings.ToLower(f.Content)
		if _, ok := facts[key]; ok {
			a.known++
			return
		}
		if _, ok := seen["fact:"+key]; ok {
			return
		}
		seen["fact:"+key] = 0
		if tierUnsure(f.Content) {
			a.unsureTiers++
			if s.p.Tier != 0 {
				f.Tier = s.p.Tier
			}
		}
		if old, ok := subjects[memory.Subject(f.Content)]; ok && memory.Subject(f.Content) != "" {
			a.matched++
			if a.example == "" {
				a.example = "“" + markdown.Escape(old.Content) + "”"
			}
			if merge {
				a.batch.FactCorrections = append(a.batch.FactCorrections, hearth.FactCorrection{OldID: old.ID, New: f})
			}
			return
		}
		a.batch.Facts = append(a.batch.Facts, f)
	}
	for _, it := range items {
		switch {
		case it.Skip != "":
			a.skipped[it.Skip] = append(a.skipped[it.Skip], it.Row)
		case it.Task != nil:
			t := *it.Task
			if dup("task:"+strings.ToLower(t.Title)+"|"+t.Due.String(), it.Row) {
				continue
			}
			if old, ok := tasks[strings.ToLower(t.Title)]; ok {
				a.matched++
				if a.example == "" {
					a.example = "the to-do “" + markdown.Escape(old.Title) + "”"
				}
				if merge {
					t.ID = old.ID
					a.batch.TaskMerges = append(a.batch.TaskMerges, t)
				}
				continue
			}
			a.batch.Tasks = append(a.batch.Tasks, t)
		case it.Event != nil:
			e := *it.Event
			if dup("event:"+eventKey(e), it.Row) {
				continue
			}
			if old, ok := events[eventKey(e)]; ok {
				a.matched++
				if a.example == "" {
					a.example = "the event “" + markdown.Escape(old.Title) + "”"
				}
				if merge {
					e.ID = old.ID
					a.batch.EventMerges = append(a.batch.EventMerges, e)
				}
				continue
			}
			a.batch.Events = append(a.batch.Events, e)
		case it.Person != nil:
			if dup("person:"+strings.ToLower(it.Person.Name), it.Row) {
				continue
			}
			a.people++
			for _, f := range it.Person.Facts() {
				addFact(f)
			}
		case it.Fact != nil:
			addFact(*it.Fact)
		}
	}
	return a, nil
}

func eventKey(e hearth.CalendarEvent) string {
	return strings.ToLower(e.Title) + "|" + strconv.FormatInt(e.Start.Unix(), 10)
}

func dedupe(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0:0]
	for _, s := range ss {
		if k := strings.ToLower(s); !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}
	return out
}

// summary says what Approve will write, what matches and what is left
// out, and how each column was read.
func (s *session) summary(a analysis) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Here's what I'll import from %s:", fileName(s.rec.FileName))
	line := func(format string, args ...any) { b.WriteString("\n• " + fmt.Sprintf(format, args...)) }
	bt := a.batch
	switch {
	case a.people > 0:
		line("%d %s, as %s to remember (birthdays will get reminders)", a.people, plural(a.people, "person", "people"), factsWord(len(bt.Facts)))
	case len(bt.Facts) > 0:
		line("%s to remember", factsWord(len(bt.Facts)))
	}
	if n := len(bt.Tasks); n > 0 {
		line("%d new %s", n, plural(n, "to-do", "to-dos"))
	}
	if n := len(bt.Events); n > 0 {
		line("%d new calendar %s", n, plural(n, "event", "events"))
	}
	if a.matched > 0 {
		if s.p.Matches == "merge" {
			line("%d that match what you have (like %s) will be updated", a.matched, a.example)
		} else {
			line("%d that match what you have (like %s) will be skipped", a.matched, a.example)
		}
	}
	if a.known > 0 {
		line("%s I already know word for word are left out", factsWord(a.known))
	}
	reasons := make([]string, 0, len(a.skipped))
	for r := range a.skipped {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		rows := a.skipped[r]
		line("%s skipped: %s (%s)", rowsWord(len(rows)), r, rowList(rows))
	}
	if len(s.p.Dropped) > 0 {
		line("left out after too many questions: %s", strings.Join(s.p.Dropped, ", "))
	}
	var cols []string
	for _, c := range s.p.Mapping.Columns {
		col := c.Header + " → " + c.Field.Label()
		if d, ok := c.ReadDate(c.Sample); ok && c.Field.IsDate() && c.Sample != d.String() {
			col += " (" + c.Sample + " is " + d.String() + ")"
		}
		cols = append(cols, col)
	}
	b.WriteString("\nColumns: " + strings.Join(cols, " · "))
	if bt.Tasks == nil && bt.Events == nil && bt.Facts == nil && bt.TaskMerges == nil && bt.EventMerges == nil && bt.FactCorrections == nil {
		b.WriteString("\nThere is nothing new to write.")
	} else {
		b.WriteString("\nNothing is written until you approve.")
	}
	return b.String()
}

func rowList(rows []int) string {
	var parts []string
	for i, r := range rows {
		if i == 5 {
			parts = append(parts, fmt.Sprintf("and %d more", len(rows)-5))
			break
		}
		parts = append(parts, strconv.Itoa(r))
	}
	return plural(len(rows), "row ", "rows ") + strings.Join(parts, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// countWords says what an import wrote.
func countWords(c hearth.ImportCounts) string {
	var parts []string
	if c.Facts > 0 {
		parts = append(parts, factsWord(c.Facts))
	}
	if c.Tasks > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", c.Tasks, plural(c.Tasks, "to-do", "to-dos")))
	}
	if c.Events > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", c.Events, plural(c.Events, "event", "events")))
	}
	if c.Merged > 0 {
		parts = append(parts, fmt.Sprintf("%d updated", c.Merged))
	}
	if len(parts) == 0 {
		return "nothing new"
	}
	return strings.Join(parts, ", ")
}
