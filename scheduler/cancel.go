package scheduler

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/action"
)

// cancel stops a reminder named by number or by a word of its
// description ("the Monday one"). Two or more that fit are a question
// whose buttons (ButtonPrefix "cancel:") name one each.
func (c *cmds) cancel(ctx context.Context, t pipeline.Turn, loc *time.Location, text string, ans *pipeline.Answer) (string, bool, error) {
	list, err := c.st.UpcomingSchedules(ctx, t.User.ID, 20)
	if err != nil {
		return "", true, err
	}
	var hits []hearth.Schedule
	if g := reCancelN.FindStringSubmatch(text); g != nil {
		n, _ := strconv.Atoi(g[1])
		if n >= 1 && n <= len(list) {
			hits = append(hits, list[n-1])
		}
	} else {
		g := reCancel.FindStringSubmatch(text)
		if g == nil {
			g = reStopAbout.FindStringSubmatch(text)
		}
		words := slices.DeleteFunc(strings.Fields(g[1]), func(w string) bool { return w == "the" || w == "my" })
		for _, sc := range list {
			// The words name the reminder, not its next time: on a Friday
			// "the Monday one" would otherwise also fit a weekday reminder
			// whose next occurrence is Monday.
			d, _, _ := strings.Cut(strings.ToLower(markdown.Plain(c.describe(sc, loc))), " (next: ")
			all := true
			for _, w := range words {
				if !strings.Contains(d, w) {
					all = false
				}
			}
			if all {
				hits = append(hits, sc)
			}
		}
	}
	switch len(hits) {
	case 0:
		if g := reStopAbout.FindStringSubmatch(text); g != nil {
			// Never a new task named "stop reminding me …".
			return "I don't have a repeating reminder about " + markdown.Escape(g[1]) + ". Say \"list my reminders\" to see the ones you have.", true, nil
		}
		if !strings.Contains(text, "reminder") || reCancel.MatchString(text) && !reCancelN.MatchString(text) {
			// "cancel the second one" may answer another question, and
			// "cancel my dentist reminder" may name a task whose
			// reminders are not planned yet, or an event: the pipeline
			// looks for it.
			return "", false, nil
		}
		if len(list) == 0 {
			return "You have no reminders to cancel.", true, nil
		}
		return "I couldn't tell which reminder you meant. Say \"list my reminders\" and then \"cancel reminder 2\".", true, nil
	case 1:
		reply, err := c.cancelOne(ctx, t, hits[0], loc, ans)
		return reply, true, err
	}
	lines := []string{"Which one?"}
	var buttons []hearth.Button
	for i, sc := range hits {
		lines = append(lines, fmt.Sprintf("%d. %s", i+1, c.describe(sc, loc)))
		// Keyed on the question's turn as well, so two questions about
		// the same reminders have buttons of their own.
		buttons = append(buttons, hearth.Button{
			ID:    ButtonPrefix + "cancel:" + strconv.FormatInt(sc.ID, 10) + ":" + strconv.FormatInt(t.Event.ID, 10),
			Label: markdown.Plain(c.describe(sc, loc)),
		})
	}
	reply := strings.Join(lines, "\n")
	ans.Replies = []hearth.Outbound{{Text: reply, Buttons: buttons}}
	return reply, true, nil
}

// cancelOne stops the reminder sc. A task's or a recurring reminder's
// goes through the action engine, so it is audited and "undo" brings it
// back; others (a birthday's, an event's) are muted with the reply.
func (c *cmds) cancelOne(ctx context.Context, t pipeline.Turn, sc hearth.Schedule, loc *time.Location, ans *pipeline.Answer) (string, error) {
	var a action.Action
	var err error
	switch {
	case c.actions == nil:
	case sc.Kind == hearth.ScheduleTask:
		// Cancelling a task's reminder cancels the task: muted, it would
		// stay open and in the briefing.
		a, err = action.New(action.TaskDelete, action.TaskRefArgs{ID: sc.ItemID, Title: sc.Title})
	case sc.Kind == hearth.ScheduleReminder:
		a, err = action.New(action.ReminderCancel, action.ReminderRefArgs{ID: sc.ID, Title: sc.Title})
	}
	if err != nil {
		return "", fmt.Errorf("cancel schedule %d: %w", sc.ID, err)
	}
	if a.Kind == "" {
		// Muted with the reply: a retried turn would otherwise find the
		// list renumbered and cancel a second reminder.
		id := sc.ID
		ans.Add(func(ctx context.Context, tx pgx.Tx) error { return c.st.MuteScheduleTx(ctx, tx, t.User.ID, id) })
		return "Cancelled: " + c.describe(sc, loc) + ".", nil
	}
	// Run once per turn and index: a retried turn that finds the list
	// renumbered gets the first run's record back, cancelling nothing more.
	recs, err := c.actions.Run(ctx, action.Turn{EventID: t.Event.ID, ConversationID: t.Event.ConversationID, UserID: t.User.ID}, []action.Action{a})
	if err != nil {
		return "", fmt.Errorf("cancel schedule %d: %w", sc.ID, err)
	}
	traceRecords(ans, recs)
	if len(recs) != 1 || recs[0].State != action.StateDone {
		return "I couldn't cancel “" + markdown.Escape(sc.Title) + "” — it may have been cancelled already.", nil
	}
	// The reply names what the record cancelled: on a retried turn, the
	// first attempt's.
	if sc.Kind == hearth.ScheduleTask {
		if p, err := action.Decode[action.TaskRefArgs](recs[0].Action); err == nil && p.Title != "" {
			sc.Title = p.Title
		}
		return "Cancelled “" + markdown.Escape(sc.Title) + "” and its reminders. Say “undo” to bring it back.", nil
	}
	var was hearth.Schedule
	if json.Unmarshal(recs[0].Result, &was) == nil && was.ID != 0 {
		sc = was
	}
	return "Cancelled: " + c.describe(sc, loc) + ". Say “undo” to bring it back.", nil
}

// traceRecords lists the actions a command ran in its turn's trace.
func traceRecords(ans *pipeline.Answer, recs []action.Record) {
	for _, r := range recs {
		ans.Actions = append(ans.Actions, hearth.TraceAction{Kind: string(r.Action.Kind), Status: string(r.State), Error: r.Error})
	}
}
