package plan

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/stage/stagetest"
)

func mustZone(t testing.TB, name string) *time.Location {
	t.Helper()
	z, err := time.LoadLocation(name)
	if err != nil {
		t.Fatalf("load zone %s: %v", name, err)
	}
	return z
}

// planned is what every named planner made of one message.
type plannedTurn struct {
	res       nlu.Result
	actions   []action.Action
	questions []*stage.Question
	errs      []error
	plans     []stage.Plan
}

// planText classifies text like the runner does and runs the planner of
// every named domain.
func planText(t testing.TB, text string, c stage.Context) plannedTurn {
	t.Helper()
	var recent []nlu.Turn // nil: no conversation known
	for _, m := range c.Recent {
		recent = append(recent, nlu.Turn{FromBot: m.From == hearth.FromBot, Text: m.Text})
	}
	res := stagetest.Classifier().Classify(text, recent, c.Now)
	if res.Intent == nlu.Followup && res.RequiresAction {
		res.Intent = nlu.RequestAction // as the runner does
	}
	in := stage.PlanInput{Text: text, Understanding: res, User: hearth.User{ID: 1, DisplayName: "Alex Kim", Timezone: "America/New_York"}, Context: c}
	out := plannedTurn{res: res}
	ps := Planners()
	for _, d := range res.Domains {
		p, err := ps[d].Plan(context.Background(), in)
		out.plans = append(out.plans, p)
		if err != nil {
			out.errs = append(out.errs, err)
			continue
		}
		out.actions = append(out.actions, p.Actions...)
		if p.Question != nil {
			out.questions = append(out.questions, p.Question)
		}
		for _, a := range p.Actions {
			if err := a.Validate(); err != nil {
				t.Errorf("%q: invalid action %s: %v", text, a.Kind, err)
			}
		}
	}
	return out
}

func (p plannedTurn) only(t testing.TB, kind action.Kind) action.Action {
	t.Helper()
	var got []action.Action
	for _, a := range p.actions {
		if a.Kind == kind {
			got = append(got, a)
		}
	}
	if len(got) != 1 {
		t.Fatalf("want one %s, got actions %v (intent %s, domains %v, errs %v)", kind, kindsOf(p.actions), p.res.Intent, p.res.Domains, p.errs)
	}
	return got[0]
}

func kindsOf(as []action.Action) []action.Kind {
	var out []action.Kind
	for _, a := range as {
		out = append(out, a.Kind)
	}
	return out
}

func decode[T any](t testing.TB, a action.Action) T {
	t.Helper()
	v, err := action.Decode[T](a)
	if err != nil {
		t.Fatalf("decode %s: %v", a.Kind, err)
	}
	return v
}

