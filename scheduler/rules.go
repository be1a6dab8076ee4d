package scheduler

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// RuleStore is what changing a recurring reminder's rule needs.
type RuleStore interface {
	Schedule(ctx context.Context, id int64) (hearth.Schedule, error)
	SetReminderRule(ctx context.Context, userID, id int64, rule json.RawMessage, next time.Time) (before, after hearth.Schedule, err error)
	CancelReminder(ctx context.Context, userID, id int64) (before hearth.Schedule, err error)
	RestoreReminder(ctx context.Context, userID, id int64, from, next time.Time) (after hearth.Schedule, err error)
}

// Reminders returns the provider of reminder.update ("change my daily
// standup reminder to 9:30") and reminder.cancel: the scheduler owns how
// a rule expands in a user's zone, so it computes the new next
// occurrence; st keeps it.
func (s *Scheduler) Reminders(st RuleStore) action.Reminders {
	return ruleChanger{s: s, st: st}
}

type ruleChanger struct {
	s  *Scheduler
	st RuleStore
}

var _ action.Reminders = ruleChanger{}

// UpdateReminder gives the user's recurring reminder id the rule r, its
// next occurrence the rule's first after now in the user's zone (DST
// handled by recur: a 09:30 rule stays at 09:30 local on both sides of a
// change).
func (c ruleChanger) UpdateReminder(ctx context.Context, userID, id int64, r recur.Rule) (before, after hearth.Schedule, err error) {
	sc, err := c.st.Schedule(ctx, id)
	if err != nil {
		return before, after, fmt.Errorf("update reminder %d: %w", id, err)
	}
	if sc.UserID != userID || sc.Kind != hearth.ScheduleReminder || sc.Gone || sc.Muted {
		return before, after, fmt.Errorf("update reminder %d: %w", id, hearth.ErrNotFound)
	}
	b, err := json.Marshal(r) // validates
	if err != nil {
		return before, after, fmt.Errorf("update reminder %d: %w", id, hearth.Invalidf("%v", err))
	}
	sc.Rule = b
	next := c.s.zones.Next(sc, c.s.cfg.Now())
	return c.st.SetReminderRule(ctx, userID, id, b, next)
}

// CancelReminder stops the user's recurring reminder id.
func (c ruleChanger) CancelReminder(ctx context.Context, userID, id int64) (hearth.Schedule, error) {
	return c.st.CancelReminder(ctx, userID, id)
}

// RestoreReminder brings the user's cancelled reminder id back with its
// rule. Its next occurrence is the rule's first after now, so those
// missed while it was cancelled do not fire late in a burst, or after
// the one already handed to River (planned_until) when that is still to
// come: that job finds the reminder back and sends it, once.
func (c ruleChanger) RestoreReminder(ctx context.Context, userID, id int64) (hearth.Schedule, error) {
	sc, err := c.st.Schedule(ctx, id)
	if err != nil {
		return sc, fmt.Errorf("restore reminder %d: %w", id, err)
	}
	if sc.UserID != userID || sc.Kind != hearth.ScheduleReminder || !sc.Muted {
		return sc, fmt.Errorf("restore reminder %d: %w", id, hearth.ErrNotFound)
	}
	// As it will be once restored: zones.Next has nothing for a muted
	// or cancelled reminder.
	sc.Muted, sc.Gone = false, false
	from := c.s.cfg.Now()
	if sc.PlannedUntil.After(from) {
		from = sc.PlannedUntil
	}
	return c.st.RestoreReminder(ctx, userID, id, from, c.s.zones.Next(sc, from))
}
