package plan

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
)

// TestPlanEventMoveKeepsItsDate checks that moving an event to a time of
// day keeps the event's own date, and that a date naming the event
// ("tomorrow's dentist") only finds it: the new date is the one after
// "to", when there is one.
func TestPlanEventMoveKeepsItsDate(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "America/New_York")
	at := func(d, h, m int) time.Time { return time.Date(2026, 3, d, h, m, 0, 0, z) }
	dentist := hearth.CalendarEvent{ID: 40, Title: "Dentist appointment", Start: at(11, 10, 0), End: at(11, 11, 0)}
	later := hearth.CalendarEvent{ID: 41, Title: "Dentist appointment", Start: at(17, 10, 0), End: at(17, 11, 0)}
	lunch := hearth.CalendarEvent{ID: 42, Title: "Lunch with Sam", Start: at(11, 12, 30), End: at(11, 13, 30)}
	meeting := hearth.CalendarEvent{ID: 43, Title: "Team meeting", Start: at(12, 14, 0), End: at(12, 14, 30)}
	tests := []struct {
		text      string
		now       time.Time
		events    []hearth.CalendarEvent
		id        int64
		start     time.Time
		wantClock time.Duration // the event's length is kept
	}{
		{"move my dentist appointment tomorrow to 4pm", at(10, 9, 0), []hearth.CalendarEvent{dentist, lunch}, 40, at(11, 16, 0), time.Hour},
		{"Move my dentist appointment tomorrow to 4pm", at(10, 17, 30), []hearth.CalendarEvent{dentist, lunch}, 40, at(11, 16, 0), time.Hour},
		{"move my dentist appointment tomorrow to 4pm", at(10, 9, 0), []hearth.CalendarEvent{dentist, later, lunch}, 40, at(11, 16, 0), time.Hour},
		{"push the dentist appointment to 4pm", at(10, 9, 0), []hearth.CalendarEvent{dentist, lunch}, 40, at(11, 16, 0), time.Hour},
		{"push the dentist appointment to 8am", at(10, 9, 0), []hearth.CalendarEvent{dentist, lunch}, 40, at(11, 8, 0), time.Hour},
		{"move the dentist appointment to Friday at 4", at(10, 9, 0), []hearth.CalendarEvent{dentist, lunch}, 40, at(13, 16, 0), time.Hour},
		{"move my dentist appointment to Friday at 4pm", at(10, 9, 0), []hearth.CalendarEvent{dentist, lunch}, 40, at(13, 16, 0), time.Hour},
		{"move my dentist appointment tomorrow to Friday", at(10, 9, 0), []hearth.CalendarEvent{dentist, later, lunch}, 40, at(13, 10, 0), time.Hour},
		{"move tomorrow's dentist appointment to 4pm", at(10, 9, 0), []hearth.CalendarEvent{dentist, later, lunch}, 40, at(11, 16, 0), time.Hour},
		{"reschedule my 10am appointment tomorrow to 3pm", at(10, 9, 0), []hearth.CalendarEvent{dentist, later, lunch}, 40, at(11, 15, 0), time.Hour},
		{"move the dentist appointment to Friday", at(10, 9, 0), []hearth.CalendarEvent{dentist, lunch}, 40, at(13, 10, 0), time.Hour},
		{"move tomorrow's 10am appointment to 3pm", at(10, 9, 0), []hearth.CalendarEvent{dentist, later, lunch}, 40, at(11, 15, 0), time.Hour},
		{"move my 12:30 tomorrow to 1pm", at(10, 9, 0), []hearth.CalendarEvent{dentist, lunch}, 42, at(11, 13, 0), time.Hour},
		{"move the meeting to 3pm", at(10, 9, 0), []hearth.CalendarEvent{dentist, meeting}, 43, at(12, 15, 0), 30 * time.Minute},
		{"reschedule my 2pm meeting on Thursday to 3pm", at(10, 9, 0), []hearth.CalendarEvent{dentist, meeting}, 43, at(12, 15, 0), 30 * time.Minute},
		{"move lunch with Sam to 1pm", at(10, 9, 0), []hearth.CalendarEvent{dentist, lunch}, 42, at(11, 13, 0), time.Hour},
		// No "to": "instead" says the time is the new one, not a second lunch.
		{"make lunch with Sam 1pm instead", at(10, 9, 0), []hearth.CalendarEvent{dentist, lunch}, 42, at(11, 13, 0), time.Hour},
		// A part of the day alone keeps the day.
		{"move lunch with Sam to the evening", at(10, 9, 0), []hearth.CalendarEvent{dentist, lunch}, 42, at(11, 19, 0), time.Hour},
		// "my 2pm" names a time of day: the next event then, whether the
		// clock has passed 2pm today or not.
		{"push my 2pm to Friday", at(10, 9, 0), []hearth.CalendarEvent{dentist, meeting}, 43, at(13, 14, 0), 30 * time.Minute},
		{"push my 2pm to Friday", at(10, 16, 0), []hearth.CalendarEvent{dentist, meeting}, 43, at(13, 14, 0), 30 * time.Minute},
		{"push my 10am to Friday", at(10, 9, 0), []hearth.CalendarEvent{later, dentist, lunch}, 40, at(13, 10, 0), time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			c := stage.Context{Now: tt.now, Location: z, Events: tt.events}
			p := planText(t, tt.text, c)
			a := decode[action.EventUpdateArgs](t, p.only(t, action.CalendarUpdate))
			if a.ID != tt.id || a.Update.Start == nil || a.Update.End == nil {
				t.Fatalf("got %+v", a)
			}
			if !a.Update.Start.Equal(tt.start) || a.Update.End.Sub(*a.Update.Start) != tt.wantClock {
				t.Errorf("moved to %s – %s, want %s for %s", a.Update.Start.In(z), a.Update.End.In(z), tt.start, tt.wantClock)
			}
		})
	}
}

