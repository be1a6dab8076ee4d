package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// chatJSON is a chat completion answering content.
func chatJSON(content string) string {
	c, _ := json.Marshal(content)
	return fmt.Sprintf(`{"id":"c1","object":"chat.completion","created":1,"model":"m",
		"choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":%s}}],
		"usage":{"prompt_tokens":10,"completion_tokens":5,"total_tokens":15}}`, c)
}

// toolJSON is a chat completion calling one function.
func toolJSON(name, args string) string {
	a, _ := json.Marshal(args)
	return fmt.Sprintf(`{"id":"c1","object":"chat.completion","created":1,"model":"m",
		"choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,
		"tool_calls":[{"id":"call_1","type":"function","function":{"name":%q,"arguments":%s}}]}}],
		"usage":{"prompt_tokens":12,"completion_tokens":7,"total_tokens":19}}`, name, a)
}

func TestOpenAIComplete(t *testing.T) {
	t.Parallel()

	ask := Request{
		Messages: []Message{{Role: RoleSystem, Text: "Classify."}, {Role: RoleUser, Text: "hi"}},
		Schema:   json.RawMessage(intentSchema),
	}
	valid := chatJSON(`{"intent":"chat"}`)
	retryAt := testNow.Add(30 * time.Second).Format(http.TimeFormat)

	tests := []struct {
		name      string
		req       Request
		script    []step
		wantErr   error // nil: success
		wantJSON  string
		wantWaits []time.Duration
		check     func(t *testing.T, got []recorded, resp Response)
	}{
		{
			name: "valid JSON", req: ask, script: []step{reply(200, valid)}, wantJSON: `{"intent":"chat"}`,
			check: func(t *testing.T, got []recorded, resp Response) {
				r := got[0]
				if r.path != "/v1/chat/completions" {
					t.Errorf("path = %s", r.path)
				}
				if h := r.header.Get("Authorization"); h != "Bearer test-key" {
					t.Errorf("Authorization = %q", h)
				}
				body := r.decode(t)
				if body["model"] != "gpt-test" {
					t.Errorf("model = %v", body["model"])
				}
				if dig(body, "response_format", "type") != "json_schema" || dig(body, "response_format", "json_schema", "strict") != true {
					t.Errorf("response_format = %v", body["response_format"])
				}
				if dig(body, "response_format", "json_schema", "schema", "required", 0) != "intent" {
					t.Errorf("schema not sent: %v", body["response_format"])
				}
				if dig(body, "messages", 0, "role") != "system" || dig(body, "messages", 1, "content") != "hi" {
					t.Errorf("messages = %v", body["messages"])
				}
				if resp.Usage.InputTokens != 10 || resp.Usage.OutputTokens != 5 {
					t.Errorf("usage = %+v", resp.Usage)
				}
			},
		},
		{
			name: "JSON in a code fence", req: ask,
			script:   []step{reply(200, chatJSON("```json\n{\"intent\":\"chat\"}\n```"))},
			wantJSON: `{"intent":"chat"}`,
		},
		{
			name: "invalid then valid is repaired", req: ask,
			script:   []step{reply(200, chatJSON(`{"intent":`)), reply(200, valid)},
			wantJSON: `{"intent":"chat"}`,
			check: func(t *testing.T, got []recorded, resp Response) {
				msgs := dig(got[1].decode(t), "messages").([]any)
				if len(msgs) != 4 || dig(msgs, 2, "content") != `{"intent":` ||
					!strings.Contains(dig(msgs, 3, "content").(string), "Return only valid JSON matching the schema") {
					t.Errorf("repair messages = %v", msgs)
				}
				if resp.Usage.InputTokens != 20 || resp.Usage.OutputTokens != 10 {
					t.Errorf("usage = %+v, want both calls summed", resp.Usage)
				}
			},
		},
		{
			name: "schema mismatch then valid is repaired", req: ask,
			script:   []step{reply(200, chatJSON(`{"mood":"happy"}`)), reply(200, valid)},
			wantJSON: `{"intent":"chat"}`,
		},
		{
			name: "invalid twice", req: ask,
			script:  []step{reply(200, chatJSON("sure!")), reply(200, chatJSON("sure!!"))},
			wantErr: ErrInvalidOutput,
		},
		{
			name: "429 with Retry-After seconds", req: ask,
			script:    []step{reply(429, `{"error":{"message":"slow down"}}`, "Retry-After", "7"), reply(200, valid)},
			wantJSON:  `{"intent":"chat"}`,
			wantWaits: []time.Duration{7 * time.Second},
		},
		{
			name: "429 with Retry-After date", req: ask,
			script:    []step{reply(429, `{}`, "Retry-After", retryAt), reply(200, valid)},
			wantJSON:  `{"intent":"chat"}`,
			wantWaits: []time.Duration{30 * time.Second},
		},
		{
			name: "429 asking for too long a wait", req: ask,
			script:  []step{reply(429, `{}`, "Retry-After", "3600")},
			wantErr: ErrRateLimited,
		},
		{
			name: "500 then success", req: ask,
			script:    []step{reply(500, `{}`), reply(200, valid)},
			wantJSON:  `{"intent":"chat"}`,
			wantWaits: []time.Duration{100 * time.Millisecond},
		},
		{
			name: "503 until attempts run out", req: ask,
			script:    []step{reply(503, `{}`), reply(502, `{}`), reply(500, `{}`)},
			wantErr:   ErrUnavailable,
			wantWaits: []time.Duration{100 * time.Millisecond, 200 * time.Millisecond},
		},
		{
			name: "400 is not retried", req: ask,
			script:  []step{reply(400, `{"error":{"message":"bad"}}`)},
			wantErr: errNoSentinel,
		},
		{
			name: "hang past the timeout", req: ask,
			script:  []step{hang},
			wantErr: ErrTimeout,
		},
		{
			name: "tool use",
			req: Request{
				Messages: []Message{{Role: RoleUser, Text: "remind me to call mum at 6"}},
				Tools:    []Tool{{Name: "add_task", Description: "Add a task.", Schema: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`)}},
				Model:    "gpt-planner",
			},
			script: []step{reply(200, toolJSON("add_task", `{"title":"call mum"}`))},
			check: func(t *testing.T, got []recorded, resp Response) {
				body := got[0].decode(t)
				if body["model"] != "gpt-planner" {
					t.Errorf("model = %v, want the request's", body["model"])
				}
				if dig(body, "tools", 0, "type") != "function" || dig(body, "tools", 0, "function", "name") != "add_task" ||
					dig(body, "tools", 0, "function", "parameters", "required", 0) != "title" {
					t.Errorf("tools = %v", body["tools"])
				}
				want := []ToolCall{{ID: "call_1", Name: "add_task", Arguments: json.RawMessage(`{"title":"call mum"}`)}}
				if !toolCallsEqual(resp.ToolCalls, want) {
					t.Errorf("tool calls = %+v, want %+v", resp.ToolCalls, want)
				}
			},
		},
		{
			name: "tool call with bad arguments is repaired",
			req: Request{
				Messages: []Message{{Role: RoleUser, Text: "add a task"}},
				Tools:    []Tool{{Name: "add_task", Schema: json.RawMessage(`{"type":"object","required":["title"]}`)}},
			},
			script: []step{reply(200, toolJSON("add_task", `{}`)), reply(200, toolJSON("add_task", `{"title":"x"}`))},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, tt.script...)
			s := &sleeper{}
			o := NewOpenAI(OpenAIConfig{BaseURL: f.srv.URL + "/v1", APIKey: "test-key", Model: "gpt-test", Policy: testPolicy(s)})

			start := time.Now()
			resp, err := o.Complete(context.Background(), tt.req)
			elapsed := time.Since(start)

			checkOutcome(t, err, tt.wantErr, resp, tt.wantJSON)
			got := f.requests()
			if len(got) != len(tt.script) {
				t.Errorf("server got %d requests, want %d", len(got), len(tt.script))
			}
			if resp.Usage.Calls != len(got) {
				t.Errorf("Usage.Calls = %d, server got %d", resp.Usage.Calls, len(got))
			}
			if !slices.Equal(s.waits(), tt.wantWaits) {
				t.Errorf("waits = %v, want %v", s.waits(), tt.wantWaits)
			}
			if elapsed > 5*time.Second {
				t.Errorf("took %s; nothing here should wait", elapsed)
			}
			if tt.check != nil && len(got) == len(tt.script) {
				tt.check(t, got, resp)
			}
		})
	}
}

// errNoSentinel in a test table means "fails, wrapping none of the
// sentinels".
var errNoSentinel = errors.New("an error without a sentinel")

func checkOutcome(t *testing.T, err, wantErr error, resp Response, wantJSON string) {
	t.Helper()
	sentinels := []error{ErrTimeout, ErrRateLimited, ErrUnavailable, ErrInvalidOutput}
	switch {
	case wantErr == nil && err != nil:
		t.Fatalf("err = %v", err)
	case wantErr == errNoSentinel:
		if err == nil {
			t.Fatal("err = nil, want an error")
		}
		for _, s := range sentinels {
			if errors.Is(err, s) {
				t.Errorf("err = %v, wraps %v", err, s)
			}
		}
	case wantErr != nil && !errors.Is(err, wantErr):
		t.Fatalf("err = %v, want %v", err, wantErr)
	}
	if string(resp.JSON) != wantJSON {
		t.Errorf("JSON = %s, want %s", resp.JSON, wantJSON)
	}
}

func toolCallsEqual(a, b []ToolCall) bool {
	return slices.EqualFunc(a, b, func(x, y ToolCall) bool {
		return x.ID == y.ID && x.Name == y.Name && string(x.Arguments) == string(y.Arguments)
	})
}

func TestOpenAIEmbed(t *testing.T) {
	t.Parallel()
	// The server answers out of order; vectors must come back in input order.
	f := newFake(t, reply(200, `{"object":"list","model":"emb","data":[
		{"object":"embedding","index":1,"embedding":[0.3,0.4]},
		{"object":"embedding","index":0,"embedding":[0.1,0.2]}],
		"usage":{"prompt_tokens":6,"total_tokens":6}}`))
	s := &sleeper{}
	o := NewOpenAI(OpenAIConfig{BaseURL: f.srv.URL + "/v1", APIKey: "k", EmbeddingModel: "emb", Dimensions: 2, Policy: testPolicy(s)})

	vecs, used, err := o.Embed(context.Background(), []string{"first", "second"})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float32{{0.1, 0.2}, {0.3, 0.4}}
	if !slices.EqualFunc(vecs, want, slices.Equal) {
		t.Errorf("vectors = %v, want %v", vecs, want)
	}
	if used.Calls != 1 || used.InputTokens != 6 {
		t.Errorf("usage = %+v", used)
	}
	got := f.requests()
	if len(got) != 1 || got[0].path != "/v1/embeddings" {
		t.Fatalf("requests = %+v", got)
	}
	body := got[0].decode(t)
	if body["model"] != "emb" || body["dimensions"] != 2.0 || dig(body, "input", 1) != "second" {
		t.Errorf("body = %v", body)
	}
}

func TestOpenAIEmbedRetries(t *testing.T) {
	t.Parallel()
	f := newFake(t, reply(429, `{}`, "Retry-After", "2"),
		reply(200, `{"data":[{"index":0,"embedding":[1]}],"usage":{"prompt_tokens":1}}`))
	s := &sleeper{}
	o := NewOpenAI(OpenAIConfig{BaseURL: f.srv.URL + "/v1", APIKey: "k", EmbeddingModel: "emb", Policy: testPolicy(s)})
	vecs, used, err := o.Embed(context.Background(), []string{"x"})
	if err != nil || len(vecs) != 1 || used.Calls != 2 {
		t.Fatalf("Embed = %v, %+v, %v", vecs, used, err)
	}
	if !slices.Equal(s.waits(), []time.Duration{2 * time.Second}) {
		t.Errorf("waits = %v", s.waits())
	}
}

func TestOpenAINotConfigured(t *testing.T) {
	t.Parallel()
	o := NewOpenAI(OpenAIConfig{BaseURL: "http://127.0.0.1:1/v1"})
	if _, err := o.Complete(context.Background(), Request{}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Complete without a model: err = %v", err)
	}
	if _, _, err := o.Embed(context.Background(), []string{"x"}); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Embed without a model: err = %v", err)
	}
}
