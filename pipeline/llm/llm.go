package llm

import (
	"context"
	"encoding/json"
	"time"
)

// Roles a Message can have.
const (
	// RoleSystem carries the instructions for the whole exchange.
	RoleSystem = "system"
	// RoleUser is what the person (or the pipeline on their behalf) says.
	RoleUser = "user"
	// RoleAssistant is what the model said earlier.
	RoleAssistant = "assistant"
)

// Message is one turn of the conversation sent to a model.
type Message struct {
	// Role is RoleSystem, RoleUser or RoleAssistant.
	Role string
	// Text is the content. Untrusted text inside it should go through Quote.
	Text string
}

// Request is one question to a chat model.
type Request struct {
	// Messages are sent in order; system messages become the system prompt.
	Messages []Message
	// Schema is the JSON schema the answer must match; nil means free text.
	// With a schema, Response.JSON holds the validated answer.
	Schema json.RawMessage
	// Tools the model may call instead of answering.
	Tools []Tool
	// MaxTokens bounds the answer; zero leaves it to the provider.
	MaxTokens int
	// Model overrides the provider's configured model (a model per stage).
	Model string
}

// Tool is a function the model may ask the caller to run.
type Tool struct {
	// Name identifies the tool in ToolCall.Name.
	Name string
	// Description tells the model when to use the tool.
	Description string
	// Schema is the JSON schema of the tool's arguments; nil means none.
	Schema json.RawMessage
}

// ToolCall is the model asking for a tool to be run.
type ToolCall struct {
	// ID is the provider's id for the call.
	ID string
	// Name is the Tool.Name being called.
	Name string
	// Arguments are the call's arguments, validated against the tool's schema.
	Arguments json.RawMessage
}

// Response is a model's answer.
type Response struct {
	// Text is the answer as the model wrote it.
	Text string
	// JSON is the answer validated against Request.Schema; nil without a
	// schema or when the model called a tool instead.
	JSON json.RawMessage
	// ToolCalls are the tools the model asked for, in order.
	ToolCalls []ToolCall
	// Usage is what producing this answer cost, retries and repair included.
	Usage Usage
	// Provider and Model name who answered, when the Chat was wrapped in
	// Instrumented (a Chain passes on the answering provider's).
	Provider, Model string
}

// Usage is the cost of one or more model calls.
type Usage struct {
	// Calls counts requests sent to a model, retries included.
	Calls int
	// InputTokens is the prompt size the providers reported.
	InputTokens int
	// OutputTokens is the answer size the providers reported.
	OutputTokens int
	// Latency is the wall time the caller waited, backoff included.
	Latency time.Duration
}

// Add returns the sum of u and v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		Calls:        u.Calls + v.Calls,
		InputTokens:  u.InputTokens + v.InputTokens,
		OutputTokens: u.OutputTokens + v.OutputTokens,
		Latency:      u.Latency + v.Latency,
	}
}

// Chat answers requests with a model. On error the Response carries only
// the Usage spent, so a Chain can account for failed attempts.
type Chat interface {
	Complete(ctx context.Context, r Request) (Response, error)
}

// ChatFunc turns a function into a Chat, the way http.HandlerFunc turns
// one into a Handler; fakes in tests and examples use it.
type ChatFunc func(ctx context.Context, r Request) (Response, error)

// Complete calls f.
func (f ChatFunc) Complete(ctx context.Context, r Request) (Response, error) { return f(ctx, r) }

// Embedder turns texts into vectors, one per text and in the same order.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, Usage, error)
}

var _ Chat = ChatFunc(nil)
