// Package gather is the context stage: plain code, no model, that reads
// what a turn needs (conversation history, tasks, calendar, notes, mail,
// memories) through the permission-aware sources, recall by meaning when
// embeddings are on, and the re-reading of an understanding against the
// user's data ("I paid the rent" completes that task).
package gather

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/memory"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/pipeline/plan"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// History reads a conversation's recent transcript.
type History interface {
	RecentMessages(ctx context.Context, conversationID int64, n int) ([]hearth.Message, error)
}

// Sources are the reads the context stage makes; the action providers
// satisfy them.
type Sources struct {
	History History
	Tasks   interface {
		FindTasks(context.Context, hearth.TaskFilter) ([]hearth.Task, error)
	}
	Calendar interface {
		FindEvents(context.Context, hearth.CalendarEventFilter) ([]hearth.CalendarEvent, error)
	}
	Notes interface {
		FindNotes(context.Context, hearth.NoteFilter) ([]hearth.Note, error)
	}
	Memories interface {
		FindMemories(context.Context, hearth.MemoryFilter) ([]hearth.Memory, error)
	}
	Mail interface {
		FindEmails(context.Context, int64, hearth.EmailStatus, int) ([]hearth.Email, error)
	}
	// Styles, when set, is how users write email, read for email
	// requests so drafts are in the user's voice.
	Styles interface {
		MailStyle(context.Context, int64) (hearth.MailStyle, error)
	}
	// Inbox, when set, is the user's received mail (Gmail), read for
	// replies.
	Inbox interface {
		FindInbox(context.Context, hearth.InboxFilter) ([]hearth.InboxMessage, error)
	}
	// Entities finds the people and things Hearth knows by name, through
	// the permission predicate. Optional: without it no one is known by
	// name.
	Entities interface {
		FindEntities(context.Context, hearth.EntityFilter) ([]hearth.Entity, error)
	}
	// Contacts searches the user's address book (Google contacts) for a
	// recipient memory has no address for. Optional: without it, Hearth
	// asks for the address.
	Contacts interface {
		SearchContacts(ctx context.Context, userID int64, name string) ([]hearth.AddressBookEntry, error)
	}
	// Family finds the user's family. Optional: without it no one is in
	// a family, and a new fact's tier is never asked about.
	Family interface {
		FindFamily(ctx context.Context, userID int64) (hearth.Family, error)
	}
	// Reminders, when set, lists the user's schedules, read for a change
	// that may name a recurring reminder ("change my daily standup
	// reminder to 9:30"). Optional: without it none is changed by chat.
	Reminders interface {
		UpcomingSchedules(ctx context.Context, userID int64, limit int) ([]hearth.Schedule, error)
	}
	// Graph reads the memory graph around the people and things a
	// message names (relationships and notes), through the permission
	// predicate. Optional: without it the context has none.
	Graph interface {
		FindRelationships(context.Context, hearth.RelationshipFilter) ([]hearth.Relationship, error)
		FindGraphNotes(context.Context, hearth.GraphNoteFilter) ([]hearth.GraphNote, error)
	}
	// Related finds relationships by meaning for questions (Recall).
	// Optional: without it, and without embeddings, none are.
	Related RelatedSource
	// Geocoding is true when addresses are placed by a geocoder, for
	// answers about distance.
	Geocoding bool
	// Walking is the walking distance by age; nil: memory.DefaultWalking.
	Walking memory.WalkingTable
}

// historyTurns is how much of the conversation a turn sees.
const HistoryTurns = 10

