// Package hybrid puts models behind the offline stages: the intent, plan
// and respond stages that ask a model only when the offline engine is
// unsure or the request is open-ended, validate every answer, and fall back
// to the offline result on any failure. It owns the prompts (embedded
// templates), token budgets, the per-turn model deadline and usage
// accounting.
package hybrid

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/llm"
	"github.com/hearthbot/hearth/pipeline/nlu"
)

// Models makes the stages use a chat model where the offline engine is
// unsure, and only there (ARCHITECTURE.md, "The flow of one message"):
//
//   - intent: the offline classifier answers first; the model is asked only
//     below Confident;
//   - plan: fully specified simple requests (a task with a title and a
//     time, a memory, a note) keep the offline plan; the rest ask the model,
//     and its actions are validated against the action schemas before
//     anything runs;
//   - reply: confirmations, approvals and questions use the templates; the
//     model writes answers, small talk and advice.
//
// Every model step falls back to the offline engine: on errors, invalid
// output, the turn deadline, and a spent daily token budget. Give the
// Runner the same Models (Config.Models) so it opens and closes each
// turn's accounting.
type Models struct {
	// Chat answers the plan and reply prompts with a strong model, usually
	// an llm.Chain of Instrumented providers. Required.
	Chat llm.Chat
	// Fast answers the intent prompt with a fast model. Defaults to Chat.
	Fast llm.Chat
	// Confident is the offline confidence at or above which the model's
	// intent call is skipped. Defaults to 0.8.
	Confident float64
	// SpokenConfident is Confident for a voice note's transcript.
	// Defaults to 0.95 (and is never below Confident).
	SpokenConfident float64
	// TurnDeadline bounds the time from the user's message to the end of
	// the model work of its turn; past it the offline result answers.
	// Defaults to 2.5s, leaving room to answer within 3s.
	TurnDeadline time.Duration
	// Budgets are the prompt token budgets per stage.
	Budgets Budgets
	// DailyTokens is each user's daily token budget (input plus output);
	// 0 means unlimited.
	DailyTokens int
	// Prices estimate cost per model.
	Prices Prices
	// Usage stores what model calls cost and reads the daily totals.
	// Required when DailyTokens is set.
	Usage UsageLog
	// Log receives fallbacks. Defaults to discarding.
	Log *slog.Logger
	// Now is the clock. Defaults to time.Now.
	Now func() time.Time
}

// UsageLog is where the model usage of turns is kept.
type UsageLog interface {
	RecordUsage(ctx context.Context, rows []hearth.Usage) error
	UsageOn(ctx context.Context, userID int64, day time.Time) (hearth.UsageTotals, error)
	UsageNoted(ctx context.Context, userID int64, day time.Time, stage string) (bool, error)
}

// Budgets are prompt token budgets. Zero fields take the defaults.
type Budgets struct {
	// Intent defaults to 450 tokens (its fixed part is about 300).
	Intent int
	// Plan defaults to 1200 tokens (its fixed part is 470 to 650 by domain).
	Plan int
	// PlanMemory is the memory domain's plan budget, defaults to 1600
	// tokens: its schema (entities, attributes over time, places,
	// relationships) makes its fixed part about 1,280.
	PlanMemory int
	// Reply defaults to 700 tokens (its fixed part is about 250).
	Reply int
}

// Price is a model's price in US dollars per million tokens.
type Price struct{ Input, Output float64 }

// Prices maps model names to prices; unknown models cost 0.
type Prices map[string]Price

// Cost estimates what u cost on model.
func (p Prices) Cost(model string, in, out int) float64 {
	pr, ok := p[model]
	if !ok {
		return 0
	}
	return (float64(in)*pr.Input + float64(out)*pr.Output) / 1e6
}

// BudgetNotice is added to the reply of the first turn of a day on which a
// user's model budget is spent.
const BudgetNotice = "(I've used up today's model budget for you, so I'm answering with my built-in skills until tomorrow: simpler, but everything still works.)"

// Skip reasons recorded in traces.
const (
	skipConfident = "confident"
	skipSimple    = "simple"
	skipTemplate  = "template"
	skipBudget    = "budget"
	skipDeadline  = "deadline"
)

var (
	errOffline    = errors.New("model not used")
	errOverBudget = errors.New("prompt over its token budget")
)

func (m *Models) confident() float64 {
	if m.Confident > 0 {
		return m.Confident
	}
	return 0.8
}

func (m *Models) spokenConfident() float64 {
	c := m.SpokenConfident
	if c <= 0 {
		c = 0.95
	}
	return max(c, m.confident())
}

