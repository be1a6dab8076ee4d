package action

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// Executor carries actions out against the providers, and reverts them.
type Executor struct {
	Tasks    Tasks
	Calendar Calendar
	Notes    Notes
	Mail     Mail
	Memories Memories
	// Reminders changes recurring reminders; nil: the scheduler is not
	// wired, and reminder.update and reminder.cancel fail.
	Reminders Reminders
	// Geocoder places addresses Hearth is told; nil: none is configured,
	// and only coordinates given in chat place an address.
	Geocoder Geocoder
	// Relationships records the relationships facts state; nil: they
	// are kept as facts only.
	Relationships Relationships
	// Now is the clock a changed relationship is closed and opened by.
	// Defaults to time.Now.
	Now func() time.Time
}

// Relationships is where the relationships between people and things
// that facts state are recorded, and taken back.
type Relationships interface {
	// ApplyRelationship records what a statement says about r (end: that
	// it no longer holds) at the instant at, and returns what holds now
	// and what changed.
	ApplyRelationship(ctx context.Context, r hearth.Relationship, end bool, at time.Time) (hearth.Relationship, hearth.RelationshipChange, error)
	// UndoRelationshipChange takes back exactly what ApplyRelationship
	// changed for the owner.
	UndoRelationshipChange(ctx context.Context, ownerID int64, c hearth.RelationshipChange) error
}

// RelationshipOutcome is what a memory.store's relationship did: the
// relationship that holds now (zero when it ended) and the change, kept
// as the action's "before" so that undo takes back exactly that.
type RelationshipOutcome struct {
	Relationship hearth.Relationship       `json:"relationship,omitzero"`
	Change       hearth.RelationshipChange `json:"change"`
	// Retold is true when the fact was one Hearth had already, told
	// again in another message ("Jon works at Acme" twice): undo leaves
	// it, as the statement changed nothing of it.
	Retold bool `json:"retold,omitempty"`
}

// ChangedNothing reports a record whose action left everything as it was:
// a fact told again that Hearth had already, with no relationship changed
// by it. Undoing it takes nothing back, and the reply says so.
func (r Record) ChangedNothing() bool {
	if r.Action.Kind != MemoryStore || len(r.Before) == 0 {
		return false
	}
	var out RelationshipOutcome
	if err := json.Unmarshal(r.Before, &out); err != nil {
		return false
	}
	return out.Retold && out.Change.Empty()
}

// Geocoder finds where an address is; ok is false when it knows no such
// place.
type Geocoder interface {
	Geocode(ctx context.Context, address string) (c hearth.Coordinates, ok bool, err error)
}

// ErrNotUndoable is returned for actions that cannot be taken back (a
// sent email).
var ErrNotUndoable = errors.New("cannot be undone")

