package nlu

import "slices"

// The capability gate (issue 16): items come only from clear requests for
// something Hearth can do — a reminder, a to-do, an event, a note or a
// list, a memory, an email — and from what people say about their own
// lives. The model scores words, so a request for something else that is
// worded like one of Hearth's ("set the thermostat to 68", "put on some
// jazz", "send the rent through the bank app") can still come out as a
// request with high confidence. The gate asks a second, explainable
// question of every RequestAction the model and the rules produce: does
// the message carry a cue of one of Hearth's own capabilities? If not, it
// is answered as chat with OutOfScope set, and Result.Reason says why.
//
// Cues come in two strengths. A strong cue names one of Hearth's things
// or frames ("remind me", "remember that", "my list", "the calendar", "a
// meeting", "email", "I need to …"), and keeps the request whatever else
// it says. A weak cue only makes a request plausible — a date or time
// with a verb phrase ("pay the plumber friday"), a change verb on an item
// ("cancel my 4pm"), a verb Hearth has but shares with other services
// ("send", "book", "mail") — and keeps it only when nothing in the
// message names what Hearth cannot do (devices, media, payments, shopping,
// travel, look-ups) and the model's abstain class is not already
// suspicious.

// gateOOS is the abstain-class probability above which a weak cue is not
// enough: the model already sees something it cannot do in the words.
// Strong cues ignore it, so in-scope requests the model is unsure about
// stay requests.
const gateOOS = 0.2

// Why a request was kept or refused, as Result.Reason reports it.
const (
	reasonNoCue     = "no reminder, to-do, list, calendar, note, memory or email in the request"
	reasonCannot    = "asks for something Hearth cannot do: "
	reasonAbstain   = "only a weak cue, and the model sees something Hearth cannot do"
	reasonElsewhere = "asks to use another service (online, a website or an app)"
)

// strongWords are tokens that name one of Hearth's own things anywhere in
// a request.
var strongWords = map[string]string{
	"remind": "reminder", "reminder": "reminder", "reminders": "reminder", "reminded": "reminder", "reminding": "reminder",
	"remember": "memory", "fyi": "memory", "memorize": "memory",
	"todo": "to-do", "todos": "to-do", "task": "to-do", "tasks": "to-do", "chores": "to-do",
	"checklist": "list", "lists": "list",
	"calendar": "calendar", "calendars": "calendar", "agenda": "calendar", "diary": "calendar",
	"meeting": "calendar", "meetings": "calendar", "appointment": "calendar", "appointments": "calendar",
	"appt": "calendar", "event": "calendar", "events": "calendar",
	"email": "email", "emails": "email", "inbox": "email", "draft": "email", "drafts": "email", "reply": "email",
	"forward": "email", "cc": "email",
	"note": "note", "notes": "note", "memo": "note", "jot": "note",
}

