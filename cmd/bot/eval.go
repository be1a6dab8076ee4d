package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store"
)

// defaultEvalFile is the labelled set bot eval reads without --file.
const defaultEvalFile = "testdata/eval/conversations.jsonl"

// evalConversation is one labelled conversation: one JSON object a line.
type evalConversation struct {
	Name  string     `json:"name"`
	TZ    string     `json:"tz"`
	Turns []evalTurn `json:"turns"`
}

// evalTurn is one message and what it should do: the intent the turn
// should be understood as (empty: not scored) and the kinds of the
// actions it should run, one entry per item created or changed
// ("task.create", "task.update", "undo:task.create", …); none means it
// must store and change nothing.
type evalTurn struct {
	Text    string   `json:"text"`
	Intent  string   `json:"intent"`
	Actions []string `json:"actions"`
}

// evalTurnResult is what one turn did, from its trace.
type evalTurnResult struct {
	conv, text   string
	wantIntent   string
	gotIntent    string
	want, got    []string
	matched      int
	modelCalls   int
	tokens       int
	totalLatency time.Duration // the turn's own total (trace)
	wallLatency  time.Duration // message accepted → trace written
}

func evalArgs(args []string) (file string, verbose bool, err error) {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&file, "file", defaultEvalFile, "labelled conversations (JSON lines)")
	fs.BoolVar(&verbose, "v", false, "print every turn, not only the misses")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return "", false, errors.New("usage: bot eval [--file F.jsonl] [-v]")
	}
	return file, verbose, nil
}

// readEvalFile reads labelled conversations, one JSON object a line
// (blank lines and lines starting with # are skipped).
func readEvalFile(path string) ([]evalConversation, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var convs []evalConversation
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var c evalConversation
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if c.Name == "" || len(c.Turns) == 0 {
			return nil, fmt.Errorf("%s:%d: a conversation needs a name and turns", path, n)
		}
		if c.TZ == "" {
			c.TZ = "UTC"
		}
		if _, err := time.LoadLocation(c.TZ); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		convs = append(convs, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(convs) == 0 {
		return nil, fmt.Errorf("%s: no conversations", path)
	}
	return convs, nil
}

// Eval runs the labelled conversations in file through a whole Hearth,
// offline (no model, no chat platform), in a scratch database created on
// cfg's server and dropped afterwards, and reports intent accuracy,
// action precision and recall, model calls, tokens and latency per turn.
func Eval(ctx context.Context, cfg Config, file string, verbose bool, out io.Writer) error {
	convs, err := readEvalFile(file)
	if err != nil {
		return err
	}
	scratch, drop, err := store.CreateScratchDatabase(ctx, cfg.DatabaseURL, "hearth_eval")
	if err != nil {
		return err
	}
	defer func() {
		if err := drop(ctx); err != nil {
			fmt.Fprintln(out, "warning:", err)
		}
	}()
	ecfg := Config{
		DatabaseURL:       scratch,
		HTTPAddr:          "127.0.0.1:0",
		Webchat:           true,
		DevSignin:         true,
		LogFormat:         "text",
		LLM:               "none",
		TurnWorkers:       2,
		DeliverWorkers:    2,
		ActionWorkers:     2,
		FetchCooldown:     5 * time.Millisecond,
		FetchPollInterval: 50 * time.Millisecond,
		ShutdownTimeout:   5 * time.Second,
	}
	if err := ecfg.validate(); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", ecfg.HTTPAddr)
	if err != nil {
		return err
	}
	runCtx, cancel := context.WithCancel(ctx)
	app, err := Open(runCtx, ecfg, io.Discard)
	if err != nil {
		cancel()
		ln.Close()
		return err
	}
	done := make(chan error, 1)
	go func() { done <- app.RunListener(runCtx, ln) }()
	defer func() {
		cancel()
		<-done
	}()

	var results []evalTurnResult
	for ci, c := range convs {
		user := fmt.Sprintf("eval%d", ci+1)
		for ti, turn := range c.Turns {
			r, err := evalRunTurn(ctx, app, c, user, fmt.Sprintf("eval:%d:%d", ci+1, ti+1), turn)
			if err != nil {
				return fmt.Errorf("%s, turn %d (%q): %w", c.Name, ti+1, turn.Text, err)
			}
			results = append(results, r)
		}
	}
	writeEvalReport(out, results, len(convs), verbose)
	return nil
}

// evalRunTurn sends one message as the web chat would and waits for its
// turn's trace.
func evalRunTurn(ctx context.Context, app *App, c evalConversation, user, externalID string, turn evalTurn) (evalTurnResult, error) {
	began := time.Now()
	rec, err := app.Inbox.Accept(ctx, hearth.Inbound{
		Channel: hearth.ChannelWebchat, ExternalID: externalID, ConversationKey: user, UserKey: user,
		UserName: user, Timezone: c.TZ, Kind: hearth.KindMessage, Text: turn.Text,
	})
	if err != nil {
		return evalTurnResult{}, err
	}
	tr, err := waitForTrace(ctx, app.Store, rec.EventID)
	if err != nil {
		return evalTurnResult{}, err
	}
	r := evalTurnResult{
		conv: c.Name, text: turn.Text, wantIntent: turn.Intent, gotIntent: tr.Intent,
		want: turn.Actions, modelCalls: tr.ModelCalls, tokens: tr.InputTokens + tr.OutputTokens,
		totalLatency: time.Duration(tr.Timings["total"]) * time.Microsecond, wallLatency: time.Since(began),
	}
	for _, a := range tr.Actions {
		// A failed action created or changed nothing; one awaiting
		// approval is the change the turn asked for.
		if a.Status != "failed" {
			r.got = append(r.got, a.Kind)
		}
	}
	r.matched = matchedKinds(r.want, r.got)
	return r, nil
}

// waitForTrace polls for the trace of event id: the turn runs in the
// background, and its trace is written when it commits.
func waitForTrace(ctx context.Context, st *store.Store, id int64) (hearth.Trace, error) {
	deadline := time.Now().Add(2 * time.Minute)
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		traces, err := st.RecentTraces(ctx, 20)
		if err != nil {
			return hearth.Trace{}, err
		}
		for _, t := range traces {
			if t.EventID == id {
				return t, nil
			}
		}
		if time.Now().After(deadline) {
			return hearth.Trace{}, errors.New("no trace after 2 minutes")
		}
		select {
		case <-ctx.Done():
			return hearth.Trace{}, ctx.Err()
		case <-tick.C:
		}
	}
}