func TestPlanScenarios(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	z := c.Location
	at := func(d, h, m int) time.Time { return time.Date(2026, 3, d, h, m, 0, 0, z) }
	day := func(d int) time.Time { return time.Date(2026, 3, d, 0, 0, 0, 0, z) }
	// The people emails go to, with their addresses.
	c.Entities = append(c.Entities, hearth.Entity{ID: 50, UserID: 1, Name: "Sarah"}, hearth.Entity{ID: 51, UserID: 1, Name: "Mr. Hale", Aliases: []string{"the landlord"}})
	c.Memories = append(c.Memories,
		hearth.Memory{ID: 500, UserID: 1, EntityID: 50, Attribute: hearth.AttrEmail, Value: "sarah@example.com", Content: "Sarah's email is sarah@example.com"},
		hearth.Memory{ID: 501, UserID: 1, EntityID: 51, Attribute: hearth.AttrEmail, Value: "hale@example.com", Content: "The landlord's email is hale@example.com"})

	tests := []struct {
		text  string
		check func(t *testing.T, p plannedTurn)
	}{
		// Tasks.
		{"Remind me to call mom tomorrow at 5pm", func(t *testing.T, p plannedTurn) {
			a := decode[action.TaskCreateArgs](t, p.only(t, action.TaskCreate))
			if a.Title != "Call mom" || !a.Due.Equal(at(11, 17, 0)) || a.AllDay {
				t.Errorf("got %+v", a)
			}
			if a.Due.Location().String() != "America/New_York" && a.Due.Format("-07:00") != "-04:00" {
				t.Errorf("due %v not in the user's zone", a.Due)
			}
		}},
		{"Remind me to pay rent on April 1", func(t *testing.T, p plannedTurn) {
			a := decode[action.TaskCreateArgs](t, p.only(t, action.TaskCreate))
			if a.Title != "Pay rent" || !a.Due.Equal(time.Date(2026, 4, 1, 0, 0, 0, 0, z)) || !a.AllDay {
				t.Errorf("got %+v", a)
			}
		}},
		// A bare imperative with a date is a task too.
		{"Pay rent on Friday", func(t *testing.T, p plannedTurn) {
			a := decode[action.TaskCreateArgs](t, p.only(t, action.TaskCreate))
			if a.Title != "Pay rent" || !a.Due.Equal(day(13)) || !a.AllDay {
				t.Errorf("got %+v", a)
			}
		}},
		{"please pay the electricity bill by Friday", func(t *testing.T, p plannedTurn) {
			a := decode[action.TaskCreateArgs](t, p.only(t, action.TaskCreate))
			if a.Title != "Pay the electricity bill" || a.Due.Day() != 13 {
				t.Errorf("got %+v", a)
			}
		}},
		// Telling of an event keeps it, under its own name.
		{"I have a doctor's appointment on Thursday at 3pm", func(t *testing.T, p plannedTurn) {
			a := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
			if a.Title != "Doctor's appointment" || !a.Start.Equal(at(12, 15, 0)) {
				t.Errorf("got %+v", a)
			}
		}},
		{"I've got a dentist appointment on Friday at 10am", func(t *testing.T, p plannedTurn) {
			a := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
			if a.Title != "Dentist appointment" || !a.Start.Equal(at(13, 10, 0)) {
				t.Errorf("got %+v", a)
			}
		}},
		// "After" the time said is that time, not part of the title.
		{"I'm at the dentist until 4, remind me to call mom after", func(t *testing.T, p plannedTurn) {
			a := decode[action.TaskCreateArgs](t, p.only(t, action.TaskCreate))
			if a.Title != "Call mom" || a.Due.Hour() != 16 {
				t.Errorf("got %+v", a)
			}
		}},
		{"Remind me to take out the trash", func(t *testing.T, p plannedTurn) {
			a := decode[action.TaskCreateArgs](t, p.only(t, action.TaskCreate))
			if a.Title != "Take out the trash" || !a.Due.IsZero() {
				t.Errorf("got %+v", a)
			}
		}},
		{"Add call the bank to my to-do list", func(t *testing.T, p plannedTurn) {
			a := decode[action.TaskCreateArgs](t, p.only(t, action.TaskCreate))
			if a.Title != "Call the bank" {
				t.Errorf("got %+v", a)
			}
		}},
		{"Remind me next week to renew my passport", func(t *testing.T, p plannedTurn) {
			a := decode[action.TaskCreateArgs](t, p.only(t, action.TaskCreate))
			if a.Title != "Renew my passport" || !a.Due.Equal(day(16)) || !a.AllDay {
				t.Errorf("got %+v", a)
			}
		}},
		{"I have to submit the taxes by Friday", func(t *testing.T, p plannedTurn) {
			a := decode[action.TaskCreateArgs](t, p.only(t, action.TaskCreate))
			if a.Title != "Submit the taxes" || !a.Due.Equal(day(13)) || !a.AllDay {
				t.Errorf("got %+v", a)
			}
		}},
		// Moved by an amount: from when it was due.
		{"Push the call mom reminder by 30 minutes", func(t *testing.T, p plannedTurn) {
			a := decode[action.TaskUpdateArgs](t, p.only(t, action.TaskUpdate))
			if a.ID != 1 || a.Update.Due == nil || !a.Update.Due.Equal(at(10, 17, 30)) || a.Update.AllDay == nil || *a.Update.AllDay {
				t.Errorf("got %+v", a)
			}
		}},
		{"push the quarterly report back by 2 days", func(t *testing.T, p plannedTurn) {
			a := decode[action.TaskUpdateArgs](t, p.only(t, action.TaskUpdate))
			if a.ID != 2 || a.Update.Due == nil || !a.Update.Due.Equal(day(14)) || a.Update.AllDay == nil || !*a.Update.AllDay {
				t.Errorf("got %+v", a)
			}
		}},
		// Someone else is not reminded: the user is offered the reminder
		// to tell them, at the same time.
		{"Remind Ben to take out the trash tonight", func(t *testing.T, p plannedTurn) {
			if len(p.actions) != 0 || len(p.questions) != 1 || len(p.questions[0].Options) != 1 || p.questions[0].Options[0].Label != "Yes" {
				t.Fatalf("planned %+v, questions %+v; want one question", p.actions, p.questions)
			}
			acts := p.questions[0].Options[0].Actions
			a := decode[action.TaskCreateArgs](t, acts[0])
			if len(acts) != 1 || a.Title != "Tell Ben to take out the trash" || !a.Due.Equal(at(10, 21, 0)) {
				t.Errorf("offered %+v", a)
			}
		}},
		// A repeating event: its first occurrence, and the rule in the
		// user's zone from today.
		{"add yoga every Tuesday at 6pm to my calendar", func(t *testing.T, p plannedTurn) {
			a := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
			if a.Title != "Yoga" || !a.Start.Equal(at(10, 18, 0)) || !a.End.Equal(at(10, 19, 0)) || a.AllDay || a.Zone != "America/New_York" ||
				a.Repeat == nil || a.Repeat.String() != "every Tuesday at 18:00" || a.Repeat.Start.IsZero() {
				t.Errorf("got %+v (repeat %+v)", a, a.Repeat)
			}
		}},
		// No time of day: all day, today's included.
		{"bin day every Tuesday", func(t *testing.T, p plannedTurn) {
			a := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
			if a.Title != "Bin day" || !a.Start.Equal(at(10, 0, 0)) || !a.End.Equal(at(11, 0, 0)) || !a.AllDay || a.Repeat == nil {
				t.Errorf("got %+v", a)
			}
		}},
		{"book club on the first Thursday of every month at 8pm", func(t *testing.T, p plannedTurn) {
			a := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
			// March's first Thursday, the 5th, is past.
			if a.Title != "Book club" || !a.Start.Equal(time.Date(2026, 4, 2, 20, 0, 0, 0, z)) ||
				a.Repeat == nil || a.Repeat.String() != "on the first Thursday of every month at 20:00" {
				t.Errorf("got %+v (repeat %v)", a, a.Repeat)
			}
		}},
		// A part of the day that names the event stays in its title.
		{"parents evening on Thursday at 6:30", func(t *testing.T, p plannedTurn) {
			a := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
			if a.Title != "Parents evening" || !a.Start.Equal(at(12, 18, 30)) {
				t.Errorf("got %+v", a)
			}
		}},
		{"Add dinner with Sam to my calendar tomorrow evening", func(t *testing.T, p plannedTurn) {
			a := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
			if a.Title != "Dinner with Sam" {
				t.Errorf("got %+v", a)
			}
		}},
		// Until a day, that day included; for weeks, from the first.
		{"team standup every weekday at 9:30 until March 20", func(t *testing.T, p plannedTurn) {
			a := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
			if a.Title != "Team standup" || a.Repeat == nil || a.Repeat.Until.String() != "2026-03-20" {
				t.Errorf("got %+v (repeat %+v)", a, a.Repeat)
			}
		}},
		{"add movie night every Friday at 7pm to my calendar for 4 weeks", func(t *testing.T, p plannedTurn) {
			a := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
			if a.Title != "Movie night" || a.Repeat == nil || a.Repeat.Until.String() != "2026-04-09" || !a.Start.Equal(at(13, 19, 0)) {
				t.Errorf("got %+v (repeat %+v)", a, a.Repeat)
			}
		}},
		{"she has piano every Saturday at 11", func(t *testing.T, p plannedTurn) {
			a := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
			if a.Title != "Piano" || a.Repeat == nil {
				t.Errorf("got %+v", a)
			}
		}},
		{"the kids have swimming every Wednesday at 4pm", func(t *testing.T, p plannedTurn) {
			a := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
			if a.Title != "Kids' swimming" || !a.Start.Equal(at(11, 16, 0)) || a.Repeat == nil {
				t.Errorf("got %+v", a)
			}
		}},
		// A morning is due at 8, as "every morning" repeats: not all day.
		{"Remind me tomorrow morning to take out the recycling", func(t *testing.T, p plannedTurn) {
			a := decode[action.TaskCreateArgs](t, p.only(t, action.TaskCreate))
			if a.Title != "Take out the recycling" || !a.Due.Equal(at(11, 8, 0)) || a.AllDay {
				t.Errorf("got %+v", a)
			}
		}},
		{"Remind me to send the invoice tonight, it's urgent", func(t *testing.T, p plannedTurn) {
			a := decode[action.TaskCreateArgs](t, p.only(t, action.TaskCreate))
			if !strings.HasPrefix(a.Title, "Send the invoice") || a.Priority != 3 || a.Due.IsZero() {
				t.Errorf("got %+v", a)
			}
		}},
		{"I finished the report", func(t *testing.T, p plannedTurn) {
			a := decode[action.TaskRefArgs](t, p.only(t, action.TaskComplete))
			if a.ID != 2 {
				t.Errorf("got %+v", a)
			}
		}},
		{"Mark call mom as done", func(t *testing.T, p plannedTurn) {
			a := decode[action.TaskRefArgs](t, p.only(t, action.TaskComplete))
			if a.ID != 1 || a.Title != "Call mom" {
				t.Errorf("got %+v", a)
			}
		}},
		{"Delete the task call mom", func(t *testing.T, p plannedTurn) {
			a := decode[action.TaskRefArgs](t, p.only(t, action.TaskDelete))
			if a.ID != 1 {
				t.Errorf("got %+v", a)
			}
		}},
		{"Mark buy as done", func(t *testing.T, p plannedTurn) {
			// "buy" names two open tasks: ask, don't guess.
			if len(p.actions) != 0 || len(p.questions) != 1 {
				t.Fatalf("want a question, got %v %v %v", kindsOf(p.actions), p.questions, p.errs)
			}
			q := p.questions[0]
			if q.Text != "Which one?" || len(q.Options) != 2 {
				t.Fatalf("got %+v", q)
			}
			ids := []int64{}
			for _, o := range q.Options {
				if len(o.Actions) != 1 || o.Actions[0].Kind != action.TaskComplete {
					t.Fatalf("option %+v", o)
				}
				ids = append(ids, decode[action.TaskRefArgs](t, o.Actions[0]).ID)
			}
			if !slices.Equal(ids, []int64{3, 4}) {
				t.Errorf("options for tasks %v, want 3 and 4", ids)
			}
		}},
		// Memory.
		{"Remember that John's birthday is March 15th", func(t *testing.T, p plannedTurn) {
			a := decode[action.MemoryStoreArgs](t, p.only(t, action.MemoryStore))
			if a.Content != "John's birthday is March 15th" || a.About != "John" || a.Category != hearth.MemoryPersonal {
				t.Errorf("got %+v", a)
			}
		}},
		{"My colleague Dave's project deadline is April 3", func(t *testing.T, p plannedTurn) {
			a := decode[action.MemoryStoreArgs](t, p.only(t, action.MemoryStore))
			if a.About != "Dave" || a.Category != hearth.MemoryWork {
				t.Errorf("got %+v", a)
			}
		}},
		{"remember that my sister's name is anna.", func(t *testing.T, p plannedTurn) {
			a := decode[action.MemoryStoreArgs](t, p.only(t, action.MemoryStore))
			if a.Content != "My sister's name is anna" || a.About != "my sister" {
				t.Errorf("got %+v", a)
			}
		}},
		{"Forget that John's birthday is March 15th", func(t *testing.T, p plannedTurn) {
			a := decode[action.MemoryRefArgs](t, p.only(t, action.MemoryForget))
			if a.ID != 20 {
				t.Errorf("got %+v", a)
			}
		}},
		{"When is John's birthday?", func(t *testing.T, p plannedTurn) {
			if len(p.actions) != 0 || len(p.errs) != 0 {
				t.Errorf("a question plans nothing, got %v %v", kindsOf(p.actions), p.errs)
			}
		}},
		// Several domains.
		{"I just closed on my house! Add it to my calendar for celebration dinner Saturday", func(t *testing.T, p plannedTurn) {
			m := decode[action.MemoryStoreArgs](t, p.only(t, action.MemoryStore))
			if m.Content != "I just closed on my house" {
				t.Errorf("memory %+v", m)
			}
			e := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
			if e.Title != "Celebration dinner" || !e.Start.Equal(at(14, 19, 0)) || !e.End.Equal(at(14, 21, 0)) || e.AllDay {
				t.Errorf("event %+v", e)
			}
			if len(p.actions) != 2 {
				t.Errorf("want exactly 2 actions, got %v", kindsOf(p.actions))
			}
		}},
		// Calendar.
		{"Add a dentist appointment on Friday at 2pm", func(t *testing.T, p plannedTurn) {
			e := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
			if e.Title != "Dentist appointment" || !e.Start.Equal(at(13, 14, 0)) || !e.End.Equal(at(13, 15, 0)) || len(e.Attendees) != 0 {
				t.Errorf("got %+v", e)
			}
			if action.RiskOf(p.actions[0]) != action.Low {
				t.Error("an event without attendees is low risk")
			}
		}},
		{"Schedule lunch with Carlos on Friday at noon", func(t *testing.T, p plannedTurn) {
			a := p.only(t, action.CalendarCreate)
			e := decode[action.EventCreateArgs](t, a)
			// A name in the title is who the event is with, not an
			// invitation: no email goes to Carlos, no approval.
			if e.Title != "Lunch with Carlos" || !e.Start.Equal(at(13, 12, 0)) || len(e.Attendees) != 0 {
				t.Errorf("got %+v", e)
			}
			if action.RiskOf(a) != action.Low {
				t.Error("an event with no one invited is low risk")
			}
		}},
		{"Schedule lunch with carlos@example.com on Friday at noon", func(t *testing.T, p plannedTurn) {
			a := p.only(t, action.CalendarCreate)
			e := decode[action.EventCreateArgs](t, a)
			if !slices.Equal(e.Attendees, []string{"carlos@example.com"}) || action.RiskOf(a) != action.High {
				t.Errorf("an address after with is an invitation that needs approval: %+v", e)
			}
		}},
		{"Add my sister's birthday party to my calendar on Saturday", func(t *testing.T, p plannedTurn) {
			e := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
			if e.Title != "Sister's birthday party" || !e.Start.Equal(at(14, 19, 0)) {
				t.Errorf("got %+v", e)
			}
		}},
		{"Put the farmers market on my calendar for Sunday", func(t *testing.T, p plannedTurn) {
			e := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
			if e.Title != "Farmers market" || !e.AllDay || !e.Start.Equal(day(15)) || !e.End.Equal(day(16)) {
				t.Errorf("got %+v", e)
			}
		}},
		{"Add team sync tomorrow from 4 to 5pm", func(t *testing.T, p plannedTurn) {
			e := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
			if e.Title != "Team sync" || !e.Start.Equal(at(11, 16, 0)) || !e.End.Equal(at(11, 17, 0)) {
				t.Errorf("got %+v", e)
			}
		}},
		{"Add team sync tomorrow from 2 to 3pm", func(t *testing.T, p plannedTurn) {
			// Tomorrow's team meeting is 2 to 3: the overlap is said, and
			// the options are adding it anyway or right after.
			if len(p.actions) != 0 || len(p.questions) != 1 || len(p.questions[0].Options) != 2 {
				t.Fatalf("want a question with two options, got %v %v", kindsOf(p.actions), p.questions)
			}
			q := p.questions[0]
			if !strings.Contains(q.Text, "overlaps “Team meeting”") {
				t.Errorf("question %q", q.Text)
			}
			anyway := decode[action.EventCreateArgs](t, q.Options[0].Actions[0])
			after := decode[action.EventCreateArgs](t, q.Options[1].Actions[0])
			if !anyway.Start.Equal(at(11, 14, 0)) || !after.Start.Equal(at(11, 15, 0)) || !after.End.Equal(at(11, 16, 0)) {
				t.Errorf("options %+v %+v", anyway, after)
			}
		}},
		{"Invite Anna to dinner on Saturday", func(t *testing.T, p plannedTurn) {
			e := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
			if e.Title != "Dinner" || !slices.Equal(e.Attendees, []string{"Anna"}) || !e.Start.Equal(at(14, 19, 0)) {
				t.Errorf("got %+v", e)
			}
		}},
		{"Cancel my dentist appointment", func(t *testing.T, p plannedTurn) {
			a := decode[action.EventRefArgs](t, p.only(t, action.CalendarDelete))
			if a.ID != 10 {
				t.Errorf("got %+v", a)
			}
		}},
		{"Move my dentist appointment to Friday at 3pm", func(t *testing.T, p plannedTurn) {
			a := decode[action.EventUpdateArgs](t, p.only(t, action.CalendarUpdate))
			if a.ID != 10 || a.Update.Start == nil || !a.Update.Start.Equal(at(13, 15, 0)) || !a.Update.End.Equal(at(13, 16, 0)) {
				t.Errorf("got %+v", a)
			}
		}},
		{"Cancel the team meeting", func(t *testing.T, p plannedTurn) {
			if len(p.questions) != 1 || len(p.questions[0].Options) != 2 {
				t.Fatalf("want a question, got %v %v %v", kindsOf(p.actions), p.questions, p.errs)
			}
			if !strings.Contains(p.questions[0].Options[0].Label, "tomorrow at 2:00 PM") {
				t.Errorf("labels tell the meetings apart: %+v", p.questions[0].Options)
			}
		}},
		{"What's on my calendar tomorrow?", func(t *testing.T, p plannedTurn) {
			if len(p.actions) != 0 || len(p.errs) != 0 {
				t.Errorf("a question plans nothing, got %v %v", kindsOf(p.actions), p.errs)
			}
		}},
		// Email.
		{"Email Sarah that I'll be late", func(t *testing.T, p plannedTurn) {
			a := p.only(t, action.EmailSend)
			e := decode[action.EmailArgs](t, a)
			if !slices.Equal(e.To, []string{"Sarah <sarah@example.com>"}) || e.Subject != "I'll be late" || e.Body != "Hi Sarah,\n\nI'll be late.\n\n— Alex Kim" {
				t.Errorf("got %+v", e)
			}
			if action.RiskOf(a) != action.High {
				t.Error("sending needs approval")
			}
		}},
		{"Tell Sarah that I'll be late", func(t *testing.T, p plannedTurn) {
			e := decode[action.EmailArgs](t, p.only(t, action.EmailSend))
			if !slices.Equal(e.To, []string{"Sarah <sarah@example.com>"}) || !strings.Contains(e.Body, "I'll be late.") {
				t.Errorf("got %+v", e)
			}
		}},
		{"Write to the landlord that the heater is broken", func(t *testing.T, p plannedTurn) {
			e := decode[action.EmailArgs](t, p.only(t, action.EmailSend))
			if !slices.Equal(e.To, []string{"Mr. Hale <hale@example.com>"}) || !strings.HasPrefix(e.Body, "Hi,\n\nThe heater is broken.") {
				t.Errorf("got %+v", e)
			}
		}},
		{"Email bob@example.org that the keys are under the mat", func(t *testing.T, p plannedTurn) {
			e := decode[action.EmailArgs](t, p.only(t, action.EmailSend))
			if !slices.Equal(e.To, []string{"bob@example.org"}) {
				t.Errorf("got %+v", e)
			}
		}},
		// No address known: Hearth asks for it, and never sends to a name.
		{"Email Priya that the meeting moved", func(t *testing.T, p plannedTurn) {
			if len(p.actions) != 0 || len(p.questions) != 1 || p.questions[0].Fill == nil || p.questions[0].Fill.Want != stage.FillEmail ||
				p.questions[0].Fill.Name != "Priya" || !strings.Contains(p.questions[0].Text, "email address for Priya") {
				t.Fatalf("want a question for the address, got %v %+v %v", kindsOf(p.actions), p.questions, p.errs)
			}
			acts, ok, err := Fill(*p.questions[0].Fill, "it's priya.n@example.com", c.Now)
			if err != nil || !ok || len(acts) != 2 || acts[0].Kind != action.MemoryStore || acts[1].Kind != action.EmailSend {
				t.Fatalf("filled: %v %v %v", acts, ok, err)
			}
			if e := decode[action.EmailArgs](t, acts[1]); !slices.Equal(e.To, []string{"Priya <priya.n@example.com>"}) || !strings.HasPrefix(e.Body, "Hi Priya,") {
				t.Errorf("filled email %+v", e)
			}
			if m := decode[action.MemoryStoreArgs](t, acts[0]); m.Entity == nil || m.Entity.Name != "Priya" || m.Attribute != hearth.AttrEmail || m.Value != "priya.n@example.com" {
				t.Errorf("remembered %+v", m)
			}
			for _, other := range []string{"never mind", "email bob@example.org that the meeting moved to Friday"} {
				if _, ok, _ := Fill(*p.questions[0].Fill, other, c.Now); ok {
					t.Errorf("%q filled the question", other)
				}
			}
		}},
		{"Draft an email to the landlord about the heater", func(t *testing.T, p plannedTurn) {
			e := decode[action.EmailArgs](t, p.only(t, action.EmailDraft))
			if e.Subject != "The heater" || !strings.Contains(e.Body, "about the heater.") {
				t.Errorf("got %+v", e)
			}
		}},
		// Keep.
		{"Add milk to my shopping list", func(t *testing.T, p plannedTurn) {
			a := decode[action.NoteAppendArgs](t, p.only(t, action.NoteAppend))
			if a.ID != 30 || len(a.Items) != 1 || a.Items[0].Text != "milk" {
				t.Errorf("got %+v", a)
			}
		}},
		{"Put eggs and bread on the grocery list", func(t *testing.T, p plannedTurn) {
			a := decode[action.NoteCreateArgs](t, p.only(t, action.NoteCreate))
			if a.Title != "Grocery list" || len(a.Items) != 2 || a.Items[0].Text != "eggs" || a.Items[1].Text != "bread" {
				t.Errorf("got %+v", a)
			}
		}},
		{"Make a note: call the vet about Max", func(t *testing.T, p plannedTurn) {
			a := decode[action.NoteCreateArgs](t, p.only(t, action.NoteCreate))
			if a.Body != "Call the vet about Max." {
				t.Errorf("got %+v", a)
			}
		}},
		{"Note to self buy a new charger", func(t *testing.T, p plannedTurn) {
			a := decode[action.NoteCreateArgs](t, p.only(t, action.NoteCreate))
			if a.Body != "Buy a new charger." {
				t.Errorf("got %+v", a)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			p := planText(t, tt.text, c)
			for _, pl := range p.plans {
				if pl.Understood == "" && (len(pl.Actions) > 0 || pl.Question != nil) {
					t.Errorf("a plan with actions says what it understood: %+v", pl)
				}
			}
			tt.check(t, p)
		})
	}
}

// TestPlanStartTimesAcrossDST plans the same reminder on both sides of
// the spring-forward night: 5pm stays 5pm wall-clock.
func TestPlanStartTimesAcrossDST(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "America/New_York")
	for _, tt := range []struct {
		now  time.Time
		want time.Time
	}{
		{time.Date(2026, 3, 7, 9, 0, 0, 0, z), time.Date(2026, 3, 8, 17, 0, 0, 0, z)}, // tomorrow is the change day
		{time.Date(2026, 3, 8, 1, 30, 0, 0, z), time.Date(2026, 3, 9, 17, 0, 0, 0, z)},
		{time.Date(2026, 10, 31, 22, 0, 0, 0, z), time.Date(2026, 11, 1, 17, 0, 0, 0, z)}, // fall back
	} {
		c := stage.Context{Now: tt.now, Location: z}
		p := planText(t, "Remind me to call mom tomorrow at 5pm", c)
		a := decode[action.TaskCreateArgs](t, p.only(t, action.TaskCreate))
		if !a.Due.Equal(tt.want) || a.Due.In(z).Hour() != 17 {
			t.Errorf("now %v: due %v, want %v", tt.now, a.Due, tt.want)
		}
		// An evening event on the change day is 19:00–21:00 wall clock,
		// two hours long.
		p = planText(t, "Add a birthday dinner to my calendar tomorrow", c)
		e := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
		if e.Start.In(z).Hour() != 19 || e.End.Sub(e.Start) != 2*time.Hour {
			t.Errorf("now %v: event %v–%v", tt.now, e.Start, e.End)
		}
	}
	// An all-day event on the spring-forward day is 23 hours long: it
	// ends at the next midnight, not 24 hours later.
	c := stage.Context{Now: time.Date(2026, 3, 7, 9, 0, 0, 0, z), Location: z}
	p := planText(t, "Put the farmers market on my calendar for tomorrow", c)
	e := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
	if !e.AllDay || !e.End.Equal(time.Date(2026, 3, 9, 0, 0, 0, 0, z)) || e.End.Sub(e.Start) != 23*time.Hour {
		t.Errorf("all-day event %v–%v", e.Start, e.End)
	}
}

