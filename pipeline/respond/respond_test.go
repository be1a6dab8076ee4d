package respond

import (
	"context"
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

func mustAction(t testing.TB, kind action.Kind, payload any) action.Action {
	t.Helper()
	a, err := action.New(kind, payload)
	if err != nil {
		t.Fatalf("action %s: %v", kind, err)
	}
	return a
}

// respondTo classifies text as the runner would and writes the reply
// with the first wording always chosen.
func respondTo(t testing.TB, in stage.RespondInput) string {
	t.Helper()
	if in.Understanding.Intent == "" {
		in.Understanding = stagetest.Classifier().Classify(in.Text, nil, in.Context.Now)
	}
	if in.User.DisplayName == "" {
		in.User = hearth.User{ID: 1, DisplayName: "Alex Kim"}
	}
	r := NewTemplateResponder(func(string, int) int { return 0 })
	got, err := r.Respond(context.Background(), in)
	if err != nil {
		t.Fatalf("respond %q: %v", in.Text, err)
	}
	if strings.TrimSpace(got) == "" {
		t.Fatalf("respond %q: empty reply", in.Text)
	}
	return got
}

func TestRespond(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	z := c.Location
	at := func(d, h, m int) time.Time { return time.Date(2026, 3, d, h, m, 0, 0, z) }
	done := func(a action.Action) stage.Outcome { return stage.Outcome{Action: a, Status: stage.Done} }

	taskCreate := mustAction(t, action.TaskCreate, action.TaskCreateArgs{Title: "Call mom", Due: at(11, 17, 0)})
	memStore := mustAction(t, action.MemoryStore, action.MemoryStoreArgs{Content: "John's birthday is March 15th", About: "John", Category: hearth.MemoryPersonal})
	dinner := mustAction(t, action.CalendarCreate, action.EventCreateArgs{Title: "Celebration dinner", Start: at(14, 19, 0), End: at(14, 21, 0)})
	appendMilk := mustAction(t, action.NoteAppend, action.NoteAppendArgs{ID: 30, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "milk"}, {Text: "eggs"}}})
	newNote := mustAction(t, action.NoteCreate, action.NoteCreateArgs{Body: "Call the vet about Max."})
	moved, notAllDay := at(11, 17, 30), false
	moveCall := mustAction(t, action.TaskUpdate, action.TaskUpdateArgs{ID: 1, Update: hearth.TaskUpdate{Due: &moved, AllDay: &notAllDay}})
	dad := "Call dad"
	renameCall := mustAction(t, action.TaskUpdate, action.TaskUpdateArgs{ID: 1, Update: hearth.TaskUpdate{Title: &dad}})
	withTask := func(c stage.Context, task hearth.Task) stage.Context {
		c.Tasks = append(slices.Clone(c.Tasks), task)
		return c
	}
	email := mustAction(t, action.EmailSend, action.EmailArgs{To: []string{"Sarah <sarah@example.com>"}, Subject: "I'll be late", Body: "Hi Sarah,\n\nI'll be late.\n\n— Alex Kim"})
	emailAddr := mustAction(t, action.EmailSend, action.EmailArgs{To: []string{"Sarah <sarah@example.com>"}, Subject: "I'll be late", Body: "Hi Sarah,\n\nI'll be late.\n\n— Alex Kim"})

	tests := []struct {
		name    string
		in      stage.RespondInput
		want    []string // substrings the reply must have
		notWant []string // and must not
	}{
		{name: "greeting", in: stage.RespondInput{Text: "Hey, how's it going?"}, want: []string{"Doing well, thanks for asking!"}},
		{name: "hello", in: stage.RespondInput{Text: "hello", Understanding: nlu.Result{Intent: nlu.Chat}}, want: []string{"Hey Alex!"}},
		{name: "thanks", in: stage.RespondInput{Text: "Thanks!"}, want: []string{"welcome"}},
		{name: "capabilities", in: stage.RespondInput{Text: "What can you do?"}, want: []string{"to-do list", "calendar", "remember"}},
		{name: "joke", in: stage.RespondInput{Text: "Tell me a joke"}, want: []string{"?"}},
		{name: "general knowledge", in: stage.RespondInput{Text: "Who was the first president of the US?"}, want: []string{"can't look that up offline"}},
		{name: "the time", in: stage.RespondInput{Text: "What time is it?", Understanding: nlu.Result{Intent: nlu.Followup}, Context: c}, want: []string{"It's 9:00 AM on Tuesday, March 10 (America/New_York)."}},
		{name: "the date", in: stage.RespondInput{Text: "whats the date", Context: c}, want: []string{"on Tuesday, March 10"}},
		{name: "a time that is not now", in: stage.RespondInput{Text: "what time is the game?", Context: c}, notWant: []string{"March 10"}},
		{
			name: "task moved",
			in:   stage.RespondInput{Text: "push call mom by 30 minutes", Context: c, Outcomes: []stage.Outcome{{Action: moveCall, Status: stage.Done, Result: hearth.Task{ID: 1, Title: "Call mom", Due: moved}}}},
			want: []string{"moved “Call mom” to tomorrow at 5:30 PM"},
		},
		{
			name: "task renamed",
			in: stage.RespondInput{Text: "rename the call mom task to call dad", Context: withTask(c, hearth.Task{ID: 1, Title: "Call mom"}),
				Outcomes: []stage.Outcome{{Action: renameCall, Status: stage.Done, Result: hearth.Task{ID: 1, Title: "Call dad"}}}},
			want: []string{"renamed “Call mom” to “Call dad”"},
		},
		{
			name: "task created",
			in:   stage.RespondInput{Text: "Remind me to call mom tomorrow at 5pm", Context: c, Outcomes: []stage.Outcome{done(taskCreate)}},
			want: []string{"Got it — I'll remind you: “Call mom”, tomorrow at 5:00 PM."},
		},
		{
			name: "memory stored",
			in:   stage.RespondInput{Text: "Remember that John's birthday is March 15th", Context: c, Outcomes: []stage.Outcome{done(memStore)}},
			want: []string{"Noted: John's birthday is March 15th."},
		},
		{
			name: "an address remembered beside the email to it",
			in: stage.RespondInput{Text: "Email Dana that Friday works", Context: c, Outcomes: []stage.Outcome{
				done(mustAction(t, action.MemoryStore, action.MemoryStoreArgs{Content: "Dana Smith's email is dana@example.org", About: "Dana Smith", Category: hearth.MemoryPersonal,
					Entity: &action.EntityArgs{Name: "Dana Smith", Kind: hearth.EntityPerson}, Attribute: hearth.AttrEmail, Value: "dana@example.org"})),
				{Action: mustAction(t, action.EmailSend, action.EmailArgs{To: []string{"Dana Smith <Dana@example.org>"}, Subject: "Friday works", Body: "Hi Dana,\n\nFriday works."}), Status: stage.AwaitingApproval},
			}},
			want:    []string{"I'll remember Dana Smith's address.", "Here's the draft to Dana Smith <Dana@example.org>:"},
			notWant: []string{"Noted", "email is"},
		},
		{
			name: "an email address remembered on its own",
			in: stage.RespondInput{Text: "Remember that Dana's email is dana@example.org", Context: c, Outcomes: []stage.Outcome{
				done(mustAction(t, action.MemoryStore, action.MemoryStoreArgs{Content: "Dana's email is dana@example.org", About: "Dana", Category: hearth.MemoryPersonal,
					Entity: &action.EntityArgs{Name: "Dana", Kind: hearth.EntityPerson}, Attribute: hearth.AttrEmail, Value: "dana@example.org"})),
			}},
			want:    []string{"Noted: Dana's email is dana@example.org."},
			notWant: []string{"address"},
		},
		{
			name: "event created",
			in:   stage.RespondInput{Text: "dinner", Context: c, Outcomes: []stage.Outcome{done(dinner)}},
			want: []string{"Added Celebration dinner to your calendar for Saturday at 7:00 PM."},
		},
		{
			name: "memory and event",
			in:   stage.RespondInput{Text: "I just closed on my house! Add it to my calendar for celebration dinner Saturday", Context: c, Outcomes: []stage.Outcome{done(mustAction(t, action.MemoryStore, action.MemoryStoreArgs{Content: "I just closed on my house", Category: hearth.MemoryPersonal})), done(dinner)}},
			want: []string{"noted that you just closed on your house and added Celebration dinner to your calendar for Saturday at 7:00 PM."},
		},
		{
			name: "list append",
			in:   stage.RespondInput{Text: "add milk and eggs", Context: c, Outcomes: []stage.Outcome{done(appendMilk)}},
			want: []string{"added milk and eggs to your shopping list"},
		},
		{
			name:    "list append of what is on it",
			in:      stage.RespondInput{Text: "add bread", Context: c, Outcomes: []stage.Outcome{done(mustAction(t, action.NoteAppend, action.NoteAppendArgs{ID: 30, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "Bread"}}}))}},
			want:    []string{"Bread is already on your shopping list."},
			notWant: []string{"added"},
		},
		{
			name: "list append, partly there",
			in:   stage.RespondInput{Text: "add milk and bread", Context: c, Outcomes: []stage.Outcome{done(mustAction(t, action.NoteAppend, action.NoteAppendArgs{ID: 30, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "milk"}, {Text: "bread"}}}))}},
			want: []string{"added milk to your shopping list (bread was already on it)"},
		},
		{
			name: "list append of a ticked item",
			in: stage.RespondInput{Text: "add bread and jam", Context: withNote(c, hearth.Note{ID: 30, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "bread", Done: true}}}),
				Outcomes: []stage.Outcome{done(mustAction(t, action.NoteAppend, action.NoteAppendArgs{ID: 30, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "bread"}, {Text: "jam"}}}))}},
			want: []string{"added jam to your shopping list and put bread back on it"},
		},
		{
			name: "list deleted",
			in:   stage.RespondInput{Text: "delete my shopping list", Context: c, Outcomes: []stage.Outcome{done(mustAction(t, action.NoteDelete, action.NoteRefArgs{ID: 30, Title: "Shopping list"}))}},
			want: []string{"deleted your shopping list"},
		},
		{
			name: "family list deletion awaiting approval",
			in: stage.RespondInput{Text: "delete our shopping list", Context: c, Outcomes: []stage.Outcome{
				{Action: mustAction(t, action.NoteDelete, action.NoteRefArgs{ID: 31, Title: "Shopping list", Family: true}), Status: stage.AwaitingApproval}}},
			want: []string{"Shall I delete the family shopping list? Everyone in your family would lose it"},
		},
		{
			name: "note created",
			in:   stage.RespondInput{Text: "note", Context: c, Outcomes: []stage.Outcome{done(newNote)}},
			want: []string{"saved a note: call the vet about Max."},
		},
		{
			name:    "email awaiting approval, outbox",
			in:      stage.RespondInput{Text: "Email Sarah that I'll be late", Context: c, Outcomes: []stage.Outcome{{Action: email, Status: stage.AwaitingApproval, Result: hearth.Email{Via: hearth.ViaOutbox}}}},
			want:    []string{"Here's the draft to Sarah <sarah@example.com>:", "I'll be late.", "keep it in Hearth's outbox", "nothing will leave this machine"},
			notWant: []string{"sent", "Shall I send"},
		},
		{
			name:    "email awaiting approval, smtp",
			in:      stage.RespondInput{Text: "Email Sarah that I'll be late", Context: c, Outcomes: []stage.Outcome{{Action: emailAddr, Status: stage.AwaitingApproval, Result: hearth.Email{Via: hearth.ViaSMTP}}}},
			want:    []string{"Here's the draft to Sarah <sarah@example.com>:", "I'll be late.", "Shall I send it?"},
			notWant: []string{"sent", "outbox"},
		},
		{
			name:    "email kept in the outbox",
			in:      stage.RespondInput{Text: "yes", Context: c, Outcomes: []stage.Outcome{{Action: email, Status: stage.Done, Result: hearth.Email{Status: hearth.EmailSent, Via: hearth.ViaOutbox}}}},
			want:    []string{"kept your email to Sarah <sarah@example.com> in Hearth's outbox", "nothing left this machine"},
			notWant: []string{"sent"},
		},
		{
			name:    "email with no provider result says nothing left",
			in:      stage.RespondInput{Text: "yes", Context: c, Outcomes: []stage.Outcome{{Action: email, Status: stage.Done}}},
			want:    []string{"nothing left this machine"},
			notWant: []string{"sent"},
		},
		{
			name: "email sent by smtp",
			in:   stage.RespondInput{Text: "yes", Context: c, Outcomes: []stage.Outcome{{Action: email, Status: stage.Done, Result: hearth.Email{Status: hearth.EmailSent, Via: hearth.ViaSMTP}}}},
			want: []string{"sent your email to Sarah"},
		},
		{
			name:    "partial failure",
			in:      stage.RespondInput{Text: "x", Context: c, Outcomes: []stage.Outcome{done(taskCreate), {Action: newNote, Status: stage.Failed, Error: "the notes service is unreachable"}}},
			want:    []string{"I added “Call mom” to your tasks, due tomorrow at 5:00 PM, but couldn't save the note: the notes service is unreachable."},
			notWant: []string{"saved a note"},
		},
		{
			name:    "all failed",
			in:      stage.RespondInput{Text: "x", Context: c, Outcomes: []stage.Outcome{{Action: appendMilk, Status: stage.Failed, Error: "list not found"}, {Action: dinner, Status: stage.Failed}}},
			want:    []string{"Sorry, I couldn't add milk and eggs to your shopping list (list not found) or add Celebration dinner to your calendar."},
			notWant: []string{"added", "Done"},
		},
		{
			name: "task completed",
			in:   stage.RespondInput{Text: "done", Context: c, Outcomes: []stage.Outcome{done(mustAction(t, action.TaskComplete, action.TaskRefArgs{ID: 1, Title: "Call mom"}))}},
			want: []string{"marked “Call mom” as done"},
		},
		{
			name: "calendar tomorrow",
			in:   stage.RespondInput{Text: "What's on my calendar tomorrow?", Context: c},
			want: []string{"You have one thing tomorrow: 2:00 PM Team meeting."},
		},
		{
			name: "calendar friday",
			in:   stage.RespondInput{Text: "What do I have on Friday?", Context: c, Understanding: nlu.Result{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Calendar}, Slots: stagetest.Classifier().Classify("What's on my calendar on Friday?", nil, c.Now).Slots}},
			want: []string{"You have one thing on Friday: 9:00 AM Dentist appointment."},
		},
		{
			name: "calendar empty day",
			in:   stage.RespondInput{Text: "What's on my calendar today?", Context: c},
			want: []string{"Nothing on your calendar today — enjoy the free time!"},
		},
		{
			name:    "open tasks",
			in:      stage.RespondInput{Text: "What tasks do I have?", Context: c},
			want:    []string{"You have 4 open tasks: Call mom (today at 5:00 PM), Finish the quarterly report (Thursday)"},
			notWant: []string{"Renew passport"},
		},
		{
			name: "memory answer",
			in:   stage.RespondInput{Text: "When is John's birthday?", Context: c},
			want: []string{"March 15th"},
		},
		{
			name: "memory unknown",
			in:   stage.RespondInput{Text: "What's Carla's favourite colour?", Context: c, Understanding: nlu.Result{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Memory}}},
			want: []string{"I don't have anything about that yet. Tell me and I'll remember it."},
		},
		{
			// A date asked for, known nowhere: said where Hearth looked.
			name: "date unknown",
			in:   stage.RespondInput{Text: "When is Carla's birthday?", Context: c, Understanding: nlu.Result{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Memory}}},
			want: []string{"I don't see “Carla's birthday” on your calendar or in your tasks, and you haven't told me when it is."},
		},
		{
			name: "shopping list",
			in:   stage.RespondInput{Text: "What's on my shopping list?", Context: c, Understanding: nlu.Result{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Keep}}},
			want: []string{"Your shopping list has bread."},
		},
		{
			name: "discuss work",
			in:   stage.RespondInput{Text: "I'm overwhelmed, help me figure out what to focus on", Context: c},
			want: []string{"• Today: Call mom (today at 5:00 PM)", "• This week: Finish the quarterly report", "• Later: Buy milk", "I'd start with “Call mom” since it's due today."},
		},
		{
			name: "discuss work without tasks",
			in:   stage.RespondInput{Text: "What should I work on first?", Context: stage.Context{Now: c.Now, Location: z}, Understanding: nlu.Result{Intent: nlu.DiscussWork, Domains: []nlu.Domain{nlu.Task}}},
			want: []string{"Your task list is empty"},
		},
		{
			name: "question",
			in:   stage.RespondInput{Text: "Mark buy as done", Question: &stage.Question{Text: "Which one?", Options: []stage.Option{{Label: "Buy milk"}, {Label: "Buy birthday present"}}}},
			want: []string{"Which one?"},
		},
		{
			name: "plan failed",
			in:   stage.RespondInput{Text: "remind me", PlanFailed: true, Understood: "add a task"},
			want: []string{"I understood you wanted to add a task, but I had trouble with the details. Could you rephrase?"},
		},
		{
			name: "plan failed for want of a detail",
			in:   stage.RespondInput{Text: "remind me", PlanFailed: true, Understood: "add a task", Missing: "what the task is"},
			want: []string{"I understood you wanted to add a task, but I need to know what the task is."},
		},
		{
			name: "plan failed: what was named is not there",
			in:   stage.RespondInput{Text: "delete my packing list", PlanFailed: true, Understood: "delete the packing list", Missing: "which list: I couldn't find a packing list"},
			want: []string{"I couldn't find a packing list."},
		},
		{
			name: "plan failed: an item on no list",
			in:   stage.RespondInput{Text: "tick off cheese", PlanFailed: true, Understood: "tick cheese off a list", Missing: "which list: cheese isn't on any of your lists"},
			want: []string{"Cheese isn't on any of your lists."},
		},
		{
			name: "plan failed: an instruction is not a reason",
			in:   stage.RespondInput{Text: "email Sam hi", PlanFailed: true, Understood: "email Sam", Missing: "an email address for Sam: tell me “Sam's email is …” first"},
			want: []string{"had trouble with the details"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := respondTo(t, tt.in)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("reply %q\nwant it to contain %q", got, w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("reply %q\nmust not contain %q", got, w)
				}
			}
		})
	}
}