// TestPlanTaskMove checks that moving a task changes when it is due (a
// time alone keeps its date, a date alone its time of day) and never
// makes a new task.
func TestPlanTaskMove(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "America/New_York")
	at := func(d, h, m int) time.Time { return time.Date(2026, 3, d, h, m, 0, 0, z) }
	c := stage.Context{Now: at(10, 9, 0), Location: z, Tasks: []hearth.Task{
		{ID: 1, Title: "Pay rent", Status: hearth.TaskOpen, Due: at(12, 0, 0), AllDay: true},
		{ID: 2, Title: "Call mom", Status: hearth.TaskOpen, Due: at(11, 17, 0)},
	}}
	tests := []struct {
		text   string
		id     int64 // 0: no task named, nothing planned
		due    time.Time
		allDay bool
	}{
		{"move the rent task to Friday", 1, at(13, 0, 0), true},
		{"push call mom to 6pm", 2, at(11, 18, 0), false},
		{"move call mom to Friday", 2, at(13, 17, 0), false},
		{"move the gym task to Friday", 0, time.Time{}, false},
		{"change call mom to the afternoon", 2, at(11, 15, 0), false},
		{"make call mom 6pm instead", 2, at(11, 18, 0), false},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			p := planText(t, tt.text, c)
			for _, a := range p.actions {
				if a.Kind == action.TaskCreate {
					t.Fatalf("a move made a new task: %v (domains %v)", kindsOf(p.actions), p.res.Domains)
				}
			}
			if tt.id == 0 {
				if len(p.actions) != 0 {
					t.Fatalf("planned %v; want nothing", kindsOf(p.actions))
				}
				return
			}
			a := decode[action.TaskUpdateArgs](t, p.only(t, action.TaskUpdate))
			if a.ID != tt.id || a.Update.Due == nil || !a.Update.Due.Equal(tt.due) || a.Update.AllDay == nil || *a.Update.AllDay != tt.allDay {
				t.Fatalf("update %+v (due %v); want task %d due %s all day %v", a, a.Update.Due, tt.id, tt.due, tt.allDay)
			}
		})
	}
}

