package voice

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/transcribestreaming"
	"github.com/aws/aws-sdk-go-v2/service/transcribestreaming/types"
	"github.com/aws/smithy-go"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/awsconf"
	"github.com/hearthbot/hearth/pipeline"
)

// DefaultAWSLanguage is the language Amazon Transcribe listens for when
// none is configured.
const DefaultAWSLanguage = "en-US"

// awsChunkBytes is the size of one audio event. Transcribe Streaming
// takes events of up to 32 KB; a voice note at 16–32 kbit/s is a few
// seconds per chunk.
const awsChunkBytes = 8 << 10

// AWSConfig configures Amazon Transcribe Streaming.
type AWSConfig struct {
	// Region is the AWS region, e.g. eu-west-1. Defaults to the SDK's
	// chain (AWS_REGION, shared config).
	Region string
	// Language is the spoken language code, e.g. en-US or de-DE. Defaults
	// to DefaultAWSLanguage.
	Language string
	// EndpointURL replaces the regional endpoint; tests point it at a fake.
	EndpointURL string
	// Credentials sign requests. Defaults to the SDK's default chain
	// (environment, shared files, SSO, instance and container roles).
	Credentials aws.CredentialsProvider
	// HTTPClient sends the requests; the API needs HTTP/2. Defaults to the
	// SDK's client.
	HTTPClient *http.Client
	// Timeout bounds one transcription. Defaults to two minutes.
	Timeout time.Duration
}

// AWS transcribes OGG/Opus voice notes with Amazon Transcribe Streaming
// (media encoding ogg-opus). Other formats are refused as permanent
// failures: the streaming API reads only ogg-opus, FLAC and raw PCM.
type AWS struct {
	cfg    AWSConfig
	client *transcribestreaming.Client
}

var _ pipeline.Transcriber = (*AWS)(nil)

// NewAWS returns a transcriber for cfg. Without cfg.Credentials it loads
// the SDK's default configuration, which reads the environment and shared
// files but makes no request.
func NewAWS(ctx context.Context, cfg AWSConfig) (*AWS, error) {
	cfg.Language = cmp.Or(cfg.Language, DefaultAWSLanguage)
	if cfg.Timeout <= 0 {
		cfg.Timeout = 2 * time.Minute
	}
	apply := func(o *transcribestreaming.Options) {
		// A failed turn is retried by its job, with backoff.
		o.Retryer = aws.NopRetryer{}
		o.RetryMaxAttempts = 0
		if cfg.EndpointURL != "" {
			o.BaseEndpoint = aws.String(cfg.EndpointURL)
		}
		if cfg.HTTPClient != nil {
			o.HTTPClient = cfg.HTTPClient
		}
	}
	awsCfg, err := awsconf.Load(ctx, cfg.Region, cfg.Credentials)
	if err != nil {
		return nil, fmt.Errorf("voice: aws: %w", err)
	}
	return &AWS{cfg: cfg, client: transcribestreaming.NewFromConfig(awsCfg, apply)}, nil
}

// Transcribe streams the recording in audio events, closes the audio
// stream and collects the final (non-partial) results in order.
func (t *AWS) Transcribe(ctx context.Context, a pipeline.Audio) (string, error) {
	if len(a.Data) == 0 {
		return "", fmt.Errorf("%w: %w", hearth.ErrPermanent, errEmpty)
	}
	if !isOggOpus(a) {
		return "", fmt.Errorf("voice: aws: %w: Amazon Transcribe Streaming reads OGG/Opus voice notes, not %q", hearth.ErrPermanent, cmp.Or(a.MIME, a.Name))
	}
	ctx, cancel := context.WithTimeout(ctx, t.cfg.Timeout)
	defer cancel()
	out, err := t.client.StartStreamTranscription(ctx, &transcribestreaming.StartStreamTranscriptionInput{
		LanguageCode:         types.LanguageCode(t.cfg.Language),
		MediaEncoding:        types.MediaEncodingOggOpus,
		MediaSampleRateHertz: aws.Int32(opusSampleRate(a.Data)),
	})
	if err != nil {
		return "", awsError(err)
	}
	stream := out.GetStream()
	defer stream.Close()

	// Audio goes up while results come down: a full-duplex stream, so the
	// sender must not wait for the reader or the reverse.
	sent := make(chan error, 1)
	go func() {
		for chunk := range chunks(a.Data, awsChunkBytes) {
			if err := stream.Send(ctx, &types.AudioStreamMemberAudioEvent{Value: types.AudioEvent{AudioChunk: chunk}}); err != nil {
				sent <- err
				return
			}
		}
		// Closing the writer sends the empty event that ends the audio.
		sent <- stream.Writer.Close()
	}()
	var words []string
	for ev := range stream.Events() {
		te, ok := ev.(*types.TranscriptResultStreamMemberTranscriptEvent)
		if !ok || te.Value.Transcript == nil {
			continue
		}
		for _, r := range te.Value.Transcript.Results {
			if r.IsPartial || len(r.Alternatives) == 0 || r.Alternatives[0].Transcript == nil {
				continue
			}
			words = append(words, strings.TrimSpace(*r.Alternatives[0].Transcript))
		}
	}
	// A failed stream ends the results early: report it without waiting
	// for the sender, which the deferred Close and cancel release.
	if err := stream.Reader.Err(); err != nil {
		return "", awsError(err)
	}
	select {
	case err := <-sent:
		if err != nil {
			return "", awsError(err)
		}
	case <-ctx.Done():
		return "", awsError(ctx.Err())
	}
	if err := stream.Err(); err != nil {
		return "", awsError(err)
	}
	return strings.Join(words, " "), nil
}

// chunks yields data in pieces of at most n bytes.
func chunks(data []byte, n int) func(func([]byte) bool) {
	return func(yield func([]byte) bool) {
		for len(data) > 0 {
			k := min(n, len(data))
			if !yield(data[:k]) {
				return
			}
			data = data[k:]
		}
	}
}

// opusSampleRate reads the input sample rate from an Ogg/Opus stream's
// identification header (RFC 7845, section 5.1), which Transcribe wants
// to be told; 48 kHz, Opus's own rate, when the header says nothing.
func opusSampleRate(data []byte) int32 {
	const head = 28 // a 27-byte page header and a one-segment table
	if len(data) >= head+16 && string(data[head:head+8]) == "OpusHead" {
		if rate := binary.LittleEndian.Uint32(data[head+12 : head+16]); rate >= 8000 && rate <= 48000 {
			return int32(rate)
		}
	}
	return 48000
}

// awsError marks what retrying cannot fix: the service's refusals of the
// request itself (a bad request, an unsupported language, access denied).
func awsError(err error) error {
	var bad *types.BadRequestException
	var api smithy.APIError
	switch {
	case errors.As(err, &bad):
		return fmt.Errorf("voice: aws: %w: %w", hearth.ErrPermanent, err)
	case errors.As(err, &api) && api.ErrorFault() == smithy.FaultClient &&
		!strings.Contains(api.ErrorCode(), "LimitExceeded") && !strings.Contains(api.ErrorCode(), "Throttl"):
		return fmt.Errorf("voice: aws: %w: %w", hearth.ErrPermanent, err)
	}
	return fmt.Errorf("voice: aws: %w", err)
}