// TestPlanPartsOfDay: a part of the day said without a clock time is at
// its usual time, for a reminder and an event alike, and "tonight" said
// while the evening is under way is later tonight, never tomorrow.
func TestPlanPartsOfDay(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "Europe/Berlin")
	at := func(d, h, m int) time.Time { return time.Date(2026, 3, d, h, m, 0, 0, z) }
	for _, tt := range []struct {
		now  time.Time
		text string
		want time.Time
	}{
		{at(10, 9, 0), "Remind me to water the plants tomorrow morning", at(11, 8, 0)},
		{at(10, 9, 0), "Remind me to call Jo this afternoon", at(10, 15, 0)},
		{at(10, 16, 20), "Remind me to call Jo this afternoon", at(10, 17, 0)},
		{at(10, 18, 29), "Remind me to lock up tonight", at(10, 21, 0)},
		{at(10, 22, 10), "Remind me to lock up tonight", at(10, 23, 0)},
		{at(10, 23, 50), "Remind me to lock up tonight", at(11, 0, 5)},
		{at(10, 9, 0), "Remind me to call the bank tomorrow late morning", at(11, 10, 0)},
	} {
		p := planText(t, tt.text, stage.Context{Now: tt.now, Location: z})
		a := decode[action.TaskCreateArgs](t, p.only(t, action.TaskCreate))
		if !a.Due.Equal(tt.want) || a.AllDay {
			t.Errorf("%q at %s: due %s (all day %v); want %s", tt.text, tt.now.Format("15:04"), a.Due.In(z), a.AllDay, tt.want)
		}
	}
	for text, hour := range map[string]int{"Coffee with Jo tomorrow morning": 8, "Call with Priya tomorrow afternoon": 15, "Drinks with Max tomorrow evening": 19} {
		p := planText(t, text, stage.Context{Now: at(10, 9, 0), Location: z})
		e := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
		if e.Start.In(z).Hour() != hour || e.AllDay {
			t.Errorf("%q: starts %s; want %d:00", text, e.Start.In(z), hour)
		}
	}
}