// TestChangeWordsMakeNoStrayTask checks the requests that start as a
// change does: a new task said with "make sure" is made (it once looked
// for a task called "sure" to move), and a change Hearth cannot read
// ("change it to blue") asks, where it made a task of those words.
func TestChangeWordsMakeNoStrayTask(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "America/New_York")
	now := time.Date(2026, 3, 10, 9, 0, 0, 0, z)
	c := stage.Context{Now: now, Location: z, Tasks: []hearth.Task{{ID: 2, Title: "Call mom", Status: hearth.TaskOpen, Due: now.Add(8 * time.Hour)}},
		Recent: []hearth.Message{{From: hearth.FromUser, Text: "remind me to call mom at 5pm"}, {From: hearth.FromBot, Text: "Added “Call mom” to your to-do list."}}}
	p := planText(t, "make sure to call the bank tomorrow", c)
	if a := decode[action.TaskCreateArgs](t, p.only(t, action.TaskCreate)); !strings.Contains(a.Title, "call the bank") {
		t.Errorf("made %+v; want the bank call", a)
	}
	p = planText(t, "change it to blue", c)
	if len(p.actions) != 0 || len(p.errs) == 0 {
		t.Errorf("planned %v (errors %v); want nothing and a question for what to change", kindsOf(p.actions), p.errs)
	}
}

// TestMyClockTimeIsTheNextEventThen checks that "my 3pm" finds the
// soonest event starting at 3 PM, tomorrow's when today has none (a bare
// "3pm" parses as today's 3 PM while it is still ahead).
func TestMyClockTimeIsTheNextEventThen(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 27, 5, 30, 0, 0, time.UTC) // a Friday morning
	at := func(d, h int) time.Time { return time.Date(2026, 11, d, h, 0, 0, 0, time.UTC) }
	review := hearth.CalendarEvent{ID: 7, Title: "Budget review", Start: at(28, 15), End: at(28, 16)}
	later := hearth.CalendarEvent{ID: 8, Title: "Piano", Start: at(30, 15), End: at(30, 16)}
	in := stage.PlanInput{Text: "push my 3pm to Thursday",
		Context: stage.Context{Now: now, Location: time.UTC, Events: []hearth.CalendarEvent{review, later}}}
	in.Understanding.Intent, in.Understanding.Domains = nlu.RequestAction, []nlu.Domain{nlu.Calendar}
	p, err := planCalendar(context.Background(), in)
	if err != nil || len(p.Actions) != 1 {
		t.Fatalf("plan %+v, %v; want one move", p, err)
	}
	got, _ := action.Decode[action.EventUpdateArgs](p.Actions[0])
	if got.ID != review.ID || got.Update.Start == nil || !got.Update.Start.Equal(at(29, 0).AddDate(0, 0, 4).Add(15*time.Hour)) {
		t.Fatalf("moved %+v; want the budget review to Thursday Dec 3 at 15:00", got)
	}
}