// TestRespondOverdueFirst: discussion puts overdue work first, high
// priority first within a bucket.
func TestRespondOverdueFirst(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	c.Tasks = append(c.Tasks,
		hearth.Task{ID: 7, Title: "File expenses", Status: hearth.TaskOpen, Due: c.Now.AddDate(0, 0, -2), AllDay: false},
		hearth.Task{ID: 8, Title: "Pay the water bill", Status: hearth.TaskOpen, Priority: 3, Due: c.Now.AddDate(0, 0, -1)},
	)
	got := respondTo(t, stage.RespondInput{Text: "what should I do first", Context: c, Understanding: nlu.Result{Intent: nlu.DiscussWork}})
	if !strings.Contains(got, "• Overdue: Pay the water bill") || !strings.Contains(got, "I'd start with “Pay the water bill” since it's overdue.") {
		t.Errorf("got %q", got)
	}
	if strings.Index(got, "Overdue") > strings.Index(got, "Today") {
		t.Errorf("overdue comes before today: %q", got)
	}
}

// TestRespondNeverClaimsFailures: for every kind, a failed outcome is
// never described in the past tense, and a done one always is.
func TestRespondNeverClaimsFailures(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	z := c.Location
	acts := []action.Action{
		mustAction(t, action.TaskCreate, action.TaskCreateArgs{Title: "Call mom"}),
		mustAction(t, action.TaskComplete, action.TaskRefArgs{ID: 1, Title: "Call mom"}),
		mustAction(t, action.TaskDelete, action.TaskRefArgs{ID: 1, Title: "Call mom"}),
		mustAction(t, action.MemoryStore, action.MemoryStoreArgs{Content: "Max is allergic to chicken", Category: hearth.MemoryPersonal}),
		mustAction(t, action.MemoryForget, action.MemoryRefArgs{ID: 20, Content: "John's birthday is March 15th"}),
		mustAction(t, action.CalendarCreate, action.EventCreateArgs{Title: "Yoga", Start: time.Date(2026, 3, 12, 8, 0, 0, 0, z), End: time.Date(2026, 3, 12, 9, 0, 0, 0, z)}),
		mustAction(t, action.CalendarDelete, action.EventRefArgs{ID: 10, Title: "Dentist appointment"}),
		mustAction(t, action.EmailDraft, action.EmailArgs{To: []string{"Sarah <sarah@example.com>"}, Subject: "Hi", Body: "Hi"}),
		mustAction(t, action.NoteCreate, action.NoteCreateArgs{Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "milk"}}}),
		mustAction(t, action.NoteAppend, action.NoteAppendArgs{ID: 30, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "milk"}}}),
	}
	for _, a := range acts {
		d := describeOutcome(stage.Outcome{Action: a, Status: stage.Done}, c)
		failed := respondTo(t, stage.RespondInput{Text: "x", Context: c, Outcomes: []stage.Outcome{{Action: a, Status: stage.Failed, Error: "boom"}}})
		if strings.Contains(failed, d.past) || !strings.Contains(failed, "couldn't") || !strings.Contains(failed, "boom") {
			t.Errorf("%s failed: reply %q", a.Kind, failed)
		}
		fb := DoneFallback([]stage.Outcome{{Action: a, Status: stage.Failed, Error: "boom"}})
		if strings.Contains(fb, "Done") || strings.Contains(fb, d.past) {
			t.Errorf("%s failed: fallback %q", a.Kind, fb)
		}
		ok := respondTo(t, stage.RespondInput{Text: "x", Context: c, Outcomes: []stage.Outcome{{Action: a, Status: stage.Done}}})
		if strings.Contains(ok, "couldn't") {
			t.Errorf("%s done: reply %q", a.Kind, ok)
		}
	}
}

