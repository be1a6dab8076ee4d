package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/llm/llmtest"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
)

// brain is a scripted, deterministic model that answers Hearth's three
// prompts plausibly: intent from the offline classifier's best guess,
// plans with one action of the prompt's domain, short replies. Tests
// override single answers through hooks.
type brain struct {
	nlu *nlu.Classifier
	mu  sync.Mutex
	// hook, when it returns true, answers instead of the script.
	hook func(c llmtest.Call) (llmtest.Answer, bool)
}

func newBrain(t testing.TB) *brain {
	t.Helper()
	c, err := nlu.New()
	if err != nil {
		t.Fatal(err)
	}
	return &brain{nlu: c}
}

func (b *brain) set(hook func(c llmtest.Call) (llmtest.Answer, bool)) {
	b.mu.Lock()
	b.hook = hook
	b.mu.Unlock()
}

var (
	domainOfPlan = regexp.MustCompile(`for one request in the (\w+) domain`)
	nowOfPlan    = regexp.MustCompile(`Now is (\S+)`)
)

// message is the user's message in a prompt: its last line with a known
// prefix.
func message(user string) string {
	for _, prefix := range []string{"The user's message: ", "Message: "} {
		if i := strings.LastIndex(user, prefix); i >= 0 {
			return strings.TrimSpace(user[i+len(prefix):])
		}
	}
	return user
}

func (b *brain) answer(c llmtest.Call) llmtest.Answer {
	b.mu.Lock()
	hook := b.hook
	b.mu.Unlock()
	if hook != nil {
		if a, ok := hook(c); ok {
			return a
		}
	}
	msg := message(c.User)
	switch {
	case strings.HasPrefix(c.System, "You classify"):
		r := b.nlu.Classify(msg, nil, time.Now())
		ans, _ := json.Marshal(map[string]any{"intent": r.Intent, "domains": r.Domains, "confidence": 0.9})
		return llmtest.Answer{Text: string(ans)}
	case strings.HasPrefix(c.System, "You plan"):
		d := domainOfPlan.FindStringSubmatch(c.System)
		now, _ := time.Parse(time.RFC3339, nowOfPlan.FindStringSubmatch(c.System)[1])
		return llmtest.Answer{Text: planFor(d[1], msg, now)}
	}
	return llmtest.Answer{Text: "Happy to help! " + firstWords(msg, 6) + " — noted."}
}

// planFor is one plausible action of domain for msg.
func planFor(domain, msg string, now time.Time) string {
	title := firstWords(msg, 5)
	at := time.Date(now.Year(), now.Month(), now.Day()+1, 9, 0, 0, 0, now.Location())
	var kind string
	var payload any
	switch domain {
	case "task":
		kind, payload = "task.create", map[string]any{"title": title, "due": at}
	case "calendar":
		kind, payload = "calendar.create", map[string]any{"title": title, "start": at, "end": at.Add(time.Hour)}
	case "memory":
		kind, payload = "memory.store", map[string]any{"content": msg, "category": "personal"}
	case "keep":
		kind, payload = "note.create", map[string]any{"title": title, "body": msg}
	default:
		kind, payload = "email.draft", map[string]any{"to": []string{}, "subject": title, "body": msg}
	}
	p, _ := json.Marshal(payload)
	out, _ := json.Marshal(map[string]any{"understood": strings.ToLower(title), "actions": []any{map[string]any{"kind": kind, "payload": string(p)}}})
	return string(out)
}

func firstWords(s string, n int) string {
	w := strings.Fields(s)
	if len(w) > n {
		w = w[:n]
	}
	return strings.Join(w, " ")
}

// startModelApp starts Hearth with HEARTH_LLM=openai against a fake
// OpenAI-compatible server answering with b.
func startModelApp(t testing.TB, b *brain, configure func(*Config)) (string, *App, *llmtest.Server) {
	t.Helper()
	fake := llmtest.New(t, b.answer)
	base, app, _ := startAppWith(t, func(c *Config) {
		c.LLM, c.OpenAIBaseURL, c.OpenAIAPIKey, c.OpenAIModel, c.OpenAIFast = "openai", fake.OpenAIBaseURL(), "test-key", "big", "small"
		c.LLMTimeout, c.LLMDeadline, c.LLMConfident = 5*time.Second, 2500*time.Millisecond, 0.8
		c.Embeddings, c.EmbeddingDims = "none", 1024
		if configure != nil {
			configure(c)
		}
	})
	return base, app, fake
}

