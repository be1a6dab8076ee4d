package llm

import (
	"context"
	"errors"
	"testing"
)

func TestChain(t *testing.T) {
	t.Parallel()

	fail := func(err error) Chat {
		return ChatFunc(func(context.Context, Request) (Response, error) {
			return Response{Usage: Usage{Calls: 1, InputTokens: 3}}, err
		})
	}
	ok := func(text string) Chat {
		return ChatFunc(func(context.Context, Request) (Response, error) {
			return Response{Text: text, Usage: Usage{Calls: 1, InputTokens: 10, OutputTokens: 2}}, nil
		})
	}

	tests := []struct {
		name      string
		chain     Chain
		wantText  string
		wantErrs  []error
		wantUsage Usage
	}{
		{name: "first answers", chain: Chain{ok("one"), ok("two")}, wantText: "one", wantUsage: Usage{Calls: 1, InputTokens: 10, OutputTokens: 2}},
		{
			name: "falls through errors", chain: Chain{fail(ErrTimeout), fail(ErrRateLimited), ok("three")},
			wantText: "three", wantUsage: Usage{Calls: 3, InputTokens: 16, OutputTokens: 2},
		},
		{
			name: "all fail", chain: Chain{fail(ErrTimeout), fail(ErrInvalidOutput)},
			wantErrs: []error{ErrTimeout, ErrInvalidOutput}, wantUsage: Usage{Calls: 2, InputTokens: 6},
		},
		{name: "empty", chain: nil, wantErrs: []error{ErrUnavailable}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			resp, err := tt.chain.Complete(context.Background(), Request{})
			if len(tt.wantErrs) == 0 && err != nil {
				t.Fatalf("err = %v", err)
			}
			for _, want := range tt.wantErrs {
				if !errors.Is(err, want) {
					t.Errorf("err = %v, want it to wrap %v", err, want)
				}
			}
			if resp.Text != tt.wantText || resp.Usage != tt.wantUsage {
				t.Errorf("resp = %+v, want text %q usage %+v", resp, tt.wantText, tt.wantUsage)
			}
		})
	}
}

func TestChainStopsWhenCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	second := false
	c := Chain{
		ChatFunc(func(context.Context, Request) (Response, error) {
			cancel()
			return Response{}, context.Canceled
		}),
		ChatFunc(func(context.Context, Request) (Response, error) {
			second = true
			return Response{}, nil
		}),
	}
	if _, err := c.Complete(ctx, Request{}); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if second {
		t.Error("the chain went on after the caller cancelled")
	}
}
