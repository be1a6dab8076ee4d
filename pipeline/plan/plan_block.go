package plan

import (
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// reBlock reads time blocked out on the calendar: "block out Friday
// afternoon for focus time", "block 2 hours tomorrow morning for the tax
// return", "block off Monday".
var reBlock = regexp.MustCompile(`(?i)^\s*(?:please\s+)?(?:can\s+you\s+)?block\s+(?:out\s+|off\s+)?(.+?)(?:\s+for\s+(.+?))?\s*[.!]*\s*$`)

// reFor reads how long, in the words a move by an amount takes: "2
// hours", "an hour", "90 minutes", "half an hour".
var reFor = regexp.MustCompile(`(?i)\b` + shiftAmount + `\s+(hours?|hrs?|minutes?|mins?)\b`)

// partsOfDay are the hours a part of the day blocked out covers.
var partsOfDay = []struct {
	from, to int
	words    []string
}{
	{9, 12, []string{"morning"}},
	{13, 17, []string{"afternoon"}},
	{18, 21, []string{"evening", "tonight", "night"}},
}

// blockOut reads time blocked out on the calendar: what for (the title,
// "Busy" when not said) and when, from m, the time said. A part of the
// day is its usual hours ("Friday afternoon": 13:00–17:00), a length
// said starts at a time said or the part's start ("2 hours tomorrow
// morning": 9:00–11:00), a day alone is all of it. ok is false when the
// text blocks nothing out, or says no time.
func blockOut(text string, m *timex.Match, c stage.Context) (title string, start, end time.Time, allDay, ok bool) {
	g := reBlock.FindStringSubmatch(text)
	if g == nil || m == nil {
		return "", time.Time{}, time.Time{}, false, false
	}
	// What is blocked is time alone: "block Sam's number tomorrow" is no
	// time on the calendar.
	said := g[1]
	ms := timex.Find(said, c.Now, timex.Options{})
	for i := len(ms) - 1; i >= 0; i-- {
		said = said[:ms[i].Start] + " " + said[ms[i].End:]
	}
	for _, w := range strings.Fields(reFor.ReplaceAllString(said, " ")) {
		if !slices.Contains([]string{"some", "time", "out", "off", "on", "in", "my", "the", "calendar", "diary", "from", "at"}, strings.ToLower(w)) {
			return "", time.Time{}, time.Time{}, false, false
		}
	}
	title = "Busy"
	for _, what := range strings.Split(g[2], " for ") {
		// "… for an hour for the dentist": what for, not how long.
		if what = words.TrimWordsLeft(nlu.StripTimes(words.TidySlot(what), c.Now), "the", "my", "a", "some"); what != "" && !reFor.MatchString(what) {
			title = prose.UpperFirst(what)
		}
	}
	z := stage.UserZone(c)
	length := time.Duration(0)
	if d := reFor.FindStringSubmatch(text); d != nil {
		if sh, ok := spanOf(d[1], d[2]); ok {
			length = time.Duration(sh.minutes) * time.Minute
		}
	}
	lc := words.ASCIILower(m.Text)
	day := dayOf(m, z)
	at := func(h int) time.Time { return time.Date(day.Year(), day.Month(), day.Day(), h, 0, 0, 0, z) }
	for _, p := range partsOfDay {
		for _, w := range p.words {
			if !words.ContainsWord(lc, w) || m.Kind != timex.Interval {
				continue
			}
			start, end = at(p.from), at(p.to)
			if length > 0 {
				end = start.Add(length)
			}
			return title, start, end, false, true
		}
	}
	switch {
	case m.Kind == timex.Value && m.Grain < timex.Day:
		start = fixClock(m.Value.In(z), m.Text, false)
		if length == 0 {
			length = time.Hour
		}
		return title, start, start.Add(length), false, true
	case m.Kind == timex.Value && m.Grain == timex.Day && length == 0:
		return title, day, day.AddDate(0, 0, 1), true, true
	case m.Kind == timex.Interval && m.Grain < timex.Day:
		// "From 2 to 4", "at 3 for an hour": as said.
		start, end, allDay, ok = eventTimes(m, text, c)
		return title, start, end, allDay, ok
	}
	return "", time.Time{}, time.Time{}, false, false
}
