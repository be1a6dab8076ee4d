package scheduler

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// CommandStore is what the chat commands and reminder buttons need.
type CommandStore interface {
	Schedule(ctx context.Context, id int64) (hearth.Schedule, error)
	UpcomingSchedules(ctx context.Context, userID int64, limit int) ([]hearth.Schedule, error)
	MuteScheduleTx(ctx context.Context, tx pgx.Tx, userID, id int64) error
	CreateReminder(ctx context.Context, key string, userID int64, text string, rule json.RawMessage, next time.Time) (int64, error)
	ReminderRules(ctx context.Context, userID int64, text, exceptKey string) ([]json.RawMessage, error)
	Snooze(ctx context.Context, userID, messageID int64, at time.Time, d hearth.ScheduleDetail) (bool, error)
	UpdateScheduleSettings(ctx context.Context, userID int64, upd hearth.ScheduleSettingsUpdate) (hearth.ScheduleSettings, error)
	ButtonsOpen(ctx context.Context, conversationID, messageID int64) (bool, error)
	EditMessageWithButtonTx(ctx context.Context, tx pgx.Tx, conversationID int64, buttonID, text string) ([]int64, error)
}

// Actions runs actions for a turn, idempotently per (turn, index); the
// Done button completes a task through it, so the completion is audited
// and "undo" reopens it.
type Actions interface {
	Run(ctx context.Context, t action.Turn, plan []action.Action) ([]action.Record, error)
}

// Commands returns the scheduler's chat commands, briefing and
// reminders, for the commands registry. Both need the user's time zone.
func (s *Scheduler) Commands(st CommandStore, actions Actions) []commands.Command {
	c := &cmds{s: s, st: st, actions: actions}
	return []commands.Command{{
		Name: "briefing", Args: "[at TIME | off | on]", Private: true, NeedsZone: true,
		Help: "your daily briefing now; when it comes, what it leaves out and where it goes",
		Examples: []string{"briefing now", "send my briefing at 6:45", "stop my briefings", "start my briefings",
			"skip the family section", "include the family section", "send my briefings here"},
		Match:   anyOf(reBriefingNow, reBriefingAt, reBriefingWhen, reBriefingOff, reBriefingOn, reSkip, reUnskip, reHere),
		Handler: c.handler(""),
	}, {
		Name: "reminders", Args: "[cancel N]", NeedsZone: true,
		Help: "list your reminders, cancel one, set how early deadlines, birthdays and events remind you, or make a repeating one",
		Examples: []string{"list my reminders", "cancel reminder 2", "cancel the Monday one", "remind me 2 days before deadlines",
			"remind me every Monday at 9 to water the plants", "stop reminding me about the plants", "remind me 30 minutes before meetings", "stop reminding me before meetings"},
		Match: func(norm string) bool {
			if anyOf(reList, reCancelN, reCancel, reStopAbout, reLead, reEventLead, reEventOff)(norm) {
				return true
			}
			if !reRemindMe.MatchString(norm) && !chore(norm) {
				return false
			}
			_, _, ok := timex.ParseRecurrence(norm)
			return ok
		},
		Handler: c.handler("list my reminders"),
	}, {
		Name: "quiet", Args: "[FROM to TO | off]", NeedsZone: true,
		Help:     "quiet hours: reminders you didn't set for that time wait until they end",
		Examples: []string{"don't message me after 9pm", "quiet hours from 10pm to 7am", "no quiet hours"},
		Match:    anyOf(reQuietAfter, reQuietFromTo, reQuietOff, reQuietShow),
		Handler:  c.handler(""),
	}}
}

// Buttons handles the Done, Snooze 1 h and Tomorrow morning buttons of
// reminders, and the choice of which reminder to cancel (ids starting
// with ButtonPrefix).
func (s *Scheduler) Buttons(st CommandStore, actions Actions) commands.Handler {
	c := &cmds{s: s, st: st, actions: actions}
	return commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
		loc, ok := s.zones.load(r.User.Timezone)
		if !ok {
			return pipeline.Answer{}, false, nil
		}
		var ans pipeline.Answer
		text, err := c.button(ctx, r.Turn, loc, &ans)
		if err != nil {
			return pipeline.Answer{}, false, err
		}
		ans.Replies = []hearth.Outbound{{Text: text}}
		return ans, true, nil
	})
}

