package nlucmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func testEnv(stdin string) (Env, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	return Env{
		Stdin:  strings.NewReader(stdin),
		Stdout: &out,
		Stderr: &errOut,
		Now:    func() time.Time { return time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC) },
	}, &out, &errOut
}

func TestClassify(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		`{"text": "Remind me to call mom tomorrow at 5pm", "id": 7}`,
		`tell me a joke`,
		``,
		`{"text": "Email Sarah that I'll be late"`,
		`{"no_text": true}`,
		`I just closed on my house! Add a celebration dinner Saturday`,
	}, "\n") // no final newline: the last line still counts
	env, out, _ := testEnv(in)
	if err := Run(context.Background(), env, []string{"classify"}); err != nil {
		t.Fatal(err)
	}
	type line struct {
		Text       string   `json:"text"`
		Intent     string   `json:"intent"`
		Domain     *string  `json:"domain"`
		Domains    []string `json:"domains"`
		Confidence float64  `json:"confidence"`
		Error      string   `json:"error"`
	}
	var got []line
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("output %q: %v", sc.Text(), err)
		}
		if !strings.Contains(sc.Text(), `"domains":[`) {
			t.Errorf("domains must be an array, never null: %s", sc.Text())
		}
		got = append(got, l)
	}
	if len(got) != 5 {
		t.Fatalf("got %d lines, want 5 (one per non-empty input):\n%s", len(got), out)
	}
	want := []struct {
		intent, domain string
		err            bool
	}{
		{"request_action", "task", false},
		{"chat", "", false},
		{"", "", true},
		{"", "", true},
		{"request_action", "memory", false},
	}
	for i, w := range want {
		g := got[i]
		if (g.Error != "") != w.err {
			t.Errorf("line %d: error %q, want error %v", i, g.Error, w.err)
		}
		if g.Intent != w.intent {
			t.Errorf("line %d %q: intent %q, want %q", i, g.Text, g.Intent, w.intent)
		}
		gd := ""
		if g.Domain != nil {
			gd = *g.Domain
		}
		if gd != w.domain {
			t.Errorf("line %d %q: domain %q, want %q", i, g.Text, gd, w.domain)
		}
		if g.Confidence < 0 || g.Confidence > 1 {
			t.Errorf("line %d: confidence %v out of [0,1]", i, g.Confidence)
		}
	}
	if got[0].Text != "Remind me to call mom tomorrow at 5pm" {
		t.Errorf("text of a JSON row = %q, want the text field", got[0].Text)
	}
}

func TestClassifyCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	env, _, _ := testEnv("hello\n")
	if err := Run(ctx, env, []string{"classify"}); err == nil {
		t.Fatal("want an error for a cancelled context")
	}
}

func TestTestIntents(t *testing.T) {
	t.Parallel()
	env, out, errOut := testEnv("")
	if err := Run(context.Background(), env, []string{"test", "--file", filepath.Join("testdata", "intents_small.jsonl")}); err != nil {
		t.Fatal(err)
	}
	report := out.String()
	for _, want := range []string{"intent accuracy", "domain accuracy", "out_of_scope as action", "precision", "gold \\ predicted", "discuss_work", "confidence"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	if !strings.Contains(report, "100.0%") {
		t.Errorf("the small set should be classified perfectly:\n%s\n%s", report, errOut)
	}
}

func TestTestIntentsBadRow(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(path, []byte(`{"text": "hi", "intent": "greeting"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env, _, _ := testEnv("")
	if err := Run(context.Background(), env, []string{"test", "--file", path}); err == nil {
		t.Fatal("want an error for an unknown intent label")
	}
}

// TestTestIntentsCLINC runs the report on the public development set when
// it is present (see pipeline/nlu/eval_test.go for the asserted targets).
func TestTestIntentsCLINC(t *testing.T) {
	path := "../../../../shared/eval/intents_clinc_dev.jsonl"
	if _, err := os.Stat(path); err != nil {
		t.Skip("no evaluation data")
	}
	env, out, errOut := testEnv("")
	if err := Run(context.Background(), env, []string{"test", "--file", path}); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s\n%s", out, errOut)
}
