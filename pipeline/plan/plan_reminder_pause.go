package plan

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// Pausing a recurring reminder for a while ("pause the bins reminder for
// two weeks", "pause my pills reminder until Monday") skips every time it
// comes in that while, as skipping one day does (recur.Rule.Skip), so undo
// gives them back; "resume the bins reminder" gives back the times still
// to come.

var (
	rePause  = regexp.MustCompile(`(?i)^\s*(?:please\s+)?(?:pause|suspend)\s+(.+?)\s+(for|until|till|til|through)\s+(.+?)\s*[.!]*\s*$`)
	reResume = regexp.MustCompile(`(?i)^\s*(?:please\s+)?(?:resume|unpause|restart|restore)\s+(.+?)(?:\s+again)?\s*[.!]*\s*$`)
)

// planReminderPause plans pausing or resuming one of the user's recurring
// reminders; ok is false when text does neither of the user's reminders.
func planReminderPause(in stage.PlanInput, text string) (p stage.Plan, ok bool, err error) {
	g := rePause.FindStringSubmatch(text)
	resume := g == nil
	if resume {
		if g = reResume.FindStringSubmatch(text); g == nil {
			return p, false, nil
		}
	}
	p.Understood = "pause a reminder"
	if resume {
		p.Understood = "resume a reminder"
	}
	ref, _ := reminderRef(g[1])
	if ref == "" || isPronounRef(ref) {
		ref = reminderInReply(in.Context)
	}
	hits := matchReminders(ref, in.Context.Reminders)
	switch {
	case len(hits) > 0:
	case !strings.Contains(strings.ToLower(g[1]), "reminder"):
		return p, false, nil // "pause the music for a minute"
	case ref == "":
		return p, true, needDetails("which repeating reminder")
	default:
		return p, true, needDetails("the reminder: I couldn't find a repeating reminder about “%s” (say “list my reminders” to see yours)", ref)
	}
	sc := in.Context.Reminders[hits[0]]
	var r recur.Rule
	if err := json.Unmarshal(sc.Rule, &r); err != nil {
		return p, true, needDetails("a reminder I can read")
	}
	now := stage.UserNow(in.Context)
	loc := now.Location()
	today := recur.DateOf(now, loc)
	ahead := slices.DeleteFunc(slices.Clone(r.Skip), func(d recur.Date) bool { return today.DaysUntil(d) < 0 })
	args := action.ReminderUpdateArgs{ID: sc.ID, Title: sc.Title}
	if resume {
		p.Understood = "resume “" + markdown.Escape(sc.Title) + "”"
		if len(ahead) == 0 {
			return p, true, needDetails("the reminder: I can't resume “%s”, it isn't paused — it comes %s", sc.Title, r.String())
		}
		r.Skip, args.Resumed = nil, true
	} else {
		p.Understood = "pause “" + markdown.Escape(sc.Title) + "”"
		until, ok := pauseEnd(strings.ToLower(g[2]), g[3], now)
		if !ok {
			return p, true, needDetails("how long: I can't tell how long to pause it — say “for two weeks” or “until Monday”")
		}
		back := recur.DateOf(until, loc)
		skip := ahead
		for at, ok := r.Next(now, loc); ok && at.Before(until); at, ok = r.Next(at, loc) {
			if len(skip) > recur.MaxSkip {
				break
			}
			skip = append(skip, recur.DateOf(at, loc))
		}
		switch {
		case len(skip) == len(ahead):
			return p, true, needDetails("a longer pause: I can't pause “%s” until %s — it doesn't come before then", sc.Title, recur.At(back, r.At, loc).Format("Monday, Jan 2"))
		case len(skip) > recur.MaxSkip:
			return p, true, needDetails("a shorter pause: I can't skip “%s” more than %d times", sc.Title, recur.MaxSkip)
		}
		slices.SortFunc(skip, func(a, b recur.Date) int { return b.DaysUntil(a) })
		r.Skip, args.Paused = skip, back
	}
	args.Rule = r
	a, err := action.New(action.ReminderUpdate, args)
	if err != nil {
		p, err = plannedErr(p, err)
		return p, true, err
	}
	p.Actions = []action.Action{a}
	return p, true, nil
}

// pauseEnd is when a pause said as "for two weeks", "for a month", "until
// Monday" or "through Friday" ends: a length from now, or the start of a
// day.
func pauseEnd(how, said string, now time.Time) (time.Time, bool) {
	if how == "for" {
		said = words.TrimWordsLeft(strings.ToLower(strings.TrimSpace(said)), "the", "next")
		if d, ok := timex.ParseDuration(said); ok {
			return now.Add(d), true
		}
		// "For a month" has no fixed length: it ends when "in a month"
		// does, as timex reads it.
		said = "in " + said
	}
	m, ok := timex.Parse(said, now, timex.Options{})
	if !ok || m.Kind != timex.Value || m.Grain < timex.Day || m.Text != strings.TrimSpace(said) && how == "for" {
		return time.Time{}, false
	}
	day := recur.DateOf(m.Value, now.Location())
	if how == "through" {
		day = day.AddDays(1)
	}
	end := recur.At(day, recur.TimeOfDay{}, now.Location())
	return end, end.After(now)
}
