package nlu

import (
	"slices"
	"strings"
	"time"

	"github.com/hearthbot/hearth/pipeline/nlu/internal/features"
)

// The shapes of short requests the model misreads, each a predicate over
// a message's tokens that Classify applies after the model.

// remindOf reports "remind me" asking to be told something ("remind me
// what I have tomorrow", "remind me when the dentist is"), not for a
// reminder.
func remindOf(tokens []string) bool {
	if len(tokens) < 3 || tokens[0] != "remind" {
		return false
	}
	switch tokens[2] {
	case "what", "whats", "when", "where", "who", "whos", "how", "which", "why", "whether", "if":
		return true
	}
	return false
}

// emailSomeone reports a bare request to email someone: "email Sam",
// "email my landlord", not "email is down" or "emails?".
func emailSomeone(tokens []string) bool {
	if len(tokens) < 2 || len(tokens) > 4 || tokens[0] != "email" {
		return false
	}
	switch tokens[1] {
	case "is", "was", "isnt", "wasnt", "has", "had", "not", "me", "it", "this", "that", "sent", "from", "please":
		return false
	}
	return true
}

// startsList reports a request to start a list: "start a packing list",
// "make a new list for the trip".
func startsList(tokens []string) bool {
	if len(tokens) < 2 || len(tokens) > 8 {
		return false
	}
	switch tokens[0] {
	case "start", "make", "create", "begin", "setup", "set":
	default:
		return false
	}
	i := slices.Index(tokens, "list")
	return i > 0 && i <= 4
}

// remindRequest reports a request that starts by asking for a reminder
// ("remind me …", "set a reminder …", "reminder to …").
func remindRequest(tokens []string) bool {
	switch {
	case len(tokens) >= 2 && tokens[0] == "remind" && tokens[1] == "me":
		return true
	case len(tokens) >= 3 && tokens[0] == "set" && tokens[2] == "reminder":
		return true
	case len(tokens) >= 2 && tokens[0] == "reminder" && (tokens[1] == "to" || tokens[1] == "about"):
		return true
	}
	return false
}

// addsMore reports a request that adds to what was just done or spoken
// of: "also add …", "and add …", "add … too", "add … as well", "add …
// to it".
func addsMore(tokens []string) bool {
	if len(tokens) < 2 {
		return false
	}
	i := 0
	for i < len(tokens) && (tokens[i] == "and" || tokens[i] == "oh" || tokens[i] == "also" || tokens[i] == "please") {
		i++
	}
	if i == len(tokens) {
		return false
	}
	switch tokens[i] {
	case "add", "put", "throw", "include", "stick", "pop":
	default:
		return false
	}
	n := len(tokens)
	toIt := n > 3 && tokens[n-1] == "it" && (tokens[n-2] == "to" || tokens[n-2] == "on" || tokens[n-2] == "onto") // "add a toothbrush to it"
	return i > 0 && slices.Contains(tokens[:i], "also") || i > 0 && tokens[0] == "and" || toIt ||
		tokens[n-1] == "too" || n > 2 && tokens[n-2] == "as" && tokens[n-1] == "well"
}

// pointsBack reports a short request to change the item just talked
// about: a change verb and "it", "that" or "this" ("cancel it", "delete
// that one", "mark it as done", "move it to 11", "push that to Friday").
func pointsBack(tokens []string) bool {
	for len(tokens) > 2 {
		if slices.Contains([]string{"actually", "no", "oh", "sorry", "wait", "hmm", "please"}, tokens[0]) {
			tokens = tokens[1:] // "actually make that 6pm"
			continue
		}
		if slices.Contains([]string{"can", "could", "would", "will"}, tokens[0]) && (tokens[1] == "you" || tokens[1] == "we") {
			tokens = tokens[2:] // "can you move it to 3?"
			continue
		}
		break
	}
	if len(tokens) < 2 || len(tokens) > 8 {
		return false
	}
	switch tokens[0] {
	case "cancel", "delete", "remove", "drop", "mark", "move", "push", "reschedule", "postpone", "change", "rename", "bump", "shift", "make":
	default:
		return false
	}
	switch tokens[1] {
	case "it", "that", "this":
		// "make it 8pm" moves it; "make it a priority" is not a move.
		return tokens[0] != "make" || slices.ContainsFunc(tokens[2:], timeWord)
	}
	return false
}