// cannotWords name what Hearth cannot do; they outweigh weak cues only.
var cannotWords = map[string]string{
	// household devices
	"preheat": "devices", "dim": "devices", "brighten": "devices",
	"thermostat": "devices", "ac": "devices", "aircon": "devices",
	"lights": "devices", "lamp": "devices", "fan": "devices", "oven": "devices",
	"tv": "devices", "television": "devices", "volume": "devices", "vacuum": "devices", "roomba": "devices",
	"channel": "devices", "temperature": "devices", "degrees": "devices", "sprinklers": "devices",
	"unlock": "devices", "lock": "devices", "dishwasher": "devices", "washer": "devices",
	// media
	"play": "music and media", "stream": "music and media", "song": "music and media", "songs": "music and media",
	"music": "music and media", "album": "music and media", "playlist": "music and media", "podcast": "music and media",
	"radio": "music and media", "spotify": "music and media", "netflix": "music and media", "movie": "music and media",
	"episode": "music and media", "audiobook": "music and media",
	// money and shopping
	"pay": "payments and shopping", "buy": "payments and shopping", "order": "payments and shopping",
	"purchase": "payments and shopping", "transfer": "payments and shopping", "venmo": "payments and shopping",
	"zelle": "payments and shopping", "paypal": "payments and shopping", "money": "payments and shopping",
	"dollars": "payments and shopping", "bucks": "payments and shopping", "savings": "payments and shopping",
	"refund": "payments and shopping", "deposit": "payments and shopping",
	"account": "payments and shopping", "subscription": "subscriptions", "unsubscribe": "subscriptions", "newsletter": "subscriptions",
	"cart": "payments and shopping", "deliver": "payments and shopping", "delivery": "payments and shopping",
	"delivered": "payments and shopping", "flowers": "payments and shopping", "gift": "payments and shopping",
	"package": "payments and shopping", "parcel": "payments and shopping", "sell": "payments and shopping",
	// travel and other companies' bookings
	"flight": "travel and bookings", "flights": "travel and bookings", "hotel": "travel and bookings",
	"uber": "travel and bookings", "lyft": "travel and bookings", "taxi": "travel and bookings", "cab": "travel and bookings",
	"ride": "travel and bookings", "tickets": "travel and bookings", "ticket": "travel and bookings",
	"reservation": "travel and bookings", "reserve": "travel and bookings", "table": "travel and bookings",
	"directions": "directions and look-ups", "navigate": "directions and look-ups", "route": "directions and look-ups",
	// look-ups and other apps
	"search": "directions and look-ups", "google": "directions and look-ups", "find": "directions and look-ups",
	"translate": "directions and look-ups", "weather": "directions and look-ups", "forecast": "directions and look-ups",
	"calculate": "directions and look-ups", "convert": "directions and look-ups", "define": "directions and look-ups",
	"text": "texts and calls", "sms": "texts and calls", "facetime": "texts and calls", "dial": "texts and calls",
	"tweet": "texts and calls",
}

// cannotVerbs are the words of cannotWords that ask for an act at the
// head of a request ("buy …", "play …"): they outweigh even an event or a
// mail named in the request. "find" and "search" are not among them:
// "find a time for a meeting" is Hearth's.
var cannotVerbs = []string{
	"preheat", "dim", "brighten", "vacuum", "unlock", "lock", "play", "stream", "pay", "buy", "order", "purchase",
	"transfer", "deposit", "refund", "unsubscribe", "deliver", "sell", "reserve", "navigate", "translate",
	"calculate", "convert", "define", "text", "facetime", "dial", "tweet",
}

// errandVerbs are things people do themselves as well as ask a service
// for: with a date and nobody to do it for ("pay rent on friday", "buy
// a birthday present saturday") they are the user's own to-do, as a
// bare imperative with a date is; "order me a pizza at 7" asks Hearth.
var errandVerbs = []string{"pay", "buy", "order", "purchase", "text", "sell", "deposit", "call", "ring", "phone", "pick", "collect", "return", "visit", "check"}

// errand reports whether the head verb is an errand verb the user does
// themselves: not followed by "me", "us" or "for me", nor by another
// errand asked of Hearth ("… and order me a pizza").
func errand(tokens []string, head int) bool {
	if !slices.Contains(errandVerbs, tokens[head]) || head+1 < len(tokens) && tokens[head+1] == "off" {
		return false // "call off the party on Friday" cancels it
	}
	for _, t := range tokens[head+1 : min(len(tokens), head+4)] {
		if t == "me" || t == "us" {
			return false
		}
	}
	for i := head + 1; i+1 < len(tokens); i++ {
		if slices.Contains(errandVerbs, tokens[i]) && (tokens[i+1] == "me" || tokens[i+1] == "us") {
			return false // "pick up the dry cleaning and order me a pizza": one asked of Hearth
		}
	}
	return true
}

// changeVerbs change an item that exists; at the head of a request they
// are a weak cue ("cancel the book club on wednesday", "cross off
// laundry").
var changeVerbs = []string{
	"cancel", "delete", "remove", "erase", "move", "reschedule", "push", "postpone", "rename", "clear", "mark",
	"tick", "cross", "check", "complete", "finish", "bump", "shift", "drop", "update", "change", "scratch", "nix", "delay",
}