// lastTrace is the trace of the chatter's latest turn.
func (c *chatter) lastTrace() hearth.Trace {
	c.t.Helper()
	var got hearth.Trace
	pipelinetest.WaitForJobs(c.t, c.app.River, "the turn's trace", func() bool {
		ts, err := c.app.Store.RecentTraces(context.Background(), 200)
		if err != nil {
			c.t.Fatal(err)
		}
		for _, tr := range ts {
			if tr.ConversationID == c.contact().ConversationID {
				got = tr
				return true
			}
		}
		return false
	})
	return got
}

func TestModelTurns(t *testing.T) {
	t.Parallel()
	b := newBrain(t)
	base, app, fake := startModelApp(t, b, func(c *Config) { c.LLMPrices = "big=1/2,small=0.5/1" })

	t.Run("an unsure message is classified by the fast model and answered by the strong one", func(t *testing.T) {
		c := newChatter(t, base, app, "Mia", "Europe/London")
		r := c.say("blorp fizzle")
		if !strings.HasPrefix(r.Text, "Happy to help!") {
			t.Fatalf("reply %q; want the model's", r.Text)
		}
		tr := c.lastTrace()
		if tr.ModelCalls != 2 || tr.InputTokens == 0 || tr.OutputTokens == 0 {
			t.Fatalf("trace %+v; want 2 calls with tokens", tr)
		}
		var models []string
		for _, m := range tr.Models {
			models = append(models, m.Stage+":"+m.Model+":"+m.Skipped)
		}
		if got := strings.Join(models, " "); got != "intent:small: reply:big:" {
			t.Fatalf("trace models %q", got)
		}
		u, err := app.Store.UsageOn(context.Background(), c.contact().User.ID, time.Now().In(mustZone(t, "Europe/London")))
		if err != nil || u.Calls != 2 || u.InputTokens != tr.InputTokens {
			t.Fatalf("usage %+v, %v; want the trace's", u, err)
		}
		in, rep := tr.Models[0], tr.Models[1]
		wantCost := (float64(in.InputTokens)*0.5 + float64(in.OutputTokens)*1 + float64(rep.InputTokens)*1 + float64(rep.OutputTokens)*2) / 1e6
		if diff := u.CostUSD - wantCost; diff > 1e-6 || diff < -1e-6 || rep.CostUSD == 0 {
			t.Fatalf("cost %v (reply %v); want %v from the price table", u.CostUSD, rep.CostUSD, wantCost)
		}
	})

	t.Run("a confident, fully specified request uses no model at all", func(t *testing.T) {
		c := newChatter(t, base, app, "Noa", "America/New_York")
		before := len(fake.Calls())
		r := c.say("Remind me to call mom tomorrow at 5pm")
		mustContain(t, r, "call mom")
		if n := len(fake.Calls()) - before; n != 0 {
			t.Fatalf("%d model calls; want 0", n)
		}
		tr := c.lastTrace()
		var skipped []string
		for _, m := range tr.Models {
			skipped = append(skipped, m.Stage+":"+m.Skipped)
		}
		if got := strings.Join(skipped, " "); got != "intent:confident plan_task:simple reply:template" {
			t.Fatalf("trace models %q", got)
		}
	})

	t.Run("invalid JSON is repaired once, through the real client", func(t *testing.T) {
		c := newChatter(t, base, app, "Ivy", "UTC")
		var n int
		var mu sync.Mutex
		b.set(func(call llmtest.Call) (llmtest.Answer, bool) {
			if !strings.HasPrefix(call.System, "You classify") {
				return llmtest.Answer{}, false
			}
			mu.Lock()
			defer mu.Unlock()
			if n++; n == 1 {
				return llmtest.Answer{Text: `{"intent": "chat", "domains": [`}, true
			}
			return llmtest.Answer{Text: `{"intent":"chat","domains":[],"confidence":0.9}`}, true
		})
		defer b.set(nil)
		c.say("blorp fizzle")
		tr := c.lastTrace()
		if tr.Intent != "chat" || len(tr.Models) == 0 || tr.Models[0].Calls != 2 || tr.Models[0].Error != "" {
			t.Fatalf("trace %+v; want the intent answered after one repair (2 calls)", tr)
		}
	})

	t.Run("a plan the model gets wrong falls back to the offline planner", func(t *testing.T) {
		c := newChatter(t, base, app, "Ola", "Europe/Rome")
		b.set(func(call llmtest.Call) (llmtest.Answer, bool) {
			if strings.HasPrefix(call.System, "You plan") && strings.Contains(call.User, "dentist") {
				// Valid JSON, invalid action: a task with no title.
				return llmtest.Answer{Text: `{"understood":"x","actions":[{"kind":"calendar.create","payload":"{\"title\":\"\"}"}]}`}, true
			}
			return llmtest.Answer{}, false
		})
		defer b.set(nil)
		r := c.say("Add a dentist appointment on Friday at 3pm")
		tr := c.lastTrace()
		if len(tr.Actions) != 1 || tr.Actions[0].Kind != "calendar.create" || tr.Actions[0].Status != "done" {
			t.Fatalf("reply %q, trace %+v; want the offline calendar.create", r.Text, tr)
		}
	})

}

