package plan

import (
	"regexp"
	"strings"
	"time"

	"github.com/hearthbot/hearth/memory"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// Errands ahead of a birthday or an anniversary: "remind me to buy
// flowers before Mum's birthday", "get a present for Sam's birthday". The
// date is the one a fact tells ("Mum's birthday is March 3rd"), read by
// memory.ParseBirthday from the facts the context stage found; the task
// is due the day before. Without such a fact the task has no date, as
// before.

// birthdayWords are a birthday or an anniversary named by whose it is:
// "Mum's birthday", "my birthday" ("my" or "our" alone is the user's own).
const birthdayWords = `(?:(my|our)\s+)?(?:(\S+(?:\s+\S+)?)(?:'s|’s|s'|')\s+)?(birthday|bday|anniversary)`

var (
	// reBeforeBirthday reads an errand before or for one.
	reBeforeBirthday = regexp.MustCompile(`(?i)\b(?:before|ahead\s+of|in\s+time\s+for|for)\s+` + birthdayWords + `\b`)
	// reBirthdayNamed reads one named alone, as what a reminder goes
	// before ("remind me a week before Mum's birthday").
	reBirthdayNamed = regexp.MustCompile(`(?i)^` + birthdayWords + `$`)
)

// BirthdayRef reports an errand before or for someone's birthday or
// anniversary, and which of the two ("birthday", "anniversary"): the
// context stage then reads the facts that may date it.
func BirthdayRef(text string) (what string, ok bool) {
	_, what, ok = birthdayOf(reBeforeBirthday.FindStringSubmatch(text))
	return what, ok
}

// birthdayOf is whose birthday or anniversary g (a match of
// birthdayWords) names, as the scheduler names a fact's ("your" for the
// user's own), and which.
func birthdayOf(g []string) (who, what string, ok bool) {
	if g == nil {
		return "", "", false
	}
	who, what = strings.TrimSpace(g[2]), strings.ToLower(g[3])
	if what == "bday" {
		what = "birthday"
	}
	if who == "" {
		if g[1] == "" {
			return "", "", false // "for the birthday": whose is not said
		}
		who = "your"
	}
	return who, what, true
}

// birthdayDue is when an errand before a birthday named in text is due:
// the day before the next one (all day), or the day itself when it is
// today. ok is false when no fact in c dates it.
func birthdayDue(text string, c stage.Context) (time.Time, bool) {
	who, what, ok := birthdayOf(reBeforeBirthday.FindStringSubmatch(text))
	if !ok {
		return time.Time{}, false
	}
	day, ok := nextBirthday(who, what, c)
	if !ok {
		return time.Time{}, false
	}
	if recur.DateOf(c.Now, stage.UserZone(c)).DaysUntil(day) > 0 {
		day = day.AddDays(-1)
	}
	return time.Date(day.Year, day.Month, day.Day, 0, 0, 0, 0, stage.UserZone(c)), true
}

// nextBirthday is the date of who's next birthday or anniversary (what),
// today included, from the facts in c that tell it.
func nextBirthday(who, what string, c stage.Context) (recur.Date, bool) {
	if c.Now.IsZero() {
		return recur.Date{}, false
	}
	today := recur.DateOf(c.Now, stage.UserZone(c))
	for _, m := range c.Memories {
		d, ok := memory.ParseBirthday(m.Content, m.About)
		if !ok || d.What != what || !sameWho(d.About, who) {
			continue
		}
		if day, ok := today.NextYearly(time.Month(d.Month), d.Day); ok {
			return day, true
		}
	}
	return recur.Date{}, false
}

// sameWho reports whether a fact's subject is the person an errand
// names: "Mum" is "mum" and "my mum".
func sameWho(about, who string) bool {
	norm := func(s string) string { return words.TrimWordsLeft(words.ASCIILower(strings.TrimSpace(s)), "my", "our") }
	return norm(about) == norm(who)
}