// weakVerbs are Hearth's verbs that other services share: they make a
// request plausible, not certain.
var weakVerbs = []string{
	"add", "put", "schedule", "book", "set", "plan", "arrange", "create", "make", "send", "mail", "write", "tell",
	"invite", "block", "note", "log", "save", "keep", "track", "start",
}

// eventNouns are things that go on a calendar; with a verb of Hearth's
// they are a weak cue ("schedule lunch with Carlos", "set up a call with
// the contractor"), since "add a song to my workout playlist" has one
// too.
var eventNouns = []string{
	"call", "lunch", "dinner", "breakfast", "brunch", "coffee", "party", "practice", "lesson", "class",
	"checkup", "haircut", "session", "sync", "standup", "interview", "game", "recital", "concert",
	"rehearsal", "visit", "trip", "birthday", "anniversary", "deadline", "shift", "workout", "training", "games",
}

// capable decides whether a RequestAction keeps its intent: ok is false
// when the message is a request (not a statement about the user's life)
// that carries no cue of anything Hearth can do. why explains the
// decision either way; when is whether the message has a date or time;
// oos is the model's abstain-class probability.
func capable(tokens []string, question, when bool, oos float64) (ok bool, why string) {
	head := requestHead(tokens)
	if runOut(tokens) {
		return true, "something for the shopping list"
	}
	if aboutMe(tokens) || aboutSomeone(tokens) {
		return true, "a lasting fact about the user or someone they know"
	}
	if when && visitComing(tokens) {
		// "Grandma's visiting on Saturday": for the calendar.
		return true, "someone coming, for the calendar"
	}
	if head == 0 && when && errand(tokens, head) {
		// "Buy a birthday present saturday": the user's own errand.
		return true, "the user's own errand, a to-do"
	}
	if movesBy(tokens[head:]) || unticks(tokens[head:]) {
		// "Push my run back two days": only what has a time moves by an
		// amount of time, and only what the user has is moved.
		return true, "moves a task or an event"
	}
	if cue := strongCue(tokens, head); cue != "" {
		if cue == "calendar" || cue == "email" {
			// An event or a mail named as the object of something
			// Hearth cannot do ("buy tickets for the event", "book
			// the service appointment online") is still that thing;
			// a reminder, a note, a list or a memory frames it as
			// Hearth's ("remind me to buy tickets").
			if what, ok := cannotWords[tokens[head]]; ok && slices.Contains(cannotVerbs, tokens[head]) {
				return false, reasonCannot + what
			}
			if elsewhere(tokens) {
				return false, reasonElsewhere
			}
		}
		return true, "asks for " + cue
	}
	if !question && statement(tokens[head:]) {
		return true, "a statement about the user's life"
	}
	weak := weakCue(tokens, head, when)
	for i, t := range tokens {
		if when && errand(tokens, i) && (i == head || i > 0 && (tokens[i-1] == "and" || tokens[i-1] == "then")) {
			// "pay rent on friday", "pick up the dry cleaning and buy
			// stamps tomorrow": the user's own errands, to-dos.
			continue
		}
		if what, ok := cannotWords[t]; ok && !(t == "order" && slices.Contains(tokens, "in")) {
			return false, reasonCannot + what
		}
	}
	switch {
	case weak == "":
		return false, reasonNoCue
	case elsewhere(tokens):
		return false, reasonElsewhere
	case oos >= gateOOS && evidence(tokens, head, when) < 2:
		return false, reasonAbstain
	}
	return true, weak
}

