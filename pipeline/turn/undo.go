package turn

import (
	"encoding/json"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// How an undo is told: what it did, in the item's words.

// undone says what undoing rec did, in the item's words: what was made
// is gone, what was deleted is back, a change is back to how it was
// ("“Dentist” is back on Tuesday at 2:00 PM").
func undone(rec action.Record, c stage.Context) string {
	what := describe(rec.Action, decodeResult(rec))
	switch rec.Action.Kind {
	case action.TaskCreate, action.CalendarCreate, action.NoteCreate:
		return "Undone: I removed " + what + "."
	case action.TaskDelete, action.CalendarDelete, action.NoteDelete, action.EmailDiscard:
		return "Undone: " + what + " is back."
	case action.TaskComplete:
		return "Undone: " + what + " is open again."
	case action.NoteAppend:
		// What was added is taken off again: say what.
		if p, err := action.Decode[action.NoteAppendArgs](rec.Action); err == nil {
			var items []string
			for _, it := range p.Items {
				items = append(items, markdown.Escape(it.Text))
			}
			switch {
			case len(items) > 0:
				return "Undone: I took " + prose.List(items) + " off " + what + "."
			case p.Text != "":
				return "Undone: I took “" + markdown.Escape(strings.TrimRight(p.Text, ".")) + "” out of " + what + "."
			}
		}
	case action.NoteRename:
		if p, err := action.Decode[action.NoteRenameArgs](rec.Action); err == nil && p.Title != "" {
			return "Undone: the note is called “" + markdown.Escape(p.Title) + "” again."
		}
	case action.NoteRemove:
		if p, err := action.Decode[action.NoteRemoveArgs](rec.Action); err == nil {
			return "Undone: I put " + prose.List(markdown.EscapeAll(p.Items)) + " back on " + what + "."
		}
	case action.CalendarUpdate:
		var b, a hearth.CalendarEvent
		if json.Unmarshal(rec.Before, &b) == nil && json.Unmarshal(rec.Result, &a) == nil {
			switch {
			case !b.Start.Equal(a.Start):
				return "Undone: “" + markdown.Escape(b.Title) + "” is back " + stage.WhenPhrase(b.Start, b.AllDay, c) + "."
			case b.Title != a.Title:
				return "Undone: the event is called “" + markdown.Escape(b.Title) + "” again."
			case b.Description != a.Description:
				return "Undone: “" + markdown.Escape(b.Title) + "” has its old notes back."
			}
		}
	case action.TaskUpdate:
		var b, a hearth.Task
		if json.Unmarshal(rec.Before, &b) == nil && json.Unmarshal(rec.Result, &a) == nil {
			switch {
			case !b.Due.Equal(a.Due) && b.Due.IsZero():
				return "Undone: “" + markdown.Escape(b.Title) + "” has no due date again."
			case !b.Due.Equal(a.Due):
				return "Undone: “" + markdown.Escape(b.Title) + "” is due " + stage.WhenPhrase(b.Due, b.AllDay, c) + " again."
			case b.Title != a.Title:
				return "Undone: the task is called “" + markdown.Escape(b.Title) + "” again."
			}
		}
	}
	return "Undone: " + what + "."
}

// describe names what an action did, for undo replies: "the task “Call
// mom”".
func describe(a action.Action, result any) string {
	switch v := result.(type) {
	case hearth.Task:
		return "the task “" + markdown.Escape(v.Title) + "”"
	case hearth.CalendarEvent:
		return "the event “" + markdown.Escape(v.Title) + "”"
	case hearth.Memory:
		return "the memory “" + markdown.Escape(v.Content) + "”"
	case hearth.Note:
		return "the note “" + markdown.Escape(v.Name()) + "”"
	case hearth.Email:
		return "the draft “" + markdown.Escape(v.Subject) + "”"
	case hearth.Schedule:
		return "the reminder “" + markdown.Escape(v.Title) + "”"
	}
	return strings.ReplaceAll(string(a.Kind), ".", " ")
}

// decodeResult turns a record's stored result into its domain type, so
// replies can use it.
func decodeResult(r action.Record) any {
	if len(r.Result) == 0 {
		return nil
	}
	var v any
	switch r.Action.Kind {
	case action.TaskCreate, action.TaskUpdate, action.TaskComplete, action.TaskDelete:
		v = &hearth.Task{}
	case action.CalendarCreate, action.CalendarUpdate, action.CalendarDelete:
		v = &hearth.CalendarEvent{}
	case action.CalendarList:
		v = &[]hearth.CalendarEvent{}
	case action.MemoryStore, action.MemoryUpdate, action.MemoryForget:
		v = &hearth.Memory{}
	case action.NoteCreate, action.NoteAppend, action.NoteCheck, action.NoteRemove, action.NoteDelete, action.NoteRename:
		v = &hearth.Note{}
	case action.EmailDraft, action.EmailSend, action.EmailReply, action.EmailDiscard:
		v = &hearth.Email{}
	case action.ReminderUpdate, action.ReminderCancel:
		v = &hearth.Schedule{}
	default:
		return nil
	}
	if err := json.Unmarshal(r.Result, v); err != nil {
		return nil
	}
	switch p := v.(type) {
	case *hearth.Task:
		return *p
	case *hearth.CalendarEvent:
		return *p
	case *[]hearth.CalendarEvent:
		return *p
	case *hearth.Memory:
		return *p
	case *hearth.Note:
		return *p
	case *hearth.Email:
		return *p
	case *hearth.Schedule:
		return *p
	}
	return nil
}
