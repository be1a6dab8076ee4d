package voice

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
)

// DefaultOpenAIURL is OpenAI's API root.
const DefaultOpenAIURL = "https://api.openai.com/v1"

// DefaultOpenAIModel is the transcription model asked for when none is
// configured.
const DefaultOpenAIModel = "whisper-1"

// OpenAIConfig configures an OpenAI-compatible transcription endpoint.
type OpenAIConfig struct {
	// BaseURL is the API root, e.g. http://localhost:8000/v1 for a local
	// whisper server. Defaults to DefaultOpenAIURL (not OPENAI_BASE_URL).
	BaseURL string
	// APIKey is sent as a bearer token; local servers usually need none.
	// OPENAI_API_KEY is never used.
	APIKey string
	// Model defaults to DefaultOpenAIModel.
	Model string
	// Language is the spoken language as an ISO-639-1 code ("en"); empty
	// lets the model detect it.
	Language string
	// Timeout bounds one transcription. Defaults to two minutes.
	Timeout time.Duration
	// HTTPClient sends the requests. Defaults to http.DefaultClient.
	HTTPClient *http.Client
}

// OpenAI transcribes through POST /audio/transcriptions.
type OpenAI struct {
	cfg    OpenAIConfig
	client openai.Client
}

var _ pipeline.Transcriber = (*OpenAI)(nil)

// NewOpenAI returns a transcriber for cfg. It makes no request. The SDK
// does not retry: a failed turn is retried by its job, with backoff.
func NewOpenAI(cfg OpenAIConfig) *OpenAI {
	cfg.Model = cmp.Or(cfg.Model, DefaultOpenAIModel)
	if cfg.Timeout <= 0 {
		cfg.Timeout = 2 * time.Minute
	}
	// The base URL and key are always explicit: the SDK would otherwise
	// take OPENAI_BASE_URL and OPENAI_API_KEY, meant for a chat model's
	// server, and send that key to a local transcription server. An empty
	// key sends no Authorization header.
	opts := []option.RequestOption{option.WithMaxRetries(0), option.WithRequestTimeout(cfg.Timeout),
		option.WithBaseURL(cmp.Or(cfg.BaseURL, DefaultOpenAIURL)), option.WithAPIKey(cfg.APIKey)}
	if cfg.HTTPClient != nil {
		opts = append(opts, option.WithHTTPClient(cfg.HTTPClient))
	}
	return &OpenAI{cfg: cfg, client: openai.NewClient(opts...)}
}

// Transcribe sends the recording and returns the text heard. A request
// the server refuses (4xx other than 408, 409 and 429: a format it cannot
// read, a wrong key or model) wraps pipeline.ErrPermanent.
func (o *OpenAI) Transcribe(ctx context.Context, a pipeline.Audio) (string, error) {
	if len(a.Data) == 0 {
		return "", fmt.Errorf("%w: %w", hearth.ErrPermanent, errEmpty)
	}
	name := cmp.Or(a.Name, "voice.ogg")
	mime := cmp.Or(a.MIME, "application/octet-stream")
	params := openai.AudioTranscriptionNewParams{
		File:  openai.File(bytes.NewReader(a.Data), name, mime),
		Model: openai.AudioModel(o.cfg.Model),
	}
	if o.cfg.Language != "" {
		params.Language = openai.String(o.cfg.Language)
	}
	res, err := o.client.Audio.Transcriptions.New(ctx, params)
	if err != nil {
		var apiErr *openai.Error
		if errors.As(err, &apiErr) && permanentStatus(apiErr.StatusCode) {
			return "", fmt.Errorf("voice: openai transcription (%s): %w: status %d", o.cfg.Model, hearth.ErrPermanent, apiErr.StatusCode)
		}
		return "", fmt.Errorf("voice: openai transcription (%s): %w", o.cfg.Model, err)
	}
	return res.Text, nil
}