// evidence counts the independent weak cues of a request: a change verb
// at its head, a date or time, an event named after a verb of Hearth's.
// Two of them ("get rid of the haircut on friday": a change, an event
// and a day) outweigh the model's suspicion, which one alone does not.
func evidence(tokens []string, head int, when bool) int {
	n := 0
	change := changeHead(tokens, head)
	if change {
		n++
	}
	if when {
		n++
	}
	if (change || slices.Contains(weakVerbs, tokens[head])) && hasEventNoun(tokens[head+1:]) {
		n++
	}
	return n
}

// changeHead reports whether a request starts with a verb that changes an
// existing item ("cancel …", "get rid of …", "cross off …").
func changeHead(tokens []string, head int) bool {
	v := tokens[head]
	switch {
	case v == "check":
		return slices.Contains(tokens[head:], "off")
	case v == "get" && head+1 < len(tokens) && tokens[head+1] == "rid":
		return true
	}
	return slices.Contains(changeVerbs, v)
}

// fillers open a message without meaning anything ("hey", "ok so",
// "please", "can you", "i want you to").
var fillers = []string{
	"hey", "hi", "hello", "ok", "okay", "so", "um", "uhm", "umm", "uh", "er", "erm", "well", "oh", "yo", "please", "pls",
	"hearth", "and", "also", "now", "just", "quickly", "quick", "then", "btw", "alright", "right", "yes", "yeah",
	// wake words a voice transcript keeps ("olly add bananas")
	"olly", "ollie", "alexa", "siri", "assistant",
}

// requestHead returns the index of the first word after fillers and a
// polite frame: the head verb of an imperative ("please could you add
// …" → "add").
func requestHead(tokens []string) int {
	i := 0
	for {
		switch {
		case i < len(tokens) && slices.Contains(fillers, tokens[i]):
			i++
		case i+1 < len(tokens) && slices.Contains([]string{"can", "could", "would", "will", "wont", "cant"}, tokens[i]) && tokens[i+1] == "you":
			i += 2
			if i+2 < len(tokens) && tokens[i] == "be" && tokens[i+1] == "able" && tokens[i+2] == "to" {
				i += 3
			}
		case i+2 < len(tokens) && tokens[i] == "go" && tokens[i+1] == "ahead" && tokens[i+2] == "and":
			i += 3
		case i+2 < len(tokens) && (tokens[i] == "i" || tokens[i] == "id") && tokens[i+2] == "you" && slices.Contains([]string{"want", "need", "like", "would"}, tokens[i+1]):
			// "i want you to …", "i need you to …", "id like you to …"
			i += 3
			if i < len(tokens) && tokens[i] == "to" {
				i++
			}
		default:
			return min(i, len(tokens)-1)
		}
	}
}

// subjects start a statement about someone ("i just closed on my house",
// "my sister's name is Anna", "we're out of coffee").
var subjects = []string{
	"i", "im", "ive", "ill", "my", "we", "were", "weve", "our", "he", "she", "they", "hes", "shes", "theyre",
	"his", "her", "their", "mom", "dad", "mum",
}

// wants turn a subject into a request rather than a statement ("i want
// …", "i'd like …", "i need a plumber").
var wants = []string{"want", "wanna", "need", "like", "love", "wish", "would", "looking", "d", "am", "hope", "require"}