// TestPlanTripsAndIntentions: news of a trip is an event named for it,
// a weekend is its whole days, and "I'm going to call mum" is a task to
// call mum.
func TestPlanTripsAndIntentions(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "Europe/Berlin")
	c := stage.Context{Now: time.Date(2026, 11, 28, 18, 0, 0, 0, z), Location: z}
	p := planText(t, "I'm flying to New York on Monday", c)
	e := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
	if e.Title != "Flying to New York" || !e.AllDay || !e.Start.Equal(time.Date(2026, 11, 30, 0, 0, 0, 0, z)) {
		t.Errorf("trip %+v", e)
	}
	p = planText(t, "we're going to Paris next weekend", c)
	e = decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
	if e.Title != "Going to Paris" || !e.AllDay || !e.Start.Equal(time.Date(2026, 12, 5, 0, 0, 0, 0, z)) || !e.End.Equal(time.Date(2026, 12, 7, 0, 0, 0, 0, z)) {
		t.Errorf("weekend trip %+v", e)
	}
	for text, title := range map[string]string{"I'm going to call mum tomorrow": "Call mum", "add a reminder for the dentist on the 14th at 2:30": "Dentist", "set an alarm for 7am": "Alarm"} {
		p = planText(t, text, c)
		if a := decode[action.TaskCreateArgs](t, p.only(t, action.TaskCreate)); a.Title != title {
			t.Errorf("%q: task %+v; want %q", text, a, title)
		}
	}
}

