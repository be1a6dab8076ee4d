package pipeline

import (
	"context"
	"errors"
	"fmt"
	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"strings"
)

// MaxAudioBytes bounds a voice note Hearth downloads: the Bot API's own
// download limit, and plenty for minutes of speech. Larger recordings get
// a reply saying so.
const MaxAudioBytes = 20 << 20

// ErrAudioTooLarge marks a recording over MaxAudioBytes. It is permanent:
// the user gets a reply instead of a retry.
var ErrAudioTooLarge = errors.New("audio is larger than 20 MB")

// validateAudio refuses a voice note without a usable reference.
func validateAudio(r *hearth.AudioRef) error {
	switch {
	case r == nil:
		return hearth.Invalidf("a voice note needs its audio reference")
	case r.FileID == "" && r.URL == "":
		return hearth.Invalidf("a voice note needs a file id or a download URL")
	case r.Size < 0 || r.Duration < 0:
		return hearth.Invalidf("a voice note's size and duration cannot be negative")
	}
	return nil
}

// Audio is a downloaded recording.
type Audio struct {
	// Data is the recording as the platform served it.
	Data []byte
	// MIME and Name describe the format ("audio/ogg", "voice.ogg").
	MIME string
	Name string
}

// AudioFetcher downloads a recording from the platform it came from,
// refusing one larger than limit bytes with ErrAudioTooLarge.
type AudioFetcher interface {
	FetchAudio(ctx context.Context, ref hearth.AudioRef, limit int64) (Audio, error)
}

// Transcriber turns speech into text. An error that retrying cannot fix
// (a format the provider refuses, a rejected request) wraps ErrPermanent
// or ErrInvalid; anything else is retried with the turn.
type Transcriber interface {
	Transcribe(ctx context.Context, a Audio) (string, error)
}

// VoiceStore keeps a voice note's reference and transcript.
type VoiceStore interface {
	// VoiceNote returns the event's audio reference and its transcript,
	// "" until SetTranscript stored one.
	VoiceNote(ctx context.Context, eventID int64) (ref hearth.AudioRef, transcript string, err error)
	// SetTranscript stores what was heard with the event and its line of
	// the transcript, so history shows the words, not "voice note".
	SetTranscript(ctx context.Context, eventID int64, text string) error
}

// VoiceConfig is what TranscribeVoice needs.
type VoiceConfig struct {
	// Store holds references and transcripts. Required.
	Store VoiceStore
	// Fetcher returns the downloader of a channel; false when the channel
	// cannot download audio.
	Fetcher func(hearth.Channel) (AudioFetcher, bool)
	// Transcriber is the speech-to-text provider; nil when none is set up.
	Transcriber Transcriber
	// Setting names what enables transcription, for the reply that says
	// voice notes are not set up (e.g. "HEARTH_TRANSCRIBE=openai").
	Setting string
}

// TranscribeVoice turns a voice note into a text turn for next: it
// downloads the recording from its platform, transcribes it, stores the
// transcript with the message, and answers with what it heard before the
// answer to it. The work happens in the turn (ingress only stored the
// reference), so a failed download or a provider outage is retried with
// the turn, and a retried turn reuses a stored transcript. What retrying
// cannot fix (no provider, too large, a refused format) gets a reply.
// Every other turn goes to next unchanged.
func TranscribeVoice(cfg VoiceConfig, next Handler) Handler {
	return HandlerFunc(func(ctx context.Context, t Turn) (Answer, error) {
		if t.Event.Kind != hearth.KindVoice {
			return next.HandleTurn(ctx, t)
		}
		ref, text, err := cfg.Store.VoiceNote(ctx, t.Event.ID)
		if err != nil {
			return Answer{}, fmt.Errorf("voice note: %w", err)
		}
		if text == "" {
			var reply string
			text, reply, err = transcribe(ctx, cfg, t.Event.Channel, ref)
			if err != nil || reply != "" {
				return replyOnly(reply), err
			}
			if err := cfg.Store.SetTranscript(ctx, t.Event.ID, text); err != nil {
				return Answer{}, fmt.Errorf("voice note: %w", err)
			}
		}
		t.Event.Kind, t.Event.Text, t.Event.Spoken = hearth.KindMessage, text, true
		ans, err := next.HandleTurn(ctx, t)
		if err != nil {
			return Answer{}, err
		}
		heard := `Heard: "` + markdown.Escape(text) + `"` // what was heard, shown as heard
		if len(ans.Replies) == 0 {
			ans.Replies = []hearth.Outbound{{Text: heard}}
			return ans, nil
		}
		ans.Replies[0].Text = heard + "\n\n" + ans.Replies[0].Text
		return ans, nil
	})
}

// transcribe fetches and transcribes; reply is set (and err nil) when the
// user must be told something instead.
func transcribe(ctx context.Context, cfg VoiceConfig, ch hearth.Channel, ref hearth.AudioRef) (text, reply string, err error) {
	if cfg.Transcriber == nil {
		setting := cfg.Setting
		if setting == "" {
			setting = "a transcription provider"
		}
		return "", "I got your voice note, but voice notes are not set up on this Hearth yet. Whoever runs it can turn them on with " + setting + ". Until then, please type your message.", nil
	}
	if ref.Size > MaxAudioBytes {
		return "", tooLargeReply, nil
	}
	var f AudioFetcher
	if cfg.Fetcher != nil {
		f, _ = cfg.Fetcher(ch)
	}
	if f == nil {
		return "", "I can't download voice notes from this chat. Please type your message.", nil
	}
	audio, err := f.FetchAudio(ctx, ref, MaxAudioBytes)
	switch {
	case errors.Is(err, ErrAudioTooLarge):
		return "", tooLargeReply, nil
	case errors.Is(err, hearth.ErrPermanent), errors.Is(err, hearth.ErrNotFound):
		return "", "I couldn't download that voice note (it may have been deleted). Could you send it again, or type it?", nil
	case err != nil:
		return "", "", fmt.Errorf("voice note: download: %w", err)
	}
	text, err = cfg.Transcriber.Transcribe(ctx, audio)
	switch {
	case errors.Is(err, hearth.ErrPermanent), errors.Is(err, hearth.ErrInvalid):
		return "", "I couldn't transcribe that voice note. Could you type it, or try a shorter recording?", nil
	case err != nil:
		return "", "", fmt.Errorf("voice note: transcribe: %w", err)
	}
	text = strings.TrimSpace(text)
	if text == "" {
		return "", "I listened, but couldn't make out any words. Could you try again, or type it?", nil
	}
	if len(text) > MaxTextBytes {
		text = text[:MaxTextBytes]
		text = strings.ToValidUTF8(text, "")
	}
	return text, "", nil
}

const tooLargeReply = "That recording is larger than 20 MB, more than I can take. Could you send a shorter voice note, or type it?"

func replyOnly(text string) Answer {
	if text == "" {
		return Answer{}
	}
	return Reply(text)
}
