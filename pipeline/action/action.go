package action

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/mail"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// Kind names what an action does, as "<domain>.<verb>". Kinds are stored
// with every action row: never rename one.
type Kind string

// SendsMail reports the kinds that send an email (a new one or a reply):
// each is approved on its own, its draft read, never in bulk.
func (k Kind) SendsMail() bool { return k == EmailSend || k == EmailReply }

// Action kinds.
const (
	TaskCreate     Kind = "task.create"
	TaskUpdate     Kind = "task.update"
	TaskComplete   Kind = "task.complete"
	TaskDelete     Kind = "task.delete"
	MemoryStore    Kind = "memory.store"
	MemoryUpdate   Kind = "memory.update"
	MemoryForget   Kind = "memory.forget"
	CalendarList   Kind = "calendar.list"
	CalendarCreate Kind = "calendar.create"
	CalendarUpdate Kind = "calendar.update"
	CalendarDelete Kind = "calendar.delete"
	EmailDraft     Kind = "email.draft"
	EmailReply     Kind = "email.reply"
	EmailSend      Kind = "email.send"
	NoteCreate     Kind = "note.create"
	NoteAppend     Kind = "note.append"
	NoteCheck      Kind = "note.check"
	// NoteRemove takes items off a list; undo puts them back.
	NoteRemove Kind = "note.remove"
	// NoteDelete deletes a note or list; undo brings it back.
	NoteDelete Kind = "note.delete"
	// ReminderUpdate changes when a recurring reminder comes (its rule).
	ReminderUpdate Kind = "reminder.update"
	// ReminderCancel stops a recurring reminder; undo brings it back.
	ReminderCancel Kind = "reminder.cancel"
	// EmailDiscard deletes a saved draft; undo brings it back.
	EmailDiscard Kind = "email.discard"
	// NoteRename gives a note or list a new title; undo gives the old one
	// back.
	NoteRename Kind = "note.rename"
)

// Action is one planned step: a kind and its payload, whose JSON must
// match the kind's schema (see Validate).
type Action struct {
	Kind    Kind            `json:"kind"`
	Payload json.RawMessage `json:"payload"`
}

// New builds an action from a typed payload (one of the *Args types).
func New(kind Kind, payload any) (Action, error) {
	b, err := json.Marshal(payload)
	if err != nil {
		return Action{}, fmt.Errorf("action %s: %w", kind, err)
	}
	a := Action{Kind: kind, Payload: b}
	return a, a.Validate()
}

// Hash is the SHA-256 of the action's kind and canonical payload: an
// approval is for exactly this hash.
func (a Action) Hash() string {
	var v any
	json.Unmarshal(a.Payload, &v) //nolint:errcheck // invalid payloads hash as null, and fail Validate anyway
	canon, _ := json.Marshal(v)   // maps marshal with sorted keys
	h := sha256.Sum256(append([]byte(string(a.Kind)+"\x00"), canon...))
	return hex.EncodeToString(h[:])
}