func TestDoneFallback(t *testing.T) {
	t.Parallel()
	z, _ := time.LoadLocation("America/New_York")
	task := mustAction(t, action.TaskCreate, action.TaskCreateArgs{Title: "Call mom"})
	note := mustAction(t, action.NoteCreate, action.NoteCreateArgs{Body: "Call the vet."})
	email := mustAction(t, action.EmailSend, action.EmailArgs{To: []string{"Sarah <sarah@example.com>"}, Body: "Hi"})
	event := mustAction(t, action.CalendarCreate, action.EventCreateArgs{Title: "Dinner", Start: time.Date(2026, 3, 14, 19, 0, 0, 0, z), End: time.Date(2026, 3, 14, 21, 0, 0, 0, z)})
	for _, tt := range []struct {
		outcomes []stage.Outcome
		want     string
	}{
		{[]stage.Outcome{{Action: task, Status: stage.Done}}, "Done! I added “Call mom” to your tasks."},
		{[]stage.Outcome{{Action: task, Status: stage.Done}, {Action: note, Status: stage.Failed, Error: "disk full"}}, "Done! I added “Call mom” to your tasks, but couldn't save the note: disk full."},
		{[]stage.Outcome{{Action: email, Status: stage.AwaitingApproval}}, "I need your OK to send the email to Sarah <sarah@example.com>."},
		// Without a Context the event is shown in its own zone.
		{[]stage.Outcome{{Action: event, Status: stage.Done}}, "Done! I added Dinner to your calendar for Sat, Mar 14 at 7:00 PM."},
		{nil, "I didn't change anything."},
	} {
		if got := DoneFallback(tt.outcomes); got != tt.want {
			t.Errorf("DoneFallback = %q, want %q", got, tt.want)
		}
	}
}

