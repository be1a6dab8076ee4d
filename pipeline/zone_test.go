package pipeline_test

import (
	"context"
	"errors"
	"testing"

	"github.com/hearthbot/hearth/pipeline"
)

type zoneFunc func(ctx context.Context, userKey string) (string, error)

func (f zoneFunc) UserTimezone(ctx context.Context, userKey string) (string, error) {
	return f(ctx, userKey)
}

// A channel's zone fills in an unknown one before the next handler runs;
// a known zone is never looked up; a failed or empty lookup leaves the
// zone unknown (so the user is asked) rather than failing the turn.
func TestTimezoneFromChannel(t *testing.T) {
	t.Parallel()
	b := setup(t, newCountingHandler())
	ctx := context.Background()
	tests := []struct {
		name     string
		known    string
		lookup   zoneFunc
		want     string
		wantCall bool
	}{
		{name: "filled", lookup: func(_ context.Context, key string) (string, error) { return "Asia/Tokyo", nil }, want: "Asia/Tokyo", wantCall: true},
		{name: "known", known: "Europe/Lisbon", lookup: func(context.Context, string) (string, error) { return "Asia/Tokyo", nil }, want: "Europe/Lisbon"},
		{name: "none", lookup: func(context.Context, string) (string, error) { return "", nil }, wantCall: true},
		{name: "failed", lookup: func(context.Context, string) (string, error) { return "", errors.New("429") }, wantCall: true},
		{name: "nonsense", lookup: func(context.Context, string) (string, error) { return "Mars/Base", nil }, wantCall: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := message("zed-"+tc.name, "zone-"+tc.name, "hello")
			in.Channel, in.Timezone = pipeline.ChannelSlack, tc.known
			r, err := b.inbox.Accept(ctx, in)
			if err != nil {
				t.Fatal(err)
			}
			var calledWith string
			lookup := zoneFunc(func(ctx context.Context, key string) (string, error) {
				calledWith = key
				return tc.lookup(ctx, key)
			})
			var saw string
			h := pipeline.TimezoneFromChannel(pipeline.ZoneConfig{Store: b.store, Lookup: func(ch pipeline.Channel) (pipeline.ZoneLookup, bool) {
				return lookup, ch == pipeline.ChannelSlack
			}}, pipeline.HandlerFunc(func(_ context.Context, turn pipeline.Turn) ([]pipeline.Outbound, error) {
				saw = turn.User.Timezone
				return nil, nil
			}))
			turn := pipeline.Turn{Event: pipeline.Event{ID: r.EventID, Channel: pipeline.ChannelSlack, Kind: pipeline.KindMessage, Text: "hello"},
				User: pipeline.User{ID: r.UserID, Timezone: tc.known}}
			if _, err := h.HandleTurn(ctx, turn); err != nil {
				t.Fatal(err)
			}
			if saw != tc.want || (calledWith != "") != tc.wantCall || (tc.wantCall && calledWith != in.UserKey) {
				t.Fatalf("next saw zone %q, lookup of %q; want %q, lookup %v", saw, calledWith, tc.want, tc.wantCall)
			}
			c, err := b.store.FindContact(ctx, pipeline.ChannelSlack, in.UserKey, in.ConversationKey)
			if err != nil || c.User.Timezone != tc.want {
				t.Fatalf("stored zone %q (%v); want %q", c.User.Timezone, err, tc.want)
			}
		})
	}
}