func TestModelHangs(t *testing.T) {
	t.Parallel()
	b := newBrain(t)
	b.set(func(call llmtest.Call) (llmtest.Answer, bool) { return llmtest.Answer{Hang: true}, true })
	// A short turn deadline keeps the test quick; the production default
	// (2.5s) is what keeps answers within 3s.
	base, app, _ := startModelApp(t, b, func(c *Config) { c.LLMDeadline = 400 * time.Millisecond })
	c := newChatter(t, base, app, "Pia", "Europe/Paris")
	start := time.Now()
	r := c.say("blorp fizzle")
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("reply after %v; want within 3s", d)
	}
	if r.Text == "" || strings.HasPrefix(r.Text, "Happy to help!") {
		t.Fatalf("reply %q; want the offline one", r.Text)
	}
	tr := c.lastTrace()
	var errs []string
	for _, m := range tr.Models {
		errs = append(errs, m.Stage+":"+m.Error+m.Skipped)
	}
	if got := strings.Join(errs, " "); got != "intent:timeout reply:deadline" {
		t.Fatalf("trace models %q; want the intent call timed out and the reply skipped", got)
	}
}

func TestFormatTraceModels(t *testing.T) {
	t.Parallel()
	got := formatTrace(hearth.Trace{Intent: "chat", ModelCalls: 1, InputTokens: 300, OutputTokens: 20, Models: []hearth.TraceModel{
		{Stage: "intent", Skipped: "confident"},
		{Stage: "reply", Provider: "openai", Model: "big", Calls: 1, InputTokens: 300, OutputTokens: 20, PromptTokens: 310, Budget: 700, Dropped: 2, CostUSD: 0.0012, Error: "timeout"},
	}})
	want := "model_calls=1 tokens=300/20 intent:offline(confident) reply:openai/big(calls=1 tokens=300/20 prompt=310/700 dropped=2 cost=$0.001200 error=timeout)"
	if !strings.HasSuffix(got, want) {
		t.Fatalf("formatTrace = %q; want it to end with %q", got, want)
	}
}