func TestFormatWhen(t *testing.T) {
	t.Parallel()
	z, _ := time.LoadLocation("America/New_York")
	c := stage.Context{Now: time.Date(2026, 3, 10, 23, 30, 0, 0, z), Location: z} // Tuesday night
	for _, tt := range []struct {
		t      time.Time
		allDay bool
		want   string
	}{
		{time.Date(2026, 3, 10, 23, 45, 0, 0, z), false, "today at 11:45 PM"},
		{time.Date(2026, 3, 11, 4, 0, 0, 0, time.UTC), false, "tomorrow at 12:00 AM"}, // 04:00 UTC is midnight in New York
		{time.Date(2026, 3, 11, 21, 0, 0, 0, time.UTC), false, "tomorrow at 5:00 PM"},
		{time.Date(2026, 3, 14, 0, 0, 0, 0, z), true, "Saturday"},
		{time.Date(2026, 3, 16, 9, 0, 0, 0, z), false, "Monday at 9:00 AM"},
		{time.Date(2026, 3, 17, 9, 0, 0, 0, z), false, "Tue, Mar 17 at 9:00 AM"},
		{time.Date(2026, 3, 9, 9, 0, 0, 0, z), true, "yesterday"},
		{time.Date(2027, 1, 4, 9, 0, 0, 0, z), true, "Mon, Jan 4, 2027"},
	} {
		got := stage.FormatWhen(tt.t, tt.allDay, c)
		if got != tt.want {
			t.Errorf("formatWhen(%v) = %q, want %q", tt.t, got, tt.want)
		}
	}
}