// handler answers a command's phrasings; bare is what the command's name
// alone stands for ("" keeps the name: "briefing" is a briefing now).
func (c *cmds) handler(bare string) commands.Handler {
	return commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
		loc, ok := c.s.zones.load(r.User.Timezone)
		if !ok {
			return pipeline.Answer{}, false, nil
		}
		text := r.Text
		if r.ByName && r.Args == "" && bare != "" {
			text = bare
		}
		var ans pipeline.Answer
		reply, ok, err := c.message(ctx, r.Turn, text, loc, &ans)
		if err != nil || !ok {
			return pipeline.Answer{}, false, err
		}
		if len(ans.Replies) == 0 { // a reply with buttons is set whole
			ans.Replies = []hearth.Outbound{{Text: reply}}
		}
		return ans, true, nil
	})
}

func anyOf(res ...*regexp.Regexp) func(string) bool {
	return func(s string) bool {
		for _, re := range res {
			if re.MatchString(s) {
				return true
			}
		}
		return false
	}
}

type cmds struct {
	s       *Scheduler
	st      CommandStore
	actions Actions
}

var (
	reBriefingNow = regexp.MustCompile(`^(?:/?hearth )?(?:/?briefing(?: now| please)?|(?:send|give|show) me (?:my|the|a) briefing(?: now)?|(?:what'?s|whats) my briefing)$`)
	reBriefingAt  = regexp.MustCompile(`^(?:send|deliver|give me|schedule|move|set|change) (?:me )?(?:my|a|the) (?:daily |morning )?briefing(?: time)? (?:every (?:day|morning) )?(?:at|to|for) (.+)$|^(?:daily |morning )?briefing (?:every (?:day|morning) )?at (.+)$`)
	// "when does my briefing come?", "what's my briefing time?".
	reBriefingWhen = regexp.MustCompile(`^(?:what(?:'s| is|s) my (?:daily |morning )?briefing time|when (?:is|does|do) my (?:daily |morning )?briefings?(?: come| arrive| get sent)?|what time (?:is|does|do) my (?:daily |morning )?briefings?(?: come| arrive)?)$`)
	reBriefingOff  = regexp.MustCompile(`^(?:stop|pause|turn off|disable|cancel|no more) (?:my |the )?(?:daily |morning )?briefings?$`)
	reBriefingOn   = regexp.MustCompile(`^(?:start|resume|turn on|enable|restart) (?:my |the )?(?:daily |morning )?briefings?$`)
	reSkip         = regexp.MustCompile(`^(?:skip|drop|remove|leave out|hide|no) (?:the )?([a-z& ]+?) section(?: (?:of|in|from) my briefing)?$`)
	reUnskip       = regexp.MustCompile(`^(?:include|add|show|bring back|put back) (?:the )?([a-z& ]+?) section(?: (?:of|in|to) my briefing)?$`)
	reHere         = regexp.MustCompile(`^send (?:my )?(?:briefings?|reminders?)(?: and (?:briefings?|reminders?))? (?:here|to this chat)$`)
	reList         = regexp.MustCompile(`^(?:list|show|what are|show me)(?: all)? my(?: recurring| repeating| regular)? reminders$|^my(?: recurring| repeating)? reminders$|^(?:what|which)(?: recurring| repeating)? reminders (?:do i have|have i got|have i set|are set|are there|are coming up)$|^(?:do i have )?any(?: recurring| repeating)? reminders$`)
	reCancelN      = regexp.MustCompile(`^(?:cancel|stop|delete|remove) reminder (?:number )?(\d+)$`)
	reCancel       = regexp.MustCompile(`^(?:cancel|stop|delete|remove) (?:the |my )?(.+?) (?:one|reminder)$`)
	// "stop reminding me about the bins", "don't remind me to water the
	// plants anymore": a repeating reminder named by its words.
	reStopAbout   = regexp.MustCompile(`^(?:please )?(?:stop|quit|no more|don'?t|do not|never) remind(?:ing|ers?)? (?:me )?(?:about|to|of|for|on) (.+?)(?: (?:anymore|any more|again))?$`)
	reLead        = regexp.MustCompile(`^remind me (\d+(?:(?:,| and|, and) \d+)*) days? (?:before|ahead of) (?:my |the )?(deadlines|due dates|tasks|birthdays|anniversaries|birthdays and anniversaries)$`)
	reEventLead   = regexp.MustCompile(`^remind me (?:(\d+|an?|one) (minutes?|mins?|hours?|hrs?) )?(?:before|ahead of) (?:my |all my |the |all )?(?:meetings|events|appointments)$`)
	reEventOff    = regexp.MustCompile(`^(?:stop|don'?t|do not|no more|no) remind(?:ing|ers?)? (?:me )?(?:before|ahead of) (?:my |the )?(?:meetings|events|appointments)$`)
	reQuietAfter  = regexp.MustCompile(`^(?:don'?t|do not|never) (?:message|text|ping|bother|disturb|remind|notify|write to) me after (.+?)(?: (?:or|and) before (.+))?$`)
	reQuietFromTo = regexp.MustCompile(`^(?:set )?(?:my )?quiet(?: hours?| time)? (?:from |between )?(.+?) (?:to|until|till|and) (.+)$`)
	reQuietOff    = regexp.MustCompile(`^(?:no|stop|turn off|cancel|remove|clear) (?:my |the )?quiet(?: hours?| time)?$|^you can (?:message|text) me (?:at )?any ?time$`)
	reQuietShow   = regexp.MustCompile(`^(?:/?quiet(?: hours?)?|(?:what are|show) my quiet hours)$`)
	reRemindMe    = regexp.MustCompile(`(?i)^\s*(?:please )?(?:remind me|reminder)\b(?: to)?`)
	// reChore starts a household chore said as a habit ("take out the
	// bins every Tuesday evening", "water the plants every Monday at
	// 9"): with a recurrence it is a repeating reminder, as if "remind me
	// to" came first, not an event or a one-off to-do.
	reChore  = regexp.MustCompile(`(?i)^\s*(?:please )?(?:take|put (?:out|in)|bring in|pick up|drop off|collect|call|ring|check|water|feed|walk|empty|mow|hoover|vacuum|iron|pay|renew|charge|change|clean|wash)\b`)
	reSpaces = regexp.MustCompile(`\s+`)
	reDigits = regexp.MustCompile(`\d+`)
)

