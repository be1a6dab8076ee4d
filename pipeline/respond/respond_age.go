package respond

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/memory"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// answerAge answers how old someone is from when they were born, as told
// ("Anna was born on June 5, 1990": 36; "in 1990": 35 or 36, or 36 when
// her birthday is known too). ok is false for another question, or when
// no birth date of theirs is known.
func answerAge(in stage.RespondInput) (string, bool) {
	text, _, _ := kinNamed(in.Text, in.Context.Entities) // "how old is my son?": Leo
	asked, self, ok := nlu.AgeAsked(text)
	if !ok {
		return "", false
	}
	who := words.MatchWords(asked)
	of := func(m hearth.Memory) bool {
		if self {
			return toldOfSelf(m.Content) || m.About != "" && strings.EqualFold(m.About, in.User.DisplayName)
		}
		return bornOf(m, who)
	}
	name, is, was := prose.UpperFirst(markdown.Escape(prose.SecondPerson(asked))), " is ", " was "
	if self {
		name, is, was = "You", "'re ", " were "
	}
	now := stage.UserNow(in.Context)
	for _, m := range in.Context.Memories {
		if m.Attribute != hearth.AttrBorn || !of(m) {
			continue
		}
		born, err := time.Parse(time.DateOnly, m.Value)
		if err != nil {
			continue
		}
		if born.YearDay() == 1 && !strings.Contains(words.ASCIILower(m.Content), "jan") && !strings.Contains(m.Content, "/") {
			// Only the year was told; a birthday told gives the day.
			if d, ok := birthdayOf(in.Context.Memories, of); ok {
				born = time.Date(born.Year(), time.Month(d.Month), d.Day, 0, 0, 0, 0, time.UTC)
			} else {
				they := map[bool]string{true: "you're", false: "they're"}[self]
				return fmt.Sprintf("%s%sborn in %d, so %s %d or %d.", name, was, born.Year(), they, memory.Age(born, now)-1, memory.Age(born, now)), true
			}
		}
		return fmt.Sprintf("%s%s%d (born %s).", name, is, memory.Age(born, now), born.Format("January 2, 2006")), true
	}
	// No birth date: an age told ("Mia is 7"), with when it was told,
	// since it does not stay true.
	for _, m := range in.Context.Memories {
		t := reAgeFact.FindStringSubmatch(m.Content)
		if t == nil || self || !slices.Equal(words.MatchWords(t[1]), who) && !slices.Equal(words.MatchWords(m.About), who) {
			continue
		}
		told := cmp.Or(m.ValidFrom, m.CreatedAt)
		if told.IsZero() || stage.DaysBetween(told, now) == 0 {
			return fmt.Sprintf("%s is %s, as you told me today.", name, t[2]), true
		}
		return fmt.Sprintf("%s was %s when you told me, on %s.", name, t[2], told.In(stage.UserZone(in.Context)).Format("January 2, 2006")), true
	}
	if self {
		return "I don't know how old you are yet. Tell me when you were born (“I was born on May 4, 1990”) and I'll remember it.", true
	}
	return "", false
}

// birthdayOf is the birthday a fact among ms tells of whoever of picks.
func birthdayOf(ms []hearth.Memory, of func(hearth.Memory) bool) (hearth.ScheduleDetail, bool) {
	for _, m := range ms {
		if d, ok := memory.ParseBirthday(m.Content, m.About); ok && d.What == "birthday" && of(m) {
			return d, true
		}
	}
	return hearth.ScheduleDetail{}, false
}

// reAgeFact reads an age told as a fact: "Mia is 7", "my son is 12 years
// old", "Leo just turned 5": whose and how old.
var reAgeFact = regexp.MustCompile(`(?i)^\s*(?:my\s+|our\s+)?(.+?)\s+(?:is|just\s+turned|turned)\s+(\d{1,3})(?:\s+years?\s+old)?(?:\s+now|\s+today)?\s*[.!]*\s*$`)

// bornOf reports whether m, a birth fact, is about who (its words): by
// what it is about, or by the words it starts with ("my son was born …").
func bornOf(m hearth.Memory, who []string) bool {
	if len(who) == 0 {
		return false
	}
	if slices.Equal(words.MatchWords(m.About), who) {
		return true
	}
	c := words.MatchWords(m.Content)
	return len(c) >= len(who) && slices.Equal(c[:len(who)], who)
}