// TestRespondVariants: the wording varies by message but not by run, and
// a picker out of range is harmless.
func TestRespondVariants(t *testing.T) {
	t.Parallel()
	in := stage.RespondInput{Text: "thanks a lot", Understanding: nlu.Result{Intent: nlu.Chat}}
	var zero TemplateResponder
	a, _ := zero.Respond(context.Background(), in)
	b, _ := NewTemplateResponder(nil).Respond(context.Background(), in)
	if a != b || a == "" {
		t.Errorf("the zero value and a nil picker agree: %q vs %q", a, b)
	}
	seen := map[string]bool{}
	for i := range 3 {
		r := NewTemplateResponder(func(string, int) int { return i })
		s, _ := r.Respond(context.Background(), in)
		seen[s] = true
	}
	if len(seen) != 3 {
		t.Errorf("want 3 wordings for thanks, got %v", seen)
	}
	r := NewTemplateResponder(func(string, int) int { return 99 })
	if s, _ := r.Respond(context.Background(), in); s == "" {
		t.Error("an out-of-range picker still gives a reply")
	}
}

// TestRespondDueBy: asked what is due tomorrow, a task due today is listed
// too, under "due by tomorrow"; with nothing earlier it is "due tomorrow".
func TestRespondDueBy(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	c.Tasks = []hearth.Task{{ID: 9, Title: "Renew the passport", Status: hearth.TaskOpen, Due: c.Now.AddDate(0, 0, 1)}}
	if got := respondTo(t, stage.RespondInput{Text: "what's due tomorrow?", Context: c}); !strings.Contains(got, "due tomorrow:") || !strings.Contains(got, "Renew the passport") {
		t.Errorf("only tomorrow's: %q", got)
	}
	c.Tasks = append(c.Tasks, hearth.Task{ID: 10, Title: "Stretch", Status: hearth.TaskOpen, Due: c.Now.Add(time.Hour)})
	if got := respondTo(t, stage.RespondInput{Text: "what's due tomorrow?", Context: c}); !strings.Contains(got, "due by tomorrow:") || !strings.Contains(got, "Stretch") {
		t.Errorf("with one due today: %q", got)
	}
}

