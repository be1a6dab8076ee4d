package smtp_test

import (
	"strings"
	"testing"

	"github.com/hearthbot/hearth/integrations/smtp"
)

func TestNewChecksTheSettings(t *testing.T) {
	tests := []struct {
		url, from, wantErr string
	}{
		{"smtps://u:secret@mail.example.com", "Ann <ann@example.com>", ""},
		{"smtp://u:secret@mail.example.com:2525", "ann@example.com", ""},
		{"smtp://mail.example.com", "ann@example.com", ""}, // a relay without login
		{"http://u:secret@mail.example.com", "ann@example.com", "HEARTH_SMTP_URL"},
		{"smtps://u:secret@mail.example.com:99999", "ann@example.com", "HEARTH_SMTP_URL"},
		{"smtps://u:secret@", "ann@example.com", "HEARTH_SMTP_URL"},
		{"mail.example.com", "ann@example.com", "HEARTH_SMTP_URL"},
		{"smtps://u:secret@mail.example.com", "Ann", "HEARTH_SMTP_FROM"},
	}
	for _, tt := range tests {
		_, err := smtp.New(smtp.Config{URL: tt.url, From: tt.from}, nil)
		switch {
		case tt.wantErr == "" && err != nil:
			t.Errorf("%s: %v", tt.url, err)
		case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
			t.Errorf("%s, %s: err %v; want one naming %s", tt.url, tt.from, err, tt.wantErr)
		case err != nil && strings.Contains(err.Error(), "secret"):
			t.Errorf("the error shows the password: %v", err)
		}
	}
}

func FuzzNew(f *testing.F) {
	f.Add("smtps://u:p@host:465", "Ann <a@b.c>")
	f.Add("smtp://[::1]:587", "a@b")
	f.Add("smtp://u:p%zz@h", "\"x\" <>")
	f.Fuzz(func(t *testing.T, url, from string) {
		m, err := smtp.New(smtp.Config{URL: url, From: from}, nil)
		if err == nil && m == nil {
			t.Fatal("no mailer and no error")
		}
		if err != nil && strings.Contains(url, "p4ssw0rd") && strings.Contains(err.Error(), "p4ssw0rd") {
			t.Fatalf("the error shows the password: %v", err)
		}
	})
}