// timeWord reports a word that says when: a number, "pm", a day, an
// amount of time.
func timeWord(t string) bool {
	if t != "" && t[0] >= '0' && t[0] <= '9' {
		return true
	}
	switch t {
	case "am", "pm", "noon", "midnight", "today", "tonight", "tomorrow", "morning", "afternoon", "evening",
		"monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "next", "later", "earlier",
		"minute", "minutes", "mins", "hour", "hours": // "make it an hour instead"
		return true
	}
	return false
}

// unticks reports a request to open a task ticked off: "untick the
// report", "uncheck buy milk" ("untick milk on the shopping list" is the
// list's).
func unticks(tokens []string) bool {
	return len(tokens) > 1 && (tokens[0] == "untick" || tokens[0] == "uncheck" || tokens[0] == "unmark") && !slices.Contains(tokens, "list")
}

// movesBy reports a request to move something by an amount: "push the
// dentist back an hour", "move it 30 minutes earlier", "delay the call by
// a day", "bring the meeting forward half an hour".
func movesBy(tokens []string) bool {
	if len(tokens) < 3 || len(tokens) > 12 {
		return false
	}
	switch tokens[0] {
	case "move", "push", "shift", "bump", "postpone", "delay", "bring", "make", "reschedule", "snooze":
	default:
		return false
	}
	for i := 2; i < len(tokens); i++ {
		if !shiftUnit(tokens[i]) || !shiftAmount(tokens[i-1]) {
			continue
		}
		before := tokens[i-2]
		if before == "half" && tokens[i-1] == "an" && i >= 3 {
			before = tokens[i-3] // "by half an hour"
		}
		after := ""
		if i+1 < len(tokens) {
			after = tokens[i+1]
		}
		switch {
		case after == "later" || after == "earlier" || after == "sooner" || after == "back":
			return true
		case before == "by" || before == "back" || before == "forward" || before == "out" || before == "ahead":
			return true
		case tokens[0] == "snooze" && i+1 == len(tokens):
			// "snooze it for an hour", "snooze that 10 minutes"
			return true
		}
	}
	return false
}

// shiftAmount reports a word that counts units of time: "30", "an", "two".
func shiftAmount(t string) bool {
	if t != "" && t[0] >= '0' && t[0] <= '9' {
		return true
	}
	switch t {
	case "a", "an", "one", "two", "three", "four", "five", "six":
		return true
	}
	return false
}

// shiftUnit reports a unit a move by an amount counts in.
func shiftUnit(t string) bool {
	switch t {
	case "minute", "minutes", "min", "mins", "hour", "hours", "hr", "hrs", "day", "days", "week", "weeks":
		return true
	}
	return false
}

// visitComing reports someone coming to the user: "the plumber is coming
// Tuesday", "Grandma's visiting on Saturday", "the electrician comes at
// 9". The caller checks a time is named.
func visitComing(tokens []string) bool {
	if len(tokens) == 0 {
		return false
	}
	switch tokens[0] {
	case "i", "im", "we", "were", "it", "its", "that", "thats", "this", "there", "what", "who", "when", "is", "are":
		return false // the user's own going, or a question
	}
	for i := 1; i < len(tokens) && i <= 3; i++ {
		verb := tokens[i]
		if (verb == "is" || verb == "are") && i+1 < len(tokens) {
			verb = tokens[i+1]
		}
		if slices.Contains(VisitVerbs, verb) {
			return true
		}
	}
	return false
}

// VisitVerbs say someone comes to the user ("the plumber is coming"); a
// visit's event is called by who comes (plan drops them from its title).
var VisitVerbs = []string{"coming", "comes", "visiting", "arriving", "arrives"}

// beingSaid is what follows "I'm", "we're", "I am", "I'll be", "we will
// be" (where or how the user or the household is, or will be); nil when
// the text does not open so.
func beingSaid(tokens []string) []string {
	switch {
	case len(tokens) > 3 && (tokens[0] == "i" || tokens[0] == "we") && tokens[1] == "will" && tokens[2] == "be":
		return tokens[3:]
	case len(tokens) > 2 && (tokens[0] == "i" && tokens[1] == "am" || tokens[0] == "we" && tokens[1] == "are" ||
		(tokens[0] == "ill" || tokens[0] == "well") && tokens[1] == "be"):
		return tokens[2:]
	case len(tokens) > 1 && (tokens[0] == "im" || tokens[0] == "were"):
		return tokens[1:]
	}
	return nil
}