// chore reports a household chore said as a habit (reChore); "change my
// standup reminder to Mondays" changes a reminder, the task planner's.
func chore(s string) bool {
	return reChore.MatchString(s) && !strings.Contains(strings.ToLower(s), "reminder")
}

// message answers one of the scheduler's phrasings; a write that must
// commit with the reply goes into ans.
func (c *cmds) message(ctx context.Context, t pipeline.Turn, raw string, loc *time.Location, ans *pipeline.Answer) (string, bool, error) {
	text := commands.Normalise(raw)
	uid := t.User.ID
	now := c.s.cfg.Now()
	set := func(upd hearth.ScheduleSettingsUpdate) (hearth.ScheduleSettings, error) {
		return c.st.UpdateScheduleSettings(ctx, uid, upd)
	}
	switch {
	case reBriefingNow.MatchString(text):
		st, err := set(hearth.ScheduleSettingsUpdate{})
		if err != nil {
			return "", true, err
		}
		b, err := c.s.Briefing(ctx, uid, loc, now, st.BriefingSkip)
		return b, true, err
	case reBriefingAt.MatchString(text):
		g := reBriefingAt.FindStringSubmatch(text)
		at, ok := parseClockWords(g[1] + g[2])
		if !ok {
			return "I didn't catch the time. Try \"send my briefing at 6:45\".", true, nil
		}
		on := true
		clock := at.String()
		if _, err := set(hearth.ScheduleSettingsUpdate{BriefingAt: &clock, BriefingEnabled: &on}); err != nil {
			return "", true, err
		}
		return "Done — your daily briefing will arrive at " + clockWords(at) + " (" + loc.String() + ").", true, nil
	case reBriefingWhen.MatchString(text):
		st, err := set(hearth.ScheduleSettingsUpdate{})
		if err != nil {
			return "", true, err
		}
		at, _ := parseClock(st.BriefingAt)
		if !st.BriefingEnabled {
			return "Your daily briefing is off. Say \"start my briefings\" to get it every day at " + clockWords(at) + ".", true, nil
		}
		return "Your daily briefing comes every day at " + clockWords(at) + " (" + loc.String() + "). Say \"send my briefing at 6:45\" to change it.", true, nil
	case reBriefingOff.MatchString(text):
		off := false
		if _, err := set(hearth.ScheduleSettingsUpdate{BriefingEnabled: &off}); err != nil {
			return "", true, err
		}
		return "Okay, no more daily briefings. Say \"start my briefings\" any time to get them back.", true, nil
	case reBriefingOn.MatchString(text):
		on := true
		st, err := set(hearth.ScheduleSettingsUpdate{BriefingEnabled: &on})
		if err != nil {
			return "", true, err
		}
		at, _ := parseClock(st.BriefingAt)
		return "Your daily briefing is on: every day at " + clockWords(at) + ".", true, nil
	case reSkip.MatchString(text) || reUnskip.MatchString(text):
		skip := reSkip.MatchString(text)
		g := reSkip.FindStringSubmatch(text)
		if !skip {
			g = reUnskip.FindStringSubmatch(text)
		}
		name, ok := sectionName(g[1])
		if !ok {
			return "The briefing's sections are calendar, birthdays, deadlines, meeting prep, family, lists and email. Which one did you mean?", true, nil
		}
		upd := hearth.ScheduleSettingsUpdate{Unskip: []string{name}}
		if skip {
			upd = hearth.ScheduleSettingsUpdate{Skip: []string{name}}
		}
		if _, err := set(upd); err != nil {
			return "", true, err
		}
		if skip {
			return "Okay, I'll leave the " + sectionTitle(name) + " section out of your briefing.", true, nil
		}
		return "Okay, the " + sectionTitle(name) + " section is back in your briefing.", true, nil
	case reHere.MatchString(text):
		conv := t.Event.ConversationID
		if _, err := set(hearth.ScheduleSettingsUpdate{ConversationID: &conv}); err != nil {
			return "", true, err
		}
		return "Got it — I'll send your briefings and reminders to this chat.", true, nil
	case reLead.MatchString(text):
		g := reLead.FindStringSubmatch(text)
		var days []int
		for _, f := range reDigits.FindAllString(g[1], -1) {
			n, _ := strconv.Atoi(f)
			days = append(days, n)
		}
		upd := hearth.ScheduleSettingsUpdate{LeadDays: days}
		what := "deadlines"
		if strings.HasPrefix(g[2], "birthday") || strings.HasPrefix(g[2], "anniversar") {
			what = "birthdays and anniversaries"
			upd = hearth.ScheduleSettingsUpdate{BirthdayDays: &days[0]}
		}
		if _, err := set(upd); err != nil {
			if errors.Is(err, hearth.ErrInvalid) {
				return prose.UpperFirst(hearth.ErrorMessage(err)) + ".", true, nil
			}
			return "", true, err
		}
		return "Okay — for " + what + " I'll remind you " + daysWords(upd) + " before (and on the day).", true, nil
	case reEventLead.MatchString(text):
		g := reEventLead.FindStringSubmatch(text)
		mins := 15
		if g[1] != "" {
			n, err := strconv.Atoi(g[1])
			if err != nil {
				n = 1 // "an hour", "a minute"
			}
			if strings.HasPrefix(g[2], "h") {
				n *= 60
			}
			mins = n
		}
		if _, err := set(hearth.ScheduleSettingsUpdate{EventLeadMinutes: &mins}); err != nil {
			if errors.Is(err, hearth.ErrInvalid) {
				return prose.UpperFirst(hearth.ErrorMessage(err)) + ".", true, nil
			}
			return "", true, err
		}
		if mins == 0 {
			return "Okay, no reminders before events.", true, nil
		}
		return fmt.Sprintf("Okay — I'll remind you %s before each timed event on your calendar (moved events move their reminder). Say \"stop reminding me before meetings\" to turn it off.", minutesWords(mins)), true, nil
	case reEventOff.MatchString(text):
		off := 0
		if _, err := set(hearth.ScheduleSettingsUpdate{EventLeadMinutes: &off}); err != nil {
			return "", true, err
		}
		return "Okay, no more reminders before events.", true, nil
	case reQuietAfter.MatchString(text) || reQuietFromTo.MatchString(text):
		g := reQuietAfter.FindStringSubmatch(text)
		if g == nil {
			g = reQuietFromTo.FindStringSubmatch(text)
		}
		from, ok := parseClockWords(g[1])
		to := recur.TimeOfDay{Hour: 7} // "after 9pm": until the morning
		if ok && g[2] != "" {
			to, ok = parseClockWords(g[2])
		}
		if !ok || from == to {
			return "I didn't catch the times. Try \"don't message me after 9pm\" or \"quiet hours from 10pm to 7am\".", true, nil
		}
		f, e := from.String(), to.String()
		if _, err := set(hearth.ScheduleSettingsUpdate{QuietFrom: &f, QuietTo: &e}); err != nil {
			return "", true, err
		}
		return "Okay — between " + clockWords(from) + " and " + clockWords(to) + " I'll hold reminders you didn't set for that time (before events, ahead of deadlines and birthdays) until " + clockWords(to) + ". Reminders you set for a time, and your briefing, still come when you asked.", true, nil
	case reQuietOff.MatchString(text):
		none := ""
		if _, err := set(hearth.ScheduleSettingsUpdate{QuietFrom: &none, QuietTo: &none}); err != nil {
			return "", true, err
		}
		return "Okay, no quiet hours: reminders come when they are due.", true, nil
	case reQuietShow.MatchString(text):
		st, err := set(hearth.ScheduleSettingsUpdate{})
		if err != nil {
			return "", true, err
		}
		if st.QuietFrom == "" {
			return "You have no quiet hours. Say \"don't message me after 9pm\" to set some.", true, nil
		}
		from, _ := parseClock(st.QuietFrom)
		to, _ := parseClock(st.QuietTo)
		return "Your quiet hours: " + clockWords(from) + " to " + clockWords(to) + ".", true, nil
	case reList.MatchString(text):
		list, err := c.upcoming(ctx, uid)
		if err != nil {
			return "", true, err
		}
		if len(list) == 0 {
			return "You have no reminders coming up.", true, nil
		}
		lines := []string{"Your reminders:"}
		for i, sc := range list {
			lines = append(lines, fmt.Sprintf("%d. %s", i+1, c.describe(sc, loc)))
		}
		if len(list) == 1 {
			lines = append(lines, "", "Say \"cancel reminder 1\" to stop it.")
		} else {
			lines = append(lines, "", fmt.Sprintf("Say \"cancel reminder %d\" or \"cancel the Monday one\" to stop one.", len(list)))
		}
		return strings.Join(lines, "\n"), true, nil
	case reCancelN.MatchString(text) || reCancel.MatchString(text) || reStopAbout.MatchString(text):
		return c.cancel(ctx, t, loc, text, ans)
	}
	if reRemindMe.MatchString(raw) || chore(raw) {
		if g := reTwoTimes.FindStringSubmatchIndex(raw); g != nil {
			// "… at 8am and 8pm every day": a reminder at each time.
			one, two := raw[g[2]:g[3]], raw[g[4]:g[5]]
			_, _, ok1 := timex.ParseClock(one)
			_, _, ok2 := timex.ParseClock(two)
			first, second := raw[:g[0]]+" at "+one+raw[g[1]:], raw[:g[0]]+" at "+two+raw[g[1]:]
			r1, s1, ok3 := timex.ParseRecurrence(first)
			r2, s2, ok4 := timex.ParseRecurrence(second)
			if ok1 && ok2 && ok3 && ok4 {
				a, ok, err := c.recurring(ctx, t, first, loc, r1, s1, "")
				if err != nil || !ok {
					return a, ok, err
				}
				b, ok, err := c.recurring(ctx, t, second, loc, r2, s2, ":2")
				return a + "\n" + b, ok, err
			}
		}
		if rule, span, ok := timex.ParseRecurrence(raw); ok {
			return c.recurring(ctx, t, raw, loc, rule, span, "")
		}
	}
	return "", false, nil
}

