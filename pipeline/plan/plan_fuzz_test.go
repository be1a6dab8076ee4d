package plan

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/respond"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/stage/stagetest"
)

// FuzzPlan runs the classifier and then every planner (not only the
// named ones, since a model-backed intent stage may name any) on
// arbitrary text: no panic, and every action validates.
func FuzzPlan(f *testing.F) {
	for _, s := range []string{
		"Remind me to call mom tomorrow at 5pm",
		"Remember that John's birthday is March 15th",
		"I just closed on my house! Add it to my calendar for celebration dinner Saturday",
		"Email Sarah that I'll be late",
		"Add milk to my shopping list",
		"Add eggs, bread and milk to the grocery list and remind me to call the plumber",
		"Mark buy as done",
		"Cancel the team meeting",
		"Move my dentist appointment to Friday at 3pm",
		"Invite Anna and Tom Lee to dinner on Saturday at 7",
		"Forget that John's birthday is March 15th",
		"make a note:",
		"add , and , to my list",
		"email  that",
		"remind me to it",
		"schedule with with with",
		"",
		"!!!",
		"tell Sarah: ",
		"cross milk off our shopping list",
		"untick  on the list",
		"put back on list",
		"tick off off on on the list",
		"change the call reminder to 4pm", "move it to 11", "cancel it", "rename it to", "rename  to x",
		"rename the call with Bob to budget review", "push my 3pm to Thursday", "change to to to",
		"move the pasport to Saturday", "change the time of to 5", "remind me tomorrow", "email Sam", "add a task",
	} {
		f.Add(s)
	}
	z, err := time.LoadLocation("America/New_York")
	if err != nil {
		f.Fatal(err)
	}
	fixture := stagetest.Fixture(f)
	ps := Planners()
	r := respond.NewTemplateResponder(nil)
	f.Fuzz(func(t *testing.T, text string) {
		now := time.Date(2026, 3, 8, 1, 30, 0, 0, z)
		c := fixture
		c.Now = now
		res := stagetest.Classifier().Classify(text, nil, now)
		in := stage.PlanInput{Text: text, Understanding: res, User: hearth.User{DisplayName: "Alex"}, Context: c}
		var outcomes []stage.Outcome
		for d, p := range ps {
			plan, err := p.Plan(context.Background(), in)
			if err != nil {
				continue
			}
			acts := plan.Actions
			if plan.Question != nil {
				if len(plan.Question.Options) == 0 && plan.Question.Fill == nil {
					t.Errorf("%s: a question without options", d)
				}
				// A question for the rest of a request takes an answer.
				if f := plan.Question.Fill; f != nil && f.Want == stage.FillRequest {
					if whole, ok := Continue(*f, "call the bank"); !ok || !strings.HasPrefix(whole, f.Request) {
						t.Errorf("%s: the rest of %q does not continue it: %q %v", d, f.Request, whole, ok)
					}
				}
				for _, o := range plan.Question.Options {
					acts = append(acts, o.Actions...)
				}
			}
			for _, a := range acts {
				if err := a.Validate(); err != nil {
					t.Errorf("%s planned an invalid %s for %q: %v", d, a.Kind, text, err)
				}
				outcomes = append(outcomes, stage.Outcome{Action: a, Status: stage.Done})
			}
		}
		// Whatever was planned can be described.
		if _, err := r.Respond(context.Background(), stage.RespondInput{Text: text, Understanding: res, Context: c, Outcomes: outcomes}); err != nil {
			t.Errorf("respond: %v", err)
		}
		_ = respond.DoneFallback(outcomes)
	})
}

// FuzzInviteParts: whatever the text, an invitation names at least one
// person, each an address or a name, and an event.
func FuzzInviteParts(f *testing.F) {
	for _, s := range []string{"Add Sam to my dentist appointment", "invite a, B and c@d.e to the x", "add  to ", "invite Ünal to the party!!"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		people, ref, ok := InviteParts(text)
		if !ok {
			return
		}
		if len(people) == 0 || strings.TrimSpace(ref) == "" {
			t.Fatalf("InviteParts(%q) = %q, %q: an invitation of no one or to nothing", text, people, ref)
		}
		for _, p := range people {
			if !isAddressOrName(p) {
				t.Fatalf("InviteParts(%q): %q is no one", text, p)
			}
		}
	})
}