// awayUntil reports news of where the user or the household is until a
// time: "we're out of the house until 6", "I'm at the gym until 7", "I'll
// be away till Sunday". The model takes it for a task with nothing to do;
// it asks for nothing, and nothing is kept. Naming one of Hearth's things
// ("… remind me to call mom") makes it a request again.
func awayUntil(tokens []string) bool {
	rest := beingSaid(tokens)
	if len(rest) > 3 && rest[0] == "going" && rest[1] == "to" && rest[2] == "be" {
		rest = rest[3:] // "I'm going to be away next week"
	}
	if len(rest) < 2 || len(rest) > 9 {
		return false
	}
	switch rest[0] {
	case "out", "away", "at", "in", "off", "gone", "busy", "stuck", "home", "travelling", "traveling":
	default:
		return false
	}
	until := slices.IndexFunc(rest, func(t string) bool { return t == "until" || t == "till" || t == "til" })
	if until < 0 && (rest[0] == "away" || rest[0] == "gone") && len(rest) <= 5 && !slices.Contains(rest, "to") {
		// "I'm away next week", "we'll be gone for the weekend": news
		// of an absence, no task called "Be away".
		return !slices.ContainsFunc(tokens, func(t string) bool { _, ok := strongWords[t]; return ok })
	}
	if until < 0 || len(rest)-until-1 > 3 {
		// Nothing said after the time ("… until 3 so move my call to
		// 4" asks for something).
		return false
	}
	return !slices.ContainsFunc(tokens, func(t string) bool { _, ok := strongWords[t]; return ok })
}

// runOut reports a household running out of something: "we're out of
// coffee", "we ran out of milk and eggs", "we're running low on
// detergent", "I'm out of coffee", "we need toilet paper" (what was run
// out of is read by the planner). Abstract things ("we're out of time")
// are not groceries; "I need …" is not a household's.
func runOut(tokens []string) bool {
	if len(tokens) > 1 && (tokens[0] == "i" || tokens[0] == "im" || tokens[0] == "ive") {
		// "I'm out of", "I've run out of", "I ran out of", "I'm running
		// low on": as "we", when said so ("I am tired of waiting" is
		// no grocery).
		of := slices.IndexFunc(tokens, func(t string) bool { return t == "of" || t == "on" })
		if of < 1 || tokens[of-1] != "out" && tokens[of-1] != "low" {
			return false
		}
	}
	switch {
	case len(tokens) > 1 && tokens[0] == "im":
		tokens = append([]string{"were"}, tokens[1:]...)
	case len(tokens) > 1 && (tokens[0] == "ive" || tokens[0] == "weve"):
		tokens = append([]string{"we", "have"}, tokens[1:]...)
	case len(tokens) > 1 && tokens[0] == "i" && tokens[1] != "need":
		tokens = append([]string{"we"}, tokens[1:]...)
	}
	var rest []string
	switch {
	case len(tokens) > 3 && tokens[0] == "were" && tokens[1] == "out" && tokens[2] == "of":
		rest = tokens[3:]
	case len(tokens) > 3 && tokens[0] == "we" && (tokens[1] == "are" || tokens[1] == "am" || tokens[1] == "ran" || tokens[1] == "have" && tokens[2] == "run") && slices.Index(tokens, "of") > 0:
		rest = tokens[slices.Index(tokens, "of")+1:]
	case len(tokens) > 2 && len(tokens) <= 7 && tokens[0] == "we" && tokens[1] == "need" && !slices.Contains(tokens, "to"):
		// "we need toilet paper", "we need more eggs": not "we need to
		// talk".
		rest = tokens[2:]
		if rest[0] == "more" || rest[0] == "some" {
			rest = rest[1:]
		}
		if len(rest) > 0 && slices.Contains([]string{"a", "an", "help", "you", "him", "her", "them", "it", "that", "this"}, rest[0]) {
			return false
		}
	case len(tokens) > 4 && tokens[0] == "were" && (tokens[1] == "running" || tokens[1] == "almost" || tokens[1] == "nearly" || tokens[1] == "all") && (slices.Contains(tokens, "of") || slices.Contains(tokens, "on")):
		i := slices.Index(tokens, "of")
		if i < 0 {
			i = slices.Index(tokens, "on")
		}
		rest = tokens[i+1:]
	default:
		return false
	}
	if len(rest) == 0 || len(rest) > 6 {
		return false
	}
	switch rest[0] {
	case "time", "ideas", "options", "luck", "patience", "money", "cash", "space", "room", "energy", "steam", "breath", "town", "here", "it", "the", "sync", "touch", "order", "control", "gas", "road":
		return false
	}
	return true
}

