package scheduler_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
)

// TestBriefingGoingOn adds the memory graph's "what's going on" line:
// the storylines mentioned in the two weeks before the day.
func TestBriefingGoingOn(t *testing.T) {
	t.Parallel()
	b := setup(t, "Europe/Rome")
	ctx := context.Background()
	rome, _ := time.LoadLocation("Europe/Rome")
	uid := b.user.User.ID
	at := time.Date(2026, 3, 10, 7, 30, 0, 0, rome)
	move, err := b.st.SaveEntity(ctx, hearth.Entity{UserID: uid, Name: "house move", Kind: hearth.EntityProject})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if err := b.st.RecordMentions(ctx, []hearth.Mention{{EntityID: move.ID, Source: "s" + string(rune('a'+i)), At: at.AddDate(0, 0, -1-i)}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := b.st.PromoteStorylines(ctx, "Europe/Rome", at, at.AddDate(0, 0, -30), 3); err != nil {
		t.Fatal(err)
	}
	text, err := b.sched.Briefing(ctx, uid, rome, at, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text, "What's going on: house move.") {
		t.Errorf("briefing lacks the going-on line:\n%s", text)
	}
	// A month later the thread has gone quiet.
	if text, _ := b.sched.Briefing(ctx, uid, rome, at.AddDate(0, 1, 0), nil); strings.Contains(text, "going on") {
		t.Errorf("stale storyline in the briefing:\n%s", text)
	}
}
