package plan

import (
	"regexp"
	"slices"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// Changing what exists: the task and calendar planners share how a
// request names the item it changes. The item is named by its title
// words (matched loosely: "the dentist" finds "Dentist appointment", a
// slip like "dentsit" still counts), by its time ("my 3pm"), or by "it"
// and "that", which mean the item the bot's last reply was about. Where
// the user named a task but the calendar planner was asked (or the other
// way round), the planner hands over to the other one, so the change
// lands on the item the user has.

// ChangeVerbs start a request to change when an existing task or event
// is ("change the dentist reminder to 11am"); unlike MoveVerbs they also
// start other requests ("update my note"), so they count only with a
// time after "to".
var ChangeVerbs = []string{"change ", "update ", "switch ", "make "}

// RenameVerbs start a request to rename an existing task or event.
var RenameVerbs = []string{"rename ", "retitle ", "change the name of ", "change the title of "}

// IsChange reports whether text asks to change, cancel, rename or
// complete something that exists rather than to make something new.
func IsChange(text string) bool {
	lc := words.StripPoliteness(words.ASCIILower(strings.TrimSpace(text)))
	if words.StartsWithAny(lc, MoveVerbs...) || words.StartsWithAny(lc, RenameVerbs...) {
		return true
	}
	if words.StartsWithAny(lc, cancelVerbs...) || words.StartsWithAny(lc, "call off ", "mark ", "check off ", "cross off ", "skip ", "suspend ", "resume ", "unpause ") {
		return true
	}
	if _, ok := nlu.ChangesLength(text); ok {
		return true // "extend the call by 15 minutes"
	}
	if !words.StartsWithAny(lc, ChangeVerbs...) {
		return false
	}
	// "make the vitamins reminder 8am instead" says no "to"; nor does
	// "make my bills reminder the 15th at 9am", which names a reminder
	// the user has ("my", "the"; a new one is "a reminder").
	// "make it 8pm" points back at what the last reply was about.
	_, rest, _ := strings.Cut(lc, " ")
	return strings.Contains(lc, " to ") || strings.HasSuffix(strings.TrimRight(lc, ".!"), " instead") ||
		words.StartsWithAny(rest, "my ", "the ", "our ") && strings.Contains(lc, " reminder ") ||
		words.StartsWithAny(rest, "it ", "that ", "this ")
}

// isPronounRef reports a reference that only points back ("it", "that
// one", "the reminder", "this meeting").
func isPronounRef(ref string) bool {
	r := words.TrimWordsRight(words.TrimWordsLeft(words.ASCIILower(strings.TrimSpace(ref)), "the", "that", "this", "it", "my"),
		"one", "reminder", "task", "event", "meeting", "appointment")
	// "Delete that reminder" leaves "reminder" alone: a task's own
	// noun, which names no task.
	return IsPronoun(ref) || r == "" && ref != "" || r == "reminder" || r == "task"
}

// LastMentioned returns the title the bot's latest reply quoted
// ("Got it — I'll remind you: “Call the plumber”, …"), or else the
// longest title of a task or event it names ("Added dinner at Marco's to
// your calendar"): what "it" and "that" refer to. A reply that names
// nothing ("I need to know when to move it to") leaves "it" what it was,
// up to a few replies back. "" when the conversation has none.
func LastMentioned(c stage.Context) string {
	replies := 0
	for i := len(c.Recent) - 1; i >= 0 && replies < 3; i-- {
		m := c.Recent[i]
		if m.From != hearth.FromBot {
			continue
		}
		replies++
		_, rest, ok := strings.Cut(m.Text, "“")
		if !ok {
			if t := namedIn(markdown.Plain(m.Text), c); t != "" {
				return t
			}
			continue
		}
		title, _, ok := strings.Cut(rest, "”")
		if !ok {
			return ""
		}
		// The reply is Markdown: the title as the user typed it.
		return strings.TrimSpace(markdown.Plain(title))
	}
	return ""
}

// resolveRef turns a pronoun reference into the title it points at, and
// leaves any other reference as it is.
func resolveRef(ref string, c stage.Context) string {
	if ref == "" || isPronounRef(ref) {
		if t := LastMentioned(c); t != "" {
			return t
		}
	}
	return ref
}

// changeTarget reads "change the dentist reminder to 11am": the reference
// and the text of the new time, when there is one.
func changeTarget(in stage.PlanInput, text string) (ref, target string, ok bool) {
	rest, verb, found := words.AfterAny(text, ChangeVerbs...)
	if !found {
		return "", "", false
	}
	refText, target, found := words.CutBefore(rest, "to ")
	if !found {
		// "make that 6pm": the time follows the pronoun.
		if f := strings.Fields(rest); len(f) > 1 && IsPronoun(f[0]) {
			refText, target, found = f[0], strings.Join(f[1:], " "), true
		}
	}
	if kept, instead := strings.CutSuffix(strings.TrimRight(words.TidySlot(rest), ".!"), " instead"); !found && instead {
		// "make lunch with Ben 2pm instead": the new time starts where
		// the first time or day does. ("Make dinner at 8" without
		// "instead" makes a new one.)
		if ms := timex.Find(kept, stage.UserNow(in.Context), timex.Options{}); len(ms) > 0 && ms[0].Start > 0 {
			refText, target, found = kept[:ms[0].Start], kept[ms[0].Start:], true
		}
	}
	if !found || targetWhen(in, target) == nil || verb == "make " && !namesOwn(in, refText) {
		return "", "", false
	}
	refText, _, _ = words.CutBefore(refText, "time of ", "date of ")
	if r, _, cut := words.AfterAny(refText, "time of ", "date of "); cut {
		refText = r
	}
	return refText, target, true
}

// namesOwn reports whether refText names something the user has, or
// points back at it: "make sure to call mum" is a new task, not a change
// to one called "sure".
func namesOwn(in stage.PlanInput, refText string) bool {
	r := words.TidySlot(words.ASCIILower(refText))
	if f := strings.Fields(r); len(f) > 0 && IsPronoun(f[0]) || words.StartsWithAny(r, "my ", "the ", "our ") {
		return true
	}
	return hasTask(taskRef(r), in.Context) || hasEvent(r, in.Context)
}

// partOfDayClock is the hour a part of the day said alone ("change it
// to the afternoon") moves a thing to, on its own day: the hour
// partOfDayAt gives "this afternoon" and the like ("3pm").
func partOfDayClock(in stage.PlanInput, target string) (string, bool) {
	t := words.TrimWordsLeft(words.TidySlot(words.ASCIILower(target)), "in", "the")
	t = words.TrimWordsRight(t, "instead", "please")
	said, ok := map[string]string{"morning": "this morning", "afternoon": "this afternoon", "evening": "this evening", "night": "tonight"}[t]
	if !ok {
		return "", false
	}
	ms := timex.Find(said, stage.UserNow(in.Context), timex.Options{})
	if len(ms) != 1 {
		return "", false
	}
	at, ok := partOfDayAt(&ms[0], stage.UserZone(in.Context))
	return at.Format("3:04pm"), ok
}

// targetWhen reads the new time of a move or change: "to Friday", and
// also a bare hour ("move it to 11"), which only a move makes a time.
func targetWhen(in stage.PlanInput, target string) *timex.Match {
	if at, ok := partOfDayClock(in, target); ok {
		return whenOf(in, "at "+at, false)
	}
	if m := whenOf(in, target, false); m != nil {
		return m
	}
	t := strings.TrimSpace(target)
	if t == "" || t[0] < '0' || t[0] > '9' {
		return nil
	}
	return whenOf(in, "at "+t, false)
}

// planRename renames the task or event the user named: "rename the call
// with Bob to budget review", "change the name of my reminder to buy
// stamps".
func planRename(in stage.PlanInput, text string) (stage.Plan, error) {
	p := stage.Plan{Understood: "rename something"}
	refText, newTitle, ok := renameParts(text)
	if !ok {
		return p, needDetails("the new name")
	}
	ref := resolveRef(taskRef(eventRefWords(refText)), in.Context)
	if ref == "" {
		return p, needDetails("what to rename")
	}
	p.Understood = "rename “" + markdown.Escape(ref) + "” to “" + markdown.Escape(newTitle) + "”"
	var labels []string
	var acts []action.Action
	// A repeating event is renamed as one: every occurrence from the
	// next on.
	for _, e := range firstOfSeries(MatchEvents(ref, nil, in.Context)) {
		a, err := action.New(action.CalendarUpdate, action.EventUpdateArgs{ID: e.ID, Title: e.Title, Series: e.Series != "",
			Update: hearth.CalendarEventUpdate{Title: &newTitle}})
		if err != nil {
			return plannedErr(p, err)
		}
		acts, labels = append(acts, a), append(labels, eventLabel(e, in.Context))
	}
	if len(acts) == 0 {
		for _, t := range matchingOpenTasks(ref, in.Context.Tasks) {
			a, err := action.New(action.TaskUpdate, action.TaskUpdateArgs{ID: t.ID, Update: hearth.TaskUpdate{Title: &newTitle}})
			if err != nil {
				return plannedErr(p, err)
			}
			acts, labels = append(acts, a), append(labels, taskLabel(t, in.Context))
		}
	}
	if len(acts) == 0 {
		return p, needDetails("what to rename: I couldn't find anything matching “%s”", ref)
	}
	return actOrAsk(p, "Which one should I rename?", labels, acts), nil
}

// renameParts reads "rename X to Y" (RenameVerbs): what is renamed, as
// said, and its new name; ok is false when no new name is said.
func renameParts(text string) (ref, title string, ok bool) {
	rest, _, _ := words.AfterAny(text, RenameVerbs...)
	ref, title, found := words.CutBefore(rest, "to ", "as ")
	title = prose.UpperFirst(words.TidySlot(strings.Trim(words.TidySlot(title), "\"'“”")))
	return ref, title, found && title != ""
}

// eventRefWords trims what an event reference says besides its name.
func eventRefWords(s string) string {
	s = words.TrimWordsLeft(words.TidySlot(s), "my", "the", "our", "a", "an", "event", "meeting called", "task called", "reminder called")
	return words.TidySlot(words.TrimWordsRight(s, "event", "on", "at", "for"))
}

// WithoutEventNoun is ref without a trailing word any event may be
// called ("dentist appointment" → "dentist"), for finding an event whose
// title does not have it; ref itself when nothing would be left.
func WithoutEventNoun(ref string) string {
	if r := words.TrimWordsRight(words.TidySlot(ref), eventNouns...); r != "" {
		return r
	}
	return ref
}

// hasTask reports whether ref names one of the open tasks in c.
func hasTask(ref string, c stage.Context) bool {
	return ref != "" && len(matchingOpenTasks(ref, c.Tasks)) > 0
}

// hasEvent reports whether ref names one of the events in c.
func hasEvent(ref string, c stage.Context) bool {
	return ref != "" && len(MatchEvents(ref, nil, c)) > 0
}

// namedIn is the longest title of a task or event in c that text names.
func namedIn(text string, c stage.Context) string {
	lc := strings.ToLower(text)
	best := ""
	consider := func(title string) {
		if len(title) > len(best) && strings.Contains(lc, strings.ToLower(title)) {
			best = title
		}
	}
	for _, t := range c.Tasks {
		consider(t.Title)
	}
	for _, e := range c.Events {
		consider(e.Title)
	}
	return best
}

// planOnlyTime plans a time alone said right after a reply about a task
// or an event ("remind me to call mom" … "tomorrow at 5"): that item
// moves there. ok is false for any other message, or when the last reply
// was about nothing the user has.
func planOnlyTime(in stage.PlanInput, text string) (stage.Plan, bool, error) {
	if !nlu.OnlyTime(text, stage.UserNow(in.Context)) {
		return stage.Plan{}, false, nil
	}
	ref := LastMentioned(in.Context)
	switch {
	case ref == "":
		return stage.Plan{}, false, nil
	case hasTask(ref, in.Context):
		p, err := moveTask(in, ref, text)
		return p, true, err
	case hasEvent(ref, in.Context):
		p, err := planEventMove(in, "move "+ref+" to "+text, false)
		return p, true, err
	}
	return stage.Plan{}, false, nil
}

// askIfPartlyNamed turns plan p, which acts at once on the one item ref
// found (its title, its label on a button), into a question with one
// button when ref named it only in part: "cancel lunch with Sam" finds the
// Team lunch, "delete the call with Bo" finds "Call the dentist", each
// the best there is but maybe not what was meant (both were once acted on
// at once). Nouns that name a kind of item without telling which ("my
// dentist appointment" is the Dentist) need not be in the title.
func askIfPartlyNamed(p stage.Plan, ref, title, label, button string, nouns []string) stage.Plan {
	if len(p.Actions) != 1 || coversNamed(ref, title, nouns) {
		return p
	}
	q := "I couldn't find “" + markdown.Escape(ref) + "”. Did you mean " + markdown.Escape(label) + "?"
	p.Question, p.Actions = askChoice(q, []string{button}, p.Actions), nil
	return p
}

// coversNamed reports whether title has every word of ref but nouns; a
// ref of nouns alone is covered.
func coversNamed(ref, title string, nouns []string) bool {
	named := slices.DeleteFunc(strings.Fields(ref), func(w string) bool {
		return slices.Contains(nouns, words.ASCIILower(w))
	})
	rest := strings.Join(named, " ")
	return len(words.MatchWords(rest)) == 0 || words.Covers(rest, title)
}

// eventNouns and taskNouns name an event or a task without telling which.
var (
	eventNouns = []string{"appointment", "appointments", "appt", "meeting", "meetings", "event", "events", "session", "thing"}
	taskNouns  = []string{"task", "tasks", "todo", "to-do", "reminder", "reminders", "item", "thing"}
)

// reAmountAlone reads a change of a task to an amount of time said alone:
// "make it 30 minutes", "change that to an hour instead".
var reAmountAlone = regexp.MustCompile(`(?i)^(.*?\b(?:it|that|this)\s+(?:to\s+)?)` + shiftAmount + `\s+(?:minutes?|mins?|hours?|hrs?)(?:\s+(?:instead|please))?\s*[.!]*$`)

// fromNow reads "make it 30 minutes" of a reminder just set as "make it
// in 30 minutes": a task has no length, so an amount alone is how far off
// it is. Of an event it would be its length: left as said.
func fromNow(in stage.PlanInput, text string) string {
	loc := reAmountAlone.FindStringSubmatchIndex(text)
	if loc == nil {
		return text
	}
	if t := LastMentioned(in.Context); !hasTask(t, in.Context) || hasEvent(t, in.Context) {
		return text
	}
	return text[:loc[3]] + "in " + text[loc[3]:]
}