// TestMoveToABareHour checks that an hour said alone moves an item to the
// reading of it nearer the item's own time, whatever the time is now: a
// 10am call "to 11" is at 11am, also when it is past 11 already.
func TestMoveToABareHour(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "Europe/Berlin")
	at := func(d, h, m int) time.Time { return time.Date(2026, 3, d, h, m, 0, 0, z) }
	tasks := []hearth.Task{
		{ID: 1, Title: "Call the plumber", Status: hearth.TaskOpen, Due: at(11, 10, 0)},
		{ID: 2, Title: "Take out the bins", Status: hearth.TaskOpen, Due: at(11, 21, 0)},
	}
	dinner := hearth.CalendarEvent{ID: 40, Title: "Dinner with Ana", Start: at(11, 19, 0), End: at(11, 21, 0)}
	tests := []struct {
		text string
		now  time.Time
		id   int64
		when time.Time
	}{
		{"move call the plumber to 11", at(10, 9, 0), 1, at(11, 11, 0)},
		{"move call the plumber to 11", at(10, 13, 5), 1, at(11, 11, 0)},
		{"move call the plumber to 11pm", at(10, 9, 0), 1, at(11, 23, 0)},
		{"move take out the bins to 10", at(10, 9, 0), 2, at(11, 22, 0)},
		{"move take out the bins to 10", at(10, 23, 0), 2, at(11, 22, 0)},
		{"move dinner with Ana to 8", at(10, 13, 5), 40, at(11, 20, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.text+" at "+tt.now.Format("15:04"), func(t *testing.T) {
			t.Parallel()
			c := stage.Context{Now: tt.now, Location: z, Tasks: tasks, Events: []hearth.CalendarEvent{dinner}}
			p := planText(t, tt.text, c)
			if tt.id == dinner.ID {
				a := decode[action.EventUpdateArgs](t, p.only(t, action.CalendarUpdate))
				if a.Update.Start == nil || !a.Update.Start.Equal(tt.when) {
					t.Fatalf("moved to %v, want %s", a.Update.Start, tt.when)
				}
				return
			}
			a := decode[action.TaskUpdateArgs](t, p.only(t, action.TaskUpdate))
			if a.ID != tt.id || a.Update.Due == nil || !a.Update.Due.Equal(tt.when) {
				t.Fatalf("update %+v (due %v); want task %d due %s", a, a.Update.Due, tt.id, tt.when)
			}
		})
	}
}

// TestPlanShift checks a move by an amount: later or earlier, by minutes,
// hours, days or weeks, of the task or event named or of "it" (what the
// last reply was about), keeping an event's length.
func TestPlanShift(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "America/New_York")
	at := func(d, h, m int) time.Time { return time.Date(2026, 3, d, h, m, 0, 0, z) }
	dentist := hearth.CalendarEvent{ID: 40, Title: "Dentist appointment", Start: at(12, 15, 0), End: at(12, 16, 0)}
	trip := hearth.CalendarEvent{ID: 41, Title: "Beach trip", Start: at(14, 0, 0), End: at(16, 0, 0), AllDay: true}
	tasks := []hearth.Task{
		{ID: 1, Title: "Call mom", Status: hearth.TaskOpen, Due: at(11, 17, 0)},
		{ID: 2, Title: "Pay rent", Status: hearth.TaskOpen, Due: at(12, 0, 0), AllDay: true},
		{ID: 3, Title: "Water the plants", Status: hearth.TaskOpen, Due: at(10, 8, 40)}, // went off 20 minutes ago
	}
	plantsDue := []hearth.Message{{From: hearth.FromBot, Text: "⏰ Reminder: “Water the plants”"}}
	aboutDentist := []hearth.Message{{From: hearth.FromUser, Text: "dentist next Thursday at 3"},
		{From: hearth.FromBot, Text: "Done — Dentist appointment is on your calendar for Thursday at 3:00 PM."}}
	// A reply that named nothing leaves "it" the dentist.
	thenAsked := append(append([]hearth.Message(nil), aboutDentist...), hearth.Message{From: hearth.FromUser, Text: "move it"},
		hearth.Message{From: hearth.FromBot, Text: "I understood you wanted to move an event, but I need to know when to move it to."})
	tests := []struct {
		text   string
		recent []hearth.Message
		id     int64 // an event's id is 40 or more
		start  time.Time
	}{
		{"push the dentist back an hour", nil, 40, at(12, 16, 0)},
		{"move the dentist appointment 30 minutes earlier", nil, 40, at(12, 14, 30)},
		{"move it an hour later", aboutDentist, 40, at(12, 16, 0)},
		{"make it 30 minutes earlier", aboutDentist, 40, at(12, 14, 30)},
		{"push it to 5", thenAsked, 40, at(12, 17, 0)},
		{"make it 30 minutes earlier", thenAsked, 40, at(12, 14, 30)},
		{"push it back by a day", aboutDentist, 40, at(13, 15, 0)},
		{"delay the dentist by 2 hours", nil, 40, at(12, 17, 0)},
		{"bring forward the dentist by half an hour", nil, 40, at(12, 14, 30)},
		{"postpone the beach trip by a week", nil, 41, at(21, 0, 0)},
		{"push call mom by 30 minutes", nil, 1, at(11, 17, 30)},
		{"move call mom an hour earlier", nil, 1, at(11, 16, 0)},
		{"push the rent task back two days", nil, 2, at(14, 0, 0)},
		// A snooze is later; of a reminder that went off, from now.
		{"snooze call mom for an hour", nil, 1, at(11, 18, 0)},
		{"snooze the plants for 30 minutes", nil, 3, at(10, 9, 30)},
		{"snooze it 10 minutes", plantsDue, 3, at(10, 9, 10)},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			t.Parallel()
			c := stage.Context{Now: at(10, 9, 0), Location: z, Tasks: tasks, Events: []hearth.CalendarEvent{dentist, trip}, Recent: tt.recent}
			p := planText(t, tt.text, c)
			if tt.id >= 40 {
				a := decode[action.EventUpdateArgs](t, p.only(t, action.CalendarUpdate))
				if a.ID != tt.id || a.Update.Start == nil || !a.Update.Start.Equal(tt.start) {
					t.Fatalf("moved %d to %v; want %d at %s", a.ID, a.Update.Start, tt.id, tt.start)
				}
				was := map[int64]hearth.CalendarEvent{40: dentist, 41: trip}[tt.id]
				if a.Update.End == nil || a.Update.End.Sub(*a.Update.Start) != was.End.Sub(was.Start) {
					t.Errorf("length changed: ends %v", a.Update.End)
				}
				return
			}
			a := decode[action.TaskUpdateArgs](t, p.only(t, action.TaskUpdate))
			if a.ID != tt.id || a.Update.Due == nil || !a.Update.Due.Equal(tt.start) {
				t.Fatalf("moved task %d to %v; want %d at %s", a.ID, a.Update.Due, tt.id, tt.start)
			}
		})
	}
}

