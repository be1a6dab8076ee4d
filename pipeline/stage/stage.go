// Package stage declares the four stages of a turn (ARCHITECTURE.md:
// intent → context → action → respond) as small interfaces, and the data
// passed between them: the understanding, the context, the plan, the
// outcomes. It also holds how times read in the user's zone (UserZone,
// FormatWhen) and the offline intent stage (Classifier). The stages
// themselves live in packages named for them (gather, plan, respond, hybrid)
// and the runner that drives them in turn.
package stage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
)

// Understanding is what the intent stage returns.
type Understanding = nlu.Result

// Intent is the first stage: what does the user want?
type Intent interface {
	Understand(ctx context.Context, text string, recent []nlu.Turn, now time.Time) (Understanding, error)
}

// SpokenIntent is an Intent that reads a voice note's transcript with
// more care (an optional ability, discovered at run time like
// http.Flusher): the hybrid stage asks its model below a higher
// confidence than for typed text. An Intent without it reads transcripts
// as typed text.
type SpokenIntent interface {
	UnderstandSpoken(ctx context.Context, text string, recent []nlu.Turn, now time.Time) (Understanding, error)
}

// Context is what the context stage gathered for a turn: plain data, read
// through permission-aware queries, never by a model.
type Context struct {
	// Now is the turn's instant in the user's zone.
	Now      time.Time
	Location *time.Location
	Recent   []hearth.Message
	Tasks    []hearth.Task
	Events   []hearth.CalendarEvent
	Memories []hearth.Memory
	// Reminders are the user's recurring reminders (schedules of kind
	// reminder), read for a request that changes something and for a
	// question when something is.
	Reminders []hearth.Schedule
	// Entities are the people and things the message names that Hearth
	// knows (an email's recipient), their attributes among Memories.
	Entities []hearth.Entity
	// Relationships and GraphNotes are the memory graph around the
	// people and things the message names: their relationships that hold
	// now and their live notes, read through the permission predicate.
	Relationships []hearth.Relationship
	GraphNotes    []hearth.GraphNote
	// Related are the relationships a question found by meaning ("who do
	// I know who is into climbing?"), nearest first, with their notes.
	Related []hearth.Relationship
	// RelatedNotes are the notes on people and things whose words match
	// what "who do I know who …?" asks.
	RelatedNotes []hearth.GraphNote
	// Contacts are the entries of the user's address book (Google
	// contacts) for each recipient named whom memory has no address for,
	// by the name as written. Untrusted data: recipients to offer.
	Contacts map[string][]hearth.AddressBookEntry
	// Proximity is what a question about distance found ("which of
	// Emma's friends live within walking distance of her school?").
	Proximity *Proximity
	// InFamily is true when the user is in a family, so that how private
	// a new fact is decides what others see (read for memory requests).
	InFamily bool
	// FamilyMembers are the user's family's other members (read with
	// InFamily), so that "Ben is my brother" links Ben's entity to Ben.
	FamilyMembers []hearth.FamilyMember
	// LastFact is the fact the user told last, for "forget that" and
	// "actually it's the 16th"; zero when not read or none.
	LastFact hearth.Memory
	// Notes are the notes the message's words or meaning found (the
	// first NotesFound of them, best first), then the most recently
	// changed ones.
	Notes      []hearth.Note
	NotesFound int
	// Drafts are the user's drafts, newest first, read for questions
	// about mail and for "delete that draft"; for a question about mail
	// already sent ("did Sam get my email?", nlu.SentQuestion) they are
	// the mail sent instead. Each carries its Status.
	Drafts []hearth.Email
	// Style is how the user writes email (read for email requests); the
	// zero value is Hearth's default.
	Style hearth.MailStyle
	// Inbox is the user's latest received mail, read for replies ("reply
	// to Sarah's last email"). Its text is untrusted data.
	Inbox []hearth.InboxMessage
}

// Proximity is what the context stage found for a question about
// distance, every read through the permission predicate.
type Proximity struct {
	// Of is the person asked about ("Emma"), "" when Hearth does not know
	// them; Place what the distance is measured from ("school").
	Of, Place string
	// From is the place's value and location; Located is false when
	// Hearth has no coordinates for it.
	From    hearth.Memory
	Located bool
	// Age is Of's age in years, -1 when unknown; Limit the distance
	// asked about or the walking distance for that age, in metres; Said
	// is true when the question named the distance.
	Age   int
	Limit float64
	Said  bool
	// Table describes the walking distances by age ("up to 6 years
	// 400 m, …"), which the answer states.
	Table string
	// Homes are the friends' homes with places, nearest first, each with
	// its Distance; Unplaced the friends whose home has no place.
	Homes    []hearth.Memory
	Unplaced []string
	// Geocoding is true when a geocoder is configured.
	Geocoding bool
}

// PlanInput is what a domain planner sees.
type PlanInput struct {
	Text          string
	Understanding Understanding
	User          hearth.User
	Context       Context
}

// Plan is a planner's answer: actions to take, or a question to ask when
// the request is ambiguous ("Which Sarah?"), never a guess.
type Plan struct {
	Actions  []action.Action
	Question *Question
	// Understood says in a few words what the planner took the request to
	// be ("add a task to call mom"), for the reply when planning fails.
	Understood string
	// Model is true when a model planned the actions, having read data
	// that may carry untrusted text (ARCHITECTURE.md, invariant 4): no
	// action of the plan is then taken to be what the user asked for in
	// so many words, and none is lowered in risk on that ground.
	Model bool
}

