package main

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hearthbot/hearth/pipeline/nlu/internal/linear"
)

// TestModelIsUpToDate retrains from the templates and checks that the
// committed data/model.txt is what training produces. If it fails after
// a change to data/*.txt or to the features, run
//
//	go run ./pipeline/nlu/internal/train
//
// Weights are compared with a small tolerance, since a platform that
// fuses multiply-adds may round the last printed digit differently.
func TestModelIsUpToDate(t *testing.T) {
	dir := filepath.Join("..", "..")
	var buf bytes.Buffer
	if _, err := build(dir, &buf); err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile(filepath.Join(dir, "data", "model.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(buf.Bytes(), committed) {
		return
	}
	want, err := linear.Read(bytes.NewReader(committed))
	if err != nil {
		t.Fatal(err)
	}
	got, err := linear.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got.Features, " ") != strings.Join(want.Features, " ") {
		t.Fatalf("the committed model has %d features, training gives %d: run go run ./pipeline/nlu/internal/train", len(want.Features), len(got.Features))
	}
	if math.Abs(got.Temperature-want.Temperature) > 0.051 {
		t.Errorf("temperature %v, committed %v", got.Temperature, want.Temperature)
	}
	for i := range got.W {
		if math.Abs(float64(got.W[i]-want.W[i])) > 1e-3 {
			t.Fatalf("weight %d of feature %q differs: %v vs committed %v: run go run ./pipeline/nlu/internal/train", i%got.Outputs(), got.Features[i/got.Outputs()], got.W[i], want.W[i])
		}
	}
}

func TestParseTemplate(t *testing.T) {
	g := &grammar{lists: map[string][][]node{}}
	seq, err := parseSeq("(remind|tell) me (to |)go(!|)?")
	if err != nil {
		t.Fatal(err)
	}
	got := g.all(seq)
	if len(got) != 12 {
		t.Fatalf("got %d expansions %q, want 12", len(got), got)
	}
	for _, bad := range []string{"(a|b", "a)b", "{x"} {
		if _, err := parseSeq(bad); err == nil {
			t.Errorf("parseSeq(%q) succeeded, want an error", bad)
		}
	}
}

// A spoken-style copy is lower case and unpunctuated, says clock times
// as words or digits, and keeps the request's words apart from a slip or
// two; the same seed gives the same copy.
func TestSpeak(t *testing.T) {
	for i, text := range []string{"Remind me to call Mom at 5:30pm, please!", "What's on my calendar tomorrow?", "Add 'oat milk' to the list."} {
		rng := rand.New(rand.NewPCG(uint64(i), 1))
		got := speak(rng, text)
		if got != strings.ToLower(got) || strings.ContainsAny(got, ".,!?:\"") || strings.Contains(got, " '") || strings.HasPrefix(got, "'") {
			t.Errorf("speak(%q) = %q: not lower case and unpunctuated", text, got)
		}
		if again := speak(rand.New(rand.NewPCG(uint64(i), 1)), text); again != got {
			t.Errorf("speak(%q) = %q, then %q: not deterministic", text, got, again)
		}
	}
	if got := clockRule.ReplaceAllString("at 6:15 tomorrow", "<$1|$2|$3>"); got != "at <6|15|> tomorrow" {
		t.Errorf("clock rule: %q", got)
	}
}
