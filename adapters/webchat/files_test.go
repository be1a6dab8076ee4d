package webchat_test

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"testing"

	"github.com/hearthbot/hearth/adapters/webchat"
)

// form builds a multipart body from fields and, when name is set, a file.
func form(t *testing.T, fields map[string]string, name string, data []byte) (string, *bytes.Buffer) {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for k, v := range fields {
		w.WriteField(k, v) //nolint:errcheck // a bytes.Buffer does not fail
	}
	if name != "" {
		part, err := w.CreateFormFile("file", name)
		if err != nil {
			t.Fatal(err)
		}
		part.Write(data) //nolint:errcheck // a bytes.Buffer does not fail
	}
	w.Close()
	return w.FormDataContentType(), &body
}

func (b *testBundle) upload(t *testing.T, contentType string, body *bytes.Buffer) (int, map[string]any) {
	t.Helper()
	res, err := http.Post(b.srv.URL+"/api/webchat/files", contentType, body)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	json.NewDecoder(res.Body).Decode(&out) //nolint:errcheck // checked through the status
	return res.StatusCode, out
}

func TestUploadFile(t *testing.T) {
	t.Parallel()
	b := setup(t, "", false)
	ann := map[string]string{"user": "Ann", "tz": "Europe/Berlin"}
	tests := []struct {
		name   string
		fields map[string]string
		file   string
		data   []byte
		json   bool
		want   int
	}{
		{"json body", ann, "", nil, true, http.StatusUnsupportedMediaType},
		{"no file", ann, "", nil, false, http.StatusBadRequest},
		{"empty file", ann, "a.csv", []byte{}, false, http.StatusBadRequest},
		{"no user", map[string]string{}, "a.csv", []byte("x"), false, http.StatusBadRequest},
		{"bad zone", map[string]string{"user": "Ann", "tz": "Mars/Base"}, "a.csv", []byte("x"), false, http.StatusBadRequest},
		{"too large", ann, "a.csv", bytes.Repeat([]byte("x"), webchat.MaxUploadBytes+1), false, http.StatusRequestEntityTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ct, body := form(t, tt.fields, tt.file, tt.data)
			if tt.json {
				ct, body = "application/json", bytes.NewBufferString(`{"user":"Ann"}`)
			}
			code, out := b.upload(t, ct, body)
			if code != tt.want {
				t.Fatalf("%d %v; want %d", code, out, tt.want)
			}
			if reason, _ := out["error"].(string); reason == "" {
				t.Fatalf("a %d must say why; body %v", code, out)
			}
		})
	}
	if n := b.count(t, "inbound_events"); n != 0 {
		t.Fatalf("refused uploads stored %d events", n)
	}

	// A file of the most the limit allows is accepted, stored with its
	// event and a line in the transcript; the same id again is a duplicate.
	data := bytes.Repeat([]byte("a,b\n"), webchat.MaxUploadBytes/4)
	fields := map[string]string{"user": "Ann", "tz": "Europe/Berlin", "id": "up-1"}
	ct, body := form(t, fields, `C:\Users\ann\contacts.csv`, data)
	code, out := b.upload(t, ct, body)
	if code != http.StatusAccepted {
		t.Fatalf("upload: %d %v", code, out)
	}
	var name string
	var size int
	if err := b.store.Pool().QueryRow(context.Background(), `SELECT file_name, length(content) FROM import_files`).Scan(&name, &size); err != nil || name != "contacts.csv" || size != len(data) {
		t.Fatalf("stored %q of %d bytes (%v)", name, size, err)
	}
	ct, body = form(t, fields, "contacts.csv", data)
	if code, out := b.upload(t, ct, body); code != http.StatusAccepted || out["duplicate"] != true {
		t.Fatalf("the same id again: %d %v; want an acknowledged duplicate", code, out)
	}
	if n := b.count(t, "import_files"); n != 1 {
		t.Fatalf("%d files stored", n)
	}
}
