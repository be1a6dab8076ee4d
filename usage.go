package hearth

import "time"

// Usage is what model calls of one stage cost: a row of llm_usage.
type Usage struct {
	// UserID is whom the calls were for; 0 for background work of no one
	// user.
	UserID int64
	// EventID is the turn they were made in; 0 outside turns.
	EventID int64
	// Day is the user's local date of the calls (only its Y-M-D is
	// stored): the daily budget resets at the user's midnight.
	Day time.Time
	// Stage is intent, plan_<domain>, reply, embed, or budget (the daily
	// budget notice, no calls).
	Stage string
	// Provider and Model name who answered.
	Provider string
	Model    string
	// Calls counts requests, retries and repairs included.
	Calls int
	// InputTokens and OutputTokens are what the providers reported.
	InputTokens  int
	OutputTokens int
	// Latency is the wall time waited.
	Latency time.Duration
	// CostUSD is the estimate from the configured price table.
	CostUSD float64
	// Error is the failure reason (timeout, unavailable, …), empty on
	// success.
	Error string
}

// UsageTotals sums usage rows.
type UsageTotals struct {
	Calls        int
	InputTokens  int
	OutputTokens int
	CostUSD      float64
}

// DailyUsage is one user's (or the background jobs') model use on one day.
type DailyUsage struct {
	// UserID is 0 for background work (the embedding job).
	UserID int64
	// User is the user's display name, empty for background work.
	User string
	Day  time.Time
	UsageTotals
}
