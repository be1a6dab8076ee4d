package nlu

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// labelled is one row of a labelled intents file (the public development
// set or the project's own testdata).
type labelled struct {
	Text      string   `json:"text"`
	Intent    string   `json:"intent"`
	Domain    *string  `json:"domain"`
	DomainAlt []string `json:"domain_alt"`
	PrevBot   string   `json:"prev_bot"`
	Options   []string `json:"options"`
}

func readLabelled(t testing.TB, path string) []labelled {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []labelled
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var r labelled
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		rows = append(rows, r)
	}
	return rows
}

// evalFigures are the headline numbers of one labelled set.
type evalFigures struct {
	n, correct       int
	domN, domCorrect int
	oos, oosAction   int
	conf             []float64
	right            []bool
	errors           []string
	confusion        map[[2]string]int
	bins             [10]struct {
		n, right int
		conf     float64
	}
}

func evaluate(c *Classifier, rows []labelled) evalFigures {
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	e := evalFigures{confusion: map[[2]string]int{}}
	for _, r := range rows {
		var recent []Turn
		if r.PrevBot != "" {
			recent = []Turn{{FromBot: true, Text: r.PrevBot, Options: r.Options}}
		}
		res := c.Classify(r.Text, recent, ref)
		gold := r.Intent
		if gold == "out_of_scope" {
			e.oos++
			if res.Intent == RequestAction {
				e.oosAction++
			}
			gold = string(Chat)
		}
		e.n++
		ok := string(res.Intent) == gold
		if ok {
			e.correct++
		} else {
			e.errors = append(e.errors, fmt.Sprintf("%-15s → %-15s %.2f %q", gold, res.Intent, res.Confidence, r.Text))
		}
		e.confusion[[2]string{gold, string(res.Intent)}]++
		b := min(int(res.Confidence*10), 9)
		e.bins[b].n++
		e.bins[b].conf += res.Confidence
		if ok {
			e.bins[b].right++
		}
		if r.Domain != nil {
			e.domN++
			want := append([]string{*r.Domain}, r.DomainAlt...)
			if len(res.Domains) > 0 && slices.Contains(want, string(res.Domains[0])) {
				e.domCorrect++
			} else if ok {
				e.errors = append(e.errors, fmt.Sprintf("domain %v → %v %q", want, res.Domains, r.Text))
			}
		}
	}
	return e
}

func (e evalFigures) log(t *testing.T, name string) {
	t.Logf("%s: %d rows; intent accuracy %.1f%%; domain accuracy %.1f%% of %d; out_of_scope as action %d/%d",
		name, e.n, pct(e.correct, e.n), pct(e.domCorrect, e.domN), e.domN, e.oosAction, e.oos)
	t.Logf("reliability (confidence bin: rows, mean confidence, accuracy)")
	for i, b := range e.bins {
		if b.n > 0 {
			t.Logf("  %.1f-%.1f: %5d  %.3f  %.3f", float64(i)/10, float64(i+1)/10, b.n, b.conf/float64(b.n), float64(b.right)/float64(b.n))
		}
	}
	keys := make([][2]string, 0, len(e.confusion))
	for k := range e.confusion {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return e.confusion[keys[i]] > e.confusion[keys[j]] })
	for _, k := range keys {
		if k[0] != k[1] {
			t.Logf("  confused %s → %s: %d", k[0], k[1], e.confusion[k])
		}
	}
	if testing.Verbose() && os.Getenv("NLU_ERRORS") != "" {
		for _, s := range e.errors {
			t.Log(s)
		}
	}
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// TestEvalCLINC measures the classifier on the public development set in
// ../shared/eval beside the checkout (or $HEARTH_EVAL). It logs the figures and checks the
// project's targets; it skips when the file is absent. Run it with
//
//	go test -run TestEvalCLINC -v ./pipeline/nlu/
//
// (NLU_ERRORS=1 also logs every misclassified row).
func TestEvalCLINC(t *testing.T) {
	dir := os.Getenv("HEARTH_EVAL")
	if dir == "" {
		dir = "../../../shared/eval" // shared/ sits beside the checkout
	}
	path := filepath.Join(dir, "intents_clinc_dev.jsonl")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no evaluation data: %v", err)
	}
	c := newTestClassifier(t)
	e := evaluate(c, readLabelled(t, path))
	e.log(t, "CLINC dev")
	if acc := pct(e.correct, e.n); acc < 92 {
		t.Errorf("intent accuracy %.1f%%, want ≥ 92%%", acc)
	}
	if acc := pct(e.domCorrect, e.domN); acc < 95 {
		t.Errorf("domain accuracy %.1f%%, want ≥ 95%%", acc)
	}
	if share := pct(e.oosAction, e.oos); share >= 5 {
		t.Errorf("out_of_scope predicted as action %.1f%%, want < 5%%", share)
	}
}