// TestRemindAboutItAgain: "it" in a new reminder is the item the last
// reply was about, not a task called "It again".
func TestRemindAboutItAgain(t *testing.T) {
	t.Parallel()
	c := stage.Context{Now: time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC), Location: time.UTC, Recent: []hearth.Message{
		{From: hearth.FromUser, Text: "remind me to take the bins out tomorrow at 7"},
		{From: hearth.FromBot, Text: "Done — I added “Take the bins out”, due tomorrow at 7:00 AM, and I'll remind you."},
	}}
	p := planText(t, "remind me about it again on friday", c)
	if a := decode[action.TaskCreateArgs](t, p.only(t, action.TaskCreate)); a.Title != "Take the bins out" {
		t.Errorf("title %q; want the bins", a.Title)
	}
}

// TestPlanForgetAsks: when several memories match what to forget, the
// planner asks which (the classifier reads "forget about Emma" as chat,
// so the input is built by hand).
func TestPlanForgetAsks(t *testing.T) {
	t.Parallel()
	in := stage.PlanInput{Text: "Forget about Emma", Context: stagetest.Fixture(t), Understanding: nlu.Result{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Memory}}}
	p, err := Planners()[nlu.Memory].Plan(context.Background(), in)
	if err != nil || p.Question == nil || len(p.Question.Options) != 2 || len(p.Actions) != 0 {
		t.Fatalf("want a question with two memories, got %+v, %v", p, err)
	}
	for _, o := range p.Question.Options {
		if len(o.Actions) != 1 || o.Actions[0].Kind != action.MemoryForget || action.RiskOf(o.Actions[0]) != action.Low {
			t.Errorf("option %+v", o)
		}
	}
}