// Execute performs one action for its user. It returns the provider's
// result and, for updates and deletes, the record as it was before.
func (x *Executor) Execute(ctx context.Context, r Record) (result, before any, err error) {
	a, uid, key := r.Action, r.UserID, r.Key()
	switch a.Kind {
	case TaskCreate:
		p, err := Decode[TaskCreateArgs](a)
		if err != nil {
			return nil, nil, err
		}
		t, err := x.Tasks.CreateTask(ctx, key, hearth.Task{UserID: uid, Title: p.Title, Notes: p.Notes, Priority: p.Priority, Due: p.Due, AllDay: p.AllDay, Status: hearth.TaskOpen})
		return t, nil, err
	case TaskUpdate:
		p, err := Decode[TaskUpdateArgs](a)
		if err != nil {
			return nil, nil, err
		}
		b, t, err := x.Tasks.UpdateTask(ctx, uid, p.ID, p.Update)
		return t, b, err
	case TaskComplete:
		p, err := Decode[TaskRefArgs](a)
		if err != nil {
			return nil, nil, err
		}
		done := hearth.TaskDone
		b, t, err := x.Tasks.UpdateTask(ctx, uid, p.ID, hearth.TaskUpdate{Status: &done})
		return t, b, err
	case TaskDelete:
		p, err := Decode[TaskRefArgs](a)
		if err != nil {
			return nil, nil, err
		}
		t, err := x.Tasks.DeleteTask(ctx, uid, p.ID)
		return t, t, err
	case MemoryStore:
		p, err := Decode[MemoryStoreArgs](a)
		if err != nil {
			return nil, nil, err
		}
		m := hearth.Memory{UserID: uid, Content: p.Content, About: p.About, Category: p.Category, Tier: p.Tier, ToldIn: r.EventID,
			Attribute: p.Attribute, Value: p.Value, ValidFrom: p.ValidFrom, ValidTo: p.ValidTo, Place: p.Place}
		if p.Ends {
			// The fact as said is the value of nothing; the value it ends
			// ends below.
			m.Attribute, m.Value = "", ""
		}
		if m.Place == nil && p.Locate && x.Geocoder != nil && p.Value != "" {
			// A geocoder that fails leaves the address without a place:
			// the fact is still worth keeping, and a question about
			// distance says what is missing.
			if c, ok, err := x.Geocoder.Geocode(ctx, p.Value); err == nil && ok {
				m.Place = &c
			}
		}
		if p.Entity != nil {
			e, err := x.entity(ctx, uid, *p.Entity)
			if err != nil {
				return nil, nil, err
			}
			m.EntityID = e.ID
			if m.About == "" && !p.Entity.Self {
				m.About = e.Name
			}
		}
		if m, err = x.Memories.StoreMemory(ctx, key, m); err != nil {
			return m, nil, err
		}
		// The store gives back the fact it had when it is told again: one
		// told in another message, or one no message told (imported), is
		// not this action's to take back.
		retold := r.EventID != 0 && m.ToldIn != r.EventID
		if p.Ends && m.EntityID != 0 && !retold {
			// Undone with the fact (UnstoreMemory), which ended it.
			if err := x.Memories.EndValues(ctx, uid, m.EntityID, p.Attribute, p.Value, m.ID); err != nil {
				return nil, nil, errors.Join(err, x.Memories.UnstoreMemory(ctx, uid, m.ID))
			}
		}
		if p.Relationship == nil || x.Relationships == nil {
			if retold {
				return m, RelationshipOutcome{Retold: true}, nil
			}
			return m, nil, nil
		}
		out, err := x.relate(ctx, uid, m.ID, p)
		if err != nil {
			// The fact and the relationship are one statement: neither
			// stays without the other (a fact told before stays).
			if retold {
				return nil, nil, err
			}
			if uerr := x.Memories.UnstoreMemory(ctx, uid, m.ID); uerr != nil {
				return nil, nil, errors.Join(err, uerr)
			}
			return nil, nil, err
		}
		out.Retold = retold
		return m, out, nil
	case MemoryUpdate:
		p, err := Decode[MemoryUpdateArgs](a)
		if err != nil {
			return nil, nil, err
		}
		b, m, err := x.Memories.UpdateMemory(ctx, uid, p.ID, p.Content)
		return m, b, err
	case MemoryForget:
		p, err := Decode[MemoryRefArgs](a)
		if err != nil {
			return nil, nil, err
		}
		m, err := x.Memories.ForgetMemory(ctx, uid, p.ID)
		return m, m, err
	case CalendarList:
		p, err := Decode[CalendarListArgs](a)
		if err != nil {
			return nil, nil, err
		}
		evs, err := x.Calendar.FindEvents(ctx, hearth.CalendarEventFilter{UserID: uid, From: p.From, To: p.To})
		return evs, nil, err
	case CalendarCreate:
		p, err := Decode[EventCreateArgs](a)
		if err != nil {
			return nil, nil, err
		}
		e := hearth.CalendarEvent{UserID: uid, Title: p.Title, Start: p.Start, End: p.End, AllDay: p.AllDay, Location: p.Location, Attendees: p.Attendees}
		if p.Repeat != nil {
			s, rrule, err := NewSeries(e, *p.Repeat, p.Zone)
			if err != nil {
				return nil, nil, err
			}
			e, err = x.Calendar.CreateSeries(ctx, key, s, rrule)
			return e, nil, err
		}
		e, err = x.Calendar.CreateEvent(ctx, key, e)
		return e, nil, err
	case CalendarUpdate:
		p, err := Decode[EventUpdateArgs](a)
		if err != nil {
			return nil, nil, err
		}
		if p.Series {
			b, e, err := x.Calendar.UpdateSeries(ctx, uid, p.ID, p.Update)
			return e, b, err
		}
		b, e, err := x.Calendar.UpdateEvent(ctx, uid, p.ID, p.Update)
		return e, b, err
	case CalendarDelete:
		p, err := Decode[EventRefArgs](a)
		if err != nil {
			return nil, nil, err
		}
		if p.Series {
			e, err := x.Calendar.DeleteSeries(ctx, uid, p.ID)
			return e, e, err
		}
		e, err := x.Calendar.DeleteEvent(ctx, uid, p.ID)
		return e, e, err
	case EmailDraft:
		p, err := Decode[EmailArgs](a)
		if err != nil {
			return nil, nil, err
		}
		e, err := x.Mail.CreateDraft(ctx, key, hearth.Email{UserID: uid, To: p.To, Subject: p.Subject, Body: p.Body, Status: hearth.EmailDraft})
		return e, nil, err
	case EmailDiscard:
		p, err := Decode[DraftRefArgs](a)
		if err != nil {
			return nil, nil, err
		}
		e, err := x.Mail.DeleteDraft(ctx, uid, p.ID)
		return e, e, err
	case EmailSend, EmailReply:
		d, err := x.Draft(ctx, r)
		if err != nil {
			return nil, nil, err
		}
		e, err := x.Mail.SendEmail(ctx, uid, d.ID)
		return e, nil, err
	case NoteCreate:
		p, err := Decode[NoteCreateArgs](a)
		if err != nil {
			return nil, nil, err
		}
		n, err := x.Notes.CreateNote(ctx, key, hearth.Note{UserID: uid, Family: p.Family, Title: p.Title, Body: p.Body, Labels: p.Labels, Items: p.Items})
		return n, nil, err
	case NoteAppend:
		p, err := Decode[NoteAppendArgs](a)
		if err != nil {
			return nil, nil, err
		}
		b, n, err := x.Notes.AppendNote(ctx, key, uid, p.ID, p.Text, p.Items)
		return n, b, err
	case NoteCheck:
		p, err := Decode[NoteCheckArgs](a)
		if err != nil {
			return nil, nil, err
		}
		b, n, err := x.Notes.CheckItems(ctx, key, uid, p.ID, p.Items, p.Done)
		return n, b, err
	case NoteRemove:
		p, err := Decode[NoteRemoveArgs](a)
		if err != nil {
			return nil, nil, err
		}
		b, n, err := x.Notes.RemoveItems(ctx, key, uid, p.ID, p.Items)
		return n, b, err
	case NoteRename:
		p, err := Decode[NoteRenameArgs](a)
		if err != nil {
			return nil, nil, err
		}
		b, n, err := x.Notes.RenameNote(ctx, key, uid, p.ID, p.NewTitle)
		return n, b, err
	case NoteDelete:
		p, err := Decode[NoteRefArgs](a)
		if err != nil {
			return nil, nil, err
		}
		n, err := x.Notes.DeleteNote(ctx, uid, p.ID)
		return n, n, err
	case ReminderUpdate:
		p, err := Decode[ReminderUpdateArgs](a)
		if err != nil {
			return nil, nil, err
		}
		if x.Reminders == nil {
			return nil, nil, fmt.Errorf("reminder.update: no reminders provider")
		}
		b, sc, err := x.Reminders.UpdateReminder(ctx, uid, p.ID, p.Rule)
		return sc, b, err
	case ReminderCancel:
		p, err := Decode[ReminderRefArgs](a)
		if err != nil {
			return nil, nil, err
		}
		if x.Reminders == nil {
			return nil, nil, fmt.Errorf("reminder.cancel: no reminders provider")
		}
		b, err := x.Reminders.CancelReminder(ctx, uid, p.ID)
		return b, b, err
	}
	return nil, nil, hearth.Invalidf("unknown action kind %q", a.Kind)
}

