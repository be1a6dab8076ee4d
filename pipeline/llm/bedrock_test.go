package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/credentials"
)

const testModel = "anthropic.claude-test-v1:0"

// converseJSON is a Converse answer with the given content blocks.
func converseJSON(blocks string) string {
	return fmt.Sprintf(`{"output":{"message":{"role":"assistant","content":[%s]}},"stopReason":"end_turn",
		"usage":{"inputTokens":20,"outputTokens":8,"totalTokens":28},"metrics":{"latencyMs":5}}`, blocks)
}

// toolUse is a Converse toolUse content block.
func toolUse(id, name, input string) string {
	return fmt.Sprintf(`{"toolUse":{"toolUseId":%q,"name":%q,"input":%s}}`, id, name, input)
}

// awsError is a Bedrock error answer of the given type.
func awsError(status int, kind string, header ...string) step {
	return reply(status, `{"message":"`+kind+`"}`, append([]string{"X-Amzn-Errortype", kind}, header...)...)
}

func newTestBedrock(t *testing.T, f *fake, s *sleeper) *Bedrock {
	t.Helper()
	b, err := NewBedrock(context.Background(), BedrockConfig{
		Region:      "eu-west-1",
		ModelID:     testModel,
		Dimensions:  256,
		EndpointURL: f.srv.URL,
		Credentials: credentials.NewStaticCredentialsProvider("AKIDTEST", "secret", ""),
		Policy:      testPolicy(s),
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBedrockComplete(t *testing.T) {
	t.Parallel()

	ask := Request{
		Messages: []Message{{Role: RoleSystem, Text: "Classify."}, {Role: RoleUser, Text: "hi"}},
		Schema:   json.RawMessage(intentSchema),
	}
	valid := converseJSON(toolUse("t1", "answer", `{"intent":"chat"}`))

	tests := []struct {
		name      string
		req       Request
		script    []step
		wantErr   error
		wantJSON  string
		wantWaits []time.Duration
		check     func(t *testing.T, got []recorded, resp Response)
	}{
		{
			name: "valid JSON through the forced tool", req: ask, script: []step{reply(200, valid)}, wantJSON: `{"intent":"chat"}`,
			check: func(t *testing.T, got []recorded, resp Response) {
				r := got[0]
				if r.path != "/model/"+testModel+"/converse" {
					t.Errorf("path = %s", r.path)
				}
				if h := r.header.Get("Authorization"); !strings.HasPrefix(h, "AWS4-HMAC-SHA256 Credential=AKIDTEST/") ||
					!strings.Contains(h, "/eu-west-1/bedrock/aws4_request") || r.header.Get("X-Amz-Date") == "" {
					t.Errorf("not SigV4 signed: Authorization = %q", h)
				}
				body := r.decode(t)
				if dig(body, "system", 0, "text") != "Classify." || dig(body, "messages", 0, "role") != "user" ||
					dig(body, "messages", 0, "content", 0, "text") != "hi" {
					t.Errorf("system/messages = %v / %v", body["system"], body["messages"])
				}
				if dig(body, "toolConfig", "toolChoice", "tool", "name") != "answer" ||
					dig(body, "toolConfig", "tools", 0, "toolSpec", "name") != "answer" ||
					dig(body, "toolConfig", "tools", 0, "toolSpec", "inputSchema", "json", "required", 0) != "intent" {
					t.Errorf("toolConfig = %v", body["toolConfig"])
				}
				if resp.Usage.InputTokens != 20 || resp.Usage.OutputTokens != 8 {
					t.Errorf("usage = %+v", resp.Usage)
				}
			},
		},
		{
			name: "invalid then valid is repaired", req: ask,
			script:   []step{reply(200, converseJSON(`{"text":"it is chat"}`)), reply(200, valid)},
			wantJSON: `{"intent":"chat"}`,
			check: func(t *testing.T, got []recorded, resp Response) {
				msgs := dig(got[1].decode(t), "messages").([]any)
				if len(msgs) != 3 || dig(msgs, 1, "role") != "assistant" || dig(msgs, 1, "content", 0, "text") != "it is chat" ||
					!strings.Contains(dig(msgs, 2, "content", 0, "text").(string), "Return only valid JSON matching the schema") {
					t.Errorf("repair messages = %v", msgs)
				}
				if resp.Usage.InputTokens != 40 {
					t.Errorf("usage = %+v, want both calls summed", resp.Usage)
				}
			},
		},
		{
			name: "invalid twice", req: ask,
			script: []step{
				reply(200, converseJSON(toolUse("t1", "answer", `{"mood":1}`))),
				reply(200, converseJSON(toolUse("t2", "answer", `{"intent":7}`))),
			},
			wantErr: ErrInvalidOutput,
		},
		{
			name: "429 with Retry-After then success", req: ask,
			script:    []step{awsError(429, "ThrottlingException", "Retry-After", "4"), reply(200, valid)},
			wantJSON:  `{"intent":"chat"}`,
			wantWaits: []time.Duration{4 * time.Second},
		},
		{
			name: "429 without Retry-After backs off", req: ask,
			script:    []step{awsError(429, "ThrottlingException"), awsError(429, "ThrottlingException"), awsError(429, "ThrottlingException")},
			wantErr:   ErrRateLimited,
			wantWaits: []time.Duration{100 * time.Millisecond, 200 * time.Millisecond},
		},
		{
			name: "500 then success", req: ask,
			script:    []step{awsError(500, "InternalServerException"), reply(200, valid)},
			wantJSON:  `{"intent":"chat"}`,
			wantWaits: []time.Duration{100 * time.Millisecond},
		},
		{
			name: "validation error is not retried", req: ask,
			script:  []step{awsError(400, "ValidationException")},
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
				Messages: []Message{{Role: RoleUser, Text: "remind me to call mum"}},
				Tools:    []Tool{{Name: "add_task", Description: "Add a task.", Schema: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}`)}},
				Model:    "anthropic.claude-planner-v1:0",
			},
			script: []step{reply(200, converseJSON(`{"text":"On it."},`+toolUse("tu_1", "add_task", `{"title":"call mum"}`)))},
			check: func(t *testing.T, got []recorded, resp Response) {
				if got[0].path != "/model/anthropic.claude-planner-v1:0/converse" {
					t.Errorf("path = %s, want the request's model", got[0].path)
				}
				body := got[0].decode(t)
				if dig(body, "toolConfig", "tools", 0, "toolSpec", "name") != "add_task" || dig(body, "toolConfig", "toolChoice") != nil {
					t.Errorf("toolConfig = %v", body["toolConfig"])
				}
				want := []ToolCall{{ID: "tu_1", Name: "add_task", Arguments: json.RawMessage(`{"title":"call mum"}`)}}
				if !toolCallsEqual(resp.ToolCalls, want) || resp.Text != "On it." {
					t.Errorf("resp = %+v, want tool calls %+v", resp, want)
				}
			},
		},
		{
			name: "tools and schema: the model must call one of them",
			req: Request{
				Messages: []Message{{Role: RoleUser, Text: "hi"}},
				Schema:   json.RawMessage(intentSchema),
				Tools:    []Tool{{Name: "add_task"}},
			},
			script:   []step{reply(200, valid)},
			wantJSON: `{"intent":"chat"}`,
			check: func(t *testing.T, got []recorded, resp Response) {
				body := got[0].decode(t)
				if _, ok := dig(body, "toolConfig", "toolChoice", "any").(map[string]any); !ok {
					t.Errorf("toolChoice = %v, want any", dig(body, "toolConfig", "toolChoice"))
				}
				if dig(body, "toolConfig", "tools", 0, "toolSpec", "inputSchema", "json", "type") != "object" {
					t.Errorf("a tool without schema needs an empty object schema: %v", body["toolConfig"])
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := newFake(t, tt.script...)
			s := &sleeper{}
			b := newTestBedrock(t, f, s)

			start := time.Now()
			resp, err := b.Complete(context.Background(), tt.req)
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

func TestBedrockEmbed(t *testing.T) {
	t.Parallel()
	f := newFake(t,
		reply(200, `{"embedding":[0.1,0.2],"inputTextTokenCount":3}`),
		awsError(503, "ServiceUnavailableException"),
		reply(200, `{"embedding":[0.3,0.4],"inputTextTokenCount":4}`),
	)
	s := &sleeper{}
	b := newTestBedrock(t, f, s)

	vecs, used, err := b.Embed(context.Background(), []string{"first", "second"})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float32{{0.1, 0.2}, {0.3, 0.4}}
	if !slices.EqualFunc(vecs, want, slices.Equal) {
		t.Errorf("vectors = %v, want %v", vecs, want)
	}
	if used.Calls != 3 || used.InputTokens != 7 {
		t.Errorf("usage = %+v", used)
	}
	got := f.requests()
	if len(got) != 3 {
		t.Fatalf("server got %d requests", len(got))
	}
	if got[0].path != "/model/amazon.titan-embed-text-v2:0/invoke" {
		t.Errorf("path = %s", got[0].path)
	}
	if !strings.HasPrefix(got[0].header.Get("Authorization"), "AWS4-HMAC-SHA256 ") {
		t.Errorf("not SigV4 signed")
	}
	body := got[2].decode(t)
	if body["inputText"] != "second" || body["dimensions"] != 256.0 || body["normalize"] != true {
		t.Errorf("body = %v", body)
	}
}

func TestNewBedrockNeedsRegion(t *testing.T) {
	t.Parallel()
	_, err := NewBedrock(context.Background(), BedrockConfig{Credentials: credentials.NewStaticCredentialsProvider("a", "b", "")})
	if err == nil {
		t.Error("NewBedrock without a region: err = nil")
	}
}
