package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
)

// fetchFunc and transcribeFunc are hand-written fakes of the platform
// download and the speech-to-text provider.
type fetchFunc func(ctx context.Context, ref hearth.AudioRef, limit int64) (pipeline.Audio, error)

func (f fetchFunc) FetchAudio(ctx context.Context, ref hearth.AudioRef, limit int64) (pipeline.Audio, error) {
	return f(ctx, ref, limit)
}

type transcribeFunc func(ctx context.Context, a pipeline.Audio) (string, error)

func (f transcribeFunc) Transcribe(ctx context.Context, a pipeline.Audio) (string, error) {
	return f(ctx, a)
}

// TranscribeVoice turns a stored voice note into a text turn, or answers
// what retrying cannot fix; passing failures are errors, so the turn is
// retried, and a transcript stored once is not asked for again.
func TestTranscribeVoice(t *testing.T) {
	t.Parallel()
	okFetch := fetchFunc(func(_ context.Context, ref hearth.AudioRef, limit int64) (pipeline.Audio, error) {
		if limit != pipeline.MaxAudioBytes {
			return pipeline.Audio{}, fmt.Errorf("limit %d", limit)
		}
		return pipeline.Audio{Data: []byte("OggS" + ref.FileID), MIME: ref.MIME, Name: "voice.ogg"}, nil
	})
	heard := transcribeFunc(func(_ context.Context, a pipeline.Audio) (string, error) {
		return "  add milk to my shopping list ", nil
	})
	tests := []struct {
		name        string
		size        int64
		fetch       pipeline.AudioFetcher
		transcriber pipeline.Transcriber
		wantReply   string // "" expects the next handler's answer
		wantErr     bool
	}{
		{name: "heard", fetch: okFetch, transcriber: heard},
		{name: "not set up", fetch: okFetch, wantReply: "HEARTH_TRANSCRIBE"},
		{name: "announced too large", size: pipeline.MaxAudioBytes + 1, fetch: okFetch, transcriber: heard, wantReply: "larger than 20 MB"},
		{name: "found too large", fetch: fetchFunc(func(context.Context, hearth.AudioRef, int64) (pipeline.Audio, error) {
			return pipeline.Audio{}, fmt.Errorf("download: %w", pipeline.ErrAudioTooLarge)
		}), transcriber: heard, wantReply: "larger than 20 MB"},
		{name: "gone", fetch: fetchFunc(func(context.Context, hearth.AudioRef, int64) (pipeline.Audio, error) {
			return pipeline.Audio{}, fmt.Errorf("download: %w", hearth.ErrPermanent)
		}), transcriber: heard, wantReply: "couldn't download"},
		{name: "download outage", fetch: fetchFunc(func(context.Context, hearth.AudioRef, int64) (pipeline.Audio, error) {
			return pipeline.Audio{}, errors.New("connection reset")
		}), transcriber: heard, wantErr: true},
		{name: "refused format", fetch: okFetch, transcriber: transcribeFunc(func(context.Context, pipeline.Audio) (string, error) {
			return "", fmt.Errorf("provider: %w", hearth.ErrPermanent)
		}), wantReply: "couldn't transcribe"},
		{name: "provider outage", fetch: okFetch, transcriber: transcribeFunc(func(context.Context, pipeline.Audio) (string, error) {
			return "", errors.New("503")
		}), wantErr: true},
		{name: "silence", fetch: okFetch, transcriber: transcribeFunc(func(context.Context, pipeline.Audio) (string, error) {
			return " ", nil
		}), wantReply: "couldn't make out any words"},
		{name: "no downloader", transcriber: heard, wantReply: "can't download"},
	}
	b := setup(t, newCountingHandler())
	ctx := context.Background()
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := message("vera", fmt.Sprintf("voice-%d", i), "voice note")
			in.Kind, in.Audio = hearth.KindVoice, &hearth.AudioRef{FileID: fmt.Sprint("f", i), Size: tc.size, MIME: "audio/ogg"}
			r, err := b.inbox.Accept(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			var nextSaw []string
			next := pipeline.HandlerFunc(func(_ context.Context, turn pipeline.Turn) (pipeline.Answer, error) {
				nextSaw = append(nextSaw, string(turn.Event.Kind)+":"+turn.Event.Text)
				return pipeline.Reply("Added milk."), nil
			})
			h := pipeline.TranscribeVoice(pipeline.VoiceConfig{
				Store: b.store, Transcriber: tc.transcriber, Setting: "HEARTH_TRANSCRIBE=openai",
				Fetcher: func(hearth.Channel) (pipeline.AudioFetcher, bool) { return tc.fetch, tc.fetch != nil },
			}, next)
			turn := pipeline.Turn{Event: hearth.InboundEvent{ID: r.EventID, ConversationID: r.ConversationID, Channel: hearth.ChannelWebchat, Kind: hearth.KindVoice, Text: "voice note"}}
			ans, err := h.HandleTurn(ctx, turn)
			out := ans.Replies
			if tc.wantErr {
				if err == nil || len(out) != 0 || len(nextSaw) != 0 {
					t.Fatalf("want an error to retry; got %v, %v, next saw %v", out, err, nextSaw)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantReply != "" {
				if len(out) != 1 || !strings.Contains(out[0].Text, tc.wantReply) || len(nextSaw) != 0 {
					t.Fatalf("replied %v (next saw %v); want only a reply containing %q", out, nextSaw, tc.wantReply)
				}
				return
			}
			if len(out) != 1 || out[0].Text != "Heard: \"add milk to my shopping list\"\n\nAdded milk." {
				t.Fatalf("replied %+v", out)
			}
			if len(nextSaw) != 1 || nextSaw[0] != "message:add milk to my shopping list" {
				t.Fatalf("next saw %v", nextSaw)
			}
			// Stored with the event and as the user's line of the transcript.
			_, text, err := b.store.VoiceNote(ctx, r.EventID)
			if err != nil || text != "add milk to my shopping list" {
				t.Fatalf("stored transcript %q (%v)", text, err)
			}
			msgs, err := b.store.RecentMessages(ctx, r.ConversationID, 50)
			if err != nil || !containsText(msgs, "add milk to my shopping list") || containsText(msgs, "(voice note)") {
				t.Fatalf("transcript lines %+v (%v)", msgs, err)
			}
			// A retried turn reuses the transcript: no provider needed.
			h = pipeline.TranscribeVoice(pipeline.VoiceConfig{Store: b.store}, next)
			if ans, err := h.HandleTurn(ctx, turn); err != nil || len(ans.Replies) != 1 || !strings.HasPrefix(ans.Replies[0].Text, "Heard:") {
				t.Fatalf("retried turn: %v %v", out, err)
			}
		})
	}
}

func containsText(msgs []hearth.Message, text string) bool {
	for _, m := range msgs {
		if m.Text == text {
			return true
		}
	}
	return false
}

// A voice event needs the reference to its audio; without one it is
// refused at the door and nothing is stored.
func TestVoiceNeedsAudio(t *testing.T) {
	t.Parallel()
	b := setup(t, newCountingHandler())
	for _, ref := range []*hearth.AudioRef{nil, {}, {FileID: "x", Size: -1}} {
		in := message("wes", "voice-bad", "voice note")
		in.Kind, in.Audio = hearth.KindVoice, ref
		if _, err := b.inbox.Accept(context.Background(), in); !errors.Is(err, hearth.ErrInvalid) {
			t.Fatalf("audio %+v: %v; want ErrInvalid", ref, err)
		}
	}
}