// TestPlanShiftRefuses checks that a move by minutes of what has no time
// of day, or of nothing named, asks instead of guessing.
func TestPlanShiftRefuses(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "America/New_York")
	at := func(d, h int) time.Time { return time.Date(2026, 3, d, h, 0, 0, 0, z) }
	c := stage.Context{Now: at(10, 9), Location: z,
		Tasks:  []hearth.Task{{ID: 2, Title: "Pay rent", Status: hearth.TaskOpen, Due: at(12, 0), AllDay: true}},
		Events: []hearth.CalendarEvent{{ID: 41, Title: "Beach trip", Start: at(14, 0), End: at(16, 0), AllDay: true}}}
	for _, text := range []string{"push the rent task back an hour", "move the beach trip 30 minutes later", "push it back an hour"} {
		p := planText(t, text, c)
		if len(p.actions) != 0 || len(p.errs) == 0 {
			t.Errorf("%q: planned %v (errors %v); want a question", text, kindsOf(p.actions), p.errs)
		}
	}
}

// TestOnlyTime checks that a time alone, right after a reply about a
// task or an event, is when that item is; with no such reply it plans
// nothing of its own.
func TestOnlyTime(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "America/New_York")
	at := func(d, h int) time.Time { return time.Date(2026, 3, d, h, 0, 0, 0, z) }
	mom := hearth.Task{ID: 1, Title: "Call mom", Status: hearth.TaskOpen}
	haircut := hearth.CalendarEvent{ID: 40, Title: "Haircut", Start: at(13, 10), End: at(13, 11)}
	c := stage.Context{Now: at(10, 9), Location: z, Tasks: []hearth.Task{mom}, Events: []hearth.CalendarEvent{haircut},
		Recent: []hearth.Message{{From: hearth.FromUser, Text: "remind me to call mom"}, {From: hearth.FromBot, Text: "Added “Call mom” to your to-do list."}}}
	a := decode[action.TaskUpdateArgs](t, planText(t, "tomorrow at 5", c).only(t, action.TaskUpdate))
	if a.ID != 1 || a.Update.Due == nil || !a.Update.Due.Equal(at(11, 17)) {
		t.Fatalf("moved %+v; want call mom due tomorrow at 5 PM", a)
	}
	c.Recent = []hearth.Message{{From: hearth.FromUser, Text: "haircut Friday at 10"}, {From: hearth.FromBot, Text: "Added Haircut to your calendar for Friday at 10:00 AM."}}
	e := decode[action.EventUpdateArgs](t, planText(t, "tomorrow at 11", c).only(t, action.CalendarUpdate))
	if e.ID != 40 || e.Update.Start == nil || !e.Update.Start.Equal(at(11, 11)) {
		t.Fatalf("moved %+v; want the haircut tomorrow at 11", e)
	}
	for _, text := range []string{"call the bank tomorrow at 5", "tomorrow"} {
		if text == "tomorrow" {
			c.Recent = nil
		}
		if _, ok, _ := planOnlyTime(stage.PlanInput{Text: text, Context: c}, text); ok {
			t.Errorf("%q planned as a time for the last item", text)
		}
	}
}