// reTwoTimes finds two times of day in a repeating reminder: "take my
// meds at 8am and 8pm every day".
var reTwoTimes = regexp.MustCompile(`(?i)\s+at\s+(\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)?)\s+and\s+(?:at\s+)?(\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)?)\b`)

// recurring creates "remind me every Monday at 9 to water the plants".
// part tells apart the reminders one message makes ("" for the first).
func (c *cmds) recurring(ctx context.Context, t pipeline.Turn, raw string, loc *time.Location, rule recur.Rule, span timex.Span, part string) (string, bool, error) {
	now := c.s.cfg.Now()
	// "… until Christmas", "… for 2 weeks": when it stops.
	end, rest := timex.ParseEnd(strings.TrimSpace(raw[:span.Start]+" "+raw[span.End:]), now.In(loc))
	title := reRemindMe.ReplaceAllString(rest, "")
	title = strings.Trim(reSpaces.ReplaceAllString(title, " "), " ,.!?")
	title = strings.TrimPrefix(title, "to ")
	if title == "" {
		return "What should I remind you of " + rule.String() + "?", true, nil
	}
	if rule.Start.IsZero() {
		rule.Start = recur.DateOf(now, loc)
	}
	if err := rule.Validate(); err != nil {
		return "I couldn't make a schedule of that (" + err.Error() + "). Could you say it another way?", true, nil
	}
	first, ok := rule.Next(now, loc)
	if !ok {
		return "That schedule never comes up again, so there is nothing to remind you of.", true, nil
	}
	if rule.Until = end.Last(recur.DateOf(first, loc)); !rule.Until.IsZero() && rule.Until.DaysUntil(recur.DateOf(first, loc)) > 0 {
		return "That ends before it would first remind you (" + rule.Until.String() + "). Could you say it another way?", true, nil
	}
	b, err := json.Marshal(rule)
	if err != nil {
		return "", true, fmt.Errorf("encode rule: %w", err)
	}
	key := "event:" + strconv.FormatInt(t.Event.ID, 10) + part
	// Said twice, it is set once: the same words and the same schedule
	// as a reminder the user has (other than this turn's own, when it is
	// retried).
	rules, err := c.st.ReminderRules(ctx, t.User.ID, prose.UpperFirst(title), key)
	if err != nil {
		return "", true, err
	}
	for _, raw := range rules {
		var r recur.Rule
		if json.Unmarshal(raw, &r) == nil && r.String() == rule.String() {
			return fmt.Sprintf("You already have that reminder: “%s” %s. Say \"list my reminders\" to see them all.", markdown.Escape(prose.UpperFirst(title)), rule.String()), true, nil
		}
	}
	if _, err := c.st.CreateReminder(ctx, key, t.User.ID, prose.UpperFirst(title), b, first); err != nil {
		return "", true, err
	}
	// "Pick up the kids at 3:30 every weekday": "… to pick up the kids".
	return fmt.Sprintf("Got it — I'll remind you to %s %s. First one: %s.", prose.SecondPerson(prose.LowerFirst(title)), rule.String(), whenWords(first, loc, now)), true, nil
}

