package plan

import (
	"regexp"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/memory"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// Errands ahead of a birthday or an anniversary: "remind me to buy
// flowers before Mum's birthday", "get a present for Sam's birthday". The
// date is the one a fact tells ("Mum's birthday is March 3rd"), read by
// memory.ParseBirthday from the facts the context stage found; the task
// is due the day before, or on the day for one on it ("call Clara on her
// birthday"). Without such a fact the task has no date, as before.

// birthdayWords are a birthday or an anniversary named by whose it is:
// "Mum's birthday", "my birthday" ("my" or "our" alone is the user's own),
// "her birthday" (of the person the message named before it).
const birthdayWords = `(?:(my|our|his|her|their)\s+)?(?:(\S+(?:\s+\S+)?)(?:'s|’s|s'|')\s+)?(birthday|bday|anniversary)`

var (
	// reBeforeBirthday reads an errand before, for or on one.
	reBeforeBirthday = regexp.MustCompile(`(?i)\b(before|ahead\s+of|in\s+time\s+for|for|on)\s+` + birthdayWords + `\b`)
	// reBirthdayNamed reads one named alone, as what a reminder goes
	// before ("remind me a week before Mum's birthday").
	reBirthdayNamed = regexp.MustCompile(`(?i)^` + birthdayWords + `$`)
)

// BirthdayRef reports an errand before, for or on someone's birthday or
// anniversary, and which of the two ("birthday", "anniversary"): the
// context stage then reads the facts that may date it. people are the
// people the message names, in order, which "her birthday" is one of.
func BirthdayRef(text string, people []string) (what string, ok bool) {
	_, what, _, ok = birthdayErrand(text, people)
	return what, ok
}

// BirthdayToldBefore reads the birthday or anniversary the user told in
// the message before this one ("Our anniversary is June 12", then "remind
// me a week before"): ref is how the user named it ("Our anniversary",
// "Sam's birthday"), what is which of the two. recent is
// the conversation, this message last.
func BirthdayToldBefore(recent []hearth.Message) (ref, what string, ok bool) {
	users := 0
	for i := len(recent) - 1; i >= 0; i-- {
		if recent[i].From != hearth.FromUser {
			continue
		}
		if users++; users < 2 {
			continue // this message
		}
		fact := FactOf(recent[i].Text)
		d, ok := memory.ParseBirthday(fact, "")
		if !ok {
			return "", "", false
		}
		// Named in the user's words: "Our anniversary", "Sam's birthday".
		named, _, _ := strings.Cut(fact, " is ")
		return strings.TrimSpace(named), d.What, true
	}
	return "", "", false
}

// birthdayErrand reads the birthday or anniversary an errand is for:
// whose, which, and whether the errand is on the day itself ("call Clara
// on her birthday") rather than ahead of it ("buy flowers for Mum's
// birthday").
func birthdayErrand(text string, people []string) (who, what string, onTheDay, ok bool) {
	g := reBeforeBirthday.FindStringSubmatchIndex(text)
	if g == nil {
		return "", "", false, false
	}
	sub := func(i int) string {
		if g[2*i] < 0 {
			return ""
		}
		return text[g[2*i]:g[2*i+1]]
	}
	who, what, ok = birthdayOf(sub(2), sub(3), sub(4), antecedent(people, text[:g[0]]))
	return who, what, strings.EqualFold(sub(1), "on"), ok
}

// antecedent is whom "her" or "his" stands for: the last of people named
// in before, the words ahead of it ("Clara" of "call Clara on her
// birthday", "my mum" of "call my mum on her birthday").
func antecedent(people []string, before string) string {
	lc := strings.ToLower(before)
	for i := len(people) - 1; i >= 0; i-- {
		if words.ContainsWord(lc, strings.ToLower(people[i])) {
			return people[i]
		}
	}
	return ""
}

// birthdayNamed reads a birthday or an anniversary named alone ("Mum's
// birthday", "my anniversary").
func birthdayNamed(text string) (who, what string, ok bool) {
	g := reBirthdayNamed.FindStringSubmatch(strings.TrimSpace(text))
	if g == nil {
		return "", "", false
	}
	return birthdayOf(g[1], g[2], g[3], "")
}

// birthdayOf is whose birthday or anniversary is named (as the scheduler
// names a fact's: "your" for the user's own), and which: own is the
// possessive before it ("my", "her"), name the name ("Mum" of "Mum's"),
// them whom "her" or "his" stands for.
func birthdayOf(own, name, what, them string) (who, which string, ok bool) {
	which = strings.ToLower(what)
	if which == "bday" {
		which = "birthday"
	}
	who = strings.TrimSpace(name)
	switch own = strings.ToLower(own); {
	case own == "his" || own == "her" || own == "their":
		if who != "" {
			return "", "", false // "her mum's birthday": not one Hearth can tell
		}
		who = them
	case who == "" && own != "":
		who = "your"
	}
	return who, which, who != "" // "for the birthday": whose is not said
}

// birthdayDue is when an errand for a birthday named in text (people are
// those it names) is due: the day before the next one (all day), or the
// day itself when it is today or the errand is on it. ok is false when no
// fact in c dates it.
func birthdayDue(text string, people []string, c stage.Context) (time.Time, bool) {
	who, what, onTheDay, ok := birthdayErrand(text, people)
	if !ok {
		return time.Time{}, false
	}
	day, ok := nextBirthday(who, what, c)
	if !ok {
		return time.Time{}, false
	}
	if !onTheDay && recur.DateOf(c.Now, stage.UserZone(c)).DaysUntil(day) > 0 {
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
