package telegram

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/fileimport"
	"github.com/hearthbot/hearth/pipeline"
)

var _ pipeline.AudioFetcher = (*Adapter)(nil)

// audioRef is the reference to a voice note or audio file stored at
// ingress; the audio itself is fetched by the turn (FetchAudio), so the
// webhook stays fast.
func audioRef(m *models.Message) *hearth.AudioRef {
	switch {
	case m.Voice != nil && m.Voice.FileID != "":
		mime := m.Voice.MimeType
		if mime == "" {
			mime = "audio/ogg" // a voice note is OGG/Opus
		}
		return &hearth.AudioRef{FileID: m.Voice.FileID, Size: m.Voice.FileSize, MIME: mime, Name: "voice.ogg", Duration: m.Voice.Duration}
	case m.Audio != nil && m.Audio.FileID != "":
		return &hearth.AudioRef{FileID: m.Audio.FileID, Size: m.Audio.FileSize, MIME: m.Audio.MimeType, Name: m.Audio.FileName, Duration: m.Audio.Duration}
	}
	return nil
}

// fileRef is the reference to a document sent to be imported (a CSV, a
// workbook, contacts, a calendar), or nil; it is downloaded by the turn
// with FetchAudio, like a voice note.
func fileRef(m *models.Message) *hearth.FileRef {
	d := m.Document
	if d == nil || d.FileID == "" || !fileimport.Importable(d.FileName, d.MimeType) {
		return nil
	}
	name := d.FileName
	if name == "" {
		name = "file"
	}
	return &hearth.FileRef{FileID: d.FileID, Size: d.FileSize, MIME: d.MimeType, Name: name}
}

// FetchAudio downloads a voice note: getFile for its path, then the file
// itself, refusing more than limit bytes with pipeline.ErrAudioTooLarge
// (the Bot API serves files up to 20 MB and answers "file is too big"
// beyond). A file Telegram no longer has is pipeline.ErrPermanent.
func (a *Adapter) FetchAudio(ctx context.Context, ref hearth.AudioRef, limit int64) (pipeline.Audio, error) {
	if ref.FileID == "" {
		return pipeline.Audio{}, fmt.Errorf("telegram fetch audio: %w: no file id", hearth.ErrPermanent)
	}
	f, err := a.bot.GetFile(ctx, &bot.GetFileParams{FileID: ref.FileID})
	switch {
	case err != nil && strings.Contains(strings.ToLower(err.Error()), "file is too big"):
		return pipeline.Audio{}, fmt.Errorf("telegram getFile: %w", pipeline.ErrAudioTooLarge)
	case err != nil:
		return pipeline.Audio{}, fmt.Errorf("telegram getFile: %w", sendError(err))
	case f.FileSize > limit:
		return pipeline.Audio{}, fmt.Errorf("telegram getFile: %d bytes: %w", f.FileSize, pipeline.ErrAudioTooLarge)
	case f.FilePath == "":
		return pipeline.Audio{}, fmt.Errorf("telegram getFile: %w: no file path", hearth.ErrPermanent)
	}
	data, err := download(ctx, a.files, a.bot.FileDownloadLink(f), limit)
	if err != nil {
		// The link holds the bot token: the error names the file only.
		return pipeline.Audio{}, fmt.Errorf("telegram download %s: %w", f.FilePath, err)
	}
	name := ref.Name
	if name == "" {
		name = path.Base(f.FilePath)
	}
	return pipeline.Audio{Data: data, MIME: ref.MIME, Name: name}, nil
}

// download GETs link, reading at most limit bytes.
func download(ctx context.Context, client *http.Client, link string, limit int64) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, link, nil)
	if err != nil {
		return nil, fmt.Errorf("%w: bad download link", hearth.ErrPermanent)
	}
	res, err := client.Do(req)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // drop the URL, which holds the token
		}
		return nil, err
	}
	defer res.Body.Close()
	switch {
	case res.StatusCode == http.StatusNotFound || res.StatusCode == http.StatusForbidden || res.StatusCode == http.StatusUnauthorized:
		return nil, fmt.Errorf("%w: status %d", hearth.ErrPermanent, res.StatusCode)
	case res.StatusCode != http.StatusOK:
		return nil, fmt.Errorf("status %d", res.StatusCode)
	case res.ContentLength > limit:
		return nil, pipeline.ErrAudioTooLarge
	}
	data, err := io.ReadAll(io.LimitReader(res.Body, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, pipeline.ErrAudioTooLarge
	}
	return data, nil
}