// statement reports whether tokens tell something rather than ask for it:
// a subject and a verb that is not a wish ("i finished the tax forms",
// "tom just got a new job", "the garage code is 2290"). An imperative
// with a clause inside ("find out when the store is open") is not one:
// only a pronoun, a determiner or a one-word name opens a statement.
func statement(tokens []string) bool {
	if len(tokens) < 2 {
		return false
	}
	t0, t1 := tokens[0], tokens[1]
	if slices.Contains(subjects, t0) {
		switch {
		case t0 == "id":
			return false // "i'd like …", "i'd love it if you could …"
		case (t0 == "i" || t0 == "we") && slices.Contains(wants, t1):
			return false // "i want …", "we need a plumber"
		case (t0 == "im" || t0 == "were") && t1 == "looking":
			return false
		case (t0 == "i" || t0 == "we") && (t1 == "was" || t1 == "were") && len(tokens) > 2 && (tokens[2] == "wondering" || tokens[2] == "hoping"):
			return false // "i was wondering if you could …"
		}
		return true
	}
	statementVerb := func(t string) bool {
		switch t {
		case "is", "are", "was", "were", "has", "had", "just", "got", "gets", "already", "s", "isnt", "wasnt", "hasnt", "finally":
			return true
		}
		return len(t) > 3 && t[len(t)-2:] == "ed"
	}
	switch t0 {
	case "the", "a", "an", "this", "these", "those", "fyi":
		// "the garage code is 2290"
		for _, t := range tokens[1:min(len(tokens), 5)] {
			if statementVerb(t) {
				return true
			}
		}
		return false
	}
	// "tom just got a new job", "emma has a dentist appointment", "jos
	// party is on friday": a name, maybe possessive, then the verb.
	if statementVerb(t1) || slices.Contains(habits, t1) {
		return true
	}
	// "moms flight lands at 6", "sarahs phone number is 555 0100": a
	// possessive, a noun or two, then a verb.
	if len(tokens) < 3 || t0[len(t0)-1] != 's' || slices.Contains(notPossessive, t0) {
		return false
	}
	for _, t := range tokens[2:min(len(tokens), 5)] {
		if statementVerb(t) || slices.Contains(habits, t) || len(t) > 3 && t[len(t)-1] == 's' && t[len(t)-2] != 's' && t == tokens[2] {
			return true
		}
	}
	return false
}

// habits are verbs that tell a fact about someone after their name ("ben
// prefers tea", "emma goes to lincoln elementary", "dad turns 70 in
// may"); an imperative never has one second.
var habits = []string{
	"likes", "loves", "hates", "prefers", "enjoys", "adores", "dislikes", "goes", "works", "lives", "studies", "owns", "uses", "eats", "drinks",
	"speaks", "knows", "teaches", "drives", "turns", "plays", "starts", "begins", "ends", "leaves", "arrives",
	"lands", "moved", "wants", "needs", "can", "cant", "will", "wont", "should", "does", "doesnt", "dont",
}

// notPossessive are words ending in s that open requests and questions,
// not a possessive subject ("lets play …", "whats the …").
var notPossessive = []string{"lets", "whats", "thats", "its", "heres", "theres", "hows", "whos", "wheres", "is", "does", "was", "has", "this", "us", "thanks", "plus", "yes", "pls"}

// strongCue returns the capability a request names, or "".
func strongCue(tokens []string, head int) string {
	for i, t := range tokens {
		if c, ok := strongWords[t]; ok {
			if (t == "draft" || t == "reply" || t == "forward" || t == "note") && i > 0 && tokens[i-1] == "the" && t != "note" {
				continue
			}
			if t == "forward" && i > 0 && tokens[i-1] == "fast" {
				continue // "fast forward the movie"
			}
			return c
		}
		next := func(k int) string {
			if i+k < len(tokens) {
				return tokens[i+k]
			}
			return ""
		}
		switch t {
		case "list":
			if i != head { // "list the restaurants near me" asks to list
				return "list"
			}
		case "alarm", "alarms":
			if next(1) != "system" && next(1) != "company" && next(1) != "panel" {
				return "reminder"
			}
		case "wake":
			if next(1) == "me" || next(1) == "us" {
				return "reminder"
			}
		case "forget", "forgot":
			return "memory"
		case "schedule":
			if i > head && i > 0 && slices.Contains([]string{"my", "the", "our", "your", "todays", "tomorrows"}, tokens[i-1]) {
				return "calendar"
			}
		case "block":
			if next(1) == "off" || next(1) == "out" {
				return "calendar"
			}
		case "mail":
			if i > 0 && slices.Contains([]string{"my", "the", "e", "new", "unread", "any"}, tokens[i-1]) && next(1) != "it" {
				return "email"
			}
		case "write", "mark", "jot", "put", "take", "make":
			if next(1) == "down" || next(2) == "down" || next(1) == "a" && next(2) == "note" {
				return "note"
			}
			if t == "write" && next(1) == "to" {
				return "email"
			}
		case "let", "keep":
			if t == "keep" && next(1) == "in" && next(2) == "mind" {
				return "memory"
			}
			if t == "let" && (next(2) == "know" || next(3) == "know") && slices.Contains(tokens, "email") {
				return "email"
			}
		case "need", "have", "got", "gotta", "must", "should":
			// "i need to …", "i have to …", "ive got to …", spoken
			// "gotta renew my license": the user's own to-do, which
			// Hearth keeps.
			own := i == head || i > 0 && slices.Contains([]string{"i", "ive", "we", "weve", "still", "really", "also"}, tokens[i-1])
			if own && (next(1) == "to" || t == "gotta" || t == "must" || t == "should") {
				return "to-do"
			}
		case "to":
			if next(1) == "do" && i > 0 && (tokens[i-1] == "things" || next(2) == "list" || next(2) == "lists") {
				return "to-do"
			}
		case "tick", "cross", "check", "scratch":
			// "got the groceries, tick that off"
			if slices.Contains(tokens[i+1:min(len(tokens), i+5)], "off") {
				return "to-do"
			}
		case "done", "finished", "completed":
			if i > 0 && slices.Contains([]string{"as", "that", "it", "is", "was", "off"}, tokens[i-1]) {
				return "to-do"
			}
		}
	}
	return ""
}