// clearsDay reports a request to cancel every event of a day or week:
// "cancel everything on Friday", "delete all my meetings tomorrow",
// "clear my calendar next week", "clear Saturday". A date is required:
// "delete everything on my list" is no such request.
func clearsDay(tokens []string) bool {
	for len(tokens) > 0 && tokens[0] == "please" {
		tokens = tokens[1:]
	}
	if len(tokens) < 2 || len(tokens) > 10 {
		return false
	}
	switch tokens[0] {
	case "cancel", "clear", "delete", "scrap", "wipe":
	default:
		return false
	}
	rest := tokens[1:]
	switch {
	case rest[0] == "everything" || rest[0] == "all":
		rest = rest[1:]
		for len(rest) > 0 && (rest[0] == "of" || rest[0] == "my" || rest[0] == "the") {
			rest = rest[1:]
		}
		if len(rest) > 0 && slices.Contains([]string{"events", "meetings", "appointments", "plans"}, rest[0]) {
			rest = rest[1:]
		}
	case tokens[0] == "clear":
		if len(rest) > 0 && (rest[0] == "my" || rest[0] == "the") {
			rest = rest[1:]
		}
		if len(rest) > 0 && slices.Contains([]string{"calendar", "schedule", "diary", "day"}, rest[0]) {
			rest = rest[1:]
		}
	default:
		return false
	}
	// What is left says when, and nothing else: "on Friday", "for next
	// week", "tomorrow".
	if len(rest) == 0 {
		return false
	}
	for _, t := range rest {
		if !timeWord(t) && t != "on" && t != "for" && t != "this" && t != "week" && t != "weekend" {
			return false
		}
	}
	return true
}

// writesNote reports a request to write a note, whatever it says: "write
// a note: bring snacks on Friday", "take a quick note …".
func writesNote(tokens []string) bool {
	if len(tokens) < 3 {
		return false
	}
	switch tokens[0] {
	case "write", "add", "make", "take", "jot", "create", "leave", "save":
	default:
		return false
	}
	for _, t := range tokens[1:min(len(tokens), 4)] {
		if t == "note" || t == "memo" {
			return true
		}
	}
	return false
}

// moreOf reports a bare continuation of what was just added, without a
// verb: "and bread", "oh and butter", "plus some cheese", "bread too".
// Whether it continues a list is the previous request's to say (Classify).
func moreOf(tokens []string) bool {
	for len(tokens) > 0 && (tokens[0] == "oh" || tokens[0] == "ah") {
		tokens = tokens[1:]
	}
	n := len(tokens)
	if n < 2 || n > 6 {
		return false
	}
	rest := tokens
	switch {
	case rest[0] == "and" || rest[0] == "also" || rest[0] == "plus":
		rest = rest[1:]
	case rest[n-1] == "too":
		rest = rest[:n-1]
	default:
		return false
	}
	for _, t := range rest {
		if notMore[t] || timeWord(t) {
			return false
		}
	}
	return len(rest) > 0
}

// notMore are words no item added to a list is made of: "and thanks",
// "and what about tomorrow", "also call mom".
var notMore = map[string]bool{
	"thanks": true, "thank": true, "you": true, "ok": true, "okay": true, "cheers": true, "great": true, "done": true,
	"that": true, "it": true, "this": true, "all": true, "everything": true, "nothing": true, "what": true, "why": true,
	"how": true, "who": true, "when": true, "where": true, "is": true, "are": true, "i": true, "me": true, "my": true,
	"we": true, "then": true, "call": true, "email": true, "text": true, "remind": true, "add": true, "put": true,
	"remove": true, "delete": true, "cancel": true, "move": true, "to": true, "with": true, "at": true,
}

