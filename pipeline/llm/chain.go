package llm

import (
	"context"
	"errors"
	"fmt"
)

// Chain is a Chat that asks each Chat in order and returns the first
// answer. The caller ends its own chain with the offline engine, so a Chain
// failing means "use the offline answer", never "no reply".
type Chain []Chat

var _ Chat = Chain(nil)

// Complete returns the first successful answer, with the Usage of every
// attempt summed into it. When all fail, the error joins theirs, so
// errors.Is finds any of their sentinels. A caller that cancels stops the
// chain.
func (c Chain) Complete(ctx context.Context, r Request) (Response, error) {
	if len(c) == 0 {
		return Response{}, fmt.Errorf("llm: %w: no provider configured", ErrUnavailable)
	}
	var used Usage
	var errs []error
	for i, chat := range c {
		resp, err := chat.Complete(ctx, r)
		used = used.Add(resp.Usage)
		if err == nil {
			resp.Usage = used
			return resp, nil
		}
		errs = append(errs, fmt.Errorf("provider %d: %w", i+1, err))
		if ctx.Err() != nil {
			break
		}
	}
	return Response{Usage: used}, fmt.Errorf("llm: every provider failed: %w", errors.Join(errs...))
}
