package respond

import (
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/stage/stagetest"
)

// TestQuestionsAboutTime answers questions about the user's own time from
// the fixture's day (Tuesday 10 March 2026, 9:00 in New York).
func TestQuestionsAboutTime(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	z := c.Location
	late := c
	late.Tasks = append([]hearth.Task{{ID: 9, Title: "Return the library books", Status: hearth.TaskOpen, Due: time.Date(2026, 3, 8, 0, 0, 0, 0, z), AllDay: true}}, c.Tasks...)
	// Only Friday's dentist: a question about an earlier day says it
	// comes next.
	later := c
	later.Events = []hearth.CalendarEvent{c.Events[0]}
	tests := []struct {
		name    string
		text    string
		c       stage.Context
		want    []string
		notWant []string
	}{
		{"events and tasks due tomorrow", "What do I have tomorrow?", c, []string{"2:00 PM Team meeting"}, []string{"Call mom", "quarterly"}},
		{"events and tasks due Thursday", "what's on thursday?", c, []string{"Team meeting", "Due Thursday: Finish the quarterly report"}, nil},
		{"the week", "how does my week look?", c, []string{"Dentist appointment", "Team meeting", "Call mom", "Finish the quarterly report"}, nil},
		{"free on an afternoon", "when am I free on Wednesday afternoon?", c, []string{"12:00 PM–2:00 PM", "3:00 PM–7:00 PM"}, nil},
		{"free all day", "am I free on Saturday?", c, []string{"free all"}, nil},
		{"clear, and what comes next", "what's on my calendar tomorrow?", later, []string{"tomorrow", "Next up: Friday at 9:00 AM Dentist appointment."}, nil},
		{"nothing then, and what comes next", "what do I have tomorrow?", later, []string{"nothing due", "Next up: Friday at 9:00 AM Dentist appointment."}, nil},
		{"free at a time: no", "am I free on Wednesday at 2:30?", c, []string{"No — you have Team meeting (2:00 PM–3:00 PM)"}, nil},
		{"free at a time: starts soon after", "am I free on Wednesday at 1:45 pm?", c, []string{"No — you have Team meeting"}, nil},
		{"free at a time: yes", "am I free on Wednesday at noon?", c, []string{"Yes — nothing on your calendar"}, []string{"Team meeting"}},
		{"free for a length", "find me an hour on Wednesday", c, []string{"you have 1 hour free 9:00 AM–2:00 PM and 3:00 PM–6:00 PM"}, nil},
		{"free for a length: none that long", "find me 6 hours on Wednesday", c, []string{"You don't have 6 hours free tomorrow.", "Team meeting"}, nil},
		{"after a time: the rest of that day", "do I have anything after 1pm tomorrow?", c, []string{"2:00 PM Team meeting"}, []string{"Dentist", "Thursday"}},
		{"nothing overdue", "what's overdue?", c, []string{"Nothing is overdue"}, nil},
		{"overdue", "what's overdue?", late, []string{"one overdue task", "Return the library books"}, []string{"Call mom"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := respondTo(t, stage.RespondInput{Text: tt.text, Context: tt.c})
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("%q: reply %q\nwant it to contain %q", tt.text, got, w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(got, w) {
					t.Errorf("%q: reply %q\nmust not contain %q", tt.text, got, w)
				}
			}
		})
	}
}

