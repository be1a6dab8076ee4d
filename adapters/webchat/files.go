package webchat

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"path"
	"strings"
	"unicode/utf8"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/httpreply"
)

// MaxUploadBytes bounds an uploaded file (the import limit); the form
// around it may add MaxFormBytes. It is apart from MaxBodyBytes, which
// bounds the JSON bodies.
const (
	MaxUploadBytes = 10 << 20
	MaxFormBytes   = 64 << 10
)

// postFile accepts a file to import, as multipart/form-data: the fields
// user (required), tz and id (optional, as for messages) and the part
// file. The file is stored with its event, so the turn that reads it
// needs nothing from this request.
func (h *Handler) postFile(w http.ResponseWriter, r *http.Request) {
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		httpreply.Reason(w, http.StatusUnsupportedMediaType, "send the file as multipart/form-data, in a part named file")
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxUploadBytes+MaxFormBytes)
	mr, err := r.MultipartReader()
	if err != nil {
		httpreply.Reason(w, http.StatusBadRequest, "body is not valid multipart/form-data")
		return
	}
	fields := map[string]string{}
	var file *hearth.FileRef
	for {
		part, err := mr.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			uploadError(w, err)
			return
		}
		switch name := part.FormName(); name {
		case "file":
			if file != nil {
				httpreply.Reason(w, http.StatusBadRequest, "send one file at a time")
				return
			}
			data, err := io.ReadAll(io.LimitReader(part, MaxUploadBytes+1))
			if err != nil {
				uploadError(w, err)
				return
			}
			if len(data) > MaxUploadBytes {
				httpreply.Reason(w, http.StatusRequestEntityTooLarge, "the file is larger than 10 MB, more than I can import at once")
				return
			}
			fname := path.Base(strings.ReplaceAll(part.FileName(), `\`, "/"))
			if fname == "." || fname == "/" || !utf8.ValidString(fname) {
				fname = ""
			}
			file = &hearth.FileRef{Name: fname, MIME: part.Header.Get("Content-Type"), Size: int64(len(data)), Data: data}
		case "user", "tz", "id":
			v, err := io.ReadAll(io.LimitReader(part, 1024))
			if err != nil {
				uploadError(w, err)
				return
			}
			fields[name] = string(v)
		}
	}
	if file == nil {
		httpreply.Reason(w, http.StatusBadRequest, "file is required")
		return
	}
	if len(file.Data) == 0 {
		httpreply.Reason(w, http.StatusBadRequest, "the file is empty")
		return
	}
	name, key, ok := h.caller(w, r, fields["user"])
	if !ok {
		return
	}
	if len(fields["id"]) > 128 {
		httpreply.Reason(w, http.StatusBadRequest, "id is longer than 128 bytes")
		return
	}
	external := "file:" + fields["id"]
	if fields["id"] == "" {
		external = "file:" + randomID()
	}
	text := file.Name
	if text == "" {
		text = "file"
	}
	rec, err := h.cfg.Inbox.Accept(r.Context(), hearth.Inbound{
		Channel:         hearth.ChannelWebchat,
		ExternalID:      external,
		ConversationKey: key,
		UserKey:         key,
		UserName:        name,
		Timezone:        fields["tz"],
		Kind:            hearth.KindFile,
		Text:            text,
		File:            file,
	})
	if err != nil {
		httpreply.Error(w, r, h.cfg.Logger, err)
		return
	}
	httpreply.JSON(w, http.StatusAccepted, acceptedResponse{ID: rec.MessageID, Duplicate: rec.Duplicate})
}

func uploadError(w http.ResponseWriter, err error) {
	var tooBig *http.MaxBytesError
	if errors.As(err, &tooBig) {
		httpreply.Reason(w, http.StatusRequestEntityTooLarge, "the upload is larger than 10 MB, more than I can import at once")
		return
	}
	httpreply.Reason(w, http.StatusBadRequest, "body is not valid multipart/form-data")
}
