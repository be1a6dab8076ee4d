package slack

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/slack-go/slack"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/fileimport"
	"github.com/hearthbot/hearth/pipeline"
)

var _ pipeline.AudioFetcher = (*Adapter)(nil)

// sharedFile is the part of a file in a file_share message Hearth reads.
type sharedFile struct {
	ID                 string `json:"id"`
	Name               string `json:"name"`
	Mimetype           string `json:"mimetype"`
	Subtype            string `json:"subtype"`
	Size               int64  `json:"size"`
	URLPrivate         string `json:"url_private"`
	URLPrivateDownload string `json:"url_private_download"`
}

// audioRef is the reference to the first audio clip among files (a clip
// recorded in Slack is subtype slack_audio; an uploaded recording has an
// audio/* type), or nil. The audio is fetched by the turn (FetchAudio),
// never at ingress.
func audioRef(files []sharedFile) *hearth.AudioRef {
	for _, f := range files {
		if f.Subtype != "slack_audio" && !strings.HasPrefix(strings.ToLower(f.Mimetype), "audio/") {
			continue
		}
		url := f.URLPrivateDownload
		if url == "" {
			url = f.URLPrivate
		}
		if url == "" {
			continue
		}
		return &hearth.AudioRef{FileID: f.ID, URL: url, Size: f.Size, MIME: f.Mimetype, Name: f.Name}
	}
	return nil
}

// fileRef is the reference to the first file among files that can be
// imported (a CSV, a workbook, contacts, a calendar), or nil; the turn
// downloads it with FetchAudio.
func fileRef(files []sharedFile) *hearth.FileRef {
	for _, f := range files {
		url := f.URLPrivateDownload
		if url == "" {
			url = f.URLPrivate
		}
		if url == "" || !fileimport.Importable(f.Name, f.Mimetype) {
			continue
		}
		name := f.Name
		if name == "" {
			name = "file"
		}
		return &hearth.FileRef{FileID: f.ID, URL: url, Size: f.Size, MIME: f.Mimetype, Name: name}
	}
	return nil
}

// FetchAudio downloads an audio clip from its private URL with the bot
// token (slack-go sends the token only to Slack's own hosts or the API
// URL), refusing more than limit bytes with pipeline.ErrAudioTooLarge. A
// file the bot cannot read, or that is gone, is pipeline.ErrPermanent; a
// rate limit is retried with the turn.
func (a *Adapter) FetchAudio(ctx context.Context, ref hearth.AudioRef, limit int64) (pipeline.Audio, error) {
	if ref.URL == "" {
		return pipeline.Audio{}, fmt.Errorf("slack fetch audio: %w: no download URL", hearth.ErrPermanent)
	}
	w := &limitedBuffer{limit: limit}
	err := a.api.GetFileContext(ctx, ref.URL, w)
	var status slack.StatusCodeError
	var limited *slack.RateLimitedError
	switch {
	case errors.Is(err, pipeline.ErrAudioTooLarge):
		return pipeline.Audio{}, fmt.Errorf("slack download %s: %w", ref.FileID, err)
	case errors.As(err, &limited):
		return pipeline.Audio{}, fmt.Errorf("slack download %s: rate limited, retry after %s: %w", ref.FileID, limited.RetryAfter, err)
	case errors.As(err, &status) && (status.Code == http.StatusNotFound || status.Code == http.StatusForbidden || status.Code == http.StatusUnauthorized || status.Code == http.StatusGone):
		return pipeline.Audio{}, fmt.Errorf("slack download %s: %w: %w", ref.FileID, hearth.ErrPermanent, err)
	case err != nil && (strings.Contains(err.Error(), "refusing to send the token") || strings.Contains(err.Error(), "sign-in page")):
		return pipeline.Audio{}, fmt.Errorf("slack download %s: %w: %w", ref.FileID, hearth.ErrPermanent, err)
	case err != nil:
		return pipeline.Audio{}, fmt.Errorf("slack download %s: %w", ref.FileID, err)
	}
	return pipeline.Audio{Data: w.data, MIME: ref.MIME, Name: ref.Name}, nil
}

// limitedBuffer collects a download and fails once it grows past limit.
type limitedBuffer struct {
	data  []byte
	limit int64
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if int64(len(b.data)+len(p)) > b.limit {
		return 0, pipeline.ErrAudioTooLarge
	}
	b.data = append(b.data, p...)
	return len(p), nil
}