// TestPlanNeedsDetails: a request the planner cannot fill in is an
// error that says what it understood, never a half-made action. (One
// that only lacks what it is about asks for it: TestContinue.)
func TestPlanNeedsDetails(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	ps := Planners()
	for _, tt := range []struct {
		domain nlu.Domain
		text   string
		slots  nlu.Slots
	}{
		{nlu.Task, "mark it as done", nlu.Slots{}},
		{nlu.Task, "complete the dishes task", nlu.Slots{}}, // no such task
		{nlu.Memory, "remember that", nlu.Slots{}},
		{nlu.Memory, "forget about the weather", nlu.Slots{}},
		{nlu.Calendar, "add lunch to my calendar", nlu.Slots{Title: "lunch"}}, // no date
		{nlu.Calendar, "cancel my yoga class", nlu.Slots{}},
		{nlu.Email, "send an email", nlu.Slots{}},
		{nlu.Keep, "make a note", nlu.Slots{}},
		{nlu.Keep, "add to my shopping list", nlu.Slots{}},
	} {
		in := stage.PlanInput{Text: tt.text, Context: c, Understanding: nlu.Result{Intent: nlu.RequestAction, Domains: []nlu.Domain{tt.domain}, Slots: tt.slots}}
		p, err := ps[tt.domain].Plan(context.Background(), in)
		if err == nil || !errors.Is(err, stage.ErrNeedDetails) {
			t.Errorf("%s %q: want a needs-details error, got %v (plan %+v)", tt.domain, tt.text, err, p)
		}
		if len(p.Actions) != 0 || p.Question != nil {
			t.Errorf("%s %q: a failed plan has no actions", tt.domain, tt.text)
		}
		if p.Understood == "" {
			t.Errorf("%s %q: a failed plan still says what it understood", tt.domain, tt.text)
		}
	}
}

