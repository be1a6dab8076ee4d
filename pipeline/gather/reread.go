package gather

import (
	"context"
	"fmt"
	"regexp"
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

// The intent stage reads a message without the user's data; a few
// readings need it, and the runner rereads the understanding with it
// before the context stage:
//
//   - A statement of something done ("I paid the rent", "called mom",
//     "picked up the dry cleaning") completes the open task it names. The
//     classifier cannot tell that from news to remember ("I paid for
//     lunch"): only the user's open tasks can, and only when one matches
//     the statement well: every content word of the task's title is in
//     the statement, its verb in any tense.
//   - A request to move something moves an event when it names one of
//     the user's events, whatever the classifier took "the dentist" for.
//   - A question the classifier took for small talk ("what's the wifi
//     password?") asks memory when a fact the user may see has its words.
//   - "Tick off milk", naming no list, completes the open task it names,
//     else ticks milk off the list that has it, whatever the classifier
//     made of it.
//
// A few messages are reworded before the intent stage reads them at all
// (Reword): they point back at what the last reply spoke of ("when is
// it?", "actually it's at 4", "what's on it?", "delete it" of a draft
// just saved, "set it for Friday"), end a repeating event in words no
// request has ("no more yoga"), or give a fact Hearth keeps a new value
// by naming it ("change my locker to 214").

// Completion rewrites the understanding of a statement of something done
// ("I paid the rent", "the passport one is done") that names an open task
// of the user into a request to complete it (the task planner then marks
// it done). Anything else, and any statement no open task matches, is
// left as the intent stage understood it.
func (s Sources) Completion(ctx context.Context, u stage.Understanding, text string, userID int64) (stage.Understanding, error) {
	if u.Intent == nlu.RequestAction && slices.Equal(u.Domains, []nlu.Domain{nlu.Task}) {
		return u, nil // the task planner looks itself
	}
	_, said := plan.DoneStatement(text)
	ref, named := plan.DoneRef(text) // "the passport one is done"
	if !said && !named || s.Tasks == nil {
		return u, nil
	}
	tasks, err := s.Tasks.FindTasks(ctx, hearth.TaskFilter{UserID: userID, Status: hearth.TaskOpen, IncludeUndated: true, Limit: 100})
	if err != nil {
		return u, fmt.Errorf("context: open tasks: %w", err)
	}
	if len(plan.CompletedTasks(text, tasks)) == 0 && (!named || !plan.HasOpenTask(ref, tasks)) {
		return u, nil
	}
	u.Intent, u.Domains, u.RequiresAction = nlu.RequestAction, []nlu.Domain{nlu.Task}, true
	return u, nil
}

// EventMove rewrites the understanding of a request to move something
// ("move the dentist to Friday at 4", "reschedule my 10am tomorrow to
// 3pm") into a calendar request when it names one of the user's events of
// the coming month and the intent stage did not name the calendar; and a
// request to cancel something ("cancel bin day") that the intent stage
// took for small talk; and news of one ("swimming is now at 5pm", "I
// can't make the dentist tomorrow"). It leaves anything else as
// understood: "move the rent task to Friday" names no event.
func (s Sources) EventMove(ctx context.Context, u stage.Understanding, text string, userID int64, now time.Time) (stage.Understanding, error) {
	if slices.Contains(u.Domains, nlu.Calendar) || s.Calendar == nil || now.IsZero() {
		return u, nil
	}
	lc := words.StripPoliteness(words.ASCIILower(strings.TrimSpace(text)))
	move := words.StartsWithAny(lc, plan.MoveVerbs...)
	cancel := words.StartsWithAny(lc, plan.CancelVerbs...)
	news := !move && !cancel && plan.EventNews(text)
	if !move && !news && !cancel || strings.Contains(lc, "?") {
		return u, nil
	}
	if !move && !news && u.Intent == nlu.RequestAction && len(u.Domains) > 0 {
		// "Cancel the milk order": a cancellation the classifier gave a
		// domain is that domain's (the task planner itself turns to an
		// event of the name).
		return u, nil
	}
	from, to := wider(now, now, now)
	events, err := s.Calendar.FindEvents(ctx, hearth.CalendarEventFilter{UserID: userID, From: from, To: to, Limit: 100})
	if err != nil {
		return u, fmt.Errorf("context: events to change: %w", err)
	}
	in := stage.PlanInput{Text: text, Understanding: u, Context: stage.Context{Now: now, Location: now.Location(), Events: events}}
	var ref string
	var located *timex.Match
	var ok bool
	switch {
	case move:
		ref, located, _, ok = plan.MoveRef(in, text)
	case news:
		// "Swimming is now at 5pm", "Leo's match got cancelled": the
		// news finds the event itself.
		_, moved := plan.MovedNews(in, text)
		_, off := plan.CancelledNews(in, text)
		if moved || off || plan.CantMake(in, text) {
			u.Intent, u.Domains, u.RequiresAction = nlu.RequestAction, []nlu.Domain{nlu.Calendar}, true
		}
		return u, nil
	default:
		ref, ok = plan.CancelRef(text, in.Context)
	}
	if !ok || len(plan.MatchEvents(ref, located, in.Context)) == 0 {
		return u, nil
	}
	u.Intent, u.Domains, u.RequiresAction = nlu.RequestAction, []nlu.Domain{nlu.Calendar}, true
	return u, nil
}

// WhenIs rewrites the understanding of a question for when something is
// ("when is my haircut?", "what time is the dentist?"), which the
// classifier takes for a question to memory, into one about the calendar
// or the tasks when the user has an event or an open task of that name
// and no remembered fact answers it ("when is my birthday?").
func (s Sources) WhenIs(ctx context.Context, u stage.Understanding, text string, userID int64, now time.Time) (stage.Understanding, error) {
	if u.Intent != nlu.AskInfo && u.Intent != nlu.Chat || slices.Contains(u.Domains, nlu.Calendar) || slices.Contains(u.Domains, nlu.Task) {
		return u, nil
	}
	ref, ok := nlu.WhenIs(text)
	if !ok {
		// "When do I water the plants?": a recurring reminder, if any.
		if ref, ok = nlu.WhenDo(text); ok {
			return s.whenReminder(ctx, u, ref, userID)
		}
	}
	if !ok || s.Memories == nil || s.Calendar == nil || s.Tasks == nil || now.IsZero() {
		return u, nil
	}
	ms, err := s.Memories.FindMemories(ctx, hearth.MemoryFilter{UserID: userID, Query: keywords(text), Limit: 1})
	if err != nil || len(ms) > 0 {
		return u, err
	}
	evs, err := s.Calendar.FindEvents(ctx, hearth.CalendarEventFilter{UserID: userID, From: now, To: now.AddDate(1, 0, 0), Query: ref, Limit: 1})
	if err != nil {
		return u, fmt.Errorf("context: events named %q: %w", ref, err)
	}
	if len(evs) > 0 {
		u.Intent, u.Domains, u.RequiresAction = nlu.AskInfo, []nlu.Domain{nlu.Calendar}, false
		return u, nil
	}
	ts, err := s.Tasks.FindTasks(ctx, hearth.TaskFilter{UserID: userID, Status: hearth.TaskOpen, IncludeUndated: true, Query: ref, Limit: 1})
	if err != nil {
		return u, fmt.Errorf("context: tasks named %q: %w", ref, err)
	}
	if len(ts) > 0 {
		u.Intent, u.Domains, u.RequiresAction = nlu.AskInfo, []nlu.Domain{nlu.Task}, false
		return u, nil
	}
	return s.whenReminder(ctx, u, ref, userID)
}

// whenReminder rewrites the understanding of a question for when
// something is or is done ("when do I water the plants?") into one the
// task domain answers, from the recurring reminders, when the user has a
// reminder of that name.
func (s Sources) whenReminder(ctx context.Context, u stage.Understanding, ref string, userID int64) (stage.Understanding, error) {
	rs, err := s.recurring(ctx, userID)
	if err != nil {
		return u, err
	}
	if slices.ContainsFunc(rs, func(sc hearth.Schedule) bool { return words.BestMatches(ref, []string{sc.Title}) != nil }) {
		u.Intent, u.Domains, u.RequiresAction, u.OutOfScope = nlu.AskInfo, []nlu.Domain{nlu.Task}, false, false
	}
	return u, nil
}

// recurring are the user's recurring reminders; none without a
// Reminders source.
func (s Sources) recurring(ctx context.Context, userID int64) ([]hearth.Schedule, error) {
	if s.Reminders == nil {
		return nil, nil
	}
	scs, err := s.Reminders.UpcomingSchedules(ctx, userID, 50)
	if err != nil {
		return nil, fmt.Errorf("context: reminders: %w", err)
	}
	return slices.DeleteFunc(scs, func(sc hearth.Schedule) bool { return sc.Kind != hearth.ScheduleReminder }), nil
}

// WhenIsIt rewrites "when is it?", asked right after a reply that spoke
// of one of the user's tasks or events ("Dentist appointment is on your
// calendar for Friday at 3:00 PM"), into the question for that item by
// name ("When is the Dentist appointment?"), which WhenIs then answers
// from the calendar or the tasks. Anything else, or a conversation that
// spoke of nothing the user has, is returned as it is.
func (s Sources) WhenIsIt(ctx context.Context, text string, userID int64, recent []hearth.Message, now time.Time) (string, error) {
	if !nlu.WhenIsIt(text) || s.Calendar == nil || s.Tasks == nil || now.IsZero() {
		return text, nil
	}
	title, err := s.spokenOf(ctx, text, userID, recent, now)
	if err != nil || title == "" {
		return text, err
	}
	return "When is the " + title + "?", nil
}

// OnIt rewrites "what's on it?", asked right after a reply about one of
// the user's lists ("I added sunscreen to your packing list"), into the
// question for that list by name ("What's on the Packing list?"), which
// the notes answer. Anything else is returned as it is.
func (s Sources) OnIt(ctx context.Context, text string, userID int64, recent []hearth.Message, _ time.Time) (string, error) {
	if !nlu.OnIt(text) || s.Notes == nil {
		return text, nil
	}
	ns, err := s.Notes.FindNotes(ctx, hearth.NoteFilter{UserID: userID, Limit: 100})
	if err != nil {
		return text, fmt.Errorf("context: lists for %q: %w", text, err)
	}
	if n, ok := plan.ListInReply(stage.Context{Recent: recent, Notes: ns}); ok {
		return "What's on the " + n.Title + "?", nil
	}
	return text, nil
}

// reChange reads a change of something by name: "change my locker to
// 214", "update the wifi password to swordfish", "set our door code to
// 4471".
var reChange = regexp.MustCompile(`(?i)^\s*(?:please\s+)?(?:(?:can|could|would)\s+you\s+)?(?:change|update|set|switch)\s+((?:my|our|the)\s+.+?)\s+to\s+(.+?)\s*[.!]*\s*$`)

// ChangesFact rewrites a change of something by name ("change my locker
// to 214") into the fact it makes ("My locker is 214"), in the words of
// the user's own fact it corrects, when they told Hearth one ("My locker
// is 114"): memory's planner then corrects that fact. Anything else,
// "change the meeting to 3pm" among it, is left as it is.
func (s Sources) ChangesFact(ctx context.Context, text string, userID int64, _ []hearth.Message, now time.Time) (string, error) {
	g := reChange.FindStringSubmatch(text)
	if g == nil || s.Memories == nil {
		return text, nil
	}
	subj := ownSubject(g[1])
	ms, err := s.Memories.FindMemories(ctx, hearth.MemoryFilter{UserID: userID, Query: strings.TrimPrefix(subj, "my "), Limit: 20})
	if err != nil {
		return text, fmt.Errorf("context: facts about %q: %w", g[1], err)
	}
	for _, m := range ms {
		if m.UserID != userID || m.FamilyID != 0 || !memory.SameSubject(ownSubject(memory.Subject(m.Content)), subj) {
			continue
		}
		if fact, ok := memory.Correct(m.Content, m.Value, g[2], now); ok {
			return fact, nil
		}
	}
	return text, nil
}

// ownSubject is a subject with "my", "our" or "the" first said as "my":
// "the wifi password" and "my wifi password" are the one the user keeps.
func ownSubject(subj string) string {
	f := strings.Fields(words.ASCIILower(subj))
	if len(f) > 1 && (f[0] == "my" || f[0] == "our" || f[0] == "the") {
		f[0] = "my"
	}
	return strings.Join(f, " ")
}

// reStops reads an end to something the user does: "stop piano", "no
// more yoga", "I quit swimming", "we've stopped going to choir".
var reStops = regexp.MustCompile(`(?i)^\s*(?:(?:i|we)(?:'ve|’ve|\s+have)?\s+(?:quit|stopped|given\s+up|gave\s+up)|(?:i'm|i’m|i\s+am|we're|we’re|we\s+are)\s+done\s+with|stop|no\s+more|quit)\s+(?:going\s+to\s+|doing\s+|having\s+)?(?:my\s+|the\s+|our\s+)?(.+?)\s*[.!]*\s*$`)

// StopsSeries rewrites an end to something the user does ("stop piano",
// "no more yoga", "I quit swimming") into the cancellation of every one
// it asks for ("cancel piano for good"), when the user has a repeating
// event of that name. Anything else is returned as it is: "stop
// reminding me …" is a command, "no more sugar" is news.
func (s Sources) StopsSeries(ctx context.Context, text string, userID int64, _ []hearth.Message, now time.Time) (string, error) {
	g := reStops.FindStringSubmatch(text)
	if g == nil || s.Calendar == nil || now.IsZero() {
		return text, nil
	}
	evs, err := s.Calendar.FindEvents(ctx, hearth.CalendarEventFilter{UserID: userID, From: now, To: now.AddDate(1, 0, 0), Query: g[1], Limit: 5})
	if err != nil {
		return text, fmt.Errorf("context: repeating events named %q: %w", g[1], err)
	}
	if !slices.ContainsFunc(evs, func(e hearth.CalendarEvent) bool { return e.Series != "" }) {
		return text, nil
	}
	return "cancel " + g[1] + " for good", nil
}

// CorrectsItem rewrites a correction said by a pronoun ("actually it's at
// 4", "sorry, I meant Thursday"), right after a reply that spoke of one
// of the user's tasks or events ("Added Dentist appointment to your
// calendar for Tuesday at 3:00 PM"), into the move it asks for ("move it
// to 4"). A correction after any other reply (a fact told: "actually
// it's the 16th") is left to memory.
func (s Sources) CorrectsItem(ctx context.Context, text string, userID int64, recent []hearth.Message, now time.Time) (string, error) {
	v, ok := memory.Correction(text)
	if !ok || s.Calendar == nil || s.Tasks == nil || now.IsZero() {
		return text, nil
	}
	v = words.TrimWordsLeft(words.TidySlot(v), "at", "on", "for")
	if !nlu.OnlyTime(v, now) && !reBareHour.MatchString(v) {
		return text, nil
	}
	// The latest reply alone: a fact told since the item was made is what
	// a correction corrects.
	i := len(recent) - 1
	for i >= 0 && recent[i].From != hearth.FromBot {
		i--
	}
	if i < 0 {
		return text, nil
	}
	title, err := s.spokenOf(ctx, text, userID, recent[i:i+1], now)
	if err != nil || title == "" {
		return text, err
	}
	return "move it to " + v, nil
}

// reBareHour is an hour said alone ("6", "4:30"), which a move reads as
// the next such time.
var reBareHour = regexp.MustCompile(`^\d{1,2}(?::\d{2})?$`)

// spokenOf is the title of the task or event the bot's replies in recent
// last spoke of (plan.LastMentioned, over the user's open tasks and the
// events from yesterday to a year on), or "".
func (s Sources) spokenOf(ctx context.Context, text string, userID int64, recent []hearth.Message, now time.Time) (string, error) {
	c := stage.Context{Now: now, Location: now.Location(), Recent: recent}
	var err error
	// What the reply named may have just begun, or be a year away.
	if c.Events, err = s.Calendar.FindEvents(ctx, hearth.CalendarEventFilter{UserID: userID, From: now.AddDate(0, 0, -1), To: now.AddDate(1, 0, 0), Limit: 100}); err != nil {
		return "", fmt.Errorf("context: events for %q: %w", text, err)
	}
	if c.Tasks, err = s.Tasks.FindTasks(ctx, hearth.TaskFilter{UserID: userID, Status: hearth.TaskOpen, IncludeUndated: true, Limit: 100}); err != nil {
		return "", fmt.Errorf("context: tasks for %q: %w", text, err)
	}
	return plan.LastMentioned(c), nil
}

// NoteAdd rewrites the understanding of a request to add something to
// one of the user's notes or lists named by its title alone ("add a book
// for dad to my gift ideas"), which the classifier may refuse ("gift"
// reads as shopping) or send to another domain, into a request about the
// user's notes, when they have one of that title (plan.NamedNote).
// Anything else ("add flowers to my cart") is left as understood.
func (s Sources) NoteAdd(ctx context.Context, u stage.Understanding, text string, userID int64) (stage.Understanding, error) {
	if s.Notes == nil || u.Intent == nlu.RequestAction && slices.Contains(u.Domains, nlu.Keep) {
		return u, nil
	}
	_, dest, ok := plan.AddsTo(text)
	if !ok {
		return u, nil
	}
	notes, err := s.Notes.FindNotes(ctx, hearth.NoteFilter{UserID: userID, Title: dest, Limit: 10})
	if err != nil {
		return u, fmt.Errorf("context: notes called %q: %w", dest, err)
	}
	if _, _, ok := plan.NamedNote(text, notes); ok {
		u.Intent, u.Domains, u.RequiresAction, u.OutOfScope = nlu.RequestAction, []nlu.Domain{nlu.Keep}, true, false
	}
	return u, nil
}

// TickOff rewrites the understanding of a request to tick something off
// that names no list ("tick off milk", "cross the eggs off"), or to take
// it off ("remove the bread": only what is on a list), whatever
// the classifier made of it: a request to complete the open task it
// names, if the task planner finds one (plan.CompletesTask), else a
// request about the user's lists, if they have any (the list planner
// ticks it off the list that has it, or says none does). Anything else
// is left as understood.
func (s Sources) TickOff(ctx context.Context, u stage.Understanding, text string, userID int64) (stage.Understanding, error) {
	if slices.Contains(u.Domains, nlu.Keep) || s.Notes == nil || s.Tasks == nil {
		return u, nil
	}
	items, ok := plan.TickOffItems(text)
	takeOff := false
	if !ok {
		// "Remove the bread": only when it is on a list (below).
		if items, takeOff = plan.TakeOffItems(text); !takeOff {
			return u, nil
		}
	}
	tasks, err := s.Tasks.FindTasks(ctx, hearth.TaskFilter{UserID: userID, Status: hearth.TaskOpen, IncludeUndated: true, Limit: 100})
	if err != nil {
		return u, fmt.Errorf("context: open tasks: %w", err)
	}
	if plan.CompletesTask(text, tasks) {
		u.Intent, u.Domains, u.RequiresAction = nlu.RequestAction, []nlu.Domain{nlu.Task}, true
		return u, nil
	}
	onList := takeOff || plan.ToldBought(text) // only what is on a list: "I got the job", "delete the dentist"
	limit := 1
	if onList {
		limit = 100
	}
	lists, err := s.Notes.FindNotes(ctx, hearth.NoteFilter{UserID: userID, Limit: limit})
	if err != nil {
		return u, fmt.Errorf("context: lists: %w", err)
	}
	held := plan.OnLists
	if takeOff {
		held = plan.ListsHold // what is ticked off can still be taken off
	}
	if onList && !held(lists, items) {
		return u, nil
	}
	if len(lists) > 0 {
		u.Intent, u.Domains, u.RequiresAction = nlu.RequestAction, []nlu.Domain{nlu.Keep}, true
	}
	return u, nil
}

// ListAdd rewrites the understanding of a request to add a few things
// that names no list ("add eggs", "add bread and butter"), which the
// intent stage takes for chat, into a request about the user's lists:
// the list planner adds them to the list they have, asks which, or starts
// a shopping list (plan.BareAddItems). It may follow a reply that asked
// something ("What can I do for you?"), which makes it a followup: it is
// still a request of its own. A followup that acts already ("also add
// lemons", more for the list just changed) is left as understood.
func ListAdd(u stage.Understanding, text string) stage.Understanding {
	if u.Intent != nlu.Chat && (u.Intent != nlu.Followup || u.RequiresAction) {
		return u
	}
	if _, ok := plan.BareAddItems(text); ok {
		u.Intent, u.Domains, u.RequiresAction = nlu.RequestAction, []nlu.Domain{nlu.Keep}, true
	}
	return u
}

// Recall rewrites the understanding of a question the intent stage took
// for chat ("what's the wifi password?", "where is the spare key?") into
// a question to memory when a fact the user may see has its words: only
// the user's memory could answer it. Small talk ("how's it going?") and
// questions with no words of their own are left as understood.
func (s Sources) Recall(ctx context.Context, u stage.Understanding, text string, userID int64) (stage.Understanding, error) {
	if u.Intent != nlu.Chat || s.Memories == nil {
		return u, nil
	}
	lc := words.ASCIILower(strings.TrimSpace(text))
	if !words.StartsWithAny(lc, "what ", "what's ", "whats ", "where ", "where's ", "wheres ", "when ", "when's ", "which ", "who ", "who's ") {
		return u, nil
	}
	q := keywords(text)
	if q == text {
		return u, nil // nothing but question words
	}
	ms, err := s.Memories.FindMemories(ctx, hearth.MemoryFilter{UserID: userID, Query: q, Limit: 1})
	if err != nil {
		return u, fmt.Errorf("context: memories asked after: %w", err)
	}
	// A code or a password is only ever known from the user: asked
	// after and not known, memory says so ("tell me and I'll remember
	// it"), not that it is beyond what Hearth can look up.
	if len(ms) > 0 || slices.ContainsFunc(secretWords, func(w string) bool { return words.ContainsWord(lc, w) }) {
		u.Intent, u.Domains, u.RequiresAction = nlu.AskInfo, []nlu.Domain{nlu.Memory}, false
	}
	return u, nil
}

// Forget rewrites the understanding of "forget the dentist", which the
// intent stage may take for a task to make ("Forget the dentist" on the
// to-do list: something stored that was never asked for), into a request
// to memory when a fact the user may see has its words; the memory
// planner then forgets it, or says nothing is remembered by those words
// when the intent stage took it for another request. "Don't forget …" is
// not one.
func (s Sources) Forget(ctx context.Context, u stage.Understanding, text string, userID int64) (stage.Understanding, error) {
	if s.Memories == nil || u.Intent == nlu.RequestAction && slices.Equal(u.Domains, []nlu.Domain{nlu.Memory}) {
		return u, nil
	}
	ref, ok := plan.ForgetRequest(text)
	if !ok {
		return u, nil
	}
	if plan.IsPronoun(ref) {
		return u, nil // "forget it", "forget that": the last fact, the memory planner's when it is asked
	}
	q := keywords(ref)
	if strings.TrimSpace(q) == "" {
		return u, nil
	}
	ms, err := s.Memories.FindMemories(ctx, hearth.MemoryFilter{UserID: userID, Query: q, Limit: 1})
	if err != nil {
		return u, fmt.Errorf("context: memories to forget: %w", err)
	}
	// Nothing remembered by those words: still memory's when the intent
	// stage took it for a request ("forget the milk" is no to-do, "forget
	// about the meeting tomorrow" no event to make); memory then says it
	// has nothing by those words, and nothing is made.
	if len(ms) > 0 || u.Intent == nlu.RequestAction {
		u.Intent, u.Domains, u.RequiresAction = nlu.RequestAction, []nlu.Domain{nlu.Memory}, true
	}
	return u, nil
}

// secretWords name what only the user can have told Hearth.
var secretWords = []string{"password", "passcode", "passwords", "pin", "pin code", "code", "combination", "wifi", "wi-fi", "login"}

// Repeating rewrites the understanding of a message that says something
// happens again and again at a time ("family movie night every Friday at
// 7pm", "every Tuesday I have choir at 7pm", "I go swimming every
// Wednesday at 4pm"), which the intent stage takes for small talk, a
// question or a to-do it cannot name, into a request for the calendar: a
// repeating event (plan's series planner). A question ("what's on every
// Monday?") and a message with no time of day are left as understood.
func Repeating(u stage.Understanding, text string, now time.Time) stage.Understanding {
	switch {
	case u.Intent == nlu.Chat, u.Intent == nlu.AskInfo:
	case u.Intent == nlu.RequestAction && slices.Equal(u.Domains, []nlu.Domain{nlu.Task}):
		// "I go swimming every Wednesday": the user's life, not a to-do.
		if !words.StartsWithWords(words.ASCIILower(strings.TrimSpace(text)), "i", "we") {
			return u
		}
	default:
		return u
	}
	lc := words.ASCIILower(strings.TrimSpace(text))
	if strings.Contains(text, "?") || words.StartsWithWords(lc, nlu.QuestionHeads...) {
		return u
	}
	// The time may be said apart: "every Tuesday I have choir at 7pm".
	if _, _, ok := timex.ParseRecurrence(text); !ok || !plan.HasClock(text, now) {
		return u
	}
	u.Intent, u.Domains, u.RequiresAction = nlu.RequestAction, []nlu.Domain{nlu.Calendar}, true
	return u
}