// TestOtherLanguages answers a message in another language with one line
// saying Hearth understands English, and leaves English alone.
func TestOtherLanguages(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text    string
		foreign bool
	}{
		{"recuérdame llamar a mi madre mañana", true},
		{"rappelle moi de appeler le médecin demain", true},
		{"erinnere mich morgen an den Zahnarzt bitte", true},
		{"напомни мне позвонить маме", true},
		{"明日母に電話することを思い出させて", true},
		{"hola", false},
		{"remind me to buy tortillas for el taco night", false},
		{"what's the weather like", false},
	} {
		if got := nlu.OtherLanguage(tt.text); got != tt.foreign {
			t.Errorf("OtherLanguage(%q) = %v; want %v", tt.text, got, tt.foreign)
		}
		if u := stagetest.Classifier().Classify(tt.text, []nlu.Turn{}, time.Now()); tt.foreign && u.Intent != nlu.Chat {
			t.Errorf("Classify(%q) = %s; a message in another language is chat", tt.text, u.Intent)
		}
	}
	if got := respondTo(t, stage.RespondInput{Text: "rappelle moi de appeler le médecin demain"}); got != englishOnly {
		t.Errorf("reply %q; want %q", got, englishOnly)
	}
}

// known is said so.
func TestRespondWhenIs(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	day := stage.MidnightIn(c.Now, stage.UserZone(c)).AddDate(0, 0, 1)
	c.Events = []hearth.CalendarEvent{
		{Title: "Haircut", Start: day.AddDate(0, 0, 14).Add(10 * time.Hour)},
		{Title: "Haircut", Start: day.Add(10 * time.Hour)},
		{Title: "Dentist", Start: day.Add(9 * time.Hour)},
	}
	c.Tasks = []hearth.Task{{Title: "Renew the car insurance", Status: hearth.TaskOpen, Due: day, AllDay: true}, {Title: "Fix the gate", Status: hearth.TaskOpen}}
	for _, tt := range []struct {
		text    string
		domains []nlu.Domain
		want    string
	}{
		{"when is my haircut?", []nlu.Domain{nlu.Calendar}, "Haircut is tomorrow at 10:00 AM."},
		{"when am I seeing the dentist?", []nlu.Domain{nlu.Calendar}, "Dentist is tomorrow at 9:00 AM."},
		{"when is the car insurance due?", []nlu.Domain{nlu.Task}, "“Renew the car insurance” is due tomorrow."},
		{"when is the gate due?", []nlu.Domain{nlu.Task}, "“Fix the gate” has no due date."},
		{"when is my yoga class?", []nlu.Domain{nlu.Memory}, "I don't see “yoga class” on your calendar or in your tasks"},
		// Read as a question about one's time ("do I have"), it is still
		// the one thing named.
		{"when do I have my haircut next?", []nlu.Domain{nlu.Calendar, nlu.Task}, "Haircut is tomorrow at 10:00 AM."},
		{"when do I have the gate?", []nlu.Domain{nlu.Calendar, nlu.Task}, "“Fix the gate” has no due date."},
	} {
		in := stage.RespondInput{Text: tt.text, Context: c, Understanding: stage.Understanding{Intent: nlu.AskInfo, Domains: tt.domains}}
		if got := respondTo(t, in); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%q: %q; want %q", tt.text, got, tt.want)
		}
	}
}

// TestRespondWhoComing: who is invited to an event is its attendees, or
// no one else; of an event the user does not have, that it is not there.
func TestRespondWhoComing(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	day := stage.MidnightIn(c.Now, stage.UserZone(c)).AddDate(0, 0, 1)
	c.Events = []hearth.CalendarEvent{
		{Title: "Mia's school play", Start: day.Add(18 * time.Hour)},
		{Title: "Lunch with Sam", Start: day.Add(13 * time.Hour), Attendees: []string{"sam@example.com", "ana@example.com"}},
	}
	for text, want := range map[string]string{
		"who's coming to Mia's play?":  "No one else is invited to Mia's school play (tomorrow at 6:00 PM)",
		"who is invited to the lunch?": "Invited to Lunch with Sam (tomorrow at 1:00 PM): sam@example.com and ana@example.com.",
		"who's going to the barbecue?": "I don't see “barbecue” on your calendar.",
	} {
		in := stage.RespondInput{Text: text, Context: c, Understanding: stage.Understanding{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Calendar}}}
		if got := respondTo(t, in); !strings.HasPrefix(got, want) {
			t.Errorf("%q: %q; want %q", text, got, want)
		}
	}
}
