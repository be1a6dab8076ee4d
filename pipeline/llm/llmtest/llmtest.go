// Package llmtest is a test kit: one fake model server that speaks both
// the OpenAI-compatible API (chat completions, embeddings) and the Amazon
// Bedrock runtime API (Converse, InvokeModel for Titan embeddings), so
// tests drive the real SDK clients through their base-URL and endpoint
// settings, without network.
//
// A test scripts the fake with a Brain: a function from the call it
// received to the answer it gives. Token counts default to an estimate of
// the request and answer sizes, so usage accounting has plausible numbers.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Protocol names the API a call arrived on.
type Protocol string

// The protocols the fake speaks.
const (
	OpenAI  Protocol = "openai"
	Bedrock Protocol = "bedrock"
)

// Call is one chat request the fake received, flattened.
type Call struct {
	Protocol Protocol
	Model    string
	// System is the system prompt; User is every user and assistant
	// message joined by blank lines, in order.
	System string
	User   string
	// Schema is true when a structured (JSON schema) answer was asked for.
	Schema bool
	// MaxTokens is the answer bound the request carried, 0 if none.
	MaxTokens int
}

// Answer is what the fake says to one Call.
type Answer struct {
	// Text is the answer; with Call.Schema it must be the JSON document.
	Text string
	// Status, when not 0 or 200, is returned as an error status instead.
	Status int
	// Hang blocks until the client gives up, like a model that never answers.
	Hang bool
	// InputTokens and OutputTokens override the estimated usage.
	InputTokens, OutputTokens int
}

// Brain decides the fake's answer to each call. It may be called from
// several goroutines at once.
type Brain func(c Call) Answer

// Server is a running fake.
type Server struct {
	// URL is the server's root: Bedrock's EndpointURL; OpenAI's base URL is
	// URL+"/v1".
	URL   string
	brain Brain
	mu    sync.Mutex
	calls []Call
	embed int
}

// Estimate is the token estimate the fake reports when an Answer names no
// counts: one token per four bytes, at least one.
func Estimate(s string) int { return max(1, (len(s)+3)/4) }

// New starts a fake answering with brain; it stops when the test ends.
func New(t testing.TB, brain Brain) *Server {
	t.Helper()
	s := &Server{brain: brain}
	srv := httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(srv.Close)
	s.URL = srv.URL
	return s
}

// OpenAIBaseURL is the base URL to give an OpenAI-compatible client.
func (s *Server) OpenAIBaseURL() string { return s.URL + "/v1" }

// Calls returns the chat calls received so far, oldest first.
func (s *Server) Calls() []Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Call(nil), s.calls...)
}

// Embeddings counts the texts embedded so far.
func (s *Server) Embeddings() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.embed
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	switch {
	case strings.HasSuffix(r.URL.Path, "/chat/completions"):
		s.openAIChat(w, r, body)
	case strings.HasSuffix(r.URL.Path, "/embeddings"):
		s.openAIEmbed(w, body)
	case strings.HasPrefix(r.URL.Path, "/model/") && strings.HasSuffix(r.URL.Path, "/converse"):
		s.converse(w, r, body)
	case strings.HasPrefix(r.URL.Path, "/model/") && strings.HasSuffix(r.URL.Path, "/invoke"):
		s.titan(w, body)
	default:
		http.Error(w, `{"error":{"message":"unknown path"}}`, http.StatusNotFound)
	}
}

// think records the call and asks the brain; it returns false when the
// answer was an error or a hang, already handled.
func (s *Server) think(w http.ResponseWriter, r *http.Request, c Call) (Answer, bool) {
	s.mu.Lock()
	s.calls = append(s.calls, c)
	s.mu.Unlock()
	a := s.brain(c)
	if a.Hang {
		<-r.Context().Done()
		return a, false
	}
	if a.Status != 0 && a.Status != http.StatusOK {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Amzn-Errortype", "ServiceUnavailableException")
		w.WriteHeader(a.Status)
		fmt.Fprintf(w, `{"message":"scripted failure","error":{"message":"scripted failure"}}`)
		return a, false
	}
	if a.InputTokens == 0 {
		a.InputTokens = Estimate(c.System) + Estimate(c.User)
	}
	if a.OutputTokens == 0 {
		a.OutputTokens = Estimate(a.Text)
	}
	return a, true
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v) //nolint:errcheck // the client sees a short body
}

type openAIRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
	ResponseFormat *struct {
		Type string `json:"type"`
	} `json:"response_format"`
	MaxCompletionTokens int             `json:"max_completion_tokens"`
	Input               json.RawMessage `json:"input"`
	Dimensions          int             `json:"dimensions"`
}

// contentText reads an OpenAI message content: a string or text parts.
func contentText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	json.Unmarshal(raw, &parts) //nolint:errcheck // anything else has no text
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