// matchedKinds counts the actions in got that want expects, each expected
// one matched at most once.
func matchedKinds(want, got []string) int {
	left := slices.Clone(want)
	n := 0
	for _, g := range got {
		if i := slices.Index(left, g); i >= 0 {
			left = slices.Delete(left, i, i+1)
			n++
		}
	}
	return n
}

// writeEvalReport prints the misses (every turn with verbose), then the
// figures.
func writeEvalReport(out io.Writer, results []evalTurnResult, convs int, verbose bool) {
	var intentN, intentOK, wantN, gotN, matched, exact, calls, tokens int
	var totals, walls []time.Duration
	for _, r := range results {
		ok := true
		if r.wantIntent != "" {
			intentN++
			if r.gotIntent == r.wantIntent {
				intentOK++
			} else {
				ok = false
			}
		}
		wantN += len(r.want)
		gotN += len(r.got)
		matched += r.matched
		if r.matched == len(r.want) && r.matched == len(r.got) {
			exact++
		} else {
			ok = false
		}
		calls += r.modelCalls
		tokens += r.tokens
		totals = append(totals, r.totalLatency)
		walls = append(walls, r.wallLatency)
		if !ok || verbose {
			mark := "MISS"
			if ok {
				mark = "ok  "
			}
			fmt.Fprintf(out, "%s %s: %q intent=%s (want %s) actions=%v (want %v)\n", mark, r.conv, r.text, r.gotIntent, orDash(r.wantIntent), r.got, r.want)
		}
	}
	n := len(results)
	fmt.Fprintf(out, "conversations %d, turns %d\n", convs, n)
	fmt.Fprintf(out, "intent accuracy   %s (%d/%d)\n", pct(intentOK, intentN), intentOK, intentN)
	fmt.Fprintf(out, "action precision  %s (%d/%d actions run were expected)\n", pct(matched, gotN), matched, gotN)
	fmt.Fprintf(out, "action recall     %s (%d/%d expected actions were run)\n", pct(matched, wantN), matched, wantN)
	fmt.Fprintf(out, "exact turns       %s (%d/%d did exactly what the label expects)\n", pct(exact, n), exact, n)
	fmt.Fprintf(out, "model calls/turn  %.2f (%d)\n", float64(calls)/float64(max(n, 1)), calls)
	fmt.Fprintf(out, "tokens/turn       %.1f (%d)\n", float64(tokens)/float64(max(n, 1)), tokens)
	fmt.Fprintf(out, "latency/turn      turn p50 %s p95 %s; accepted→traced p50 %s p95 %s\n",
		quantile(totals, 0.5), quantile(totals, 0.95), quantile(walls, 0.5), quantile(walls, 0.95))
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func pct(a, b int) string {
	if b == 0 {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(a)/float64(b))
}

// quantile is the q-th quantile of ds (nearest rank), rounded for print.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	i := int(q*float64(len(s))+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)].Round(100 * time.Microsecond)
}