func (m *Models) turnDeadline() time.Duration {
	if m.TurnDeadline > 0 {
		return m.TurnDeadline
	}
	return 2500 * time.Millisecond
}

func (m *Models) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

func (m *Models) log() *slog.Logger {
	if m.Log != nil {
		return m.Log
	}
	return slog.New(slog.DiscardHandler)
}

func (b Budgets) intent() int { return orDefault(b.Intent, 450) }
func (b Budgets) plan() int   { return orDefault(b.Plan, 1200) }

// planOf is the plan budget of domain d.
func (b Budgets) planOf(d nlu.Domain) int {
	if d == nlu.Memory {
		return orDefault(b.PlanMemory, 1600)
	}
	return b.plan()
}
func (b Budgets) reply() int { return orDefault(b.Reply, 700) }

func orDefault(v, d int) int {
	if v > 0 {
		return v
	}
	return d
}

// meter is one turn's model accounting, carried in its context.
// Meter counts one turn's model calls and holds its model budget.
type Meter struct {
	mu       sync.Mutex
	userID   int64
	eventID  int64
	day      time.Time
	deadline time.Time
	// offline is why no model may be used this turn ("" if it may).
	offline string
	notice  bool
	calls   []hearth.TraceModel
	usage   []hearth.Usage
}

// TimeLeft is how long model work may still take this turn, at most max;
// false when no model may be used this turn (over budget, offline, past
// the turn's deadline).
func (m *Meter) TimeLeft(max time.Duration) (time.Duration, bool) {
	if m.offline != "" {
		return 0, false
	}
	left := min(max, time.Until(m.deadline))
	return left, left > 0
}