// weakCue returns what makes a request plausible without naming one of
// Hearth's things, or "".
func weakCue(tokens []string, head int, when bool) string {
	v := tokens[head]
	switch {
	case changeHead(tokens, head):
		// "cancel my 4pm", "cross off laundry", "move lunch to
		// wednesday".
		return "a change to an item"
	case slices.Contains(weakVerbs, v) && hasEventNoun(tokens[head+1:]):
		// "set up coffee with alex", "schedule lunch with carlos".
		return "an event"
	case slices.Contains([]string{"save", "store", "log", "record", "write", "keep", "file"}, v) && factFollows(tokens[head+1:]):
		// "save this: the boiler code is 1234"
		return "a fact to keep"
	case v == "share" && slices.Contains(tokens[head:], "with") || v == "let" && slices.Contains(tokens[head:min(len(tokens), head+4)], "see"):
		// "share this with the family", "let grandma see only basics":
		// who may see a memory.
		return "a share"
	case (v == "add" || v == "put") && head+1 < len(tokens):
		// "add oat milk": to the list it most likely belongs on.
		return "an item to add"
	case slices.Contains(weakVerbs, v) && when:
		return "a dated request"
	case when && head+1 < len(tokens):
		// "pay the plumber on friday", "call mom tomorrow at 5": a task
		// with a date.
		return "a dated task"
	case slices.Contains([]string{"send", "tell", "invite", "message"}, v) && head+1 < len(tokens) && tokens[head+1] != "me":
		return "a message"
	}
	return ""
}

// factFollows reports whether tokens, after an optional "this" or
// "that", state a fact.
func factFollows(tokens []string) bool {
	if len(tokens) > 0 && (tokens[0] == "this" || tokens[0] == "that" || tokens[0] == "down") {
		tokens = tokens[1:]
	}
	return statement(tokens)
}

// hasEventNoun reports whether tokens name something that goes on a
// calendar.
func hasEventNoun(tokens []string) bool {
	for _, t := range tokens {
		if slices.Contains(eventNouns, t) {
			return true
		}
	}
	return false
}

// elsewhere reports a request to use someone else's service ("schedule
// an appointment online", "on their website", "in the app").
func elsewhere(tokens []string) bool {
	for _, t := range tokens {
		switch t {
		case "online", "website", "app", "site", "portal":
			return true
		}
	}
	return false
}

// gateConfidence is the confidence of a request the gate turned into
// chat: the gate's decisions on the project's held-out rows are right
// about this often.
const gateConfidence = 0.8
