package hearth

import (
	"encoding/json"
	"time"
)

// Channel names a chat platform. It is the first half of every external key.
type Channel string

// The channels Hearth speaks.
const (
	ChannelWebchat  Channel = "webchat"
	ChannelSlack    Channel = "slack"
	ChannelTelegram Channel = "telegram"
)

// EventKind says what an inbound event carries.
type EventKind string

// Inbound event kinds.
const (
	// KindMessage is a text (or transcribed voice) message.
	KindMessage EventKind = "message"
	// KindButton is a click on a button of an earlier bot message.
	KindButton EventKind = "button"
	// KindUnsupported is a message Hearth cannot read yet; Text names
	// what it was ("voice note", "photo"), so the reply can say so.
	KindUnsupported EventKind = "unsupported"
	// KindVoice is a voice note or audio clip: Audio says where it is, and
	// the turn transcribes it (see TranscribeVoice). Text may name it.
	KindVoice EventKind = "voice"
	// KindCommand is a command a platform sent by name (Slack's "/hearth
	// briefing", Telegram's "/briefing"): Text is "name args", and the
	// turn dispatches it to that entry of the commands registry.
	KindCommand EventKind = "command"
	// KindFile is a file sent to be imported (a contacts export, a to-do
	// CSV, a calendar): File says where it is, or holds it, and the turn
	// reads it (see package imports).
	KindFile EventKind = "file"
)

// Inbound is one normalised event from a channel adapter, before it is
// stored. Adapters fill it after verifying the request.
type Inbound struct {
	Channel Channel
	// ExternalID is the platform's id for this delivery (Slack event_id,
	// Telegram update_id, a web chat client id). A second event with the
	// same Channel and ExternalID is a duplicate.
	ExternalID string
	// ConversationKey identifies the chat on the platform (a DM channel, a
	// thread, a Telegram chat id).
	ConversationKey string
	// UserKey identifies the sender on the platform.
	UserKey string
	// UserName is the sender's display name, used when the user is new.
	UserName string
	// Timezone is the sender's IANA zone when the channel supplies one.
	Timezone string
	Kind     EventKind
	Text     string
	// MessageID and ButtonID name the clicked button for KindButton.
	MessageID int64
	ButtonID  string
	// Payload is the raw platform event, kept for debugging and replays.
	Payload json.RawMessage
	// Audio references the recording of a KindVoice event; it is stored
	// with the event and fetched by the turn, never at ingress.
	Audio *AudioRef
	// File references (or, for a web chat upload, holds) the file of a
	// KindFile event; stored with the event, read by the turn.
	File *FileRef
}

// Receipt is what accepting an inbound event produced.
type Receipt struct {
	EventID        int64
	ConversationID int64
	UserID         int64
	// MessageID is the transcript message of a KindMessage (or KindVoice)
	// event, or 0.
	MessageID int64
	// Duplicate is true when the event had been accepted before; nothing
	// new was stored or enqueued.
	Duplicate bool
}

// TurnJob says how a message's turn job is written when the store writes
// it in the statement that stores the message (ingress's group commit):
// River's own row, which River's clients in every language write alike,
// with the message's conversation_id and event_id as its args.
type TurnJob struct {
	Kind        string
	Queue       string
	MaxAttempts int
	// Notify sends River's insert notification for Queue with the commit,
	// so idle producers fetch the job at once rather than at their next
	// poll.
	Notify bool
}

// TurnLease is what a turn job found when it asked for its conversation
// (see the turn worker in package pipeline).
type TurnLease struct {
	// Leased: the job holds the conversation's right to answer now.
	Leased bool
	// Answered: the job's own event was answered already, by a turn that
	// drained the conversation before the job ran. Nothing was leased:
	// the job is done.
	Answered bool
	// Found: Event is the conversation's oldest unanswered event, from
	// User. Only looked for when Leased.
	Found bool
	Event InboundEvent
	User  User
}

// Button is an option offered with a bot message.
type Button struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// Outbound is one reply the pipeline wants delivered.
type Outbound struct {
	Text    string
	Buttons []Button
}

// User is a person Hearth knows, across channels.
type User struct {
	ID          int64
	DisplayName string
	// Timezone is an IANA zone name, or "" until it is known.
	Timezone string
}

// InboundEvent is a stored inbound event, as a turn sees it.
type InboundEvent struct {
	ID             int64
	ConversationID int64
	Channel        Channel
	Kind           EventKind
	Text           string
	MessageID      int64
	ButtonID       string
	ReceivedAt     time.Time
	// Attempts counts earlier failed tries at this event.
	Attempts int
	// Spoken is true when Text is the transcript of a voice note (set by
	// the turn that transcribed it): spoken words have no punctuation and
	// their own slips, so the intent stage may be more careful.
	Spoken bool
}

// Author says who wrote a transcript message.
type Author string

// Transcript authors.
const (
	FromUser Author = "user"
	FromBot  Author = "bot"
)

// Message is one visible line of a conversation's transcript.
type Message struct {
	ID             int64
	ConversationID int64
	// Seq orders visible messages; it is the cursor clients page with.
	Seq       int64
	From      Author
	Text      string
	Buttons   []Button
	CreatedAt time.Time
	// EventID is the inbound event a user's message came with, or the
	// one a bot's message answered; 0 for neither (a briefing, a
	// reminder). Where only Seq orders the transcript (a reply gets its
	// place when delivered), it says which reply answered what.
	EventID int64
}

// Delivery is a bot message on its way to a platform.
type Delivery struct {
	MessageID       int64
	ConversationID  int64
	Channel         Channel
	ConversationKey string
	Text            string
	Buttons         []Button
	// DeliveredAt is set when the message was delivered before; the
	// deliver job then does nothing.
	DeliveredAt       time.Time
	PlatformMessageID string
}

// Contact is a user as reached on one channel: the user and the
// conversation with them there.
type Contact struct {
	User           User
	ConversationID int64
}

// AudioRef says where a voice note's recording is, as the platform
// described it at ingress. One of FileID and URL is set.
type AudioRef struct {
	// FileID is the platform's file id (Telegram's file_id).
	FileID string `json:"file_id,omitempty"`
	// URL is a download URL (Slack's url_private_download).
	URL string `json:"url,omitempty"`
	// Size is the size in bytes the platform announced; 0 when unknown.
	Size int64 `json:"size,omitempty"`
	// MIME is the announced media type ("audio/ogg").
	MIME string `json:"mime,omitempty"`
	// Name is the file name, when the platform gives one.
	Name string `json:"name,omitempty"`
	// Duration is the length in seconds, when known.
	Duration int `json:"duration,omitempty"`
}