func (s *Server) openAIChat(w http.ResponseWriter, r *http.Request, body []byte) {
	var req openAIRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c := Call{Protocol: OpenAI, Model: req.Model, MaxTokens: req.MaxCompletionTokens,
		Schema: req.ResponseFormat != nil && req.ResponseFormat.Type == "json_schema"}
	var user []string
	for _, m := range req.Messages {
		if m.Role == "system" || m.Role == "developer" {
			c.System += contentText(m.Content)
			continue
		}
		user = append(user, contentText(m.Content))
	}
	c.User = strings.Join(user, "\n\n")
	a, ok := s.think(w, r, c)
	if !ok {
		return
	}
	writeJSON(w, map[string]any{
		"id": "fake-1", "object": "chat.completion", "created": 1, "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": a.Text}}},
		"usage": map[string]any{"prompt_tokens": a.InputTokens, "completion_tokens": a.OutputTokens,
			"total_tokens": a.InputTokens + a.OutputTokens},
	})
}

// Vector is the fake's deterministic embedding of text: dims numbers
// derived from its bytes, so equal texts get equal vectors and texts
// sharing words get closer ones.
func Vector(text string, dims int) []float32 {
	if dims <= 0 {
		dims = 8
	}
	v := make([]float32, dims)
	for _, w := range strings.Fields(strings.ToLower(text)) {
		h := uint32(2166136261)
		for i := 0; i < len(w); i++ {
			h = (h ^ uint32(w[i])) * 16777619
		}
		// FNV's low bits depend only on the bytes' low bits: mix before
		// taking the bin, or short words collide.
		h ^= h >> 15
		h *= 0x2c1b3c6d
		h ^= h >> 12
		v[h%uint32(dims)] += 1
	}
	v[0] += 0.01 // never the zero vector
	return v
}

func (s *Server) openAIEmbed(w http.ResponseWriter, body []byte) {
	var req openAIRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var texts []string
	if err := json.Unmarshal(req.Input, &texts); err != nil {
		var one string
		if err := json.Unmarshal(req.Input, &one); err != nil {
			http.Error(w, "input: "+err.Error(), http.StatusBadRequest)
			return
		}
		texts = []string{one}
	}
	s.mu.Lock()
	s.embed += len(texts)
	s.mu.Unlock()
	data := make([]any, len(texts))
	tokens := 0
	for i, t := range texts {
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": Vector(t, req.Dimensions)}
		tokens += Estimate(t)
	}
	writeJSON(w, map[string]any{"object": "list", "model": req.Model, "data": data,
		"usage": map[string]any{"prompt_tokens": tokens, "total_tokens": tokens}})
}

type converseRequest struct {
	System []struct {
		Text string `json:"text"`
	} `json:"system"`
	Messages []struct {
		Role    string `json:"role"`
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
	} `json:"messages"`
	InferenceConfig struct {
		MaxTokens int `json:"maxTokens"`
	} `json:"inferenceConfig"`
	ToolConfig *struct {
		ToolChoice map[string]json.RawMessage `json:"toolChoice"`
	} `json:"toolConfig"`
}

func (s *Server) converse(w http.ResponseWriter, r *http.Request, body []byte) {
	var req converseRequest
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	model := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/model/"), "/converse")
	c := Call{Protocol: Bedrock, Model: model, MaxTokens: req.InferenceConfig.MaxTokens}
	for _, b := range req.System {
		c.System += b.Text
	}
	var user []string
	for _, m := range req.Messages {
		for _, b := range m.Content {
			if b.Text != "" {
				user = append(user, b.Text)
			}
		}
	}
	c.User = strings.Join(user, "\n\n")
	if req.ToolConfig != nil {
		_, c.Schema = req.ToolConfig.ToolChoice["tool"]
	}
	a, ok := s.think(w, r, c)
	if !ok {
		return
	}
	var block any = map[string]any{"text": a.Text}
	if c.Schema {
		block = map[string]any{"toolUse": map[string]any{"toolUseId": "t1", "name": "answer", "input": json.RawMessage(a.Text)}}
	}
	writeJSON(w, map[string]any{
		"output":     map[string]any{"message": map[string]any{"role": "assistant", "content": []any{block}}},
		"stopReason": "end_turn",
		"usage":      map[string]any{"inputTokens": a.InputTokens, "outputTokens": a.OutputTokens, "totalTokens": a.InputTokens + a.OutputTokens},
		"metrics":    map[string]any{"latencyMs": 1},
	})
}

func (s *Server) titan(w http.ResponseWriter, body []byte) {
	var req struct {
		InputText  string `json:"inputText"`
		Dimensions int    `json:"dimensions"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	s.embed++
	s.mu.Unlock()
	writeJSON(w, map[string]any{"embedding": Vector(req.InputText, req.Dimensions), "inputTextTokenCount": Estimate(req.InputText)})
}
