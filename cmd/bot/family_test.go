package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/scheduler"
)

// TestFamilyScenario: two people form a family in the web chat, and one's
// briefing (asked for, and scheduled) shows the other's event, until she
// shares only basics.
func TestFamilyScenario(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	gran := newChatter(t, base, app, "Grandma", "Europe/Berlin")
	emma := newChatter(t, base, app, "Emma", "Europe/Berlin")
	emma.say("stop my briefings") // only Grandma's is fired below

	invite := gran.say("Start a family")
	mustContain(t, invite, "family is set up", "join family")
	code := regexp.MustCompile(`[A-Z2-9]{4}-[A-Z2-9]{4}`).FindString(invite.Text)
	if code == "" {
		t.Fatalf("no code in %q", invite.Text)
	}
	mustContain(t, emma.say("join family "+code), "welcome to grandma's family", "grandma")
	mustContain(t, emma.say("who is in my family?"), "you, Grandma", "Grandma sees your events and milestones")

	mustContain(t, emma.say("Add school play tomorrow at 6pm to my calendar"), "school play")
	briefing := gran.say("briefing now")
	mustContain(t, briefing, "Family updates", "Emma:", "6:00 PM — School play")

	// The scheduled 07:30 briefing has it too.
	berlin, _ := time.LoadLocation("Europe/Berlin")
	now := time.Now().In(berlin)
	at := time.Date(now.Year(), now.Month(), now.Day(), 7, 30, 0, 0, berlin)
	if !at.After(now) {
		at = at.AddDate(0, 0, 1)
	}
	clock := &fakeClock{t: at.Add(-time.Minute)}
	sched := scheduler.New(scheduler.Config{Store: app.Store, Now: clock.Now,
		Visible: func(ch hearth.Channel) bool { return ch == hearth.ChannelWebchat }})
	fireDue(t, app, sched)
	clock.Set(at)
	fireDue(t, app, sched)
	mustContain(t, gran.reply("the scheduled briefing"), "Family updates", "Emma:", "School play")

	// Emma shares only basics with Grandma: the section goes.
	mustContain(t, emma.say("let Grandma see only basics"), "Grandma now sees only your basics")
	if b := gran.say("briefing now"); strings.Contains(b.Text, "School play") || strings.Contains(b.Text, "Family updates") {
		t.Fatalf("briefing after Emma shared only basics: %q", b.Text)
	}
	// Back to events, and Grandma skips the section herself.
	mustContain(t, emma.say("let Grandma see my events"), "events and milestones")
	mustContain(t, gran.say("skip the family section"), "family section out")
	if b := gran.say("briefing now"); strings.Contains(b.Text, "School play") {
		t.Fatalf("briefing with the family section skipped: %q", b.Text)
	}
	mustContain(t, gran.say("leave my family"), "left Grandma's family")
	mustContain(t, emma.say("who is in my family"), "just you")
}