// Gather is the context stage: plain code, keyed on the intent, reading
// only the user's own data (ARCHITECTURE.md, "The pipeline in more
// detail").
// recent is the conversation's latest messages, which the intent stage
// has read already.
func (s Sources) Gather(ctx context.Context, u stage.Understanding, text string, user hearth.User, recent []hearth.Message, now time.Time) (stage.Context, error) {
	c := stage.Context{Now: now, Location: now.Location(), Recent: recent}
	var err error
	domains := map[nlu.Domain]bool{}
	for _, d := range u.Domains {
		domains[d] = true
	}
	if u.Intent == nlu.RequestAction && (domains[nlu.Task] || domains[nlu.Calendar]) && (plan.IsChange(text) || plan.RemindsBefore(text) || nlu.OnlyTime(text, now)) {
		// A change may name a task or an event whichever the classifier
		// said ("cancel my dentist reminder", "move it to 11"), and so
		// may a reminder ahead of one ("remind me an hour before") and a
		// time alone ("tomorrow at 5", for what was just made): the
		// planner looks in both.
		domains[nlu.Task], domains[nlu.Calendar] = true, true
	}
	uid := user.ID
	if err := s.graph(ctx, &c, uid, u, text, now); err != nil {
		return c, err
	}
	switch u.Intent {
	case nlu.DiscussWork:
		if c.Tasks, err = s.Tasks.FindTasks(ctx, hearth.TaskFilter{UserID: uid, Status: hearth.TaskOpen, IncludeUndated: true, Limit: 100}); err != nil {
			return c, fmt.Errorf("context: tasks: %w", err)
		}
		if c.Events, err = s.Calendar.FindEvents(ctx, hearth.CalendarEventFilter{UserID: uid, From: now, To: now.AddDate(0, 0, 7), Limit: 100}); err != nil {
			return c, fmt.Errorf("context: events: %w", err)
		}
	case nlu.AskInfo, nlu.RequestAction:
		switch {
		case u.Intent == nlu.AskInfo && domains[nlu.Task] && nlu.DoneQuestion(text):
			// "What did I finish today?" is asked of the tasks completed.
			f := hearth.TaskFilter{UserID: uid, Status: hearth.TaskDone, CompletedSince: doneSince(u.Slots.When, now), Limit: 100}
			if c.Tasks, err = s.Tasks.FindTasks(ctx, f); err != nil {
				return c, fmt.Errorf("context: tasks done: %w", err)
			}
		case domains[nlu.Task] && u.Intent == nlu.RequestAction && reopens(text):
			// "Mark the report as not done": the finished tasks; "untick
			// milk" may be a list's, ticked off.
			f := hearth.TaskFilter{UserID: uid, Status: hearth.TaskDone, CompletedSince: now.AddDate(0, -3, 0), Limit: 50}
			if c.Tasks, err = s.Tasks.FindTasks(ctx, f); err != nil {
				return c, fmt.Errorf("context: tasks done: %w", err)
			}
			if s.Notes != nil && !domains[nlu.Keep] {
				if c.Notes, c.NotesFound, err = s.notes(ctx, uid, text); err != nil {
					return c, err
				}
			}
		case domains[nlu.Task] || u.Intent == nlu.AskInfo && len(domains) == 0:
			if c.Tasks, err = s.Tasks.FindTasks(ctx, hearth.TaskFilter{UserID: uid, Status: hearth.TaskOpen, IncludeUndated: true, Limit: 50}); err != nil {
				return c, fmt.Errorf("context: tasks: %w", err)
			}
		}
		what, ok := plan.BirthdayRef(text, u.Slots.People)
		if !ok && plan.RemindsBefore(text) {
			// "Our anniversary is June 12", "remind me a week before".
			_, what, ok = plan.BirthdayToldBefore(recent)
		}
		if ok && domains[nlu.Task] && u.Intent == nlu.RequestAction {
			// "Buy flowers before Mum's birthday": the facts that may
			// date it.
			ms, err := s.Memories.FindMemories(ctx, hearth.MemoryFilter{UserID: uid, Query: what, Limit: 50})
			if err != nil {
				return c, fmt.Errorf("context: %s facts: %w", what, err)
			}
			c.Memories = append(c.Memories, ms...)
		}
		_, whenIs := nlu.WhenIs(text)
		if _, whenDo := nlu.WhenDo(text); whenDo || asksNext(text) {
			whenIs = true
		}
		if domains[nlu.Task] && (u.Intent == nlu.RequestAction && plan.IsChange(text) || u.Intent == nlu.AskInfo && whenIs) {
			// A change may name a recurring reminder ("change my standup
			// reminder to 9:30"), and so may "when do I water the
			// plants?"; "what's next?" may be one.
			if c.Reminders, err = s.recurring(ctx, uid); err != nil {
				return c, err
			}
		}
		if domains[nlu.Calendar] {
			from, to := stage.Span(u.Slots.When, now, u.Intent == nlu.AskInfo)
			if u.Intent == nlu.RequestAction {
				// The date a request names may be the new one ("move the
				// dentist to 3pm"): the event is among the coming month's too.
				from, to = wider(from, to, now)
			}
			f := hearth.CalendarEventFilter{UserID: uid, From: from, To: to, Limit: 100}
			// "When do I have 2 hours free on Friday?" names no event:
			// that day's, all of them.
			_, free := nlu.FreeFor(text)
			if ref, ok := nlu.WhenIs(text); ok && u.Intent == nlu.AskInfo && !free {
				// "When is my haircut?": the next events of that name, in
				// the coming year.
				f = hearth.CalendarEventFilter{UserID: uid, From: now, To: now.AddDate(1, 0, 0), Query: ref, Limit: 5}
			} else if ref, _, ok := nlu.EventAsked(text); ok && u.Intent == nlu.AskInfo {
				// "Who's coming to Mia's play?", "where is lunch with
				// Sam?": the same; "… to dinner on Saturday?", that day's.
				f = hearth.CalendarEventFilter{UserID: uid, From: now, To: now.AddDate(1, 0, 0), Query: ref, Limit: 5}
				if u.Slots.When != nil {
					f.From, f.To = stage.Span(u.Slots.When, now, true)
				}
			}
			if c.Events, err = s.Calendar.FindEvents(ctx, f); err != nil {
				return c, fmt.Errorf("context: events: %w", err)
			}
			if bare := plan.WithoutEventNoun(f.Query); len(c.Events) == 0 && f.Query != "" && bare != f.Query {
				// "What time is my dentist appointment?" of an event
				// called "Dentist".
				f.Query = bare
				if c.Events, err = s.Calendar.FindEvents(ctx, f); err != nil {
					return c, fmt.Errorf("context: events: %w", err)
				}
			}
			if u.Intent == nlu.AskInfo && len(c.Events) == 0 && f.To.After(now) && f.Query == "" {
				// "Your calendar is clear this week" goes on to say what
				// comes after it.
				next := hearth.CalendarEventFilter{UserID: uid, From: later(f.To, now), To: f.To.AddDate(0, 0, 90), Limit: 1}
				if c.Events, err = s.Calendar.FindEvents(ctx, next); err != nil {
					return c, fmt.Errorf("context: next event: %w", err)
				}
			}
		}
		// Whom "add Sam to my dentist appointment" invites (or "remove
		// Sam from …" takes off): the people Hearth knows by those
		// names, and their email addresses.
		if domains[nlu.Calendar] && u.Intent == nlu.RequestAction {
			names, _, ok := plan.InviteParts(text)
			if !ok {
				names, _, ok = plan.UninviteParts(text)
			}
			if ok {
				if err := s.people(ctx, &c, uid, names); err != nil {
					return c, err
				}
			}
		}
		// "What did I write about the plumber?" may be a note or a
		// remembered fact, whichever domain the classifier named: a
		// question about what was written looks in both.
		if domains[nlu.Keep] || u.Intent == nlu.AskInfo && aboutWriting(text) {
			if c.Notes, c.NotesFound, err = s.notes(ctx, uid, text); err != nil {
				return c, err
			}
		}
		if domains[nlu.Email] && u.Intent == nlu.RequestAction && s.Styles != nil {
			if c.Style, err = s.Styles.MailStyle(ctx, uid); err != nil {
				return c, fmt.Errorf("context: mail style: %w", err)
			}
		}
		// "Delete the draft to Sam", "send that draft": saved drafts.
		draft, drafted := nlu.ReadDraftRef(text)
		// Whom "Sarah" is: the people Hearth knows by that name, and
		// their email addresses.
		if domains[nlu.Email] && u.Intent == nlu.RequestAction {
			names := recipientNames(text, u.Slots.Recipient)
			if drafted {
				// "Delete the draft to Sam": Sam's addresses find it.
				// ("Send the email to Sam …" may be a new email too.)
				if !draft.Maybe {
					names = nil
				}
				if draft.To != "" {
					names = append(names, recipientNames(text, draft.To)...)
				}
			}
			if err := s.people(ctx, &c, uid, names); err != nil {
				return c, err
			}
		}
		if domains[nlu.Email] && u.Intent == nlu.RequestAction && s.Inbox != nil && isReply(text) {
			if c.Inbox, err = s.Inbox.FindInbox(ctx, hearth.InboxFilter{UserID: uid, Limit: 100}); err != nil {
				return c, fmt.Errorf("context: inbox: %w", err)
			}
		}
		if domains[nlu.Email] && (u.Intent == nlu.AskInfo || u.Intent == nlu.RequestAction && drafted) {
			// "Did Sam get my email?" asks the mail sent; anything else,
			// and "delete that draft" or "send the draft to Sam", the
			// drafts.
			status := hearth.EmailDraft
			if u.Intent == nlu.AskInfo && nlu.SentQuestion(text) {
				status = hearth.EmailSent
			}
			if c.Drafts, err = s.Mail.FindEmails(ctx, uid, status, 20); err != nil {
				return c, fmt.Errorf("context: %s mail: %w", status, err)
			}
		}
		// Questions about people and things: their attributes, then.
		if q, ok := memory.ReadQuestion(text, now); ok && u.Intent == nlu.AskInfo {
			if q.Kind == memory.WithinWalking {
				return c, s.proximity(ctx, &c, uid, q, now)
			}
			return c, s.relations(ctx, &c, uid, q)
		}
		// Questions are answered from memories too, unless the calendar
		// and the tasks alone answer them ("what's on tomorrow?"); actions
		// on memories need the candidates ("forget that …").
		if u.Intent == nlu.AskInfo && !spanQuestion(u, text) || domains[nlu.Memory] {
			f := hearth.MemoryFilter{UserID: uid, Query: keywords(text), Limit: 10}
			if len(u.Slots.People) > 0 {
				f.About = u.Slots.People[0]
			}
			// "What was my phone number in 2004?": what was true then,
			// corrected facts included for the time they held.
			if w := u.Slots.When; w != nil && u.Intent == nlu.AskInfo && w.Value.Before(now) && pastTense(text) &&
				w.Start >= 0 && w.End <= len(text) && w.Start <= w.End {
				f.AsOf = w.Value
				f.Query = keywords(text[:w.Start] + " " + text[w.End:]) // the date is not a word of the fact
			}
			if who, ok := memory.AskedAbout(text); ok {
				// Everything about someone: no words to match, more of it.
				f = hearth.MemoryFilter{UserID: uid, About: who, Limit: 50}
				if who == "" {
					f.ToldBy = uid
				}
			} else if who, ok := memory.GiftFor(text); ok {
				// What to give someone: what they like is among all
				// Hearth knows about them.
				f = hearth.MemoryFilter{UserID: uid, About: who, Limit: 50}
			} else if _, self, ok := nlu.AgeAsked(text); ok && self {
				// "How old am I?": when the user was born, and their
				// birthday (a year alone gives two ages).
				f = hearth.MemoryFilter{UserID: uid, ToldBy: uid, Query: "born or birthday or bday", Limit: 20}
			} else if what, _, ok := nlu.BirthdaysAsked(text); ok {
				// "Any birthdays this month?": every birthday known (the
				// responder picks the ones that fall then).
				f = hearth.MemoryFilter{UserID: uid, Query: yearlyQuery[what], Limit: 500}
			}
			if c.Memories, err = s.Memories.FindMemories(ctx, f); err != nil {
				return c, fmt.Errorf("context: memories: %w", err)
			}
			if who, ok := memory.AskedAbout(text); ok && who != "" {
				if err := s.entityMemories(ctx, &c, uid, who); err != nil {
					return c, err
				}
			} else if u.Intent == nlu.AskInfo {
				if err := s.kinMemories(ctx, &c, uid, text); err != nil {
					return c, err
				}
			}
			// "Who do I know who is into climbing?": relationships and
			// notes by their words and by meaning.
			if u.Intent == nlu.AskInfo {
				if err := s.related(ctx, &c, uid, text, f.Query, now); err != nil {
					return c, err
				}
			}
			if len(c.Memories) == 0 && f.About != "" {
				f.Query = ""
				if c.Memories, err = s.Memories.FindMemories(ctx, f); err != nil {
					return c, fmt.Errorf("context: memories: %w", err)
				}
			}
			if len(c.Memories) == 0 && f.About != "" && len(strings.Fields(f.About)) == 1 && u.Intent == nlu.AskInfo {
				// "Sam is allergic to peanuts" was kept about no one when
				// Sam was not read as its subject: the facts that name Sam.
				f.Query, f.About = f.About, ""
				if c.Memories, err = s.Memories.FindMemories(ctx, f); err != nil {
					return c, fmt.Errorf("context: memories: %w", err)
				}
			}
			if u.Intent == nlu.AskInfo && len(c.Memories) == 0 && c.Notes == nil && s.Notes != nil {
				// "What are my gift ideas?": nothing remembered, but a
				// note may be called that.
				if c.Notes, c.NotesFound, err = s.notes(ctx, uid, text); err != nil {
					return c, err
				}
			}
			// Whether a new fact's privacy matters to anyone else.
			if u.Intent == nlu.RequestAction && s.Family != nil {
				fam, err := s.Family.FindFamily(ctx, uid)
				switch {
				case err == nil:
					c.InFamily, c.FamilyMembers = true, fam.Members
				case !errors.Is(err, hearth.ErrNotFound):
					return c, fmt.Errorf("context: family: %w", err)
				}
			}
			// "Forget that", "actually it's the 16th": the fact told last,
			// even one that no longer holds ("I worked at Initech from 2015
			// to 2019"): the newest told, whatever its validity.
			if u.Intent == nlu.RequestAction && (plan.ForgetsLast(text) || isCorrection(text)) {
				last, err := s.Memories.FindMemories(ctx, hearth.MemoryFilter{UserID: uid, ToldBy: uid, Ever: true, Limit: 1})
				if err != nil {
					return c, fmt.Errorf("context: the last fact: %w", err)
				}
				if len(last) == 1 {
					c.LastFact = last[0]
				}
			}
			// A new fact about a subject the user told before corrects it:
			// the planner needs that fact even when the words differ
			// ("… is 555 0199" after "… is 555 0100").
			if subj := memory.Subject(plan.FactOf(text)); subj != "" && u.Intent == nlu.RequestAction {
				same, err := s.Memories.FindMemories(ctx, hearth.MemoryFilter{UserID: uid, ToldBy: uid, Query: subj, Limit: 5})
				if err != nil {
					return c, fmt.Errorf("context: memories: %w", err)
				}
				addMemories(&c, same)
			}
		}
	}
	return c, nil
}

