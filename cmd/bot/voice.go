package main

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/adapters/voice"
	"github.com/hearthbot/hearth/pipeline"
)

// transcribeSetting is what the "voice notes are not set up" reply tells
// the operator to set.
const transcribeSetting = "HEARTH_TRANSCRIBE=openai (with HEARTH_TRANSCRIBE_URL for a local Whisper server) or HEARTH_TRANSCRIBE=aws"

func (c Config) validateTranscribe() error {
	switch c.Transcribe {
	case "", "none", "openai", "aws":
	default:
		return fmt.Errorf("config: HEARTH_TRANSCRIBE %q must be none, openai or aws", c.Transcribe)
	}
	if c.TranscribeURL != "" {
		if u, err := url.Parse(c.TranscribeURL); err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("config: HEARTH_TRANSCRIBE_URL %q is not an http(s) URL", c.TranscribeURL)
		}
	}
	if c.Transcribe == "openai" && c.TranscribeURL == "" && c.TranscribeAPIKey == "" {
		return errors.New("config: HEARTH_TRANSCRIBE=openai needs HEARTH_TRANSCRIBE_API_KEY for OpenAI, or HEARTH_TRANSCRIBE_URL for a local server")
	}
	return nil
}

// newTranscriber builds the configured speech-to-text provider; nil when
// voice notes are not set up (HEARTH_TRANSCRIBE=none).
func newTranscriber(ctx context.Context, cfg Config) (pipeline.Transcriber, error) {
	switch cfg.Transcribe {
	case "openai":
		return voice.NewOpenAI(voice.OpenAIConfig{
			BaseURL: cfg.TranscribeURL, APIKey: cfg.TranscribeAPIKey,
			Model: cfg.TranscribeModel, Language: cfg.TranscribeLanguage,
		}), nil
	case "aws":
		t, err := voice.NewAWS(ctx, voice.AWSConfig{
			Region: cfg.TranscribeRegion, Language: cfg.TranscribeLanguage, EndpointURL: cfg.TranscribeURL,
		})
		if err != nil {
			return nil, fmt.Errorf("transcription (check HEARTH_TRANSCRIBE_REGION or AWS_REGION): %w", err)
		}
		return t, nil
	}
	return nil, nil
}

// voiceConfig wires TranscribeVoice: the store, the channel adapters as
// downloaders (looked up when a voice note arrives, so tests can swap
// them), and the provider.
func (a *App) voiceConfig(t pipeline.Transcriber) pipeline.VoiceConfig {
	return pipeline.VoiceConfig{
		Store: a.Store,
		Fetcher: func(ch hearth.Channel) (pipeline.AudioFetcher, bool) {
			f, ok := a.Senders[ch].(pipeline.AudioFetcher)
			return f, ok
		},
		Transcriber: t,
		Setting:     transcribeSetting,
	}
}

// profileConfig wires ProfileFromChannel: channels whose adapter knows
// users' zones and names (Slack's users.info), looked up on first contact.
func (a *App) profileConfig() pipeline.ProfileConfig {
	return pipeline.ProfileConfig{
		Store: a.Store,
		Lookup: func(ch hearth.Channel) (pipeline.ProfileLookup, bool) {
			p, ok := a.Senders[ch].(pipeline.ProfileLookup)
			return p, ok
		},
		Log: a.Log.With("component", "profile"),
	}
}