// Question asks the user to choose; each option carries the actions to
// take when it is picked.
type Question struct {
	Text    string
	Options []Option
	// EditApproval, when set, makes the user's next message a change to
	// that pending approval's email (the Edit button): an instruction
	// ("make it shorter") for the DraftEditor, or, with EditText, the new
	// text itself (asked for when the instruction could not be applied).
	EditApproval int64 `json:",omitempty"`
	EditText     bool  `json:",omitempty"`
	// Fill, when set, lets the user's next message answer the question in
	// words: an email address, a span of time (see plan.Fill).
	Fill *Fill `json:",omitempty"`
	// OwnWords is true when code planned the options from the user's own
	// words (no model did): picking one is as good as naming it, so
	// deleting one of the user's own items that no one else shares runs
	// at once, with undo (action.Turn.OwnWords).
	OwnWords bool `json:",omitempty"`
}

// What a Fill waits for.
const (
	// FillEmail waits for an email address for Fill.Name.
	FillEmail = "email"
	// FillWhen waits for when something was true ("from 2001 to 2009").
	FillWhen = "when"
	// FillRequest waits for the rest of a request: the answer completes
	// Fill.Request ("remind me tomorrow" + "call the bank", "email Sam"
	// + "I'll be late"), and the whole is understood as one message.
	FillRequest = "request"
)

// Fill is an action waiting for one piece the user was asked for. Its
// payload is stored as planned, before the piece is in: it is validated
// only once filled.
type Fill struct {
	Want    string          `json:"want"`
	Name    string          `json:"name,omitempty"`
	Kind    action.Kind     `json:"kind"`
	Payload json.RawMessage `json:"payload"`
	// Request and Join are, for FillRequest, the request so far and the
	// word that joins an answer to it ("to", "saying"); Tail, what
	// follows the answer ("add" + "socks" + "to my packing list").
	Request string `json:"request,omitempty"`
	Join    string `json:"join,omitempty"`
	Tail    string `json:"tail,omitempty"`
}

// NewFill makes the Fill of an action of kind k with payload v.
func NewFill(want, name string, k action.Kind, v any) (*Fill, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("fill %s: %w", k, err)
	}
	return &Fill{Want: want, Name: name, Kind: k, Payload: b}, nil
}

// Option is one answer to a Question.
type Option struct {
	Label   string
	Actions []action.Action
}

// Planner plans the actions of one domain. The runner loads only the
// planners of the domains the intent named.
type Planner interface {
	Plan(ctx context.Context, in PlanInput) (Plan, error)
}

// PlannerFunc adapts a function to a Planner.
type PlannerFunc func(ctx context.Context, in PlanInput) (Plan, error)

// Plan calls f(ctx, in).
func (f PlannerFunc) Plan(ctx context.Context, in PlanInput) (Plan, error) {
	return f(ctx, in)
}

// Status is what became of one planned action.
type Status string

// Action statuses as the reply sees them.
const (
	Done             Status = "done"
	Failed           Status = "failed"
	AwaitingApproval Status = "awaiting_approval"
)

// Outcome is one action's result. Result holds what the provider
// returned (hearth.Task, []hearth.CalendarEvent, hearth.Email, …).
type Outcome struct {
	Action action.Action
	Status Status
	Result any
	// Error is a short, user-safe reason when Status is Failed.
	Error string
}

// RespondInput is everything the reply is written from.
type RespondInput struct {
	Text          string
	Understanding Understanding
	User          hearth.User
	Context       Context
	Outcomes      []Outcome
	Question      *Question
	// Understood is set when planning failed: what the planners took the
	// request to be.
	Understood string
	// PlanFailed is true when no plan could be made.
	PlanFailed bool
	// Missing is what the plan lacked when it failed, as the planner
	// said it (DetailsError), if it did.
	Missing string
}

// Responder writes the reply text. It must only claim what Outcomes say
// happened.
type Responder interface {
	Respond(ctx context.Context, in RespondInput) (string, error)
}

// DraftEditor changes an email draft as the user asked ("make it
// shorter", "say Friday instead", "more formal"). The runner asks it when
// the user edits a draft that awaits approval, and asks for approval of
// exactly the edited draft.
type DraftEditor interface {
	EditDraft(ctx context.Context, in DraftEdit) (DraftEdited, error)
}

// DraftEdit is an instruction and the draft it changes.
type DraftEdit struct {
	Instruction string
	Draft       action.EmailArgs
	User        hearth.User
	Style       hearth.MailStyle
	Now         time.Time
}

// DraftEdited is the edited draft. Changed is false when the instruction
// could not be applied (the runner then asks for the new text); What says
// what changed, for the reply ("moved it to Friday").
type DraftEdited struct {
	Draft   action.EmailArgs
	Changed bool
	What    string
	// Already, when nothing changed because the draft already is what
	// was asked ("make it more formal" of "Dear Sarah, …"), says what
	// it is ("formal").
	Already string
}

// ErrNeedDetails is wrapped by every planning error that means "I know
// what kind of thing you want but not enough of it": the runner then
// tells the user what it understood and asks them to rephrase.
var ErrNeedDetails = errors.New("need more details")

// DetailsError is a planning error that says what is missing, in words a
// reply may use: "what the note should say", or what it wanted and why it
// has not got it ("which list: I couldn't find a packing list"). It is
// ErrNeedDetails.
type DetailsError struct{ Detail string }

func (e *DetailsError) Error() string { return ErrNeedDetails.Error() + ": " + e.Detail }

// Unwrap makes a DetailsError ErrNeedDetails.
func (e *DetailsError) Unwrap() error { return ErrNeedDetails }