// TestRespondDueInSpan: asked about a span further off ("next month"),
// the tasks due in it are listed as due then, and one due before it is
// said apart, not counted as due next month.
func TestRespondDueInSpan(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	nextMonth := time.Date(c.Now.Year(), c.Now.Month()+1, 12, 9, 0, 0, 0, c.Now.Location())
	c.Tasks = []hearth.Task{
		{ID: 9, Title: "Renew the passport", Status: hearth.TaskOpen, Due: nextMonth},
		{ID: 10, Title: "Pay the rent", Status: hearth.TaskOpen, Due: c.Now.Add(time.Hour)},
	}
	got := respondTo(t, stage.RespondInput{Text: "what's due next month?", Context: c})
	due, before, ok := strings.Cut(got, "Before then:")
	if !ok || !strings.Contains(due, "one open task due next month") || !strings.Contains(due, "Renew the passport") ||
		strings.Contains(due, "Pay the rent") || !strings.Contains(before, "Pay the rent") {
		t.Errorf("next month: %q", got)
	}
	c.Tasks = c.Tasks[1:]
	if got := respondTo(t, stage.RespondInput{Text: "what's due next month?", Context: c}); !strings.HasPrefix(got, "Nothing due next month. Before then:") || strings.Contains(got, "caught up") {
		t.Errorf("nothing next month: %q", got)
	}
	if got := respondTo(t, stage.RespondInput{Text: "what's due this month?", Context: c}); !strings.Contains(got, "due this month:") || !strings.Contains(got, "Pay the rent") || strings.Contains(got, "Before then") {
		t.Errorf("this month: %q", got)
	}
}

// TestRespondDone: asked what was got done, the tasks completed in the
// span are listed in the order they were done; none is said plainly.
func TestRespondDone(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	done := func(id int64, title string, at time.Time) hearth.Task {
		return hearth.Task{ID: id, Title: title, Status: hearth.TaskDone, CompletedAt: at}
	}
	c.Tasks = []hearth.Task{
		done(1, "Call the bank", c.Now.Add(-time.Hour)),
		done(2, "Buy stamps", c.Now.Add(-2*time.Hour)),
		done(3, "Pay rent", c.Now.AddDate(0, 0, -1)),
	}
	if got := respondTo(t, stage.RespondInput{Text: "what did I finish today?", Context: c}); got != "You finished 2 tasks today: Buy stamps and Call the bank." {
		t.Errorf("today: %q", got)
	}
	if got := respondTo(t, stage.RespondInput{Text: "what did I get done yesterday?", Context: c}); got != "You finished one task yesterday: Pay rent." {
		t.Errorf("yesterday: %q", got)
	}
	c.Tasks = c.Tasks[2:]
	if got := respondTo(t, stage.RespondInput{Text: "what did I do today?", Context: c}); got != "Nothing ticked off today yet." {
		t.Errorf("none today: %q", got)
	}
}

// TestRespondGift: what to give someone is answered with what they like,
// never with tasks; knowing nothing of the kind is said.
func TestRespondGift(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	c.Tasks = []hearth.Task{{ID: 9, Title: "Renew the passport", Status: hearth.TaskOpen}}
	c.Memories = []hearth.Memory{
		{ID: 1, Content: "Sam's birthday is May 3", About: "Sam"},
		{ID: 2, Content: "Sam likes red wine", About: "Sam"},
		{ID: 3, Content: "Sam is into bouldering", About: "Sam"},
	}
	got := respondTo(t, stage.RespondInput{Text: "what should I get Sam for his birthday?", Context: c})
	if got != "From what you've told me:\n• Sam likes red wine.\n• Sam is into bouldering." {
		t.Errorf("with likes: %q", got)
	}
	c.Memories = c.Memories[:1]
	if got := respondTo(t, stage.RespondInput{Text: "what could I buy my sister?", Context: c}); !strings.HasPrefix(got, "I don't know what your sister likes yet.") {
		t.Errorf("with none: %q", got)
	}
}