// TestMovedNews reads news that one of the user's events moved as the
// request to move it; news of anything else, or no new time, is not.
func TestMovedNews(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "Europe/Berlin")
	at := func(d, h int) time.Time { return time.Date(2026, 12, d, h, 0, 0, 0, z) }
	in := stage.PlanInput{Context: stage.Context{Now: at(1, 9), Location: z, Events: []hearth.CalendarEvent{
		{ID: 1, Title: "Swimming", Start: at(2, 16), End: at(2, 17), Series: "7"},
		{ID: 2, Title: "Mia's piano", Start: at(3, 15), End: at(3, 16)},
	}}}
	for text, want := range map[string]string{
		"swimming is now at 5pm":            "move swimming to 5pm from now on",
		"Swimming moved to 5pm":             "move Swimming to 5pm",
		"swimming has been moved to Friday": "move swimming to Friday",
		"the swimming is on Thursday now":   "move swimming to Thursday from now on",
		"Mia's piano got moved to 4pm.":     "move Mia's piano to 4pm",
		"swimming is on Thursday":           "", // a question's answer, or a fact: no "now"
		"Mia is now 7":                      "", // an age
		"Tom moved to London":               "", // no event of his, and no time
		"swimming is great":                 "",
	} {
		got, ok := MovedNews(in, text)
		if got != want || ok != (want != "") {
			t.Errorf("MovedNews(%q) = %q, %v; want %q", text, got, ok, want)
		}
	}
}

