package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// repairPrompt is appended, after the invalid answer, for the one repair
// attempt.
const repairPrompt = "Your previous answer was invalid: %s. Return only valid JSON matching the schema, with no other text."

// checker validates answers against a request's schema and tool schemas,
// compiled once per Complete.
type checker struct {
	answer *jsonschema.Resolved            // nil: free text
	tools  map[string]*jsonschema.Resolved // nil value: a tool without schema
}

func newChecker(r Request) (*checker, error) {
	c := &checker{tools: make(map[string]*jsonschema.Resolved, len(r.Tools))}
	if r.Schema != nil {
		rs, err := resolve(r.Schema)
		if err != nil {
			return nil, fmt.Errorf("request schema: %w", err)
		}
		c.answer = rs
	}
	for _, t := range r.Tools {
		if t.Name == "" {
			return nil, errors.New("tool without a name")
		}
		var rs *jsonschema.Resolved
		if t.Schema != nil {
			var err error
			if rs, err = resolve(t.Schema); err != nil {
				return nil, fmt.Errorf("tool %q schema: %w", t.Name, err)
			}
		}
		c.tools[t.Name] = rs
	}
	return c, nil
}

func resolve(schema json.RawMessage) (*jsonschema.Resolved, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(schema, &s); err != nil {
		return nil, fmt.Errorf("parse: %w", err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("resolve: %w", err)
	}
	return rs, nil
}

// check reports what is wrong with resp, or nil. A model that called a
// tool has answered through the tool, so the answer schema does not apply.
func (c *checker) check(resp Response) error {
	if len(resp.ToolCalls) > 0 {
		for _, tc := range resp.ToolCalls {
			rs, known := c.tools[tc.Name]
			if !known {
				return fmt.Errorf("call to unknown tool %q", tc.Name)
			}
			if err := validate(rs, tc.Arguments); err != nil {
				return fmt.Errorf("arguments of tool %q: %w", tc.Name, err)
			}
		}
		return nil
	}
	if c.answer == nil {
		return nil
	}
	if len(bytes.TrimSpace(resp.JSON)) == 0 {
		return errors.New("no JSON answer")
	}
	return validate(c.answer, resp.JSON)
}

func validate(rs *jsonschema.Resolved, raw json.RawMessage) error {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return fmt.Errorf("not JSON: %w", err)
	}
	if rs == nil {
		return nil
	}
	if err := rs.Validate(v); err != nil {
		return fmt.Errorf("does not match the schema: %w", err)
	}
	return nil
}

// complete is the flow every provider shares: one call with retries, a
// check of the answer, and at most one repair. call makes a single model
// call; inspect reads HTTP failures out of the provider's errors.
func complete(ctx context.Context, p Policy, provider string, r Request,
	call func(context.Context, Request) (Response, error), inspect func(error) httpFailure,
) (Response, error) {
	start := p.now()
	var used Usage
	done := func(resp Response, err error) (Response, error) {
		used.Latency = p.now().Sub(start)
		resp.Usage = used
		if err != nil {
			return Response{Usage: used}, fmt.Errorf("llm: %s: %w", provider, err)
		}
		return resp, nil
	}
	for _, m := range r.Messages {
		if m.Role != RoleSystem && m.Role != RoleUser && m.Role != RoleAssistant {
			return done(Response{}, fmt.Errorf("message role %q is not system, user or assistant", m.Role))
		}
	}
	c, err := newChecker(r)
	if err != nil {
		return done(Response{}, err)
	}
	send := func(r Request) (Response, error) {
		resp, u, err := p.retry(ctx, func(ctx context.Context) (Response, error) { return call(ctx, r) }, inspect)
		used = used.Add(u)
		return resp, err
	}
	resp, err := send(r)
	if err != nil {
		return done(Response{}, err)
	}
	problem := c.check(resp)
	if problem == nil {
		return done(resp, nil)
	}
	// One repair: show the model its answer and what is wrong with it.
	// Local models in particular often get it right the second time.
	repair := r
	repair.Messages = append(slices.Clip(r.Messages),
		Message{Role: RoleAssistant, Text: answerText(resp)},
		Message{Role: RoleUser, Text: fmt.Sprintf(repairPrompt, problem)},
	)
	if resp, err = send(repair); err != nil {
		return done(Response{}, fmt.Errorf("repairing an invalid answer (%v): %w", problem, err))
	}
	if problem = c.check(resp); problem != nil {
		return done(Response{}, fmt.Errorf("%w even after a repair attempt: %w", ErrInvalidOutput, problem))
	}
	return done(resp, nil)
}

// answerText is the invalid answer as the model should see it again.
func answerText(resp Response) string {
	var b strings.Builder
	b.WriteString(resp.Text)
	if len(resp.JSON) > 0 && string(resp.JSON) != strings.TrimSpace(resp.Text) {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.Write(resp.JSON)
	}
	for _, tc := range resp.ToolCalls {
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%s(%s)", tc.Name, tc.Arguments)
	}
	if b.Len() == 0 {
		return "(empty answer)"
	}
	return b.String()
}

// stripFence removes a Markdown code fence around a JSON answer, which
// local models add even when asked for JSON only.
func stripFence(s string) string {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "```") || !strings.HasSuffix(t, "```") || len(t) < 6 {
		return t
	}
	t = strings.TrimSuffix(t[3:], "```")
	if i := strings.IndexByte(t, '\n'); i >= 0 && !strings.ContainsAny(t[:i], "{[") {
		t = t[i+1:] // drop the language tag ("json")
	}
	return strings.TrimSpace(t)
}