// TestSaidSpan: a span is named by its words, without the "on" of
// "what's on", a day's name with its capital.
func TestSaidSpan(t *testing.T) {
	t.Parallel()
	for said, want := range map[string]string{"on this weekend": "this weekend", "On next week": "next week", "on Friday": "on Friday", "this month": "this month", "friday afternoon": "Friday afternoon"} {
		if got := saidSpan(said); got != want {
			t.Errorf("saidSpan(%q) = %q; want %q", said, got, want)
		}
	}
}

// TestRespondAllNotes: asked for every note, each is named, a note with
// no title by its first words (the list of names was empty for those).
func TestRespondAllNotes(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	c.Notes = []hearth.Note{
		{ID: 1, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "milk"}}},
		{ID: 2, Body: "The plumber is coming Tuesday between eight and noon"},
		{ID: 3, Body: "Gate code 4471"},
	}
	want := "You have 3 notes and lists: Shopping list, “The plumber is coming Tuesday between…” and “Gate code 4471”."
	for _, text := range []string{"what notes do I have?", "Show me my lists", "list my notes."} {
		in := stage.RespondInput{Text: text, Context: c, Understanding: stage.Understanding{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Keep}}}
		if got := respondTo(t, in); got != want {
			t.Errorf("%q: %q; want %q", text, got, want)
		}
	}
}

// TestRespondShopping: what there is to buy is on the shopping list,
// whatever the question calls it; with one list, on that one.
func TestRespondShopping(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	gate := hearth.Note{ID: 3, Body: "Gate code 4471"}
	for _, tc := range []struct {
		notes []hearth.Note
		text  string
		want  string
	}{
		{[]hearth.Note{gate, {ID: 1, Title: "Packing", Items: []hearth.ChecklistItem{{Text: "socks"}}}, {ID: 2, Title: "Groceries", Items: []hearth.ChecklistItem{{Text: "milk"}, {Text: "eggs", Done: true}}}},
			"what do I need to buy?", "Your groceries list has milk."},
		{[]hearth.Note{gate, {ID: 1, Title: "Weekend", Items: []hearth.ChecklistItem{{Text: "rice"}}}}, "what do we need from the store?", "Your weekend list has rice."},
		{[]hearth.Note{gate, {ID: 1, Title: "Weekend", Items: []hearth.ChecklistItem{{Text: "rice"}}}, {ID: 2, Title: "Packing", Items: []hearth.ChecklistItem{{Text: "socks"}}}},
			"what do I need to buy?", "I couldn't find that."},
	} {
		c.Notes = tc.notes
		in := stage.RespondInput{Text: tc.text, Context: c, Understanding: stage.Understanding{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Keep}}}
		if got := respondTo(t, in); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q: %q; want %q", tc.text, got, tc.want)
		}
	}
}

// TestRespondNext: "what's my next reminder?" names the one due soonest
// from now, not every open task.
func TestRespondNext(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	c.Tasks = []hearth.Task{
		{ID: 1, Title: "Call grandma", Status: hearth.TaskOpen, Due: c.Now.Add(6 * time.Hour)},
		{ID: 2, Title: "Pick up the dry cleaning", Status: hearth.TaskOpen, Due: c.Now.Add(2 * time.Hour)},
		{ID: 3, Title: "Pay the rent", Status: hearth.TaskOpen, Due: c.Now.Add(-time.Hour)},
		{ID: 4, Title: "Buy stamps", Status: hearth.TaskOpen},
	}
	in := stage.RespondInput{Text: "what's my next reminder?", Context: c, Understanding: stage.Understanding{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Task}}}
	if got := respondTo(t, in); !strings.HasPrefix(got, "Next up: Pick up the dry cleaning (") || strings.Contains(got, "grandma") {
		t.Errorf("next: %q", got)
	}
	in.Context.Tasks = c.Tasks[3:]
	if got := respondTo(t, in); got != "Nothing has a time coming up. First on your list: Buy stamps." {
		t.Errorf("nothing timed: %q", got)
	}
	// A task due at a time comes before one due some time that day.
	day := stage.MidnightIn(c.Now, stage.UserZone(c)).AddDate(0, 0, 1)
	in.Context.Tasks = []hearth.Task{
		{ID: 5, Title: "Pay the rent", Status: hearth.TaskOpen, Due: day, AllDay: true},
		{ID: 6, Title: "Call mom", Status: hearth.TaskOpen, Due: day.Add(11 * time.Hour)},
	}
	if got := respondTo(t, in); !strings.HasPrefix(got, "Next up: Call mom (") {
		t.Errorf("timed first: %q", got)
	}
}