// TestOwnExamples checks the project's own labelled examples
// (testdata/intents.jsonl: discuss_work, memory, email, keep and
// option-picking followups that no public set covers). They are not
// training data; the floor guards against regressions when the templates
// change.
func TestOwnExamples(t *testing.T) {
	c := newTestClassifier(t)
	e := evaluate(c, readLabelled(t, filepath.Join("testdata", "intents.jsonl")))
	e.log(t, "own examples")
	for _, s := range e.errors {
		t.Log(s)
	}
	if acc := pct(e.correct, e.n); acc < 93 {
		t.Errorf("intent accuracy %.1f%%, want ≥ 93%%", acc)
	}
	if acc := pct(e.domCorrect, e.domN); acc < 93 {
		t.Errorf("domain accuracy %.1f%%, want ≥ 93%%", acc)
	}
}

// TestOutOfScopeHeldOut measures the out-of-scope decision on the
// project's own held-out rows, written by hand and never used in
// training or calibration: testdata/heldout.jsonl (written before the
// out-of-scope templates and used to choose them), testdata/unseen.jsonl
// and testdata/unseen2.jsonl (written after, in other words and other
// topics, then used to find missing categories), and testdata/unseen3.jsonl,
// written last and never looked at to change the templates: its figure is
// the honest estimate on unseen data, so its bound is looser. Session 5
// wrote two more in other styles before measuring: unseen4.jsonl (0 of 60
// acted on) and unseen5.jsonl (5 of 60: household devices and other
// services' bookings, which template changes could not fix without losing
// in-scope accuracy), so its bound is the loosest; unseen6.jsonl, written
// after this session's changes and measured once, has 5 of 58 acted on
// (a payment, music, physical mail, a TV channel, trivia). Session 6
// added the capability gate (capability.go), which refuses all ten, and
// wrote unseen7.jsonl (60 out-of-scope requests of many kinds and 40
// in-scope requests) before measuring it once: 1 of 60 acted on (a
// booking "online" whose only cue was weak; the "online" rule then
// covered weak cues too, so unseen7 is no longer blind) and 40 of 40
// in-scope requests kept. Requests Hearth cannot do must almost never
// become actions (the goal: at most 2%), and in-scope messages
// must keep their intent.
func TestOutOfScopeHeldOut(t *testing.T) {
	c := newTestClassifier(t)
	for _, name := range []string{"heldout.jsonl", "unseen.jsonl", "unseen2.jsonl", "unseen3.jsonl", "unseen4.jsonl", "unseen5.jsonl", "unseen6.jsonl", "unseen7.jsonl"} {
		rows := readLabelled(t, filepath.Join("testdata", name))
		e := evaluate(c, rows)
		flagged, in, inOK := 0, 0, 0
		for _, r := range rows {
			res := c.Classify(r.Text, nil, time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC))
			if r.Intent == "out_of_scope" {
				if res.OutOfScope {
					flagged++
				}
				continue
			}
			in++
			if string(res.Intent) == r.Intent {
				inOK++
			}
		}
		t.Logf("%s: out of scope as action %d/%d, flagged %d/%d; in-scope intent accuracy %.1f%% of %d",
			name, e.oosAction, e.oos, flagged, e.oos, pct(inOK, in), in)
		if share := pct(e.oosAction, e.oos); share > 2 {
			t.Errorf("%s: out_of_scope predicted as action %.1f%%, want ≤ 2%%", name, share)
		}
		if share := pct(flagged, e.oos); share < 80 {
			t.Errorf("%s: out_of_scope flagged %.1f%%, want ≥ 80%%", name, share)
		}
		if in > 0 && pct(inOK, in) < 90 {
			t.Errorf("%s: in-scope intent accuracy %.1f%%, want ≥ 90%%", name, pct(inOK, in))
		}
	}
}

// TestSpokenStyle measures the classifier on voice-transcript-style rows
// (issue 16, §6): testdata/spoken.jsonl, written by hand, and
// testdata/spoken_gen.jsonl, made from sentences written for it
// (internal/train/testdata/spoken_base.jsonl) by the same slips the
// spoken training data gets, with a seed of its own. Neither is training
// data. The goals: ≥ 90% domain and ≥ 85% intent.
func TestSpokenStyle(t *testing.T) {
	c := newTestClassifier(t)
	for _, name := range []string{"spoken.jsonl", "spoken_gen.jsonl"} {
		e := evaluate(c, readLabelled(t, filepath.Join("testdata", name)))
		e.log(t, name)
		for _, s := range e.errors {
			t.Log(s)
		}
		if acc := pct(e.correct, e.n); acc < 85 {
			t.Errorf("%s: intent accuracy %.1f%%, want ≥ 85%%", name, acc)
		}
		if acc := pct(e.domCorrect, e.domN); acc < 90 {
			t.Errorf("%s: domain accuracy %.1f%%, want ≥ 90%%", name, acc)
		}
	}
}