// Payload types, one per kind. Times are RFC 3339 instants already
// resolved in the user's zone.
type (
	// TaskCreateArgs is the payload of task.create.
	TaskCreateArgs struct {
		Title    string    `json:"title" jsonschema:"what to do, short, in the imperative"`
		Notes    string    `json:"notes,omitempty"`
		Priority int       `json:"priority,omitempty" jsonschema:"0 none, 1 low, 2 normal, 3 high"`
		Due      time.Time `json:"due,omitzero"`
		AllDay   bool      `json:"all_day,omitempty" jsonschema:"due on a date rather than at a time"`
	}
	// TaskUpdateArgs is the payload of task.update.
	TaskUpdateArgs struct {
		ID     int64             `json:"id"`
		Update hearth.TaskUpdate `json:"update"`
	}
	// TaskRefArgs names one task (task.complete, task.delete).
	TaskRefArgs struct {
		ID    int64  `json:"id"`
		Title string `json:"title,omitempty" jsonschema:"the task's title, for the reply"`
	}
	// MemoryStoreArgs is the payload of memory.store.
	MemoryStoreArgs struct {
		Content  string                `json:"content" jsonschema:"the fact, as a sentence"`
		About    string                `json:"about,omitempty" jsonschema:"whom or what it is about"`
		Category hearth.MemoryCategory `json:"category"`
		// Tier is how private the fact is; zero means personal.
		Tier hearth.Tier `json:"tier,omitempty" jsonschema:"1 private (health, money), 2 personal (birthdays, preferences, contact details), 3 events and milestones, 4 basic (names, relations)"`
		// Entity, when set, is whom or what the fact is about: it is found
		// by name or alias among the user's entities, or created.
		Entity *EntityArgs `json:"entity,omitempty" jsonschema:"the person, organisation, place, pet, project, event or concept the fact is about"`
		// Attribute and Value make the fact one value of an attribute of
		// Entity over time (email, phone, employer, school, home, born,
		// relation): a new value closes the old one.
		Attribute string    `json:"attribute,omitempty" jsonschema:"email, phone, employer, school, home, work, born, relation, or another word"`
		Value     string    `json:"value,omitempty" jsonschema:"the attribute's value, as said"`
		ValidFrom time.Time `json:"valid_from,omitzero" jsonschema:"when it started being true, if said"`
		ValidTo   time.Time `json:"valid_to,omitzero" jsonschema:"when it stopped being true, if said"`
		// Ends is true when the fact says the attribute's Value no
		// longer holds ("Ben no longer works at Acme"): that value ends
		// now, and the fact is kept as said, the value of nothing.
		Ends bool `json:"ends,omitempty" jsonschema:"true when the fact says the value no longer holds"`
		// Place is where the value (an address) is, when the user gave
		// coordinates; Locate asks the geocoder, if one is configured, to
		// place the value instead.
		Place  *hearth.Coordinates `json:"place,omitempty" jsonschema:"coordinates the user gave for the address"`
		Locate bool                `json:"locate,omitempty" jsonschema:"true when the value is an address to look up"`
		// Relationship, when set, is the relationship the fact states
		// between two people or things; it is recorded with the fact and
		// undone with it.
		Relationship *RelationshipArgs `json:"relationship,omitempty"`
	}
	// RelationshipArgs is a relationship a fact states: From → To ("Emma
	// → Lily: friend" for "Lily is Emma's friend").
	RelationshipArgs struct {
		From  EndArgs `json:"from"`
		To    EndArgs `json:"to"`
		Label string  `json:"label,omitempty" jsonschema:"friend, manager, loves, volunteers at"`
		// Attitude and Proximity are 1 to 5; zero: not said (3).
		Attitude    int    `json:"attitude,omitempty" jsonschema:"1-5, 0 unsaid"`
		Proximity   int    `json:"proximity,omitempty" jsonschema:"1-5, 0 unsaid"`
		Description string `json:"description,omitempty"`
		// Confirmed is true only for a relationship the user stated
		// directly, as the offline reader decides; a model's reading is
		// a candidate the user confirms (the planner clears it).
		Confirmed bool `json:"confirmed,omitempty"`
		// Ended is true when the fact says the relationship no longer
		// holds ("Bob and I aren't friends anymore").
		Ended bool `json:"ended,omitempty"`
	}
	// EndArgs is one end of a relationship: the user (Self), or an
	// entity found by name or alias, or created. (What an end is to the
	// user is the fact's Entity's: the schema stays short for prompts.)
	EndArgs struct {
		Name string            `json:"name"`
		Self bool              `json:"self,omitempty"`
		Kind hearth.EntityKind `json:"kind,omitempty"`
	}
	// EntityArgs names the entity a fact is about.
	EntityArgs struct {
		Name string `json:"name" jsonschema:"the name as the user said it; the user's own name when self"`
		// Self is true when the fact is about the user.
		Self     bool              `json:"self,omitempty"`
		Kind     hearth.EntityKind `json:"kind,omitempty" jsonschema:"person, organisation, place, pet, project, event or concept"`
		Relation string            `json:"relation,omitempty" jsonschema:"what the entity is to the user: daughter, colleague"`
		Aliases  []string          `json:"aliases,omitempty" jsonschema:"other names the user calls it by: my brother, Jon"`
		// MemberID is the Hearth user the entity is, when they are in
		// the user's family (the store checks that they are).
		MemberID int64 `json:"member_id,omitempty" jsonschema:"the family member's user id, when the entity is one"`
	}
	// MemoryUpdateArgs is the payload of memory.update.
	MemoryUpdateArgs struct {
		ID      int64  `json:"id"`
		Content string `json:"content"`
	}
	// MemoryRefArgs names one memory (memory.forget).
	MemoryRefArgs struct {
		ID      int64  `json:"id"`
		Content string `json:"content,omitempty"`
	}
	// CalendarListArgs is the payload of calendar.list: events overlapping
	// [From, To).
	CalendarListArgs struct {
		From time.Time `json:"from"`
		To   time.Time `json:"to"`
	}
	// EventCreateArgs is the payload of calendar.create.
	EventCreateArgs struct {
		Title     string    `json:"title"`
		Start     time.Time `json:"start"`
		End       time.Time `json:"end"`
		AllDay    bool      `json:"all_day,omitempty"`
		Location  string    `json:"location,omitempty"`
		Attendees []string  `json:"attendees,omitempty"`
		// Repeat makes the event a repeating one, Start its first
		// occurrence; the rule's times are local to Zone, the user's.
		Repeat *recur.Rule `json:"repeat,omitempty" jsonschema:"how the event repeats; start is its first occurrence"`
		Zone   string      `json:"zone,omitempty" jsonschema:"the IANA time zone the repeat's times are local to"`
	}
	// EventUpdateArgs is the payload of calendar.update.
	EventUpdateArgs struct {
		ID     int64                      `json:"id"`
		Update hearth.CalendarEventUpdate `json:"update"`
		// Title, Invited and Uninvited are for the reply and the approval
		// prompt: the event's title, and the attendees the update adds
		// ("add Sam to my dentist appointment") or takes off ("remove
		// Sam from …").
		Title     string   `json:"title,omitempty" jsonschema:"the event's title, for the reply"`
		Invited   []string `json:"invited,omitempty" jsonschema:"the attendees this update adds, for the reply"`
		Uninvited []string `json:"uninvited,omitempty" jsonschema:"the attendees this update takes off, for the reply"`
		// Series moves the repeating event ID is one of to Update's time
		// of day, from ID on (in Google Calendar, the whole series), not
		// ID alone.
		Series bool `json:"series,omitempty" jsonschema:"true to move every occurrence of a repeating event to the new time of day"`
		// Starting, for the reply, is when a series move begins when the
		// user said so ("from next week"): ID's new start.
		Starting *time.Time `json:"starting,omitempty" jsonschema:"for the reply: when a move of every occurrence begins, if the user said"`
		// Noted, for the reply, is the note an update of the description
		// adds ("bring the x-rays"). Shared is set when others are
		// invited to the event: a change of its notes reaches them, so it
		// is asked about first.
		Noted  string `json:"noted,omitempty" jsonschema:"for the reply: the note this update adds to the description"`
		Shared bool   `json:"shared,omitempty" jsonschema:"true when others are invited to the event"`
	}
	// EventRefArgs names one event (calendar.delete).
	EventRefArgs struct {
		ID    int64  `json:"id"`
		Title string `json:"title,omitempty"`
		// Series deletes every occurrence of the repeating event ID is
		// one of, not ID alone.
		Series bool `json:"series,omitempty" jsonschema:"true to delete every occurrence of a repeating event"`
	}
	// EmailArgs is the payload of email.draft and email.send: a message
	// to compose (and, for send, to send once approved).
	EmailArgs struct {
		To      []string `json:"to"`
		Subject string   `json:"subject"`
		Body    string   `json:"body"`
		// DraftID, for send, is a saved draft to send as it is (To,
		// Subject and Body are its own, for the approval): cancelled, it
		// stays saved.
		DraftID int64 `json:"draft_id,omitempty" jsonschema:"a saved draft's id, to send it; 0 for a new email"`
	}
	// DraftRefArgs names one draft (email.discard); To and Subject are
	// for the reply.
	DraftRefArgs struct {
		ID      int64    `json:"id"`
		To      []string `json:"to,omitempty"`
		Subject string   `json:"subject,omitempty"`
	}
	// EmailReplyArgs is the payload of email.reply.
	EmailReplyArgs struct {
		InReplyTo int64    `json:"in_reply_to"`
		To        []string `json:"to"`
		Subject   string   `json:"subject"`
		Body      string   `json:"body"`
	}
	// NoteCreateArgs is the payload of note.create.
	NoteCreateArgs struct {
		Title string `json:"title"`
		// Family makes the note the family's: every member reads and
		// changes it ("our shopping list").
		Family bool                   `json:"family,omitempty" jsonschema:"true for a list the user's family shares (our shopping list)"`
		Body   string                 `json:"body,omitempty"`
		Labels []string               `json:"labels,omitempty"`
		Items  []hearth.ChecklistItem `json:"items,omitempty"`
	}
	// NoteAppendArgs is the payload of note.append.
	NoteAppendArgs struct {
		ID    int64                  `json:"id"`
		Title string                 `json:"title,omitempty"`
		Text  string                 `json:"text,omitempty"`
		Items []hearth.ChecklistItem `json:"items,omitempty"`
	}
	// NoteCheckArgs is the payload of note.check: tick items of a list
	// off (Done) or back on.
	NoteCheckArgs struct {
		ID    int64    `json:"id"`
		Title string   `json:"title,omitempty" jsonschema:"the list's title, for the reply"`
		Items []string `json:"items" jsonschema:"the texts of the items, as on the list"`
		Done  bool     `json:"done"`
	}
	// NoteRemoveArgs is the payload of note.remove: take items off a
	// list.
	NoteRemoveArgs struct {
		ID    int64    `json:"id"`
		Title string   `json:"title,omitempty" jsonschema:"the list's title, for the reply"`
		Items []string `json:"items" jsonschema:"the texts of the items, as on the list"`
	}
	// NoteRefArgs names one note or list (note.delete). Family is true
	// for a list the user's family shares: deleting it takes it from
	// every member, so it is asked about first.
	NoteRefArgs struct {
		ID     int64  `json:"id"`
		Title  string `json:"title,omitempty" jsonschema:"the note's title, for the reply"`
		Family bool   `json:"family,omitempty" jsonschema:"true for a list the user's family shares"`
	}
	// NoteRenameArgs is the payload of note.rename.
	NoteRenameArgs struct {
		ID       int64  `json:"id"`
		Title    string `json:"title,omitempty" jsonschema:"the note's title now, for the reply"`
		NewTitle string `json:"new_title"`
		// Family is true for a list the user's family shares: renaming
		// it renames it for every member, so it is asked about first.
		Family bool `json:"family,omitempty"`
	}
	// ReminderUpdateArgs is the payload of reminder.update: the recurring
	// reminder's schedule and its whole new rule, in the user's local
	// wall-clock terms (the next occurrence is computed when it runs).
	ReminderUpdateArgs struct {
		ID    int64      `json:"id" jsonschema:"the reminder's schedule id"`
		Title string     `json:"title,omitempty" jsonschema:"the reminder's text, for the reply"`
		Rule  recur.Rule `json:"rule" jsonschema:"the new recurrence rule"`
		// Skipped is the one date the change skips ("skip tomorrow's
		// pills reminder"), for the reply; it is among Rule.Skip.
		Skipped recur.Date `json:"skipped,omitzero" jsonschema:"the one date skipped, if that is the change"`
		// Paused is the day a pause ends ("pause the bins reminder for
		// two weeks": every time before it is skipped), and Resumed that
		// the change gives back every time skipped; both for the reply.
		Paused  recur.Date `json:"paused,omitzero" jsonschema:"the day a pause ends, if that is the change"`
		Resumed bool       `json:"resumed,omitempty" jsonschema:"true when the change gives back every time skipped"`
	}
	// ReminderRefArgs names one recurring reminder (reminder.cancel).
	ReminderRefArgs struct {
		ID    int64  `json:"id" jsonschema:"the reminder's schedule id"`
		Title string `json:"title,omitempty" jsonschema:"the reminder's text, for the reply"`
	}
)

