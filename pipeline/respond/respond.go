// Package respond is the respond stage offline: short, warm replies
// written from what was actually done (never claiming what did not
// happen), answers about the user's own data, and small talk. The model
// responder in hybrid keeps these templates for confirmations, approvals
// and questions.
package respond

import (
	"cmp"
	"context"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// TemplateResponder is the offline Responder: short, warm replies from
// templates, written only from what the Outcomes say happened and from
// the data in Context. The zero value is ready to use and picks among a
// few wordings by a hash of the message, so the same message always gets
// the same reply.
type TemplateResponder struct {
	pick func(key string, n int) int
}

var _ stage.Responder = (*TemplateResponder)(nil)

// NewTemplateResponder returns a responder that chooses among n
// wordings with pick(key, n), key being the message text and the kind of
// reply. A nil pick hashes the key; tests inject a fixed choice.
func NewTemplateResponder(pick func(key string, n int) int) *TemplateResponder {
	return &TemplateResponder{pick: pick}
}

// variant returns one of the variants for this message.
func (r *TemplateResponder) variant(text, kind string, variants ...string) string {
	if len(variants) == 0 {
		return ""
	}
	key := text + "\x00" + kind
	var i int
	if r != nil && r.pick != nil {
		i = r.pick(key, len(variants))
	} else {
		h := fnv.New32a()
		h.Write([]byte(key))
		i = int(h.Sum32() % uint32(len(variants)))
	}
	if i < 0 || i >= len(variants) {
		i = 0 // a picker out of range must not break the reply
	}
	return variants[i]
}

// Respond writes the reply for one turn: the question when there is
// one, then what happened when actions ran, then an answer from the data
// for questions and small talk for the rest.
func (r *TemplateResponder) Respond(_ context.Context, in stage.RespondInput) (string, error) {
	switch {
	case in.Question != nil:
		if t := strings.TrimSpace(in.Question.Text); t != "" {
			return t, nil
		}
		return "Which one did you mean?", nil
	case len(in.Outcomes) > 0:
		return r.outcomes(in), nil
	case in.PlanFailed:
		if why, ok := notFound(in.Missing); ok {
			// What was named is not there: saying so is the whole answer.
			return why, nil
		}
		if u := strings.TrimSpace(in.Understood); u != "" {
			if m := in.Missing; !strings.Contains(m, ":") && words.StartsWithAny(m, "what ", "which ", "when ", "whom ") {
				// "…add a task, but I need to know what the task is."
				return "I understood you wanted to " + strings.TrimRight(u, ".") + ", but I need to know " + markdown.Escape(m) + ".", nil
			}
			return "I understood you wanted to " + strings.TrimRight(u, ".") + ", but I had trouble with the details. Could you rephrase?", nil
		}
		return "Sorry, I didn't quite get that. Could you rephrase?", nil
	}
	switch in.Understanding.Intent {
	case nlu.AskInfo:
		return r.answer(in), nil
	case nlu.DiscussWork:
		// The classifier sometimes reads "what's on my calendar this week?"
		// as planning talk; the calendar is the answer then.
		if words.ContainsWord(words.ASCIILower(in.Text), "calendar") {
			return r.answerCalendar(in), nil
		}
		return r.discuss(in), nil
	case nlu.RequestAction:
		return r.variant(in.Text, "nothing",
			"I wasn't sure what to change there. Could you say it another way?",
			"Hmm, I didn't catch what you'd like me to do. Could you rephrase?"), nil
	case nlu.Followup:
		return r.followup(in), nil
	}
	return r.chat(in), nil
}

// notFound reads a planner's "which list: I couldn't find a packing
// list", "which list: cheese isn't on any of your lists" or "a new name:
// I can't rename notes or lists yet" as the reply that says so. Other
// details ask for what is missing, which the generic reply does.
func notFound(missing string) (string, bool) {
	_, why, ok := strings.Cut(missing, ": ")
	if !ok || !strings.HasPrefix(why, "I couldn't find ") && !strings.HasPrefix(why, "I can't ") && !strings.Contains(why, " isn't on ") {
		return "", false
	}
	return markdown.Escape(prose.UpperFirst(why)) + ".", true
}

// ---- Outcomes --------------------------------------------------------

// outcomes reports what the actions did: a single success in its own
// words, several joined into one sentence, failures honestly with their
// reason, and anything awaiting approval as a question.
func (r *TemplateResponder) outcomes(in stage.RespondInput) string {
	var done, failed []outcomeText
	var asks []string
	var waiting []stage.Outcome
	mailed := mailedAddresses(in.Outcomes)
	for _, o := range in.Outcomes {
		t := describeOutcome(o, in.Context)
		if who, ok := addressRemembered(o, mailed); ok {
			// The email beside it shows the address: the reply says once
			// that it is remembered, without repeating it.
			t.past, t.alone = "noted "+who+"'s address", []string{"I'll remember " + who + "'s address."}
		}
		switch o.Status {
		case stage.Done:
			done = append(done, t)
		case stage.AwaitingApproval:
			asks = append(asks, approvalText(o, t, in.Context))
			waiting = append(waiting, o)
		default:
			if t.reason == "" && o.Status != stage.Failed {
				t.reason = "I'm not sure it went through"
			}
			failed = append(failed, t)
		}
	}
	var parts []string
	switch {
	case len(done) == 1 && len(failed) == 0:
		parts = append(parts, r.alone(in.Text, done[0]))
	case len(done) > 0:
		s := "I " + prose.List(pasts(done))
		if titles, ok := removedEvents(in.Outcomes); ok && len(titles) == len(done) {
			s = "I removed " + prose.List(titles) + " from your calendar"
		}
		if len(failed) > 0 {
			s += ", but couldn't " + failures(failed)
		}
		parts = append(parts, r.variant(in.Text, "many", "Done — ", "All set: ", "")+words.AsSentence(s))
	case len(failed) > 0:
		parts = append(parts, r.variant(in.Text, "failed", "Sorry, I couldn't ", "I'm sorry — I couldn't ")+failures(failed)+".")
	}
	if len(waiting) > 1 && !slices.ContainsFunc(waiting, func(o stage.Outcome) bool { return o.Action.Kind.SendsMail() }) {
		// A bulk change is approved as one (Approve all): one question.
		asks = []string{bulkApprovalText(waiting, in.Context)}
	}
	parts = append(parts, asks...)
	return strings.Join(parts, "\n\n")
}

// removedEvents returns the titles of the events the outcomes removed,
// ok when every done outcome removed one: one phrase for a cleared day.
func removedEvents(outs []stage.Outcome) (titles []string, ok bool) {
	for _, o := range outs {
		if o.Status != stage.Done {
			continue
		}
		if o.Action.Kind != action.CalendarDelete {
			return nil, false
		}
		p, _ := action.Decode[action.EventRefArgs](o.Action)
		titles = append(titles, markdown.Escape(cmp.Or(p.Title, "an untitled event")))
	}
	return titles, len(titles) > 0
}

// alone is the reply for a single success.
func (r *TemplateResponder) alone(text string, t outcomeText) string {
	if len(t.alone) > 0 {
		return r.variant(text, "alone", t.alone...)
	}
	return r.variant(text, "done", "Done — ", "All set — ", "Got it — ") + words.AsSentence("I "+t.past)
}

// outcomeText is how the reply speaks of one action.
type outcomeText struct {
	past   string   // after "I ": "added “Call mom” to your tasks"
	verb   string   // after "couldn't ": "add “Call mom” to your tasks"
	alone  []string // whole sentences for a single success
	reason string   // why it failed, user-safe
}

func pasts(ts []outcomeText) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.past
	}
	return out
}