// TestPlanOtherDomainsClause: with several domains named, a planner with
// no clause of its own plans nothing and does not fail the turn.
func TestPlanOtherDomainsClause(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	text := "Add milk to my shopping list and remind me to call the plumber tomorrow"
	in := stage.PlanInput{Text: text, Context: c, Understanding: nlu.Result{Intent: nlu.RequestAction, Domains: []nlu.Domain{nlu.Keep, nlu.Task, nlu.Email}}}
	ps := Planners()
	p, err := ps[nlu.Email].Plan(context.Background(), in)
	if err != nil || len(p.Actions) != 0 {
		t.Errorf("email: got %+v, %v", p, err)
	}
	p, err = ps[nlu.Task].Plan(context.Background(), in)
	if err != nil || len(p.Actions) != 1 {
		t.Fatalf("task: got %+v, %v", p, err)
	}
	if a := decode[action.TaskCreateArgs](t, p.Actions[0]); a.Title != "Call the plumber" {
		t.Errorf("task: %+v", a)
	}
	p, err = ps[nlu.Keep].Plan(context.Background(), in)
	if err != nil || len(p.Actions) != 1 || p.Actions[0].Kind != action.NoteAppend {
		t.Errorf("keep: got %+v, %v", p, err)
	}
}

func TestSplitClauses(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want []string
	}{
		{"I just closed on my house! Add it to my calendar for celebration dinner Saturday", []string{"I just closed on my house", "Add it to my calendar for celebration dinner Saturday"}},
		{"add milk and eggs to my list and remind me to call mom", []string{"add milk and eggs to my list", "remind me to call mom"}},
		{"Meet at 5.30. Then dinner", []string{"Meet at 5.30", "Then dinner"}},
		{"", nil},
	} {
		if got := splitClauses(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("splitClauses(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestEmailWhichPerson: two people answer to the name → a question with a
// button each, every one addressed; only people with an address are
// offered.
func TestEmailWhichPerson(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	c.Entities = []hearth.Entity{{ID: 1, Name: "Sarah Kim"}, {ID: 2, Name: "Sarah Lopez"}, {ID: 3, Name: "Sarah Moss"}}
	c.Memories = []hearth.Memory{
		{ID: 10, EntityID: 1, Attribute: hearth.AttrEmail, Value: "kim@example.com"},
		{ID: 11, EntityID: 2, Attribute: hearth.AttrEmail, Value: "lopez@example.com"},
	}
	p := planText(t, "Email Sarah that I'll be late", c)
	if len(p.actions) != 0 || len(p.questions) != 1 || len(p.questions[0].Options) != 2 || p.questions[0].Text != "Which Sarah?" {
		t.Fatalf("want a question with two buttons, got %v %+v %v", kindsOf(p.actions), p.questions, p.errs)
	}
	for i, want := range []string{"Sarah Kim <kim@example.com>", "Sarah Lopez <lopez@example.com>"} {
		o := p.questions[0].Options[i]
		if e := decode[action.EmailArgs](t, o.Actions[0]); !slices.Equal(e.To, []string{want}) || !strings.Contains(o.Label, want) {
			t.Errorf("option %d: %q %+v", i, o.Label, e)
		}
	}
}

// TestFillWhen: a historical fact without a time asks once when; the
// answer in words fills in its validity, anything else is a new message.
func TestFillWhen(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	p := planText(t, "Remember that I worked at Initech", c)
	if len(p.questions) != 1 || p.questions[0].Fill == nil || p.questions[0].Fill.Want != stage.FillWhen || len(p.questions[0].Options) != 1 {
		t.Fatalf("want a question asking when, got %v %+v %v", kindsOf(p.actions), p.questions, p.errs)
	}
	f := *p.questions[0].Fill
	acts, ok, err := Fill(f, "from 2016 to 2020", c.Now)
	if err != nil || !ok || len(acts) != 1 {
		t.Fatalf("filled: %v %v %v", acts, ok, err)
	}
	m := decode[action.MemoryStoreArgs](t, acts[0])
	if m.ValidFrom.Year() != 2016 || m.ValidTo.Year() != 2021 || m.Entity == nil || !m.Entity.Self || m.Attribute != hearth.AttrEmployer || m.Value != "Initech" {
		t.Errorf("filled fact %+v", m)
	}
	for _, other := range []string{"thanks", "remind me to call the bank on Friday about the loan"} {
		if _, ok, _ := Fill(f, other, c.Now); ok {
			t.Errorf("%q filled the question", other)
		}
	}
}

// TestContinue: "remind me tomorrow" and "email Sam" ask for the rest,
// and the answer in words is read with the request; a change of mind, a
// question or a new request is not an answer.
func TestContinue(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	for _, tc := range []struct {
		ask, question, answer, whole string
	}{
		{"remind me tomorrow", "What should I remind you about?", "call the bank", "remind me tomorrow to call the bank"},
		{"remind me", "What should I remind you about?", "to water the plants at 6pm", "remind me to water the plants at 6pm"},
		{"add a task", "What's the task?", "renew the passport", "add a task to renew the passport"},
		{"Remind me to", "What should I remind you about?", "call mom", "Remind me to call mom"},
		{"email Sam", "What should the email to Sam say?", "I'll be late", "email Sam saying I'll be late"},
		{"email my landlord", "What should the email to your landlord say?", "about the heater", "email my landlord about the heater"},
	} {
		p := planText(t, tc.ask, c)
		if len(p.actions) != 0 || len(p.questions) != 1 || p.questions[0].Fill == nil || p.questions[0].Text != tc.question {
			t.Fatalf("%q: want the question %q, got %v %+v %v", tc.ask, tc.question, kindsOf(p.actions), p.questions, p.errs)
		}
		f := *p.questions[0].Fill
		if got, ok := Continue(f, tc.answer); !ok || got != tc.whole {
			t.Errorf("%q then %q: %q %v; want %q", tc.ask, tc.answer, got, ok, tc.whole)
		}
		for _, other := range []string{"never mind", "what's on tomorrow?", "no", "remind me to renew the passport", "cancel that", "", "Sam's number is 0151 2345678", "my wifi password is hunter2", "rename the packing list to Spain trip"} {
			if got, ok := Continue(f, other); ok {
				t.Errorf("%q answered the question: %q", other, got)
			}
		}
		if _, ok, _ := Fill(f, tc.answer, c.Now); ok {
			t.Errorf("%q: Fill took the rest of a request", tc.answer)
		}
	}
	// "No" is a word: "nothing" and "no" are not answers, "notify the bank" is.
	f := stage.Fill{Want: stage.FillRequest, Request: "remind me", Join: "to"}
	if got, ok := Continue(f, "notify the bank"); !ok || got != "remind me to notify the bank" {
		t.Errorf("notify the bank: %q %v", got, ok)
	}
	// "What should go on it?" after a list was started: "add eggs and
	// milk" answers it as "eggs and milk" does; "add eggs to the packing
	// list" says where itself.
	f = stage.Fill{Want: stage.FillRequest, Request: "add", Tail: "to my shopping list"}
	for answer, whole := range map[string]string{
		"eggs and milk":     "add eggs and milk to my shopping list",
		"add eggs and milk": "add eggs and milk to my shopping list",
		"add socks to it":   "add socks to my shopping list",
	} {
		if got, ok := Continue(f, answer); !ok || got != whole {
			t.Errorf("%q: %q %v; want %q", answer, got, ok, whole)
		}
	}
	if got, ok := Continue(f, "add eggs to the packing list"); ok {
		t.Errorf("add eggs to the packing list answered the question: %q", got)
	}
}

// TestEveryHourIsOffered: a repeat more often than daily cannot be kept;
// it is said so, with one reminder after that long on a button, and no
// task called "Stretch every hour".
func TestEveryHourIsOffered(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	for _, tt := range []struct {
		text, title, label string
		after              time.Duration
	}{
		{"remind me to stretch every hour", "Stretch", "Remind me in an hour", time.Hour},
		{"remind me every 30 minutes to check the oven", "Check the oven", "Remind me in 30 minutes", 30 * time.Minute},
		{"remind me to drink water every 2 hours", "Drink water", "Remind me in 2 hours", 2 * time.Hour},
	} {
		p := planText(t, tt.text, c)
		if len(p.actions) != 0 || len(p.questions) != 1 || len(p.questions[0].Options) != 1 || p.questions[0].Options[0].Label != tt.label {
			t.Fatalf("%q: %v %+v %v; want one offer", tt.text, kindsOf(p.actions), p.questions, p.errs)
		}
		task := decode[action.TaskCreateArgs](t, p.questions[0].Options[0].Actions[0])
		if task.Title != tt.title || !task.Due.Equal(c.Now.Add(tt.after).Truncate(time.Minute)) {
			t.Errorf("%q: offers %+v", tt.text, task)
		}
	}
}

// TestNotAllAtOnce: "delete all my tasks" changes nothing and asks which
// one; no task is called "all my tasks".
func TestNotAllAtOnce(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	for _, text := range []string{"delete all my tasks", "mark all tasks as done", "cancel all my reminders", "clear my to-do list", "delete the task list"} {
		p := planText(t, text, c)
		if len(p.actions) != 0 || len(p.questions) != 0 || len(p.errs) == 0 || !errors.Is(p.errs[0], stage.ErrNeedDetails) {
			t.Errorf("%q: %v %+v %v; want a question of which one", text, kindsOf(p.actions), p.questions, p.errs)
		}
		if len(p.errs) > 0 && strings.Contains(p.errs[0].Error(), "couldn't find") {
			t.Errorf("%q: %v; want it read as every task, not one called so", text, p.errs[0])
		}
	}
}
