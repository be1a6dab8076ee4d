package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store"
)

func tailCount(args []string) (int, error) {
	if len(args) == 0 {
		return 20, nil
	}
	if len(args) == 2 && args[0] == "-n" {
		if n, err := strconv.Atoi(args[1]); err == nil && n > 0 && n <= 1000 {
			return n, nil
		}
	}
	return 0, fmt.Errorf("usage: bot turns tail [-n N] (N from 1 to 1000)")
}

// TurnsTail prints the newest n turn traces, oldest first, one per line.
func TurnsTail(ctx context.Context, cfg Config, n int, out io.Writer) error {
	st, err := store.Open(ctx, cfg.DatabaseURL, store.Config{MaxConns: 2})
	if err != nil {
		return err
	}
	defer st.Close()
	traces, err := st.RecentTraces(ctx, n)
	if err != nil {
		return err
	}
	for i := len(traces) - 1; i >= 0; i-- {
		fmt.Fprintln(out, formatTrace(traces[i]))
	}
	return nil
}

func formatTrace(t hearth.Trace) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s turn=%d conv=%d user=%d intent=%s", t.CreatedAt.UTC().Format("2006-01-02T15:04:05Z"), t.EventID, t.ConversationID, t.UserID, t.Intent)
	if len(t.Domains) > 0 {
		fmt.Fprintf(&b, "[%s]", strings.Join(t.Domains, ","))
	}
	fmt.Fprintf(&b, " conf=%.2f", t.Confidence)
	for _, stage := range []string{"intent", "context", "plan", "action", "respond", "total"} {
		if us, ok := t.Timings[stage]; ok {
			fmt.Fprintf(&b, " %s=%.1fms", stage, float64(us)/1000)
		}
	}
	for _, a := range t.Actions {
		fmt.Fprintf(&b, " %s:%s", a.Kind, a.Status)
		if a.Error != "" {
			fmt.Fprintf(&b, "(%s)", a.Error)
		}
	}
	fmt.Fprintf(&b, " model_calls=%d tokens=%d/%d", t.ModelCalls, t.InputTokens, t.OutputTokens)
	for _, m := range t.Models {
		switch {
		case m.Skipped != "":
			fmt.Fprintf(&b, " %s:offline(%s)", m.Stage, m.Skipped)
		default:
			fmt.Fprintf(&b, " %s:%s/%s(calls=%d tokens=%d/%d", m.Stage, m.Provider, m.Model, m.Calls, m.InputTokens, m.OutputTokens)
			if m.Budget > 0 {
				fmt.Fprintf(&b, " prompt=%d/%d", m.PromptTokens, m.Budget)
			}
			if m.Dropped > 0 {
				fmt.Fprintf(&b, " dropped=%d", m.Dropped)
			}
			if m.CostUSD > 0 {
				fmt.Fprintf(&b, " cost=$%.6f", m.CostUSD)
			}
			if m.Error != "" {
				fmt.Fprintf(&b, " error=%s", m.Error)
			}
			b.WriteString(")")
		}
	}
	return b.String()
}
