// Package voice is Hearth's speech-to-text: pipeline.Transcriber
// implementations for voice notes. OpenAI transcribes through any
// OpenAI-compatible /v1/audio/transcriptions endpoint (OpenAI itself,
// whisper.cpp's server, faster-whisper servers) with
// github.com/openai/openai-go/v3; AWS streams the recording to Amazon
// Transcribe Streaming with aws-sdk-go-v2.
//
// Downloading the recording is the channel adapters' job
// (pipeline.AudioFetcher); turning the transcript into a turn is
// pipeline.TranscribeVoice's.
package voice

import (
	"errors"
	"net/http"
	"strings"

	"github.com/hearthbot/hearth/pipeline"
)

// permanentStatus says whether a provider's HTTP status means the same
// request will fail again (a bad request, a refused format, a wrong key)
// rather than a passing outage (timeouts, rate limits, 5xx).
func permanentStatus(status int) bool {
	switch status {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooManyRequests:
		return false
	}
	return status >= 400 && status < 500
}

// isOggOpus says whether a recording is OGG/Opus, by its media type, its
// name or its first bytes.
func isOggOpus(a pipeline.Audio) bool {
	mime := strings.ToLower(a.MIME)
	name := strings.ToLower(a.Name)
	switch {
	case strings.HasPrefix(mime, "audio/ogg"), strings.HasPrefix(mime, "audio/opus"):
		return true
	case strings.HasSuffix(name, ".ogg"), strings.HasSuffix(name, ".oga"), strings.HasSuffix(name, ".opus"):
		return true
	}
	return len(a.Data) >= 36 && string(a.Data[:4]) == "OggS" && string(a.Data[28:36]) == "OpusHead"
}

// errEmpty is a recording with no bytes: nothing to transcribe, ever.
var errEmpty = errors.New("voice: the recording is empty")