func mustZone(t *testing.T, name string) *time.Location {
	t.Helper()
	l, err := time.LoadLocation(name)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestModelDailyBudget(t *testing.T) {
	t.Parallel()
	b := newBrain(t)
	base, app, fake := startModelApp(t, b, func(c *Config) { c.LLMDailyTokens = 50 })
	c := newChatter(t, base, app, "Quinn", "Asia/Tokyo")
	if r := c.say("blorp fizzle"); !strings.HasPrefix(r.Text, "Happy to help!") {
		t.Fatalf("first reply %q; want the model's", r.Text)
	}
	calls := len(fake.Calls())
	second := c.say("blorp fizzle")
	if !strings.Contains(second.Text, "today's model budget") {
		t.Fatalf("second reply %q; want the budget notice", second.Text)
	}
	third := c.say("blorp fizzle")
	if strings.Contains(third.Text, "budget") || third.Text == "" {
		t.Fatalf("third reply %q; want an offline reply without the notice again", third.Text)
	}
	if n := len(fake.Calls()); n != calls {
		t.Fatalf("%d model calls after the budget was spent", n-calls)
	}
	if tr := c.lastTrace(); tr.ModelCalls != 0 || len(tr.Models) < 2 || tr.Models[0].Skipped != "budget" || tr.Models[1].Skipped != "budget" {
		t.Fatalf("trace %+v; want no calls, skipped for the budget", tr)
	}
}

func TestModelConfig(t *testing.T) {
	t.Parallel()
	base := Config{DatabaseURL: "postgres://x@localhost/db", HTTPAddr: ":1", LogFormat: "auto", TurnWorkers: 1, DeliverWorkers: 1, ActionWorkers: 1,
		FetchCooldown: time.Millisecond, FetchPollInterval: time.Millisecond, ShutdownTimeout: time.Second,
		LLM: "none", LLMTimeout: time.Second, LLMDeadline: time.Second, LLMConfident: 0.8, Embeddings: "none", EmbeddingDims: 1024, EmbedInterval: time.Minute}
	tests := []struct {
		name    string
		change  func(*Config)
		wantErr string
	}{
		{"offline default", func(*Config) {}, ""},
		{"the zero value is offline", func(c *Config) {
			*c = Config{DatabaseURL: c.DatabaseURL, HTTPAddr: c.HTTPAddr, LogFormat: "auto", TurnWorkers: 1, DeliverWorkers: 1, ActionWorkers: 1, FetchCooldown: time.Millisecond, FetchPollInterval: time.Millisecond, ShutdownTimeout: time.Second}
		}, ""},
		{"unknown provider", func(c *Config) { c.LLM = "gemini" }, "HEARTH_LLM"},
		{"openai without a model", func(c *Config) { c.LLM = "openai" }, "OPENAI_MODEL"},
		{"bedrock fallback without a model", func(c *Config) { c.LLM, c.OpenAIModel, c.LLMFallback = "openai", "m", []string{"bedrock"} }, "BEDROCK_MODEL_ID"},
		{"fallback without a primary", func(c *Config) { c.LLMFallback = []string{"openai"} }, "HEARTH_LLM_FALLBACK"},
		{"bad fallback", func(c *Config) { c.LLM, c.OpenAIModel, c.LLMFallback = "openai", "m", []string{"x"} }, "HEARTH_LLM_FALLBACK"},
		{"bad base URL", func(c *Config) { c.LLM, c.OpenAIModel, c.OpenAIBaseURL = "openai", "m", "localhost:11434" }, "OPENAI_BASE_URL"},
		{"confidence out of range", func(c *Config) { c.LLM, c.OpenAIModel, c.LLMConfident = "openai", "m", 1.5 }, "HEARTH_LLM_CONFIDENT"},
		{"zero confidence", func(c *Config) { c.LLM, c.OpenAIModel, c.LLMConfident = "openai", "m", 0 }, "HEARTH_LLM_CONFIDENT"},
		{"titan cannot make 1536", func(c *Config) { c.Embeddings, c.EmbeddingDims = "bedrock", 1536 }, "HEARTH_EMBEDDING_DIMENSIONS"},
		{"unindexed dimension", func(c *Config) { c.Embeddings, c.EmbeddingDims = "openai", 768 }, "HEARTH_EMBEDDING_DIMENSIONS"},
		{"offline embeddings", func(c *Config) { c.Embeddings = "offline" }, ""},
		{"offline embeddings, unindexed dimension", func(c *Config) { c.Embeddings, c.EmbeddingDims = "offline", 768 }, "HEARTH_EMBEDDING_DIMENSIONS"},
		{"unknown embeddings", func(c *Config) { c.Embeddings = "word2vec" }, "HEARTH_EMBEDDINGS"},
		{"bad prices", func(c *Config) { c.LLMPrices = "gpt=1" }, "HEARTH_LLM_PRICES"},
		{"good prices", func(c *Config) { c.LLMPrices = "gpt-4o-mini=0.15/0.6, claude=3/15" }, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := base
			tt.change(&c)
			err := c.validate()
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("validate = %v; want an error naming %q", err, tt.wantErr)
			}
		})
	}
	p, _ := parsePrices("gpt-4o-mini=0.15/0.6")
	if got := p.Cost("gpt-4o-mini", 1_000_000, 1_000_000); fmt.Sprintf("%.2f", got) != "0.75" {
		t.Fatalf("cost = %v", got)
	}
}