// payloadTypes maps each kind to its payload type: the schema and the
// decoding both come from it, so they cannot drift apart.
var payloadTypes = map[Kind]reflect.Type{
	TaskCreate:     reflect.TypeFor[TaskCreateArgs](),
	TaskUpdate:     reflect.TypeFor[TaskUpdateArgs](),
	TaskComplete:   reflect.TypeFor[TaskRefArgs](),
	TaskDelete:     reflect.TypeFor[TaskRefArgs](),
	MemoryStore:    reflect.TypeFor[MemoryStoreArgs](),
	MemoryUpdate:   reflect.TypeFor[MemoryUpdateArgs](),
	MemoryForget:   reflect.TypeFor[MemoryRefArgs](),
	CalendarList:   reflect.TypeFor[CalendarListArgs](),
	CalendarCreate: reflect.TypeFor[EventCreateArgs](),
	CalendarUpdate: reflect.TypeFor[EventUpdateArgs](),
	CalendarDelete: reflect.TypeFor[EventRefArgs](),
	EmailDraft:     reflect.TypeFor[EmailArgs](),
	EmailReply:     reflect.TypeFor[EmailReplyArgs](),
	EmailSend:      reflect.TypeFor[EmailArgs](),
	EmailDiscard:   reflect.TypeFor[DraftRefArgs](),
	NoteRename:     reflect.TypeFor[NoteRenameArgs](),
	NoteCreate:     reflect.TypeFor[NoteCreateArgs](),
	NoteAppend:     reflect.TypeFor[NoteAppendArgs](),
	NoteCheck:      reflect.TypeFor[NoteCheckArgs](),
	NoteRemove:     reflect.TypeFor[NoteRemoveArgs](),
	NoteDelete:     reflect.TypeFor[NoteRefArgs](),
	ReminderUpdate: reflect.TypeFor[ReminderUpdateArgs](),
	ReminderCancel: reflect.TypeFor[ReminderRefArgs](),
}

