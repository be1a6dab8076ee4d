package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hearthbot/hearth/store/storetest"
)

// bot eval runs labelled conversations through a whole Hearth in a
// scratch database and reports the misses and the figures.
func TestEval(t *testing.T) {
	t.Parallel()
	file, verbose, err := evalArgs([]string{"--file", "testdata/eval_small.jsonl"})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Eval(context.Background(), Config{DatabaseURL: storetest.ServerURL()}, file, verbose, &out); err != nil {
		t.Fatalf("eval: %v\n%s", err, out.String())
	}
	report := out.String()
	for _, want := range []string{
		`MISS mislabelled: "order me a large pepperoni pizza" intent=chat (want chat) actions=[] (want [task.create])`,
		"conversations 2, turns 2",
		"intent accuracy   100.0% (2/2)",
		"action precision  100.0% (1/1 ",
		"action recall     50.0% (1/2 ",
		"exact turns       50.0% (1/2 ",
		"model calls/turn  0.00 (0)",
		"latency/turn      turn p50 ",
	} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	if strings.Contains(report, "MISS reminder") {
		t.Errorf("the reminder turn is a miss:\n%s", report)
	}
}

// The labelled set in testdata/ parses, and bad files are refused with the line.
func TestReadEvalFile(t *testing.T) {
	if _, err := readEvalFile("../../" + defaultEvalFile); err != nil {
		t.Fatalf("the repository's labelled set: %v", err)
	}
	dir := t.TempDir()
	tests := []struct{ name, body, want string }{
		{"not JSON", "{", ":1:"},
		{"unknown field", `{"name":"a","turns":[{"text":"hi","intnet":"chat"}]}`, "intnet"},
		{"no turns", `{"name":"a"}`, "needs a name and turns"},
		{"bad zone", `{"name":"a","tz":"Mars/Olympus","turns":[{"text":"hi"}]}`, "Mars/Olympus"},
		{"empty", "# nothing\n", "no conversations"},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".jsonl")
		if err := os.WriteFile(path, []byte(tt.body), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := readEvalFile(path); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v; want an error containing %q", tt.name, err, tt.want)
		}
	}
}

func TestMatchedKinds(t *testing.T) {
	tests := []struct {
		want, got []string
		n         int
	}{
		{nil, nil, 0},
		{[]string{"task.create"}, []string{"task.create"}, 1},
		{[]string{"task.create", "task.create"}, []string{"task.create"}, 1},
		{[]string{"task.create"}, []string{"task.create", "task.create"}, 1},
		{[]string{"note.append"}, []string{"note.create"}, 0},
	}
	for _, tt := range tests {
		if n := matchedKinds(tt.want, tt.got); n != tt.n {
			t.Errorf("matchedKinds(%v, %v) = %d; want %d", tt.want, tt.got, n, tt.n)
		}
	}
}
