package nlu

// Intent is what a message wants from the bot.
type Intent string

// The intents, as named in traces and in labelled data.
const (
	// Chat is small talk, questions about the bot, jokes, general
	// knowledge and anything outside Hearth's domains: never an action.
	Chat Intent = "chat"
	// AskInfo asks about the user's own data: calendar, tasks,
	// memories, email, notes and lists.
	AskInfo Intent = "ask_info"
	// RequestAction asks the bot to change something, including
	// "remember that …".
	RequestAction Intent = "request_action"
	// DiscussWork asks for help deciding what to do ("what should I
	// work on first?").
	DiscussWork Intent = "discuss_work"
	// Followup answers or continues the previous bot turn ("yes",
	// "the first one", "tell me more").
	Followup Intent = "followup"
)

// Intents lists every intent.
var Intents = []Intent{Chat, AskInfo, RequestAction, DiscussWork, Followup}

// outOfScope is the model's abstain class: a request Hearth cannot carry
// out ("find directions to the car wash", "play some jazz"). It is never
// a Result's Intent: Classify reports it as Chat with OutOfScope set.
const outOfScope Intent = "out_of_scope"

// Domain is an area of the user's data that a message is about. The
// action stage loads one planner per domain.
type Domain string

// The domains.
const (
	// Memory is facts about people, places and the user's life
	// ("remember that John's birthday is March 15th", "note that …").
	Memory Domain = "memory"
	// Task is reminders, to-dos and alarms.
	Task Domain = "task"
	// Calendar is events, meetings and appointments.
	Calendar Domain = "calendar"
	// Email is reading and sending mail.
	Email Domain = "email"
	// Keep is free-form notes and lists ("make a note …", "add milk to
	// my shopping list").
	Keep Domain = "keep"
)

// Domains lists every domain.
var Domains = []Domain{Memory, Task, Calendar, Email, Keep}

// Turn is one recent message of the conversation, oldest first.
type Turn struct {
	// FromBot is true for the bot's turns.
	FromBot bool
	// Text is the message text.
	Text string
	// Options are the choices a bot turn offered as buttons, in order.
	Options []string
}

// Result is what Classify understood.
type Result struct {
	Intent Intent
	// Domains are the areas the message is about, most likely first;
	// empty (never nil) for Chat and Followup.
	Domains []Domain
	// RequiresAction is true when the message asks for a change
	// (Intent is RequestAction).
	RequiresAction bool
	// Confidence is the calibrated probability that Intent is right:
	// among results with confidence near 0.9, about 90% are right.
	Confidence float64
	// OutOfScope is set on a Chat result when the message asks for
	// something Hearth cannot do (directions, music, weather, banking,
	// shopping, code): the reply says what Hearth can do, and nothing is
	// planned or stored.
	OutOfScope bool `json:",omitempty"`
	// Reason says why a message the model took for a request is out of
	// scope after all (the capability gate in capability.go); empty
	// otherwise.
	Reason string `json:",omitempty"`
	Slots  Slots
}