// schemas derives and resolves every kind's schema once, on first use.
var schemas = sync.OnceValues(func() (map[Kind]*jsonschema.Resolved, error) {
	m := make(map[Kind]*jsonschema.Resolved, len(payloadTypes))
	for k, t := range payloadTypes {
		s, err := jsonschema.ForType(t, &jsonschema.ForOptions{
			TypeSchemas: map[reflect.Type]*jsonschema.Schema{
				reflect.TypeFor[time.Time](): {Type: "string", Format: "date-time"},
				// A rule has its own JSON form, validated when decoded.
				reflect.TypeFor[recur.Rule](): {Type: "object"},
				reflect.TypeFor[recur.Date](): {Type: "string", Format: "date"},
			},
		})
		if err != nil {
			return nil, fmt.Errorf("action: schema for %s: %w", k, err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			return nil, fmt.Errorf("action: resolve schema for %s: %w", k, err)
		}
		m[k] = r
	}
	return m, nil
})

// Schema returns the JSON schema of a kind's payload, for model prompts.
func Schema(k Kind) (*jsonschema.Schema, error) {
	all, err := schemas()
	if err != nil {
		return nil, err
	}
	r, ok := all[k]
	if !ok {
		return nil, hearth.Invalidf("unknown action kind %q", k)
	}
	return r.Schema(), nil
}

// Validate checks the payload against its kind's schema and the rules a
// schema cannot say (a task needs a title, an event must not end before
// it starts). Errors are hearth.ErrInvalid error.
func (a Action) Validate() error {
	all, err := schemas()
	if err != nil {
		return err
	}
	r, ok := all[a.Kind]
	if !ok {
		return hearth.Invalidf("unknown action kind %q", a.Kind)
	}
	var instance any
	if err := json.Unmarshal(a.Payload, &instance); err != nil {
		return hearth.Invalidf("%s: payload is not JSON: %v", a.Kind, err)
	}
	if err := r.Validate(instance); err != nil {
		return hearth.Invalidf("%s: %v", a.Kind, err)
	}
	v, err := a.decode()
	if err != nil {
		return err
	}
	if c, ok := v.(interface{ check() error }); ok {
		if err := c.check(); err != nil {
			return hearth.Invalidf("%s: %v", a.Kind, err)
		}
	}
	return nil
}

func (a Action) decode() (any, error) {
	t, ok := payloadTypes[a.Kind]
	if !ok {
		return nil, hearth.Invalidf("unknown action kind %q", a.Kind)
	}
	p := reflect.New(t)
	if err := json.Unmarshal(a.Payload, p.Interface()); err != nil {
		return nil, hearth.Invalidf("%s: %v", a.Kind, err)
	}
	return p.Elem().Interface(), nil
}

// Decode returns the typed payload of a.
func Decode[T any](a Action) (T, error) {
	var v T
	if err := json.Unmarshal(a.Payload, &v); err != nil {
		return v, hearth.Invalidf("%s: %v", a.Kind, err)
	}
	return v, nil
}

func (p TaskCreateArgs) check() error {
	if p.Title == "" {
		return fmt.Errorf("a task needs a title")
	}
	if p.Priority < 0 || p.Priority > 3 {
		return fmt.Errorf("priority must be 0 to 3")
	}
	return nil
}

func (p MemoryStoreArgs) check() error {
	if p.Content == "" {
		return fmt.Errorf("a memory needs content")
	}
	switch {
	case p.Attribute != "" && (p.Entity == nil || p.Value == ""):
		return fmt.Errorf("an attribute needs an entity and a value")
	case p.Entity != nil && p.Entity.Name == "":
		return fmt.Errorf("an entity needs a name")
	case p.Entity != nil && p.Entity.Kind != "" && !p.Entity.Kind.Valid():
		return fmt.Errorf("no entity kind %q", p.Entity.Kind)
	case !p.ValidFrom.IsZero() && !p.ValidTo.IsZero() && p.ValidTo.Before(p.ValidFrom):
		return fmt.Errorf("a fact cannot stop being true before it starts")
	case p.Place != nil && !p.Place.Valid():
		return fmt.Errorf("no place at %v, %v", p.Place.Lat, p.Place.Lon)
	}
	if r := p.Relationship; r != nil {
		switch {
		case strings.TrimSpace(r.From.Name) == "" || strings.TrimSpace(r.To.Name) == "":
			return fmt.Errorf("a relationship needs two named ends")
		case r.From.Self && r.To.Self || !r.From.Self && !r.To.Self && strings.EqualFold(strings.TrimSpace(r.From.Name), strings.TrimSpace(r.To.Name)):
			return fmt.Errorf("a relationship joins two different nodes")
		case r.From.Kind != "" && !r.From.Kind.Valid() || r.To.Kind != "" && !r.To.Kind.Valid():
			return fmt.Errorf("no entity kind %q or %q", r.From.Kind, r.To.Kind)
		case r.Attitude < 0 || r.Attitude > 5 || r.Proximity < 0 || r.Proximity > 5:
			return fmt.Errorf("attitude and proximity are 1 to 5")
		case len(r.Label) > 100 || len(r.Description) > 500:
			return fmt.Errorf("a relationship's label is at most 100 characters, its description 500")
		}
	}
	switch p.Category {
	case hearth.MemoryPersonal, hearth.MemoryWork, hearth.MemoryKnowledge:
		return nil
	}
	return fmt.Errorf("category must be personal, work or knowledge")
}

func (p EventCreateArgs) check() error {
	switch {
	case p.Title == "":
		return fmt.Errorf("an event needs a title")
	case p.Start.IsZero() || p.End.IsZero():
		return fmt.Errorf("an event needs a start and an end")
	case p.End.Before(p.Start):
		return fmt.Errorf("an event cannot end before it starts")
	}
	return nil
}

func (p CalendarListArgs) check() error {
	if !p.To.After(p.From) {
		return fmt.Errorf("the range must end after it starts")
	}
	return nil
}

// Addresses are the recipients' bare addresses, lower-cased ("Sarah
// <Sarah@example.com>" → "sarah@example.com"), to compare with an
// address remembered or known.
func (p EmailArgs) Addresses() []string {
	var out []string
	for _, to := range p.To {
		if a, err := mail.ParseAddress(to); err == nil {
			out = append(out, strings.ToLower(a.Address))
		}
	}
	return out
}

func (p EmailArgs) check() error {
	if len(p.To) == 0 {
		return fmt.Errorf("an email needs a recipient")
	}
	// Never a bare name: a name is not an address, and guessing one
	// would send mail to a stranger.
	for _, to := range p.To {
		if _, err := mail.ParseAddress(to); err != nil {
			return fmt.Errorf("recipient %q is not an email address", to)
		}
	}
	if p.Body == "" && p.Subject == "" {
		return fmt.Errorf("an email needs a subject or a body")
	}
	return nil
}

func (p NoteCreateArgs) check() error {
	if p.Title == "" && p.Body == "" && len(p.Items) == 0 {
		return fmt.Errorf("a note needs a title, a body or items")
	}
	return nil
}

func (p NoteCheckArgs) check() error {
	if len(p.Items) == 0 {
		return fmt.Errorf("no items to tick")
	}
	return nil
}

func (p NoteRemoveArgs) check() error {
	if len(p.Items) == 0 {
		return fmt.Errorf("no items to take off")
	}
	return nil
}

func (p NoteAppendArgs) check() error {
	if p.Text == "" && len(p.Items) == 0 {
		return fmt.Errorf("nothing to append")
	}
	return nil
}

func (p ReminderUpdateArgs) check() error {
	if p.ID <= 0 {
		return fmt.Errorf("which reminder")
	}
	if !p.Skipped.IsZero() && !slices.Contains(p.Rule.Skip, p.Skipped) {
		return fmt.Errorf("skipped %v is not among the rule's skipped dates", p.Skipped)
	}
	if !p.Paused.IsZero() && len(p.Rule.Skip) == 0 {
		return fmt.Errorf("paused until %v, and nothing skipped", p.Paused)
	}
	return p.Rule.Validate()
}

func (p ReminderRefArgs) check() error {
	if p.ID <= 0 {
		return fmt.Errorf("which reminder")
	}
	return nil
}
