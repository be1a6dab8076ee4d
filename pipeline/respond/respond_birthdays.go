package respond

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/memory"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// birthdayWindow is how far ahead "what birthdays are coming up?" looks.
const birthdayWindow = 30

// yearly is a birthday or an anniversary and the day it next comes.
type yearly struct {
	what string // "Ben's birthday", "your anniversary"
	on   recur.Date
}

// answerBirthdays answers a question for the birthdays or anniversaries
// coming up ("any birthdays this month?", "whose birthday is next?") from
// the facts that tell them; ok is false for any other question.
func answerBirthdays(in stage.RespondInput) (string, bool) {
	what, next, ok := nlu.BirthdaysAsked(in.Text)
	if !ok || in.Context.Now.IsZero() {
		return "", false
	}
	noun := map[string]string{"birthday": "birthdays", "anniversary": "anniversaries", "": "birthdays or anniversaries"}[what]
	c := in.Context
	today := recur.DateOf(c.Now, stage.UserZone(c))
	from, to, label := today, today.AddDays(birthdayWindow), fmt.Sprintf("in the next %d days", birthdayWindow)
	if in.Understanding.Slots.When != nil && !next {
		s := questionSpan(in)
		from, to, label = recur.DateOf(s.from, stage.UserZone(c)), recur.DateOf(s.to.Add(-time.Nanosecond), stage.UserZone(c)).AddDays(1), s.label
		if today.DaysUntil(from) < 0 {
			from = today // those gone by this month are not coming up
		}
	}
	all := yearlies(in, what, from)
	if len(all) == 0 {
		return "I don't know of any " + noun + " yet. Tell me one, like “Sam's birthday is May 4”, and I'll remember it.", true
	}
	if next {
		first := all[0].on
		var whats []string
		for _, y := range all {
			if y.on == first {
				whats = append(whats, y.what)
			}
		}
		return "Next up: " + prose.List(whats) + ", " + yearlyDay(today, first) + ".", true
	}
	var lines []string
	for _, y := range all {
		if from.DaysUntil(y.on) >= 0 && y.on.DaysUntil(to) > 0 {
			lines = append(lines, "• "+prose.UpperFirst(y.what)+", "+yearlyDay(today, y.on))
		}
	}
	if len(lines) == 0 {
		n := yearlies(in, what, today)[0] // the soonest, before the span or after it
		return "No " + noun + " " + label + ". The next one: " + n.what + ", " + yearlyDay(today, n.on) + ".", true
	}
	return prose.UpperFirst(noun) + " " + label + ":\n" + strings.Join(lines, "\n"), true
}

// yearlies are the birthdays and anniversaries (of kind what; "" for
// both) that the context's facts tell, each once, by the next day it
// comes on or after from, soonest first.
func yearlies(in stage.RespondInput, what string, from recur.Date) []yearly {
	var all []yearly
	seen := map[string]bool{}
	for _, m := range in.Context.Memories {
		d, ok := memory.ParseBirthday(m.Content, m.About)
		if !ok || what != "" && d.What != what {
			continue
		}
		on, ok := from.NextYearly(time.Month(d.Month), d.Day)
		who := d.About
		switch {
		case strings.EqualFold(who, in.User.DisplayName):
			who = "your"
		case who != m.About && len(m.Content) > 3 && strings.EqualFold(m.Content[:3], "my "):
			who = "your " + who // "my brother's birthday is …"
		}
		// The most relevant fact first: a second telling of the same
		// birthday (or a family member's copy) is not listed again.
		key := strings.ToLower(who) + " " + d.What
		if !ok || seen[key] {
			continue
		}
		seen[key] = true
		all = append(all, yearly{what: markdown.Escape(prose.Possessive(who) + " " + d.What), on: on})
	}
	slices.SortStableFunc(all, func(a, b yearly) int { return cmp.Compare(b.on.DaysUntil(a.on), 0) })
	return all
}

// yearlyDay names the day a birthday comes: "today", "tomorrow", "Sat,
// Dec 5 (in 6 days)".
func yearlyDay(today, on recur.Date) string {
	switch n := today.DaysUntil(on); n {
	case 0:
		return "today 🎉"
	case 1:
		return "tomorrow"
	default:
		t := time.Date(on.Year, on.Month, on.Day, 12, 0, 0, 0, time.UTC)
		layout := "Mon, Jan 2"
		if on.Year != today.Year {
			layout = "Mon, Jan 2, 2006"
		}
		return fmt.Sprintf("%s (in %d days)", t.Format(layout), n)
	}
}
