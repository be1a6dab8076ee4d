package pipeline_test

import (
	"cmp"
	"context"
	"errors"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
)

type profileFunc func(ctx context.Context, userKey string) (pipeline.Profile, error)

func (f profileFunc) UserProfile(ctx context.Context, userKey string) (pipeline.Profile, error) {
	return f(ctx, userKey)
}

// A channel's zone and name fill in an unknown user's before the next
// handler runs; a known zone is never looked up; a failed or empty lookup
// leaves the zone unknown (so the user is asked) rather than failing the
// turn; a name that is no name (control characters) is not stored.
func TestProfileFromChannel(t *testing.T) {
	t.Parallel()
	b := setup(t, newCountingHandler())
	ctx := context.Background()
	tests := []struct {
		name     string
		known    string
		lookup   profileFunc
		want     string
		wantName string // "" keeps the name given at ingress
		wantCall bool
	}{
		{name: "filled", lookup: func(_ context.Context, key string) (pipeline.Profile, error) {
			return pipeline.Profile{Timezone: "Asia/Tokyo", Name: "  Ann   Lee "}, nil
		}, want: "Asia/Tokyo", wantName: "Ann Lee", wantCall: true},
		{name: "known", known: "Europe/Lisbon", lookup: func(context.Context, string) (pipeline.Profile, error) {
			return pipeline.Profile{Timezone: "Asia/Tokyo", Name: "Ann Lee"}, nil
		}, want: "Europe/Lisbon"},
		{name: "none", lookup: func(context.Context, string) (pipeline.Profile, error) { return pipeline.Profile{Name: "Bo"}, nil }, wantName: "Bo", wantCall: true},
		{name: "failed", lookup: func(context.Context, string) (pipeline.Profile, error) { return pipeline.Profile{}, errors.New("429") }, wantCall: true},
		{name: "nonsense", lookup: func(context.Context, string) (pipeline.Profile, error) {
			return pipeline.Profile{Timezone: "Mars/Base", Name: "evil\x00name"}, nil
		}, wantCall: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := message("zed-"+tc.name, "zone-"+tc.name, "hello")
			in.Channel, in.Timezone = hearth.ChannelSlack, tc.known
			r, err := b.inbox.Accept(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			var calledWith string
			lookup := profileFunc(func(ctx context.Context, key string) (pipeline.Profile, error) {
				calledWith = key
				return tc.lookup(ctx, key)
			})
			var saw, sawName string
			h := pipeline.ProfileFromChannel(pipeline.ProfileConfig{Store: b.store, Lookup: func(ch hearth.Channel) (pipeline.ProfileLookup, bool) {
				return lookup, ch == hearth.ChannelSlack
			}}, pipeline.HandlerFunc(func(_ context.Context, turn pipeline.Turn) (pipeline.Answer, error) {
				saw, sawName = turn.User.Timezone, turn.User.DisplayName
				return pipeline.Answer{}, nil
			}))
			turn := pipeline.Turn{Event: hearth.InboundEvent{ID: r.EventID, Channel: hearth.ChannelSlack, Kind: hearth.KindMessage, Text: "hello"},
				User: hearth.User{ID: r.UserID, DisplayName: in.UserName, Timezone: tc.known}}
			if _, err := h.HandleTurn(ctx, turn); err != nil {
				t.Fatal(err)
			}
			if saw != tc.want || (calledWith != "") != tc.wantCall || (tc.wantCall && calledWith != in.UserKey) {
				t.Fatalf("next saw zone %q, lookup of %q; want %q, lookup %v", saw, calledWith, tc.want, tc.wantCall)
			}
			c, err := b.store.FindContact(ctx, hearth.ChannelSlack, in.UserKey, in.ConversationKey)
			if err != nil || c.User.Timezone != tc.want {
				t.Fatalf("stored zone %q (%v); want %q", c.User.Timezone, err, tc.want)
			}
			wantName := cmp.Or(tc.wantName, in.UserName)
			if c.User.DisplayName != wantName || sawName != wantName {
				t.Fatalf("stored name %q, next saw %q; want %q", c.User.DisplayName, sawName, wantName)
			}
		})
	}
}