// Record adds a model call made outside the stages (an embedding of the
// query) to the turn's usage rows and trace.
func (m *Meter) Record(stage, model string, used llm.Usage, callErr error) {
	u := hearth.Usage{UserID: m.userID, EventID: m.eventID, Day: m.day, Stage: stage, Model: model,
		Calls: used.Calls, InputTokens: used.InputTokens, OutputTokens: used.OutputTokens, Latency: used.Latency}
	if callErr != nil {
		u.Error = llm.Reason(callErr)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.usage = append(m.usage, u)
	m.calls = append(m.calls, hearth.TraceModel{Stage: stage, Model: model, Calls: used.Calls, InputTokens: used.InputTokens,
		OutputTokens: used.OutputTokens, LatencyMS: used.Latency.Milliseconds(), Error: u.Error})
}

type meterKey struct{}

// MeterOf returns the turn's meter, or nil outside a metered turn.
func MeterOf(ctx context.Context) *Meter {
	m, _ := ctx.Value(meterKey{}).(*Meter)
	return m
}

// Begin opens a turn's accounting: its deadline, and whether the user's
// budget allows model calls.
func (m *Models) Begin(ctx context.Context, t pipeline.Turn, now time.Time) (context.Context, *Meter) {
	start := t.Event.ReceivedAt
	if start.IsZero() {
		start = m.now()
	}
	mt := &Meter{userID: t.User.ID, eventID: t.Event.ID, day: now, deadline: start.Add(m.turnDeadline())}
	if m.DailyTokens > 0 && m.Usage != nil {
		used, err := m.Usage.UsageOn(ctx, t.User.ID, now)
		switch {
		case err != nil:
			// Unknown spend: stay offline rather than overspend.
			m.log().WarnContext(ctx, "reading model usage failed; answering offline", "turn_id", t.Event.ID, "error", err)
			mt.offline = skipBudget
		case used.InputTokens+used.OutputTokens >= m.DailyTokens:
			mt.offline = skipBudget
			noted, err := m.Usage.UsageNoted(ctx, t.User.ID, now, skipBudget)
			if err == nil && !noted {
				mt.notice = true
				mt.usage = append(mt.usage, hearth.Usage{UserID: t.User.ID, EventID: t.Event.ID, Day: now, Stage: skipBudget})
			}
		}
	}
	return context.WithValue(ctx, meterKey{}, mt), mt
}

// Finish writes the turn's model accounting into its trace, stores its
// usage, and adds the budget notice to the reply when due.
func (m *Models) Finish(ctx context.Context, mt *Meter, tr *hearth.Trace, text string) string {
	mt.mu.Lock()
	calls, usage := append([]hearth.TraceModel(nil), mt.calls...), append([]hearth.Usage(nil), mt.usage...)
	notice := mt.notice
	mt.mu.Unlock()
	tr.Models = calls
	for _, c := range calls {
		tr.ModelCalls += c.Calls
		tr.InputTokens += c.InputTokens
		tr.OutputTokens += c.OutputTokens
	}
	// Usage is recorded at once, not with the turn's commit: tokens spent
	// by an attempt that fails are spent all the same, and the budget must
	// count them.
	if m.Usage != nil && len(usage) > 0 {
		if err := m.Usage.RecordUsage(context.WithoutCancel(ctx), usage); err != nil {
			m.log().WarnContext(ctx, "recording model usage failed", "turn_id", mt.eventID, "error", err)
		}
	}
	if notice {
		text = strings.TrimSpace(text) + "\n\n" + BudgetNotice
	}
	return text
}

// skip records that a stage did not use its model, and why.
func skip(ctx context.Context, stage, why string) {
	if mt := MeterOf(ctx); mt != nil {
		mt.mu.Lock()
		mt.calls = append(mt.calls, hearth.TraceModel{Stage: stage, Skipped: why})
		mt.mu.Unlock()
	}
}

// prompt is a request ready to send, with its budget bookkeeping.
type prompt struct {
	stage   string
	req     llm.Request
	tokens  int
	budget  int
	dropped int
}

// ask sends p within the turn's deadline and budget and accounts for it.
// It returns errOffline when the turn may not use a model.
func (m *Models) ask(ctx context.Context, p prompt) (llm.Response, error) {
	mt := MeterOf(ctx)
	if mt == nil {
		mt = &Meter{deadline: m.now().Add(m.turnDeadline()), day: m.now()}
	}
	if mt.offline != "" {
		skip(ctx, p.stage, mt.offline)
		return llm.Response{}, errOffline
	}
	left := mt.deadline.Sub(m.now())
	if left <= 0 {
		skip(ctx, p.stage, skipDeadline)
		return llm.Response{}, fmt.Errorf("%w: the turn deadline passed", errOffline)
	}
	cctx, cancel := context.WithTimeout(llm.WithStage(ctx, p.stage), left)
	defer cancel()
	chat := m.Chat
	if p.stage == "intent" && m.Fast != nil {
		chat = m.Fast
	}
	resp, err := chat.Complete(cctx, p.req)
	tm := hearth.TraceModel{Stage: p.stage, Provider: resp.Provider, Model: resp.Model, Calls: resp.Usage.Calls,
		PromptTokens: p.tokens, Budget: p.budget, Dropped: p.dropped,
		InputTokens: resp.Usage.InputTokens, OutputTokens: resp.Usage.OutputTokens, LatencyMS: resp.Usage.Latency.Milliseconds()}
	if err != nil {
		tm.Error = llm.Reason(err)
		if cctx.Err() != nil {
			tm.Error = "timeout"
		}
	}
	model := resp.Model
	if model == "" {
		model = p.req.Model
	}
	u := hearth.Usage{UserID: mt.userID, EventID: mt.eventID, Day: mt.day, Stage: p.stage, Provider: resp.Provider, Model: model,
		Calls: resp.Usage.Calls, InputTokens: resp.Usage.InputTokens, OutputTokens: resp.Usage.OutputTokens,
		Latency: resp.Usage.Latency, CostUSD: m.Prices.Cost(model, resp.Usage.InputTokens, resp.Usage.OutputTokens), Error: tm.Error}
	tm.CostUSD = u.CostUSD
	mt.mu.Lock()
	mt.calls = append(mt.calls, tm)
	if u.Calls > 0 || u.Error != "" {
		mt.usage = append(mt.usage, u)
	}
	mt.mu.Unlock()
	if err != nil {
		m.log().InfoContext(ctx, "model step failed; using the offline result", "stage", p.stage, "error", err)
	}
	return resp, err
}

// EstimateTokens is the token estimate the budgets use: one token per
// four bytes, rounded up. It over-counts English a little (BPE tokenizers
// average about 4.5 bytes a token), which errs on the side of the budget.
func EstimateTokens(s string) int { return (len(s) + 3) / 4 }

// fit assembles a prompt's context from items in priority order (most
// important first): whole items only, never cut mid-item; an item that
// does not fit is dropped and the next, smaller one may still fit. fixed
// is the size of the parts that are always sent. It returns the kept
// items, how many were dropped and the estimated total.
func fit(budget, fixed int, items []string) (kept []string, dropped, total int) {
	total = fixed
	for _, it := range items {
		n := EstimateTokens(it) + 1 // + the line break
		if total+n > budget {
			dropped++
			continue
		}
		total += n
		kept = append(kept, it)
	}
	return kept, dropped, total
}