func TestModelEmbeddingsAndMetrics(t *testing.T) {
	t.Parallel()
	b := newBrain(t)
	base, app, fake := startModelApp(t, b, func(c *Config) {
		c.Embeddings, c.EmbeddingDims, c.OpenAIEmbed, c.EmbedInterval = "openai", 256, "emb", 50*time.Millisecond
	})
	c := newChatter(t, base, app, "Rae", "UTC")
	c.say("Remember that John's birthday is March 15th")
	// The background job embeds it; the turn did not.
	pipelinetest.WaitForJobs(t, app.River, "the memory's embedding", func() bool {
		left, err := app.Store.Unembedded(context.Background(), app.Embeddings.Model, 10)
		if err != nil {
			t.Fatal(err)
		}
		return len(left) == 0
	})
	if fake.Embeddings() == 0 {
		t.Fatal("no embedding call")
	}
	// A question embeds its query in the turn and mixes in near memories.
	c.say("When is John's birthday?")
	var embedded bool
	for _, m := range c.lastTrace().Models {
		embedded = embedded || m.Stage == "embed" && m.Calls == 1
	}
	if !embedded {
		t.Fatalf("trace %+v; want the query embedded", c.lastTrace().Models)
	}
	c.say("blorp fizzle") // one model turn for the metrics
	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	for _, want := range []string{
		`hearth_llm_calls_total{model="small",provider="openai",stage="intent"} 1`,
		`hearth_llm_calls_total{model="big",provider="openai",stage="reply"} 2`,
		`hearth_llm_tokens_total{direction="input",model="big",provider="openai",stage="reply"}`,
		`hearth_llm_latency_seconds_count{model="big",provider="openai",stage="reply"} 2`,
		`hearth_llm_calls_total{model="emb",provider="openai",stage="embed"}`,
	} {
		if !strings.Contains(string(body), want) {
			t.Fatalf("metrics lack %s", want)
		}
	}
}

// TestModelFallbackChain: HEARTH_LLM=openai with HEARTH_LLM_FALLBACK=bedrock;
// OpenAI answers 503, so Bedrock (through the real AWS SDK) answers.
func TestModelFallbackChain(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "secret")
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
	b := newBrain(t)
	down := llmtest.New(t, func(llmtest.Call) llmtest.Answer { return llmtest.Answer{Status: 503} })
	bedrock := llmtest.New(t, b.answer)
	base, app, _ := startModelApp(t, b, func(c *Config) {
		c.OpenAIBaseURL = down.OpenAIBaseURL()
		c.LLMFallback = []string{"bedrock"}
		c.BedrockURL, c.BedrockRegion, c.BedrockModel, c.BedrockFast = bedrock.URL, "eu-west-1", "claude-strong", "claude-fast"
	})
	c := newChatter(t, base, app, "Sol", "UTC")
	if r := c.say("blorp fizzle"); !strings.HasPrefix(r.Text, "Happy to help!") {
		t.Fatalf("reply %q; want Bedrock's", r.Text)
	}
	tr := c.lastTrace()
	var got []string
	for _, m := range tr.Models {
		got = append(got, fmt.Sprintf("%s:%s/%s:%d", m.Stage, m.Provider, m.Model, m.Calls))
	}
	// Two OpenAI attempts (one retry) and one Bedrock call per stage.
	if s := strings.Join(got, " "); s != "intent:bedrock/claude-fast:3 reply:bedrock/claude-strong:3" {
		t.Fatalf("trace models %q", s)
	}
	if len(down.Calls()) != 4 || len(bedrock.Calls()) != 2 {
		t.Fatalf("openai got %d calls, bedrock %d; want 4 and 2", len(down.Calls()), len(bedrock.Calls()))
	}
}

// TestOfflineEmbeddings: HEARTH_EMBEDDINGS=offline embeds memories with no
// model and no network, in the background job, under its own model name
// (so a switch to or from a model re-embeds everything).
func TestOfflineEmbeddings(t *testing.T) {
	t.Parallel()
	base, app, _ := startAppWith(t, func(c *Config) {
		c.Embeddings, c.EmbeddingDims, c.EmbedInterval = "offline", 256, 50*time.Millisecond
	})
	if app.Embeddings.Model != "offline/hashed-v1@256" {
		t.Fatalf("embedding model %q", app.Embeddings.Model)
	}
	c := newChatter(t, base, app, "Oda", "UTC")
	c.say("Remember that John's birthday is March 15th")
	pipelinetest.WaitForJobs(t, app.River, "the memory's offline embedding", func() bool {
		left, err := app.Store.Unembedded(context.Background(), app.Embeddings.Model, 10)
		if err != nil {
			t.Fatal(err)
		}
		return len(left) == 0
	})
	var n int
	if err := app.Store.Pool().QueryRow(context.Background(),
		`SELECT count(*) FROM facts WHERE embedding IS NOT NULL AND vector_dims(embedding) = 256`).Scan(&n); err != nil || n == 0 {
		t.Fatalf("%d facts embedded (%v); want the birthday", n, err)
	}
	mustContain(t, c.say("When is John's birthday?"), "March 15")
	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if want := `hearth_llm_calls_total{model="hashed-v1",provider="offline",stage="embed"}`; !strings.Contains(string(body), want) {
		t.Fatalf("metrics lack %s", want)
	}
}