// upcoming is the user's reminders to come, in the order they are
// listed and numbered, with what they changed since the planner's last run
// synced first: a task they dated a moment ago is listed too. (A cancel
// reads the list as it stands: the numbers are those of the list shown,
// and "cancel the ferns reminder" of a task not yet synced is the
// planner's, which deletes the task.)
func (c *cmds) upcoming(ctx context.Context, userID int64) ([]hearth.Schedule, error) {
	if err := c.s.SyncUser(ctx, userID); err != nil {
		return nil, err
	}
	return c.st.UpcomingSchedules(ctx, userID, 20)
}

func (c *cmds) describe(sc hearth.Schedule, loc *time.Location) string {
	now := c.s.cfg.Now()
	when := whenWords(sc.NextAt, loc, now)
	switch sc.Kind {
	case hearth.ScheduleReminder:
		var r recur.Rule
		if json.Unmarshal(sc.Rule, &r) == nil {
			return "“" + markdown.Escape(sc.Title) + "” " + r.String() + " (next: " + when + ")"
		}
	case hearth.ScheduleBirthday:
		return markdown.Escape(prose.UpperFirst(prose.Possessive(sc.Detail.About)+" "+sc.Detail.What)) + " (next reminder: " + when + ")"
	case hearth.ScheduleTask:
		return "“" + markdown.Escape(sc.Title) + "” (task; next reminder: " + when + ")"
	case hearth.ScheduleEvent:
		return "“" + markdown.Escape(sc.Title) + "” (event; reminder: " + when + ")"
	}
	return "“" + markdown.Escape(sc.Title) + "” (" + when + ")"
}

