package hearth

import "time"

// Trace is what one turn left behind for operators: what was understood,
// how long each stage took, what was done, what models cost.
type Trace struct {
	EventID        int64            `json:"event_id"`
	ConversationID int64            `json:"conversation_id"`
	UserID         int64            `json:"user_id"`
	Intent         string           `json:"intent"`
	Domains        []string         `json:"domains"`
	Confidence     float64          `json:"confidence"`
	Timings        map[string]int64 `json:"timings_us"`
	Actions        []TraceAction    `json:"actions"`
	ModelCalls     int              `json:"model_calls"`
	InputTokens    int              `json:"input_tokens"`
	OutputTokens   int              `json:"output_tokens"`
	// Models details each model call: stage, provider, model, tokens, the
	// prompt's budget and what was cut to fit it (migration 00007).
	Models    []TraceModel `json:"models,omitempty"`
	CreatedAt time.Time    `json:"created_at"`
}

// TraceAction is one action of a traced turn and its outcome.
type TraceAction struct {
	Kind   string `json:"kind"`
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
}

// TraceModel is one model call of a traced turn, or a stage that
// skipped its model (Skipped says why: confident, simple, template, budget,
// deadline).
type TraceModel struct {
	Stage    string `json:"stage"`
	Provider string `json:"provider,omitempty"`
	Model    string `json:"model,omitempty"`
	Calls    int    `json:"calls,omitempty"`
	// PromptTokens is the estimated prompt size; Budget its limit; Dropped
	// how many context items were cut to fit.
	PromptTokens int     `json:"prompt_tokens,omitempty"`
	Budget       int     `json:"budget,omitempty"`
	Dropped      int     `json:"dropped,omitempty"`
	InputTokens  int     `json:"input_tokens,omitempty"`
	OutputTokens int     `json:"output_tokens,omitempty"`
	LatencyMS    int64   `json:"latency_ms,omitempty"`
	CostUSD      float64 `json:"cost_usd,omitempty"`
	Error        string  `json:"error,omitempty"`
	Skipped      string  `json:"skipped,omitempty"`
}