// entity finds or creates the entity a payload names, for user uid.
func (x *Executor) entity(ctx context.Context, uid int64, a EntityArgs) (hearth.Entity, error) {
	e := hearth.Entity{UserID: uid, Name: a.Name, Kind: a.Kind, Relation: a.Relation, Aliases: a.Aliases, MemberID: a.MemberID}
	if a.Self {
		e.MemberID, e.Relation = uid, "self"
	}
	return x.Memories.SaveEntity(ctx, e)
}

// relate records the relationship a memory.store states: its two ends
// found or created, then the relationship applied as of the fact's start
// (or now), created ones tied to the fact (forgetting it forgets them).
func (x *Executor) relate(ctx context.Context, uid, factID int64, p MemoryStoreArgs) (RelationshipOutcome, error) {
	ra := p.Relationship
	from, err := x.entity(ctx, uid, ra.From.entity())
	if err != nil {
		return RelationshipOutcome{}, err
	}
	to, err := x.entity(ctx, uid, ra.To.entity())
	if err != nil {
		return RelationshipOutcome{}, err
	}
	r := hearth.Relationship{UserID: uid, Tier: p.Tier, FromID: from.ID, ToID: to.ID, Label: ra.Label, Description: ra.Description,
		Attitude: ra.Attitude, Proximity: ra.Proximity, Confidence: inferredConfidence, State: hearth.RelationshipCandidate,
		ValidFrom: p.ValidFrom, ValidTo: p.ValidTo, FactID: factID}
	if r.Tier == 0 {
		r.Tier = hearth.TierPersonal // as the fact's
	}
	if ra.Confirmed {
		r.State, r.Confidence = hearth.RelationshipConfirmed, statedConfidence
	}
	at := p.ValidFrom
	if at.IsZero() {
		at = x.now()
	}
	rel, change, err := x.Relationships.ApplyRelationship(ctx, r, ra.Ended, at)
	return RelationshipOutcome{Relationship: rel, Change: change}, err
}