// button handles Done, Snooze 1 h and Tomorrow morning. The conversation's
// turns run one at a time, so "still open?", the effect and closing the
// buttons cannot interleave with another click on the same message; the
// effects are idempotent, so a retried turn repeats nothing.
func (c *cmds) button(ctx context.Context, t pipeline.Turn, loc *time.Location, ans *pipeline.Answer) (string, error) {
	parts := strings.Split(strings.TrimPrefix(t.Event.ButtonID, ButtonPrefix), ":")
	if len(parts) != 3 {
		return "I don't recognise that button.", nil
	}
	sid, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil {
		return "I don't recognise that button.", nil
	}
	sc, err := c.st.Schedule(ctx, sid)
	if errors.Is(err, hearth.ErrNotFound) || (err == nil && sc.UserID != t.User.ID) {
		return "I don't recognise that button.", nil
	}
	if err != nil {
		return "", err
	}
	open, err := c.st.ButtonsOpen(ctx, t.Event.ConversationID, t.Event.MessageID)
	if err != nil {
		return "", err
	}
	if !open {
		return "That reminder was already taken care of.", nil
	}
	kind, item := sc.Kind, sc.ItemID
	if kind == hearth.ScheduleSnooze {
		kind, item = sc.Detail.OfKind, sc.Detail.OfItem
	}
	now := c.s.cfg.Now()
	var reply, outcome string
	switch parts[0] {
	case "cancel":
		// The answer to cancel's "Which one?".
		if reply, err = c.cancelOne(ctx, t, sc, loc, ans); err != nil {
			return "", err
		}
		outcome = "→ " + markdown.Plain(c.describe(sc, loc))
	case "done":
		outcome = "✓ Done"
		if kind == hearth.ScheduleTask {
			a, err := action.New(action.TaskComplete, action.TaskRefArgs{ID: item, Title: sc.Title})
			if err != nil {
				return "", fmt.Errorf("complete task %d: %w", item, err)
			}
			recs, err := c.actions.Run(ctx, action.Turn{EventID: t.Event.ID, ConversationID: t.Event.ConversationID, UserID: t.User.ID}, []action.Action{a})
			if err != nil {
				return "", fmt.Errorf("complete task %d: %w", item, err)
			}
			traceRecords(ans, recs)
			if len(recs) != 1 || recs[0].State != action.StateDone {
				// Deleted meanwhile, most likely; the buttons stay closed.
				reply = "I couldn't mark “" + markdown.Escape(sc.Title) + "” done — it may have been deleted."
				break
			}
			reply = "Nice work — “" + markdown.Escape(sc.Title) + "” is done. ✓"
		} else {
			reply = "Great — done. ✓"
		}
	case "snooze", "morning":
		at := now.Add(time.Hour)
		if parts[0] == "morning" {
			at = recur.At(recur.DateOf(now, loc).AddDays(1), Morning, loc)
		}
		if _, err := c.st.Snooze(ctx, t.User.ID, t.Event.MessageID, at, hearth.ScheduleDetail{Text: sc.Title, OfKind: kind, OfItem: item}); err != nil {
			return "", err
		}
		reply = "Snoozed — I'll remind you again " + whenWords(at, loc, now) + "."
		outcome = "💤 Snoozed until " + whenWords(at, loc, now)
	default:
		return "I don't recognise that button.", nil
	}
	conv, button, version := t.Event.ConversationID, t.Event.ButtonID, t.Event.ID
	edit := func(ctx context.Context, tx pgx.Tx) error {
		ids, err := c.st.EditMessageWithButtonTx(ctx, tx, conv, button, outcome)
		if err != nil {
			return err
		}
		return pipeline.EnqueueEdits(ctx, tx, ids, version)
	}
	ans.Add(edit)
	return reply, nil
}