// reopens reports a request to open a finished task again.
func reopens(text string) bool {
	_, ok := plan.ReopenRef(text)
	return ok
}

// asksNext reports a question for what comes next ("what's next?",
// "what's my next reminder?"), which a recurring reminder may answer;
// not "what's due next week?".
func asksNext(text string) bool {
	lc := strings.TrimRight(words.ASCIILower(strings.TrimSpace(text)), "?!. ")
	return strings.HasSuffix(lc, " next") || strings.Contains(lc, "next reminder") || strings.Contains(lc, "next up")
}

// recipientNames are the names an email request gives: the classifier's
// recipient, or what follows "email"/"tell" in the text, cut at "and" and
// commas.
func recipientNames(text, slot string) []string {
	if slot == "" {
		slot = plan.Recipient(text)
	}
	var out []string
	for _, r := range strings.FieldsFunc(strings.ReplaceAll(strings.ReplaceAll(slot, " and ", ","), " & ", ","), func(r rune) bool { return r == ',' }) {
		if r = words.TidySlot(r); r != "" {
			out = append(out, r)
		}
	}
	return out
}

// people reads the entities each name can stand for and their current
// email addresses; for a name that none of them has an address for (and
// that is not an address itself), the user's address book's entries.
func (s Sources) people(ctx context.Context, c *stage.Context, uid int64, names []string) error {
	for _, n := range names {
		addressed := false
		if s.Entities != nil {
			es, err := s.Entities.FindEntities(ctx, hearth.EntityFilter{UserID: uid, Name: n, Limit: 10})
			if err != nil {
				return fmt.Errorf("context: people: %w", err)
			}
			for _, e := range es {
				if !slices.ContainsFunc(c.Entities, func(x hearth.Entity) bool { return x.ID == e.ID }) {
					c.Entities = append(c.Entities, e)
					ms, err := s.Memories.FindMemories(ctx, hearth.MemoryFilter{UserID: uid, EntityID: e.ID, Attribute: hearth.AttrEmail, Limit: 5})
					if err != nil {
						return fmt.Errorf("context: people: %w", err)
					}
					c.Memories = append(c.Memories, ms...)
				}
				addressed = addressed || slices.ContainsFunc(c.Memories, func(m hearth.Memory) bool {
					return m.EntityID == e.ID && m.Attribute == hearth.AttrEmail && m.Value != "" && m.SupersededBy == 0
				})
			}
		}
		if _, isAddr := plan.EmailAddress(n); addressed || isAddr || s.Contacts == nil {
			continue
		}
		found, err := s.Contacts.SearchContacts(ctx, uid, n)
		if err != nil {
			return fmt.Errorf("context: contacts: %w", err)
		}
		if len(found) > 0 {
			if c.Contacts == nil {
				c.Contacts = map[string][]hearth.AddressBookEntry{}
			}
			c.Contacts[strings.ToLower(n)] = found
		}
	}
	return nil
}

