package plan

import (
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// Changing a recurring reminder ("remind me every day at 9 to join the
// standup") by chat: "change my daily standup reminder to 9:30", "move
// my weekly bins reminder to Thursdays", "make the vitamins reminder 8am
// instead". The reminder is named by its words, matched as task titles
// are; the new time and days are read by timex's recurrence grammar, the
// same one that made the reminder, and replace only what was said: a new
// time keeps the days, new days keep the time. The next occurrence is
// computed when the change runs, in the user's zone.

// recurringWords say a reference is to a recurring reminder; they are
// not part of its name.
var recurringWords = []string{"daily", "weekly", "monthly", "yearly", "annual", "recurring", "repeating", "regular",
	"everyday", "morning", "evening", "nightly", "weekday", "weekend"}

// planReminderChange plans reminder.update when text changes when one of
// the user's recurring reminders comes. ok is false when the text names
// none of them or no new time or days, so the caller goes on as before.
func planReminderChange(in stage.PlanInput, text string) (p stage.Plan, ok bool, err error) {
	if len(in.Context.Reminders) == 0 {
		return p, false, nil
	}
	now := stage.UserNow(in.Context)
	refText, target, found := reminderChangeParts(text, now)
	if !found {
		return p, false, nil
	}
	ref, cued := reminderRef(refText)
	if isPronounRef(ref) {
		// "Move it to Tuesday" right after Hearth set the reminder.
		ref, cued = reminderInReply(in.Context), true
	}
	if ref == "" {
		return p, false, nil
	}
	hits := matchReminders(ref, in.Context.Reminders)
	if len(hits) == 0 {
		return p, false, nil
	}
	if !cued && hasTask(ref, in.Context) {
		// "move the report to 3pm" names a task as well: the task
		// planner's move (or its question) decides.
		return p, false, nil
	}
	p.Understood = "change when “" + markdown.Escape(in.Context.Reminders[hits[0]].Title) + "” reminds you"
	var labels []string
	var acts []action.Action
	for _, i := range hits {
		sc := in.Context.Reminders[i]
		var old recur.Rule
		if err := json.Unmarshal(sc.Rule, &old); err != nil {
			continue // a rule this build cannot read is left alone
		}
		rule, changed := changedRule(old, target, now)
		if !changed {
			return p, true, needDetails("what time or days it should come")
		}
		if err := rule.Validate(); err != nil {
			return p, true, needDetails("a time or days I can repeat (%v)", err)
		}
		a, err := action.New(action.ReminderUpdate, action.ReminderUpdateArgs{ID: sc.ID, Title: sc.Title, Rule: rule})
		if err != nil {
			p, err = plannedErr(p, err)
			return p, true, err
		}
		acts = append(acts, a)
		labels = append(labels, reminderLabel(sc, old))
	}
	if len(acts) == 0 {
		return p, false, nil
	}
	return actOrAsk(p, "Which reminder should I change?", labels, acts), true, nil
}

// cancelVerbs start a request to cancel a recurring reminder, as
// taskRefRequest's delete does for a task.
// "Pause" and "stop" cancel too: undo brings the reminder back.
var cancelVerbs = []string{"cancel ", "delete ", "remove ", "drop ", "pause ", "stop ", "turn off ", "disable "}

// planReminderCancel plans reminder.cancel when text cancels one of the
// user's recurring reminders by a name the scheduler's "cancel" command
// did not find word for word ("cancel my daily standup reminder" for
// "Join the standup", every day). ok is false when it names none, or
// names a task as well: the task planner's delete decides then.
func planReminderCancel(in stage.PlanInput, text string) (p stage.Plan, ok bool, err error) {
	lc := words.StripPoliteness(words.ASCIILower(strings.TrimSpace(text)))
	if len(in.Context.Reminders) == 0 || !words.StartsWithAny(lc, cancelVerbs...) {
		return p, false, nil
	}
	rest, _, _ := words.AfterAny(text, cancelVerbs...)
	ref, cued := reminderRef(rest)
	if ref == "" || !cued && !strings.Contains(lc, "reminder") || !cued && hasTask(ref, in.Context) {
		return p, false, nil
	}
	hits := matchReminders(ref, in.Context.Reminders)
	if len(hits) == 0 {
		return p, false, nil
	}
	p.Understood = "cancel the reminder “" + markdown.Escape(in.Context.Reminders[hits[0]].Title) + "”"
	var labels []string
	var acts []action.Action
	for _, i := range hits {
		sc := in.Context.Reminders[i]
		a, err := action.New(action.ReminderCancel, action.ReminderRefArgs{ID: sc.ID, Title: sc.Title})
		if err != nil {
			p, err = plannedErr(p, err)
			return p, true, err
		}
		var r recur.Rule
		_ = json.Unmarshal(sc.Rule, &r) // a rule this build cannot read is still cancelled; its label says less
		acts = append(acts, a)
		labels = append(labels, reminderLabel(sc, r))
	}
	return actOrAsk(p, "Which reminder should I cancel?", labels, acts), true, nil
}

// planReminderSkip plans reminder.update skipping one time of a recurring
// reminder: "skip my pills reminder tomorrow", "skip tomorrow's pills
// reminder", "skip the standup reminder on Friday", "skip the next
// vitamins reminder" (its next time). The rule keeps every other time;
// undo gives the skipped one back; "skip the reminder tomorrow" skips the
// one that comes then, if only one does. ok is false when text skips
// nothing of the user's reminders.
func planReminderSkip(in stage.PlanInput, text string) (p stage.Plan, ok bool, err error) {
	lc := words.StripPoliteness(words.ASCIILower(strings.TrimSpace(text)))
	if !words.StartsWithAny(lc, "skip ") {
		return p, false, nil
	}
	now := stage.UserNow(in.Context)
	rest, _, _ := words.AfterAny(text, "skip ")
	var day recur.Date // zero: the next time
	if ms := timex.Find(rest, now, timex.Options{}); len(ms) > 0 && ms[0].Grain >= timex.Day {
		m := ms[0]
		day = recur.DateOf(m.Value, now.Location())
		after := strings.TrimLeft(strings.TrimPrefix(strings.TrimPrefix(rest[m.End:], "'s"), "’s"), " ")
		rest = rest[:m.Start] + " " + after // "tomorrow's pills reminder"
	}
	ref, _ := reminderRef(rest)
	ref = words.TrimWordsRight(words.TrimWordsLeft(words.ASCIILower(ref), "next", "one"), "on", "for", "this", "next", "time", "one")
	if ref == "" || isPronounRef(ref) {
		ref = reminderInReply(in.Context)
	}
	hits := matchReminders(ref, in.Context.Reminders)
	loc := now.Location()
	if ref == "" && !day.IsZero() {
		// "Skip the reminder tomorrow": the one that comes then, if only
		// one does.
		var on []int
		for i, sc := range in.Context.Reminders {
			var r recur.Rule
			if json.Unmarshal(sc.Rule, &r) == nil {
				if _, ok := comesOn(r, day, loc); ok {
					on = append(on, i)
				}
			}
		}
		if len(on) == 1 {
			hits, ref = on, in.Context.Reminders[on[0]].Title
		}
	}
	p.Understood = "skip a reminder once"
	switch {
	case len(hits) > 0 && ref != "":
	case !strings.Contains(lc, "reminder"):
		return p, false, nil // "skip the gym on Friday" may be a task's or an event's
	case ref == "":
		return p, true, needDetails("which repeating reminder to skip")
	default:
		return p, true, needDetails("the reminder: I couldn't find a repeating reminder about “%s” (say “list my reminders” to see yours)", ref)
	}
	sc := in.Context.Reminders[hits[0]]
	p.Understood = "skip “" + markdown.Escape(sc.Title) + "” once"
	var r recur.Rule
	if err := json.Unmarshal(sc.Rule, &r); err != nil {
		return p, true, needDetails("a reminder I can read")
	}
	if slices.Contains(r.Skip, day) {
		return p, true, needDetails("the day: “%s” isn't on %s — you skipped it already", sc.Title, recur.At(day, r.At, loc).Format("Monday, Jan 2"))
	}
	at, ok := r.Next(now, loc)
	if !day.IsZero() {
		// The day must be one it comes on: "skip the standup reminder on
		// Saturday" of a weekday one skips nothing.
		at, ok = comesOn(r, day, loc)
	}
	if !ok && !day.IsZero() {
		return p, true, needDetails("the day: “%s” isn't on %s — it comes %s", sc.Title, recur.At(day, r.At, loc).Format("Monday, Jan 2"), r.String())
	}
	if !ok {
		return p, true, needDetails("the day: I can't skip “%s”, it has no time left to come", sc.Title)
	}
	skipped := recur.DateOf(at, loc)
	today := recur.DateOf(now, loc)
	r.Skip = append(slices.DeleteFunc(slices.Clone(r.Skip), func(d recur.Date) bool { return today.DaysUntil(d) < 0 }), skipped)
	a, err := action.New(action.ReminderUpdate, action.ReminderUpdateArgs{ID: sc.ID, Title: sc.Title, Rule: r, Skipped: skipped})
	if err != nil {
		p, err = plannedErr(p, err)
		return p, true, err
	}
	p.Actions = []action.Action{a}
	return p, true, nil
}

// comesOn is when r comes on day, if it does.
func comesOn(r recur.Rule, day recur.Date, loc *time.Location) (time.Time, bool) {
	at, ok := r.Next(recur.At(day, recur.TimeOfDay{}, loc).Add(-time.Nanosecond), loc)
	return at, ok && recur.DateOf(at, loc) == day
}

// reminderChangeParts splits a change request into how it names the
// reminder and what it should become: "change my daily standup reminder
// to 9:30" → "my daily standup reminder", "9:30"; "make the vitamins
// reminder 8am instead" → "the vitamins reminder", "8am".
func reminderChangeParts(text string, now time.Time) (ref, target string, ok bool) {
	lc := words.StripPoliteness(words.ASCIILower(strings.TrimSpace(text)))
	if !words.StartsWithAny(lc, MoveVerbs...) && !words.StartsWithAny(lc, ChangeVerbs...) && !words.StartsWithAny(lc, "set ") {
		return "", "", false
	}
	rest, _, _ := words.AfterAny(text, append(append([]string{"set "}, MoveVerbs...), ChangeVerbs...)...)
	rest = words.TrimWordsRight(words.TidySlot(rest), "instead", "from now on", "going forward", "now")
	if r, t, found := words.CutBefore(rest, "to ", "until ", "for "); found && r != "" {
		return r, t, true
	}
	// No "to": the new time starts where the first time or day does.
	ms := timex.Find(rest, now, timex.Options{})
	if len(ms) == 0 || ms[0].Start == 0 {
		return "", "", false
	}
	return strings.TrimSpace(rest[:ms[0].Start]), strings.TrimSpace(rest[ms[0].Start:]), true
}

// reminderRef cleans a reference to a recurring reminder ("my daily
// standup reminder" → "standup"); cued says it used a word only a
// recurring reminder has ("daily", "weekly").
func reminderRef(s string) (ref string, cued bool) {
	s = words.TidySlot(s)
	var kept []string
	for _, f := range strings.Fields(s) {
		lf := strings.Trim(words.ASCIILower(f), ",.")
		switch {
		case lf == "my" || lf == "the" || lf == "our" || lf == "reminder" || lf == "reminders" || lf == "time" || lf == "of":
		case slices.Contains(recurringWords, lf):
			cued = true
		default:
			kept = append(kept, f)
		}
	}
	return strings.Join(kept, " "), cued
}

// changedRule is old with the time and days target says: "9:30" changes
// the time, "Thursdays" the days of a weekly (or daily) rule, "weekdays at
// 7" both, "every day" makes it daily, "the 5th" the day of a monthly
// one. changed is false when target says neither.
func changedRule(old recur.Rule, target string, now time.Time) (r recur.Rule, changed bool) {
	t := words.TidySlot(words.ASCIILower(target))
	t = words.TrimWordsLeft(t, "to", "at", "on", "for", "every")
	t = words.TrimWordsRight(t, "instead", "now", "please")
	if t == "" {
		return old, false
	}
	// "Change it to 6": a time, as "at 6" is.
	clock := HasClock(t, now) || HasClock("at "+t, now)
	r = old
	if old.Freq == recur.Monthly {
		if day, ok := monthDayOf(t); ok {
			// "the 5th", "the first of the month", "the 15th at 9am",
			// "the last day": the day of the month, and the time if said.
			r.MonthDay = day.MonthDay
			if clock {
				r.At = day.At
			}
			return r, true
		}
	}
	// Days: the recurrence grammar reads "every thursday(s) at 10",
	// "every weekday", "every tuesday and friday", "every day".
	if days, _, ok := timex.ParseRecurrence("every " + t); ok && namesDays(t) {
		switch days.Freq {
		case recur.Weekly:
			r.Freq, r.Weekdays, r.MonthDay, r.Month = recur.Weekly, days.Weekdays, 0, 0
		case recur.Daily:
			r.Freq, r.Weekdays, r.MonthDay, r.Month, r.Interval = recur.Daily, 0, 0, 0, 0
		}
		changed = days.Weekdays != 0 || days.Freq == recur.Daily
		if clock {
			r.At = days.At
			changed = true
		}
		return r, changed
	}
	if !clock {
		return old, false
	}
	// A time alone, read as the grammar reads a reminder's time ("3" is
	// 15:00, "8am" 08:00, "half past 9" 09:30).
	day, _, ok := timex.ParseRecurrence("every day at " + t)
	if !ok {
		return old, false
	}
	r.At = day.At
	return r, true
}

// monthDayOf reads a day of the month, and any time with it, as the
// recurrence grammar reads "every month on …": "the 5th", "the first of
// the month at 9", "the last day". ok is false when t names no day.
func monthDayOf(t string) (day recur.Rule, ok bool) {
	// "of the month" sits between the day and the time, where the
	// grammar does not look for it.
	for _, of := range []string{" of the month", " of every month", " of each month", " each month", " every month"} {
		t = strings.Replace(t, of, "", 1)
	}
	day, _, ok = timex.ParseRecurrence("every month on " + t)
	return day, ok && day.Freq == recur.Monthly && day.MonthDay != 0
}

// namesDays reports whether t names days of the week or every day.
func namesDays(t string) bool {
	for _, f := range strings.FieldsFunc(t, func(r rune) bool { return r == ' ' || r == ',' }) {
		if _, ok := timex.WeekdayNamed(f); ok {
			return true
		}
		if _, ok := timex.WeekdayNamed(strings.TrimSuffix(f, "s")); ok { // "weds"
			return true
		}
		switch strings.TrimSuffix(f, "s") {
		case "day", "daily", "weekday", "weekend", "everyday":
			return true
		}
	}
	return false
}

// HasClock reports whether t says a time of day.
func HasClock(t string, now time.Time) bool {
	for _, m := range timex.Find(t, now, timex.Options{}) {
		if m.Grain < timex.Day {
			return true
		}
	}
	return false
}

// reminderLabel names a recurring reminder on a button.
func reminderLabel(sc hearth.Schedule, r recur.Rule) string {
	return sc.Title + " (" + r.String() + ")"
}

// matchReminders returns the indexes of the reminders whose titles best
// match ref ("standup" for "Daily standup"), the best first.
func matchReminders(ref string, reminders []hearth.Schedule) []int {
	titles := make([]string, len(reminders))
	for i, sc := range reminders {
		titles[i] = sc.Title
	}
	return words.BestMatches(ref, titles)
}

// reminderInReply is the title of the recurring reminder Hearth's last
// reply spoke of ("I'll remind you to water the plants every Monday"),
// or "".
func reminderInReply(c stage.Context) string {
	for i := len(c.Recent) - 1; i >= 0; i-- {
		if c.Recent[i].From != hearth.FromBot {
			continue
		}
		said := strings.ToLower(markdown.Plain(c.Recent[i].Text))
		for _, sc := range c.Reminders {
			if sc.Title != "" && strings.Contains(said, strings.ToLower(sc.Title)) {
				return sc.Title
			}
		}
		return ""
	}
	return ""
}