// listRequestBefore reports whether the user's request before this
// message, past any bare continuations ("and bread"), added to a list or
// asked what is on one.
func (c *Classifier) listRequestBefore(recent []Turn, ref time.Time) bool {
	var buf [features.MaxTokens]string
	for i := len(recent) - 1; i >= 0; i-- {
		if recent[i].FromBot {
			continue
		}
		if toks, _ := features.Tokens(buf[:0], recent[i].Text); moreOf(toks) {
			continue
		}
		prev := c.Classify(recent[i].Text, nil, ref)
		return (prev.Intent == RequestAction || prev.Intent == AskInfo) && slices.Contains(prev.Domains, Keep)
	}
	return false
}

// likesSomething reports a statement of what someone else likes or
// dislikes: "Tom loves jazz", "my husband hates olives", "Priya prefers
// green tea". The subject is a name (capitalised in text) or "my …".
func likesSomething(tokens []string, text string) bool {
	i := slices.IndexFunc(tokens, func(t string) bool {
		return slices.Contains([]string{"loves", "likes", "prefers", "hates", "dislikes", "enjoys", "adores"}, t)
	})
	if i < 1 || i > 3 || i == len(tokens)-1 {
		return false
	}
	switch subj := tokens[:i]; {
	case subj[0] == "my" || subj[0] == "our":
		return len(subj) >= 2
	case len(subj) == 1:
		f := strings.Fields(text)
		return len(f) > 0 && f[0][0] >= 'A' && f[0][0] <= 'Z' && !slices.Contains([]string{"he", "she", "it", "they", "everyone", "nobody", "who"}, subj[0])
	}
	return false
}

// beforeBirthday reports an errand dated by someone's birthday or
// anniversary: "buy flowers before Mum's birthday" is the user's own
// errand, as "buy flowers on Friday" is (the planner finds the date).
func beforeBirthday(tokens []string) bool {
	for i, t := range tokens {
		if t != "before" {
			continue
		}
		for _, n := range tokens[i+1 : min(i+4, len(tokens))] {
			if n == "birthday" || n == "bday" || n == "anniversary" {
				return true
			}
		}
	}
	return false
}

// birthdayErrand reports a reminder or an errand dated by a birthday or
// an anniversary ("remind me the day before Sam's birthday", "buy candles
// before Sam's birthday"), which the word "birthday" does not make a fact
// to keep; "remind me that Sam's birthday is …" tells one.
func birthdayErrand(tokens []string) bool {
	if !beforeBirthday(tokens) && !(remindRequest(tokens) && !slices.Contains(tokens, "that")) {
		return false
	}
	named := false
	for i, t := range tokens {
		if t == "birthday" || t == "bday" || t == "anniversary" {
			named = true
			if i+1 < len(tokens) && (tokens[i+1] == "is" || tokens[i+1] == "was") {
				return false
			}
		}
	}
	return named
}

// aboutList reports a reply about one of the user's lists ("I started
// your packing list", "Done — I added sunscreen to your packing list"),
// not the tasks ("your to-do list").
func aboutList(reply string) bool {
	lc := strings.ToLower(reply)
	return strings.Contains(lc, " list") && !strings.Contains(lc, "to-do list") && !strings.Contains(lc, "todo list")
}

// noteLookup reports whether a message asks to see a note rather than to
// change one: a verb of looking ("find", "show", "pull up", "search")
// first, possibly after "please" or "can you", and "note" or "notes".
func noteLookup(tokens []string) bool {
	i := 0
	for i < len(tokens) && slices.Contains([]string{"please", "can", "could", "would", "will", "you", "hearth"}, tokens[i]) {
		i++
	}
	if i == len(tokens) {
		return false
	}
	switch tokens[i] {
	case "find", "show", "open", "search", "fetch", "get", "pull", "look", "bring", "dig", "locate":
	default:
		return false
	}
	return slices.Contains(tokens[i:], "note") || slices.Contains(tokens[i:], "notes")
}