// notes finds the notes a message is about by its content words ("what
// did I write about the boiler?" → "boiler"; with Recall, by meaning
// too), then adds the most recently changed ones, which the planners
// match list names against.
func (s Sources) notes(ctx context.Context, uid int64, text string) ([]hearth.Note, int, error) {
	var found []hearth.Note
	if q := noteKeywords(text); q != "" {
		var err error
		if found, err = s.Notes.FindNotes(ctx, hearth.NoteFilter{UserID: uid, Query: q, Limit: 10}); err != nil {
			return nil, 0, fmt.Errorf("context: notes by their words: %w", err)
		}
	}
	recent, err := s.Notes.FindNotes(ctx, hearth.NoteFilter{UserID: uid, Limit: 20})
	if err != nil {
		return nil, 0, fmt.Errorf("context: notes: %w", err)
	}
	out := found
	for _, n := range recent {
		if !slices.ContainsFunc(found, func(f hearth.Note) bool { return f.ID == n.ID }) {
			out = append(out, n)
		}
	}
	return out, len(found), nil
}

// wider widens [from, to) to include the next 30 days from today.
func wider(from, to, now time.Time) (time.Time, time.Time) {
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	if from.After(day) {
		from = day
	}
	if end := day.AddDate(0, 0, 30); to.Before(end) {
		to = end
	}
	return from, to
}

// doneSince is where a question about what was got done starts looking:
// the span it names, or today.
func doneSince(m *timex.Match, now time.Time) time.Time {
	if m == nil {
		return time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location())
	}
	from, _ := stage.Span(m, now, true)
	return from
}

// isReply reports whether a request answers received mail ("reply to
// Sarah's last email").
func isReply(text string) bool {
	lc := strings.ToLower(text)
	return strings.Contains(lc, "reply to ") || strings.Contains(lc, "respond to ") || strings.Contains(lc, "answer ")
}

// later is the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// yearlyQuery finds the facts that may tell a birthday or an anniversary
// (nlu.BirthdaysAsked's what; "" for both).
var yearlyQuery = map[string]string{
	"birthday":    "birthday or bday",
	"anniversary": "anniversary",
	"":            "birthday or bday or anniversary",
}