// TestEventNewsShape tells news of a move or a cancellation from other
// sentences without reading anything.
func TestEventNewsShape(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"swimming is now at 5pm": true, "the dentist moved to Friday": true, "Leo's match got cancelled": true,
		"yoga is on Thursday now": true, "yoga is on Thursday": false, "the weather is nice": false,
		"I'm busy now": false, "I need to cancel the milk": false, "the office is closed": false,
	} {
		if got := EventNews(text); got != want {
			t.Errorf("EventNews(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestCancelledNews reads news that one of the user's events is off as
// the request to cancel it.
func TestCancelledNews(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "Europe/Berlin")
	at := func(d, h int) time.Time { return time.Date(2026, 12, d, h, 0, 0, 0, z) }
	in := stage.PlanInput{Context: stage.Context{Now: at(1, 9), Location: z, Events: []hearth.CalendarEvent{
		{ID: 1, Title: "Leo's football match", Start: at(5, 10), End: at(5, 11)},
		{ID: 2, Title: "Swimming", Start: at(2, 16), End: at(2, 17), Series: "7"},
	}}}
	for text, want := range map[string]string{
		"Leo's match got cancelled":              "cancel Leo's match",
		"the football match has been called off": "cancel football match",
		"swimming is cancelled this week":        "cancel swimming this week",
		"Swimming's off on Wednesday!":           "cancel Swimming on Wednesday",
		"the party got cancelled":                "", // no party on the calendar
		"I'm off tomorrow":                       "",
	} {
		got, ok := CancelledNews(in, text)
		if got != want || ok != (want != "") {
			t.Errorf("CancelledNews(%q) = %q, %v; want %q", text, got, ok, want)
		}
	}
}

// TestEventHoursOnADay: hours said for a day ("on Tuesday between 8 and
// 12") are the event's own, whatever the time of day it is said at (a
// bare 8 said in the afternoon is not 8 pm), and not a part of the day to
// fit an hour into.
func TestEventHoursOnADay(t *testing.T) {
	t.Parallel()
	z := mustZone(t, "Europe/Berlin")
	at := func(d, h int) time.Time { return time.Date(2026, 12, d, h, 0, 0, 0, z) }
	for _, now := range []time.Time{at(1, 7), at(1, 15), at(1, 21)} { // a Tuesday
		p := planText(t, "the plumber is coming next Tuesday between 8 and 12", stage.Context{Now: now, Location: z})
		a := decode[action.EventCreateArgs](t, p.only(t, action.CalendarCreate))
		if !a.Start.Equal(at(8, 8)) || !a.End.Equal(at(8, 12)) {
			t.Errorf("said at %v: %v–%v, want next Tuesday 8:00–12:00", now, a.Start.In(z), a.End.In(z))
		}
	}
}

// TestTaskJustSet: right after a reminder was set, "that reminder" is
// it (the word "reminder" names no task), and an amount of time alone
// ("make it 30 minutes") is how far off it now is.
func TestTaskJustSet(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	c := stage.Context{Now: now, Location: time.UTC,
		Tasks: []hearth.Task{{ID: 3, Title: "Check the oven", Status: hearth.TaskOpen, Due: now.Add(time.Hour)}},
		Recent: []hearth.Message{{From: hearth.FromUser, Text: "remind me in an hour to check the oven"},
			{From: hearth.FromBot, Text: "Got it — I'll remind you: “Check the oven”, today at 10:00 AM."}}}
	for _, text := range []string{"delete that reminder", "cancel the reminder"} {
		if a := decode[action.TaskRefArgs](t, planText(t, text, c).only(t, action.TaskDelete)); a.ID != 3 {
			t.Errorf("%q deleted task %d; want 3", text, a.ID)
		}
	}
	for text, due := range map[string]time.Time{
		"actually make it 30 minutes":   now.Add(30 * time.Minute),
		"make it two hours instead":     now.Add(2 * time.Hour),
		"change that to 45 minutes":     now.Add(45 * time.Minute),
		"can you make it in 20 minutes": now.Add(20 * time.Minute),
	} {
		a := decode[action.TaskUpdateArgs](t, planText(t, text, c).only(t, action.TaskUpdate))
		if a.ID != 3 || a.Update.Due == nil || !a.Update.Due.Equal(due) {
			t.Errorf("%q: update %+v; want task 3 due %s", text, a, due)
		}
	}
	// Of an event just added, an amount alone is its length: it is not
	// moved to that long from now, it lasts that long.
	lunch := hearth.CalendarEvent{ID: 7, Title: "Lunch with Ben", Start: now.Add(76 * time.Hour), End: now.Add(77 * time.Hour)}
	c = stage.Context{Now: now, Location: time.UTC, Events: []hearth.CalendarEvent{lunch},
		Recent: []hearth.Message{{From: hearth.FromUser, Text: "add lunch with Ben on Friday at 1pm"},
			{From: hearth.FromBot, Text: "Done — Lunch with Ben is on your calendar for Friday at 1:00 PM."}}}
	for text, d := range map[string]time.Duration{"make it an hour": time.Hour, "make it 90 minutes instead": 90 * time.Minute} {
		a := decode[action.EventUpdateArgs](t, planText(t, text, c).only(t, action.CalendarUpdate))
		if a.ID != 7 || a.Update.Start != nil || a.Update.End == nil || !a.Update.End.Equal(lunch.Start.Add(d)) {
			t.Errorf("%q: update %+v; want lunch %v long, its start kept", text, a, d)
		}
	}
}