// failures says what could not be done and why.
func failures(ts []outcomeText) string {
	if len(ts) == 1 {
		if ts[0].reason == "" {
			return ts[0].verb
		}
		return ts[0].verb + ": " + strings.TrimRight(ts[0].reason, ".")
	}
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.verb
		if t.reason != "" {
			out[i] += " (" + strings.TrimRight(t.reason, ".") + ")"
		}
	}
	return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
}

// describeOutcome words one outcome. It reads the planned payload, which is
// what the user asked for, and the provider's result where it adds
// something (a stored email).
// oneOfSeries follows a change to one occurrence of a repeating event,
// moved or cancelled: without it the user takes it for all of them.
const oneOfSeries = " (just this one; the others stay as they were)"

func describeOutcome(o stage.Outcome, c stage.Context) outcomeText {
	t := outcomeText{reason: strings.TrimSpace(o.Error)}
	switch o.Action.Kind {
	case action.TaskCreate:
		p, _ := action.Decode[action.TaskCreateArgs](o.Action)
		title := quoted(p.Title)
		t.past, t.verb = "added "+title+" to your tasks", "add "+title+" to your tasks"
		if !p.Due.IsZero() {
			// The scheduler reminds of every task with a due time (at the
			// time, and ahead of a due date), so the reply can promise it.
			when := stage.WhenPhrase(p.Due, p.AllDay, c)
			t.past = "added " + title + " to your tasks, due " + when
			t.verb = "add " + title + " to your tasks"
			t.alone = []string{
				"Got it — I'll remind you: " + title + ", " + when + ".",
				"Sure! I'll remind you about " + title + ", due " + when + ".",
				"Done — I added " + title + ", due " + when + ", and I'll remind you.",
			}
		} else {
			t.alone = []string{
				"Got it — I added " + title + " to your tasks.",
				"Added " + title + " to your to-do list.",
			}
		}
	case action.TaskComplete:
		p, _ := action.Decode[action.TaskRefArgs](o.Action)
		title := quotedOr(p.Title, "the task")
		t.past, t.verb = "marked "+title+" as done", "mark "+title+" as done"
		t.alone = []string{"Nice work — I marked " + title + " as done.", "Done! " + prose.UpperFirst(title) + " is checked off."}
	case action.TaskDelete:
		p, _ := action.Decode[action.TaskRefArgs](o.Action)
		title := quotedOr(p.Title, "the task")
		t.past, t.verb = "deleted the task "+title, "delete the task "+title
	case action.TaskUpdate:
		p, _ := action.Decode[action.TaskUpdateArgs](o.Action)
		name := "the task"
		if task, ok := o.Result.(hearth.Task); ok && task.Title != "" {
			name = quoted(task.Title)
		} else if p.Update.Title != nil {
			name = quoted(*p.Update.Title)
		}
		t.past, t.verb = "updated "+name, "update "+name
		if p.Update.Status != nil && *p.Update.Status == hearth.TaskOpen {
			t.past, t.verb = "opened "+name+" again", "open "+name+" again"
			t.alone = []string{"Done — " + name + " is open again. Say “undo” to mark it done."}
		}
		if p.Update.Due != nil && !p.Update.Due.IsZero() && p.Update.Title == nil {
			// A move says where to: "moved “Call mom” to tomorrow at 5:00 PM".
			allDay := p.Update.AllDay != nil && *p.Update.AllDay
			t.past = "moved " + name + " to " + stage.FormatWhen(*p.Update.Due, allDay, c)
		}
		if p.Update.Title != nil {
			// A rename says from what: "renamed “Call mom” to “Call dad”".
			for _, old := range c.Tasks {
				if old.ID == p.ID && old.Title != *p.Update.Title {
					t.past = "renamed " + quoted(old.Title) + " to " + quoted(*p.Update.Title)
				}
			}
		}
	case action.ReminderUpdate:
		p, _ := action.Decode[action.ReminderUpdateArgs](o.Action)
		title := quotedOr(p.Title, "your reminder")
		t.past = "changed " + title + " to " + p.Rule.String()
		t.verb = "change " + title
		change := title + " is now " + p.Rule.String()
		if !p.Skipped.IsZero() {
			// "Skip my pills reminder tomorrow": that day's alone.
			day := stage.WhenPhrase(recur.At(p.Skipped, p.Rule.At, stage.UserZone(c)), true, c)
			t.past, t.verb, change = "skipped "+title+" "+day, "skip "+title+" "+day, "I'll skip "+title+" "+day
		}
		if !p.Paused.IsZero() {
			// "Pause the bins reminder for two weeks".
			until := recur.At(p.Paused, p.Rule.At, stage.UserZone(c)).Format("Monday, Jan 2")
			t.past, t.verb, change = "paused "+title+" until "+until, "pause "+title, "I've paused "+title+" until "+until
		}
		if p.Resumed {
			t.past, t.verb, change = "resumed "+title, "resume "+title, title+" is back on"
		}
		if sc, ok := o.Result.(hearth.Schedule); ok && !sc.NextAt.IsZero() {
			t.alone = []string{"Done — " + change + ". Next one: " + stage.FormatWhen(sc.NextAt, false, c) + ". Say “undo” to put it back."}
		}
	case action.ReminderCancel:
		p, _ := action.Decode[action.ReminderRefArgs](o.Action)
		title := quotedOr(p.Title, "your reminder")
		t.past, t.verb = "cancelled the reminder "+title, "cancel the reminder "+title
		t.alone = []string{"Cancelled the reminder " + title + ". Say “undo” to bring it back."}
	case action.MemoryStore:
		p, _ := action.Decode[action.MemoryStoreArgs](o.Action)
		fact := markdown.Escape(strings.TrimRight(prose.SecondPerson(p.Content), ".!"))
		t.past, t.verb = "noted that "+words.LowerLead(fact), "save that "+words.LowerLead(fact)
		t.alone = []string{"Noted: " + prose.UpperFirst(fact) + ".", "Got it, I'll remember that " + words.LowerLead(fact) + "."}
	case action.MemoryUpdate:
		p, _ := action.Decode[action.MemoryUpdateArgs](o.Action)
		fact := markdown.Escape(strings.TrimRight(prose.SecondPerson(p.Content), ".!"))
		t.past, t.verb = "updated what I know: "+words.LowerLead(fact), "update that memory"
	case action.MemoryForget:
		p, _ := action.Decode[action.MemoryRefArgs](o.Action)
		what := "that"
		if p.Content != "" {
			what = "that " + words.LowerLead(markdown.Escape(strings.TrimRight(prose.SecondPerson(p.Content), ".!")))
		}
		t.past, t.verb = "forgot "+what, "forget "+what
		t.alone = []string{"Okay, I've forgotten " + what + "."}
	case action.CalendarCreate:
		p, _ := action.Decode[action.EventCreateArgs](o.Action)
		when := stage.FormatWhen(p.Start, p.AllDay, c)
		title := markdown.Escape(p.Title)
		if p.Repeat != nil {
			when = repeats(p, c)
			t.past = "added " + title + " to your calendar " + when
			t.verb = "add " + title + " to your calendar"
			t.alone = []string{"Added " + title + " to your calendar " + when + "."}
			break
		}
		span := "for " + when
		if last := p.End.AddDate(0, 0, -1); p.AllDay && stage.DaysBetween(p.Start, last) > 0 {
			// "Away from the 10th to the 14th": every day it covers.
			span = "from " + when + " to " + stage.FormatWhen(last, true, c)
		}
		t.past = "added " + title + " to your calendar " + span
		t.verb = "add " + title + " to your calendar"
		t.alone = []string{
			"Added " + title + " to your calendar " + span + ".",
			"Done — " + title + " is on your calendar " + span + ".",
		}
	case action.CalendarUpdate:
		describeEventUpdate(o, c, &t)
	case action.CalendarDelete:
		p, _ := action.Decode[action.EventRefArgs](o.Action)
		name := markdown.Escape(p.Title)
		if name == "" {
			name = "the event"
		}
		t.past, t.verb = "removed "+name+" from your calendar", "cancel "+name
		if p.Series {
			t.past, t.verb = "removed "+name+" from your calendar, every time it repeats", "cancel every "+name
		} else if e, ok := o.Result.(hearth.CalendarEvent); ok && e.Series != "" {
			// One occurrence of a repeating event, as for a move.
			t.past = "removed " + name + " " + stage.WhenPhrase(e.Start, e.AllDay, c) + " from your calendar" + oneOfSeries
		}
	case action.CalendarList:
		t.past, t.verb = "checked your calendar", "check your calendar"
		if evs, ok := o.Result.([]hearth.CalendarEvent); ok {
			t.alone = []string{eventsSentence(evs, "coming up", c)}
		}
	case action.EmailDraft, action.EmailSend:
		p, _ := action.Decode[action.EmailArgs](o.Action)
		to := prose.List(markdown.EscapeAll(p.To))
		if o.Action.Kind == action.EmailDraft {
			t.past, t.verb = "saved a draft to "+to, "save the draft to "+to
			t.alone = []string{"I saved a draft to " + to + ": " + quoted(p.Subject) + ". It's in your drafts whenever you're ready."}
		} else {
			t.past, t.verb = sentPast("your email to "+to, o.Result), "send the email to "+to
		}
	case action.EmailDiscard:
		p, _ := action.Decode[action.DraftRefArgs](o.Action)
		d := "the draft to " + prose.List(markdown.EscapeAll(p.To))
		if len(p.To) == 0 {
			d = "the draft"
		}
		if p.Subject != "" {
			d += " (" + quoted(p.Subject) + ")"
		}
		t.past, t.verb = "deleted "+d, "delete "+d
	case action.EmailReply:
		p, _ := action.Decode[action.EmailReplyArgs](o.Action)
		to := prose.List(markdown.EscapeAll(p.To))
		t.past, t.verb = sentPast("your reply to "+to, o.Result), "send the reply to "+to
	case action.NoteCreate:
		p, _ := action.Decode[action.NoteCreateArgs](o.Action)
		switch {
		case len(p.Items) > 0 && p.Family:
			t.past = "started the family " + listName(p.Title) + ", which everyone in your family can see and change, with " + prose.List(itemTexts(p.Items))
			t.verb = "start the family " + listName(p.Title)
		case len(p.Items) > 0:
			t.past = "started a " + listName(p.Title) + " with " + prose.List(itemTexts(p.Items))
			t.verb = "start the " + listName(p.Title)
		case p.Body != "":
			t.past = "saved a note: " + prose.LowerFirst(markdown.Escape(strings.TrimRight(p.Body, ".")))
			t.verb = "save the note"
		default:
			t.past, t.verb = "created the note "+quoted(p.Title), "create the note "+quoted(p.Title)
		}
	case action.NoteAppend:
		p, _ := action.Decode[action.NoteAppendArgs](o.Action)
		list := ownedList(p.Title, o.Result)
		what := quoted(strings.TrimRight(p.Text, "."))
		if p.Title == "" && len(p.Items) == 0 {
			list = "the note"
			for _, n := range c.Notes {
				if n.ID == p.ID && n.Name() != "" {
					list = "the note " + quoted(n.Name()) // named as it was
				}
			}
		}
		if len(p.Items) > 0 {
			what = prose.List(itemTexts(p.Items))
		}
		t.past, t.verb = "added "+what+" to "+list, "add "+what+" to "+list
		if len(p.Items) > 0 && p.Text == "" {
			t.past, t.alone = appendedItems(p, list, c.Notes)
		}
	case action.NoteDelete:
		p, _ := action.Decode[action.NoteRefArgs](o.Action)
		list := refList(p)
		t.past, t.verb = "deleted "+list, "delete "+list
	case action.NoteRename:
		p, _ := action.Decode[action.NoteRenameArgs](o.Action)
		list := refList(action.NoteRefArgs{Title: p.Title, Family: p.Family})
		t.past, t.verb = "renamed "+list+" to "+quoted(p.NewTitle), "rename "+list+" to "+quoted(p.NewTitle)
	case action.NoteCheck:
		p, _ := action.Decode[action.NoteCheckArgs](o.Action)
		list := ownedList(p.Title, o.Result)
		ticked := prose.List(markdown.EscapeAll(p.Items))
		if p.Done {
			t.past, t.verb = "ticked "+ticked+" off "+list, "tick "+ticked+" off "+list
		} else {
			t.past, t.verb = "put "+ticked+" back on "+list, "put "+ticked+" back on "+list
		}
		if n, ok := o.Result.(hearth.Note); ok && p.Done {
			t.alone = []string{"Ticked " + ticked + " off " + list + stillOn(n)}
		}
	case action.NoteRemove:
		p, _ := action.Decode[action.NoteRemoveArgs](o.Action)
		list := ownedList(p.Title, o.Result)
		took := prose.List(markdown.EscapeAll(p.Items))
		t.past, t.verb = "took "+took+" off "+list, "take "+took+" off "+list
		if n, ok := o.Result.(hearth.Note); ok {
			t.alone = []string{"Took " + took + " off " + list + stillOn(n)}
		}
	default:
		t.past, t.verb = "took care of that", "do that"
	}
	// A provider other than the built-in notes says where the note went
	// (Google Keep, or why not).
	if n, ok := o.Result.(hearth.Note); ok && n.Where != "" && t.past != "" {
		t.past += " " + n.Where
		for i := range t.alone {
			t.alone[i] += " It's " + n.Where + "."
		}
	}
	return t
}