// How sure Hearth is of a relationship: stated by the user, or inferred
// (hedged words, a model's reading) and a candidate until confirmed.
const (
	statedConfidence   = 0.9
	inferredConfidence = 0.6
)

func (e EndArgs) entity() EntityArgs {
	return EntityArgs{Name: e.Name, Self: e.Self, Kind: e.Kind}
}

func (x *Executor) now() time.Time {
	if x.Now == nil {
		return time.Now()
	}
	return x.Now()
}

// Undo reverts an executed action using what it recorded.
func (x *Executor) Undo(ctx context.Context, r Record) error {
	uid := r.UserID
	switch r.Action.Kind {
	case TaskCreate:
		var t hearth.Task
		if err := json.Unmarshal(r.Result, &t); err != nil {
			return fmt.Errorf("undo %s: %w", r.Action.Kind, err)
		}
		_, err := x.Tasks.DeleteTask(ctx, uid, t.ID)
		return err
	case TaskUpdate, TaskComplete:
		var b hearth.Task
		if err := json.Unmarshal(r.Before, &b); err != nil {
			return fmt.Errorf("undo %s: %w", r.Action.Kind, err)
		}
		_, _, err := x.Tasks.UpdateTask(ctx, uid, b.ID, hearth.TaskUpdate{Title: &b.Title, Notes: &b.Notes, Priority: &b.Priority, Due: &b.Due, AllDay: &b.AllDay, Status: &b.Status})
		return err
	case TaskDelete:
		var b hearth.Task
		if err := json.Unmarshal(r.Before, &b); err != nil {
			return fmt.Errorf("undo %s: %w", r.Action.Kind, err)
		}
		return x.Tasks.RestoreTask(ctx, uid, b.ID)
	case MemoryStore:
		var m hearth.Memory
		if err := json.Unmarshal(r.Result, &m); err != nil {
			return fmt.Errorf("undo %s: %w", r.Action.Kind, err)
		}
		// The relationship the fact stated goes with it; a fact told
		// again stays, as Hearth had it before.
		if len(r.Before) > 0 {
			var out RelationshipOutcome
			if err := json.Unmarshal(r.Before, &out); err != nil {
				return fmt.Errorf("undo %s: %w", r.Action.Kind, err)
			}
			if x.Relationships != nil {
				if err := x.Relationships.UndoRelationshipChange(ctx, uid, out.Change); err != nil {
					return err
				}
			}
			if out.Retold {
				return nil
			}
		}
		// A new attribute value closed the old one: that one is current
		// again.
		return x.Memories.UnstoreMemory(ctx, uid, m.ID)
	case MemoryUpdate:
		var b hearth.Memory
		if err := json.Unmarshal(r.Before, &b); err != nil {
			return fmt.Errorf("undo %s: %w", r.Action.Kind, err)
		}
		// The correction is taken back: the old fact is true again and
		// its successor goes.
		return x.Memories.RevertMemory(ctx, uid, b.ID)
	case MemoryForget:
		var b hearth.Memory
		if len(r.Before) > 0 {
			if err := json.Unmarshal(r.Before, &b); err != nil {
				return fmt.Errorf("undo %s: %w", r.Action.Kind, err)
			}
		}
		if b.Forgotten == nil {
			// Erased after its undo window (EraseArgs): nothing to restore.
			return ErrTooLate
		}
		return x.Memories.RestoreMemory(ctx, uid, b)
	case CalendarCreate:
		var e hearth.CalendarEvent
		if err := json.Unmarshal(r.Result, &e); err != nil {
			return fmt.Errorf("undo %s: %w", r.Action.Kind, err)
		}
		if p, err := Decode[EventCreateArgs](r.Action); err == nil && p.Repeat != nil {
			_, err := x.Calendar.DeleteSeries(ctx, uid, e.ID)
			return err
		}
		_, err := x.Calendar.DeleteEvent(ctx, uid, e.ID)
		return err
	case CalendarUpdate:
		var b hearth.CalendarEvent
		if err := json.Unmarshal(r.Before, &b); err != nil {
			return fmt.Errorf("undo %s: %w", r.Action.Kind, err)
		}
		if p, err := Decode[EventUpdateArgs](r.Action); err == nil && p.Series {
			// What the update changed, back as it was.
			var back hearth.CalendarEventUpdate
			if p.Update.Title != nil {
				back.Title = &b.Title
			}
			if p.Update.Location != nil {
				back.Location = &b.Location
			}
			if p.Update.Start != nil {
				back.Start, back.End = &b.Start, &b.End
			}
			_, _, err := x.Calendar.UpdateSeries(ctx, uid, b.ID, back)
			return err
		}
		_, _, err := x.Calendar.UpdateEvent(ctx, uid, b.ID, hearth.CalendarEventUpdate{Title: &b.Title, Start: &b.Start, End: &b.End, AllDay: &b.AllDay, Location: &b.Location,
			Attendees: &b.Attendees, Description: &b.Description})
		return err
	case CalendarDelete:
		var b hearth.CalendarEvent
		if err := json.Unmarshal(r.Before, &b); err != nil {
			return fmt.Errorf("undo %s: %w", r.Action.Kind, err)
		}
		if p, err := Decode[EventRefArgs](r.Action); err == nil && p.Series {
			return x.Calendar.RestoreSeries(ctx, uid, b)
		}
		return x.Calendar.RestoreEvent(ctx, uid, b.ID)
	case NoteCreate:
		var n hearth.Note
		if err := json.Unmarshal(r.Result, &n); err != nil {
			return fmt.Errorf("undo %s: %w", r.Action.Kind, err)
		}
		_, err := x.Notes.DeleteNote(ctx, uid, n.ID)
		return err
	case NoteAppend, NoteCheck, NoteRemove, NoteRename:
		var b hearth.Note
		if err := json.Unmarshal(r.Before, &b); err != nil {
			return fmt.Errorf("undo %s: %w", r.Action.Kind, err)
		}
		// A family list was changed by a member who need not have
		// created it: the undo is theirs.
		b.UserID = uid
		return x.Notes.SetNote(ctx, b)
	case NoteDelete:
		var b hearth.Note
		if err := json.Unmarshal(r.Before, &b); err != nil {
			return fmt.Errorf("undo %s: %w", r.Action.Kind, err)
		}
		return x.Notes.RestoreNote(ctx, uid, b.ID)
	case EmailDraft:
		var e hearth.Email
		if err := json.Unmarshal(r.Result, &e); err != nil {
			return fmt.Errorf("undo %s: %w", r.Action.Kind, err)
		}
		_, err := x.Mail.DeleteDraft(ctx, uid, e.ID)
		return err
	case EmailDiscard:
		var b hearth.Email
		if err := json.Unmarshal(r.Before, &b); err != nil {
			return fmt.Errorf("undo %s: %w", r.Action.Kind, err)
		}
		return x.Mail.RestoreDraft(ctx, uid, b.ID)
	case ReminderUpdate:
		var b hearth.Schedule
		var rule recur.Rule
		if err := json.Unmarshal(r.Before, &b); err != nil {
			return fmt.Errorf("undo %s: %w", r.Action.Kind, err)
		}
		if err := json.Unmarshal(b.Rule, &rule); err != nil {
			return fmt.Errorf("undo %s: %w", r.Action.Kind, err)
		}
		if x.Reminders == nil {
			return fmt.Errorf("undo %s: no reminders provider", r.Action.Kind)
		}
		// The old rule again, its next occurrence counted from now: the
		// one it had may have passed meanwhile.
		_, _, err := x.Reminders.UpdateReminder(ctx, uid, b.ID, rule)
		return err
	case ReminderCancel:
		var b hearth.Schedule
		if err := json.Unmarshal(r.Before, &b); err != nil {
			return fmt.Errorf("undo %s: %w", r.Action.Kind, err)
		}
		if x.Reminders == nil {
			return fmt.Errorf("undo %s: no reminders provider", r.Action.Kind)
		}
		_, err := x.Reminders.RestoreReminder(ctx, uid, b.ID)
		return err
	}
	return ErrNotUndoable
}