// TestRespondNextUp: "what's next?" is the first coming of the events
// and the tasks, with what is under way now; "my next meeting" is the
// first event.
func TestRespondNextUp(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	ev := func(title string, from, to time.Duration) hearth.CalendarEvent {
		return hearth.CalendarEvent{Title: title, Start: c.Now.Add(from), End: c.Now.Add(to)}
	}
	task := func(title string, due time.Duration) hearth.Task {
		return hearth.Task{Title: title, Status: hearth.TaskOpen, Due: c.Now.Add(due)}
	}
	both := []nlu.Domain{nlu.Calendar, nlu.Task}
	for _, tc := range []struct {
		text    string
		domains []nlu.Domain
		evs     []hearth.CalendarEvent
		tasks   []hearth.Task
		want    string
	}{
		{"what's next?", both, []hearth.CalendarEvent{ev("Dentist", 3*time.Hour, 4*time.Hour)}, []hearth.Task{task("Call mom", 2*time.Hour), task("Old", -time.Hour)}, "Next up: Call mom ("},
		{"what's up next?", both, []hearth.CalendarEvent{ev("Dentist", 3*time.Hour, 4*time.Hour), ev("Standup", -10*time.Minute, 20*time.Minute)}, []hearth.Task{task("Call mom", 5*time.Hour)}, "Right now: Standup until "},
		{"what's next?", both, nil, nil, "Nothing coming up: no events ahead and no tasks due."},
		{"what's my next meeting?", []nlu.Domain{nlu.Calendar}, []hearth.CalendarEvent{ev("Review", 5*time.Hour, 6*time.Hour), ev("Dentist", 3*time.Hour, 4*time.Hour)}, []hearth.Task{task("Call mom", time.Hour)}, "Next up: Dentist ("},
		{"when is my next appointment?", []nlu.Domain{nlu.Calendar}, nil, nil, "Nothing on your calendar coming up."},
	} {
		cc := c
		cc.Events, cc.Tasks = tc.evs, tc.tasks
		in := stage.RespondInput{Text: tc.text, Context: cc, Understanding: stage.Understanding{Intent: nlu.AskInfo, Domains: tc.domains}}
		if got := respondTo(t, in); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%q: %q; want %q…", tc.text, got, tc.want)
		}
	}
}

// TestRespondAge: how old someone is comes from when they were born, as
// precisely as it was told.
func TestRespondAge(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t) // March 10, 2026
	c.Memories = []hearth.Memory{
		{ID: 1, Content: "Anna was born in 1990", About: "Anna", Attribute: hearth.AttrBorn, Value: "1990-01-01"},
		{ID: 2, Content: "My son was born on May 3rd 2015", About: "my son", Attribute: hearth.AttrBorn, Value: "2015-05-03"},
		// An age told: as old as it was when told.
		{ID: 3, Content: "Mia is 7 years old", About: "Mia", CreatedAt: c.Now.AddDate(0, -2, 0)},
		{ID: 4, Content: "Leo just turned 5", About: "Leo", CreatedAt: c.Now},
	}
	for text, want := range map[string]string{
		"how old is Anna?":       "Anna was born in 1990, so they're 35 or 36.",
		"How old is my son now?": "Your son is 10 (born May 3, 2015).",
		"how old is Mia?":        "Mia was 7 when you told me, on January 10, 2026.",
		"how old is Leo?":        "Leo is 5, as you told me today.",
	} {
		in := stage.RespondInput{Text: text, Context: c, Understanding: stage.Understanding{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Memory}}}
		if got := respondTo(t, in); got != want {
			t.Errorf("%q: %q; want %q", text, got, want)
		}
	}
}

// withNote is c with n in place of the note of the same id.
func withNote(c stage.Context, n hearth.Note) stage.Context {
	c.Notes = slices.Clone(c.Notes)
	for i := range c.Notes {
		if c.Notes[i].ID == n.ID {
			c.Notes[i] = n
		}
	}
	return c
}

// TestRespondMyName: the user's name, not told as a fact, is the one they
// signed in with; told as a fact, the fact answers.
func TestRespondMyName(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	in := stage.RespondInput{Text: "What's my name?", User: hearth.User{DisplayName: "Ada"}, Context: c,
		Understanding: stage.Understanding{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Memory}}}
	if got := respondTo(t, in); !strings.HasPrefix(got, "You're Ada — ") {
		t.Errorf("signed-in name: %q", got)
	}
	in.Context.Memories = []hearth.Memory{{ID: 1, Content: "My name is Adaline"}}
	if got := respondTo(t, in); got != "Your name is Adaline." {
		t.Errorf("told name: %q", got)
	}
}

// TestRespondWhenIs: "when is my haircut?" is the soonest event of that
// name, "when is the insurance due?" the task's due date, and neither
// TestMemoryRepliesKeepNames: a fact that starts with a name keeps it
// capitalised mid-sentence ("I've forgotten that sam likes …" once).
func TestMemoryRepliesKeepNames(t *testing.T) {
	forget, _ := action.New(action.MemoryForget, action.MemoryRefArgs{ID: 1, Content: "Sam likes jasmine tea"})
	store, _ := action.New(action.MemoryStore, action.MemoryStoreArgs{Content: "The dentist is on Main Street"})
	for _, tt := range []struct {
		o    stage.Outcome
		want string
	}{
		{stage.Outcome{Action: forget, Status: stage.Done}, "forgotten that Sam likes jasmine tea"},
		{stage.Outcome{Action: store, Status: stage.Done}, "the dentist is on Main Street"},
	} {
		got := describeOutcome(tt.o, stage.Context{})
		if !strings.Contains(got.past+" | "+strings.Join(got.alone, " | "), tt.want) {
			t.Errorf("%s: %q / %q; want %q", tt.o.Action.Kind, got.past, got.alone, tt.want)
		}
	}
}