// sentPast says truthfully where a sent email went (what is the email,
// "your email to Sarah"): out through the provider that sent it, or into
// Hearth's own outbox, where nothing leaves the machine.
func sentPast(what string, result any) string {
	e, _ := result.(hearth.Email)
	switch e.Via {
	case hearth.ViaGmail:
		return "sent " + what + " from your Gmail"
	case hearth.ViaSMTP:
		return "sent " + what
	}
	return "kept " + what + " in Hearth's outbox (no mail service is connected, so nothing left this machine)"
}

// DoneFallback is the reply when the Responder fails: "Done! I …" built
// only from what the outcomes say happened, with failures and pending
// approvals said plainly.
func DoneFallback(outcomes []stage.Outcome) string {
	var done, failed, asks []outcomeText
	for _, o := range outcomes {
		t := describeOutcome(o, stage.Context{})
		switch o.Status {
		case stage.Done:
			done = append(done, t)
		case stage.AwaitingApproval:
			asks = append(asks, t)
		default:
			failed = append(failed, t)
		}
	}
	var parts []string
	switch {
	case len(done) > 0:
		s := "Done! I " + prose.List(pasts(done))
		if len(failed) > 0 {
			s += ", but couldn't " + failures(failed)
		}
		parts = append(parts, s+".")
	case len(failed) > 0:
		parts = append(parts, "Sorry, I couldn't "+failures(failed)+".")
	}
	if len(asks) > 0 {
		verbs := make([]string, len(asks))
		for i, a := range asks {
			verbs[i] = a.verb
		}
		parts = append(parts, "I need your OK to "+prose.List(verbs)+".")
	}
	if len(parts) == 0 {
		return "I didn't change anything."
	}
	return strings.Join(parts, " ")
}

// ---- Wording helpers -------------------------------------------------

// quoted puts a title in curly quotes, the way the reply names things the
// user typed.
func quoted(s string) string { return "“" + markdown.Escape(s) + "”" }

func quotedOr(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return quoted(s)
}

// listName is a note's title as it reads mid-sentence: "Shopping list"
// → "shopping list".
// ownedList names a list by whose it is: "your shopping list", or "the
// family shopping list" when the result shows the family owns it.
