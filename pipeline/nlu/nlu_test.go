package nlu

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth/pipeline/nlu/internal/features"
)

func newTestClassifier(t testing.TB) *Classifier {
	t.Helper()
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var testRef = time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)

func TestClassify(t *testing.T) {
	t.Parallel()
	c := newTestClassifier(t)
	question := []Turn{{Text: "remind me to call mom"}, {FromBot: true, Text: "Should I remind you at 5pm?"}}
	options := []Turn{{FromBot: true, Text: "Which calendar?", Options: []string{"Work calendar", "Family calendar", "Kids"}}}
	list := []Turn{{FromBot: true, Text: "I found:\n1. Sarah Lee\n2. Sarah Kim"}}
	statement := []Turn{{FromBot: true, Text: "Done! I added dinner on Friday."}}
	tests := []struct {
		text    string
		recent  []Turn
		intent  Intent
		domains []Domain // the first ones, in order
	}{
		{"Thanks!", nil, Chat, nil},
		{"Thanks, and remind me tomorrow", nil, RequestAction, []Domain{Task}},
		{"add milk to my shopping list and remind me to call mom", nil, RequestAction, nil},
		{"tell me a joke", nil, Chat, nil},
		{"what's your name?", nil, Chat, nil},
		{"what is the capital of France", nil, Chat, nil},
		{"Remind me to call mom tomorrow at 5pm", nil, RequestAction, []Domain{Task}},
		{"Email Sarah that I'll be late", nil, RequestAction, []Domain{Email}},
		{"add milk to my shopping list", nil, RequestAction, []Domain{Keep}},
		{"make a note to buy a birthday card", nil, RequestAction, []Domain{Keep}},
		// Looking a note up changes nothing: a question.
		{"find my note on the trip", nil, AskInfo, []Domain{Keep}},
		{"pull up my note about Lisbon", nil, AskInfo, []Domain{Keep}},
		{"please find my notes on the trip", nil, AskInfo, []Domain{Keep}},
		{"note to self: find the passport", nil, RequestAction, []Domain{Keep}},
		{"remember that John's birthday is March 15th", nil, RequestAction, []Domain{Memory}},
		{"When is John's birthday?", nil, AskInfo, []Domain{Memory}},
		{"what's on my calendar tomorrow", nil, AskInfo, []Domain{Calendar}},
		// What is due asks the tasks, whatever span it names; a due date
		// is something told.
		{"what's due this month?", nil, AskInfo, []Domain{Task}},
		{"what's due this week?", nil, AskInfo, []Domain{Task}},
		{"what is due by the end of the month?", nil, AskInfo, []Domain{Task}},
		{"what's due in January?", nil, AskInfo, []Domain{Task}},
		{"anything due this month?", nil, AskInfo, []Domain{Task}},
		{"what's due on the 15th?", nil, AskInfo, []Domain{Task}},
		{"anything due on Friday?", nil, AskInfo, []Domain{Task}},
		{"what's my due date?", nil, AskInfo, []Domain{Memory}},
		// What is on then asks the events and what is due, not for help
		// with the week; what is on a list asks the list.
		{"what's on this week?", nil, AskInfo, []Domain{Calendar, Task}},
		{"what's happening this week?", nil, AskInfo, []Domain{Calendar, Task}},
		{"anything on this week?", nil, AskInfo, []Domain{Calendar, Task}},
		{"is there anything on tonight?", nil, AskInfo, []Domain{Calendar, Task}},
		{"what's on my plate this week?", nil, AskInfo, []Domain{Calendar, Task}},
		{"Mia's school play is on Friday at 6pm", nil, RequestAction, []Domain{Calendar}},
		{"what's on Friday at 6pm?", nil, AskInfo, []Domain{Calendar, Task}},
		{"block out Friday afternoon for focus time", nil, RequestAction, []Domain{Calendar}},
		{"who's coming to Mia's play?", nil, AskInfo, []Domain{Calendar}},
		{"Mia is 7 years old", nil, RequestAction, []Domain{Memory}},
		{"Leo just turned 5", nil, RequestAction, []Domain{Memory}},
		{"my wifi password is swordfish", nil, RequestAction, []Domain{Memory}},
		// News of something done asks for no task.
		{"I painted the fence", nil, Chat, []Domain{}},
		// Someone coming at a time is a visit for the calendar.
		{"the plumber is coming Tuesday between 8 and 12", nil, RequestAction, []Domain{Calendar}},
		{"Grandma's visiting on Saturday", nil, RequestAction, []Domain{Calendar}},
		{"winter is coming", nil, Chat, []Domain{}},
		// Where the car is, though, is kept: "where did I park?" asks.
		{"I parked on level 2 today", nil, RequestAction, []Domain{Memory}},
		{"I forgot to call mom, remind me tomorrow", nil, RequestAction, []Domain{Task}},
		// A reminder or an errand dated by a birthday is a task, not a
		// fact about the birthday.
		{"remind me the day before Sam's birthday", nil, RequestAction, []Domain{Task}},
		{"buy candles before Sam's birthday", nil, RequestAction, []Domain{Task}},
		{"buy a card before mum's birthday", nil, RequestAction, []Domain{Task}},
		{"remind me that Sam's birthday is March 14", nil, RequestAction, []Domain{Memory}},
		{"what's on the shopping list today?", nil, AskInfo, []Domain{Keep}},
		{"show me my lists", nil, AskInfo, []Domain{Keep}},
		// What is left to do: the open tasks.
		{"what's left?", nil, AskInfo, []Domain{Task}},
		{"anything left?", nil, AskInfo, []Domain{Task}},
		{"what drafts do I have?", nil, AskInfo, []Domain{Email}},
		{"show my drafts", nil, AskInfo, []Domain{Email}},
		// Having something on tells of an event; asking whether one has asks.
		{"I have a doctor's appointment next Tuesday at 3pm", nil, RequestAction, []Domain{Calendar}},
		{"do I have a doctor's appointment next Tuesday?", nil, AskInfo, []Domain{Calendar}},
		{"I'm overwhelmed, help me figure out what to focus on", nil, DiscussWork, nil},
		{"what should I work on first", nil, DiscussWork, nil},
		// Short answers need something to answer.
		{"yes", question, Followup, nil},
		{"no thanks", question, Followup, nil},
		{"2", options, Followup, nil},
		{"the first one", options, Followup, nil},
		{"family", options, Followup, nil},
		{"that one", list, Followup, nil},
		{"tell me more", list, Followup, nil},
		{"yes", statement, Chat, nil},
		{"ok", statement, Chat, nil},
		{"the first one", statement, Chat, nil},
		{"tell me more", statement, Chat, nil},
		{"thanks!", statement, Chat, nil},
		// A real request after a question stays a request.
		{"remind me to buy milk tomorrow", question, RequestAction, []Domain{Task}},
		// With no turns the context is unknown: answers are followups.
		{"yes", nil, Followup, nil},
		{"", nil, Chat, nil},
		{"   ", nil, Chat, nil},
	}
	for _, tt := range tests {
		got := c.Classify(tt.text, tt.recent, testRef)
		if got.Intent != tt.intent {
			t.Errorf("Classify(%q) intent = %s (%.2f), want %s", tt.text, got.Intent, got.Confidence, tt.intent)
		}
		if len(tt.domains) > 0 && (len(got.Domains) < len(tt.domains) || !slices.Equal(got.Domains[:len(tt.domains)], tt.domains)) {
			t.Errorf("Classify(%q) domains = %v, want %v first", tt.text, got.Domains, tt.domains)
		}
		if (got.Intent == Chat || got.Intent == Followup) && len(got.Domains) != 0 {
			t.Errorf("Classify(%q) = %s with domains %v, want none", tt.text, got.Intent, got.Domains)
		}
		if got.Domains == nil {
			t.Errorf("Classify(%q) domains are nil, want an empty slice", tt.text)
		}
		if got.RequiresAction != (got.Intent == RequestAction) {
			t.Errorf("Classify(%q) RequiresAction = %v for %s", tt.text, got.RequiresAction, got.Intent)
		}
	}
}

func TestClassifySeveralDomains(t *testing.T) {
	t.Parallel()
	c := newTestClassifier(t)
	got := c.Classify("I just closed on my house! Add a celebration dinner Saturday", nil, testRef)
	if got.Intent != RequestAction || !slices.Contains(got.Domains, Memory) || !slices.Contains(got.Domains, Calendar) {
		t.Fatalf("got %s %v, want request_action with memory and calendar", got.Intent, got.Domains)
	}
	if got.Slots.Fact != "I just closed on my house" {
		t.Errorf("fact = %q", got.Slots.Fact)
	}
	if !strings.HasPrefix(got.Slots.Title, "celebration dinner") {
		t.Errorf("title = %q, want it to start with \"celebration dinner\"", got.Slots.Title)
	}
}

func TestSlots(t *testing.T) {
	t.Parallel()
	c := newTestClassifier(t)
	options := []Turn{{FromBot: true, Text: "Which one?", Options: []string{"Work calendar", "Family calendar", "Kids"}}}
	tests := []struct {
		text   string
		recent []Turn
		want   Slots
	}{
		{"Email Sarah that I'll be late", nil, Slots{Recipient: "Sarah", Gist: "I'll be late", People: []string{"Sarah"}}},
		{"send an email to my boss saying I'm sick today", nil, Slots{Recipient: "my boss", Gist: "I'm sick today", People: []string{"my boss"}}},
		{"write to Dave about the Friday dinner", nil, Slots{Recipient: "Dave", Gist: "the Friday dinner", People: []string{"Dave"}}},
		{"add milk to my shopping list", nil, Slots{Note: "milk", List: "shopping list"}},
		{"make a note: the router is in the hall closet", nil, Slots{Note: "the router is in the hall closet"}},
		{"remember that John's birthday is March 15th", nil, Slots{Fact: "John's birthday is March 15th", People: []string{"John"}}},
		{"note that Emma has a dentist appointment Thursday", nil, Slots{Fact: "Emma has a dentist appointment Thursday", People: []string{"Emma"}}},
		{"the second one", options, Slots{Option: 2}},
		{"3", options, Slots{Option: 3}},
		{"the last one", options, Slots{Option: 3}},
		{"family", options, Slots{Option: 2}},
	}
	// The calendar named is not the event's title, whichever it is.
	for _, text := range []string{"put swim practice on the family calendar for saturday at 9", "add swim practice to my calendar"} {
		if got := c.Classify(text, nil, testRef).Slots.Title; !strings.EqualFold(got, "swim practice") {
			t.Errorf("Classify(%q).Slots.Title = %q; want swim practice", text, got)
		}
	}
	for _, tt := range tests {
		got := c.Classify(tt.text, tt.recent, testRef).Slots
		if got.Recipient != tt.want.Recipient || got.Gist != tt.want.Gist || got.Note != tt.want.Note ||
			got.List != tt.want.List || got.Fact != tt.want.Fact || got.Option != tt.want.Option ||
			!slices.Equal(got.People, tt.want.People) {
			t.Errorf("Classify(%q).Slots =\n  %+v\nwant\n  %+v", tt.text, got, tt.want)
		}
	}
}

func TestTaskTitle(t *testing.T) {
	t.Parallel()
	c := newTestClassifier(t)
	tests := []struct{ text, prefix string }{
		{"Remind me to call mom tomorrow at 5pm", "call mom"},
		{"remind me tomorrow at 8 to take my pills", "take my pills"},
		{"add pay the gas bill to my to-do list", "pay the gas bill"},
		{"don't let me forget to water the tomatoes tonight", "water the tomatoes"},
		// A "to" inside the title stays in it.
		{"remind me to ask Sam to call back", "ask Sam to call back"},
		{"Schedule lunch with Carlos on Friday at noon", "lunch with Carlos"},
	}
	for _, tt := range tests {
		got := c.Classify(tt.text, nil, testRef).Slots.Title
		if !strings.HasPrefix(got, tt.prefix) {
			t.Errorf("Classify(%q) title = %q, want prefix %q", tt.text, got, tt.prefix)
		}
	}
	// The date span is the When slot and leaves the title.
	s := c.Classify("Remind me to call mom tomorrow at 5pm", nil, testRef).Slots
	if s.Title != "call mom" {
		t.Errorf("title = %q, want \"call mom\"", s.Title)
	}
	if s.When == nil {
		t.Fatal("no When slot")
	}
	if want := time.Date(2026, 3, 11, 17, 0, 0, 0, time.UTC); !s.When.Value.Equal(want) {
		t.Errorf("When = %+v, want %v", *s.When, want)
	}
}

func TestClassifyDeterministic(t *testing.T) {
	t.Parallel()
	c := newTestClassifier(t)
	a := c.Classify("Remind me to call mom tomorrow at 5pm", nil, testRef)
	for range 3 {
		b := c.Classify("Remind me to call mom tomorrow at 5pm", nil, testRef)
		if a.Intent != b.Intent || a.Confidence != b.Confidence || !slices.Equal(a.Domains, b.Domains) || a.Slots.Title != b.Slots.Title {
			t.Fatalf("results differ: %+v vs %+v", a, b)
		}
	}
}

func TestClassifyConcurrent(t *testing.T) {
	t.Parallel()
	c := newTestClassifier(t)
	want := c.Classify("add eggs to the grocery list", nil, testRef)
	done := make(chan Result)
	for range 8 {
		go func() { done <- c.Classify("add eggs to the grocery list", nil, testRef) }()
	}
	for range 8 {
		if got := <-done; got.Intent != want.Intent || got.Confidence != want.Confidence {
			t.Errorf("concurrent result %+v, want %+v", got, want)
		}
	}
}

var fuzzSeeds = []string{
	"Remind me to call mom tomorrow at 5pm",
	"Email Sarah that I'll be late",
	"add milk to my shopping list",
	"remember that John's birthday is March 15th",
	"I just closed on my house! Add a celebration dinner Saturday",
	"what should I work on first?",
	"the first one",
	"2",
	"Thanks!",
	"",
	"¿Qué tal? 😀 ünïcödé",
	"remind me to",
	"email",
	"add to my list",
	"note that",
	"\x00\xff\xfe",
	strings.Repeat("remind me to ", 50),
}

func FuzzClassify(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s, "Which one?", "Work calendar")
	}
	c := newTestClassifier(f)
	f.Fuzz(func(t *testing.T, text, prev, option string) {
		for _, recent := range [][]Turn{nil, {{FromBot: true, Text: prev, Options: []string{option, "x"}}}, {{Text: prev}}} {
			res := c.Classify(text, recent, testRef)
			if !slices.Contains(Intents, res.Intent) {
				t.Fatalf("intent %q is not valid", res.Intent)
			}
			if !(res.Confidence >= 0 && res.Confidence <= 1) {
				t.Fatalf("confidence %v out of [0,1]", res.Confidence)
			}
			if res.Domains == nil {
				t.Fatal("nil domains")
			}
			for _, d := range res.Domains {
				if !slices.Contains(Domains, d) {
					t.Fatalf("domain %q is not valid", d)
				}
			}
			if res.Slots.Option < 0 {
				t.Fatalf("option %d", res.Slots.Option)
			}
		}
	})
}

func BenchmarkClassify(b *testing.B) {
	c := newTestClassifier(b)
	msgs := []string{
		"Remind me to call mom tomorrow at 5pm",
		"what's on my calendar for friday?",
		"Email Sarah that I'll be late",
		"tell me a joke",
		"add milk and eggs to my shopping list",
		"I'm overwhelmed, help me figure out what to focus on",
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		c.Classify(msgs[i%len(msgs)], nil, testRef)
		i++
	}
}

func BenchmarkClassify10KB(b *testing.B) {
	c := newTestClassifier(b)
	msg := "Remind me to read this email from Sarah tomorrow: " + strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", 180)
	msg = msg[:10*1024]
	b.SetBytes(int64(len(msg)))
	b.ReportAllocs()
	for b.Loop() {
		c.Classify(msg, nil, testRef)
	}
}

// TestOutOfScope checks that requests Hearth cannot carry out are chat
// with the out-of-scope flag, and that its own requests are not.
func TestOutOfScope(t *testing.T) {
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		text string
		oos  bool
	}{
		{"find directions to the car wash", true},
		{"play something by nina simone", true},
		{"what's my savings balance", true},
		{"order a new phone charger", true},
		{"turn off the bedroom lights", true},
		{"what's on tv tonight?", true},
		{"anything good on telly this weekend?", true},
		{"remind me to call the bank tomorrow at 9", false},
		{"buy flowers before mum's birthday", false},
		{"add dish soap to the shopping list", false},
		{"put the car service on my calendar friday at 8", false},
		{"remember that the spare key is with the neighbours", false},
		{"hello", false},
	} {
		got := c.Classify(tt.text, []Turn{}, ref)
		if got.OutOfScope != tt.oos {
			t.Errorf("Classify(%q) = %s %v, out of scope %v; want out of scope %v", tt.text, got.Intent, got.Domains, got.OutOfScope, tt.oos)
		}
		if tt.oos && (got.Intent != Chat || len(got.Domains) != 0) {
			t.Errorf("Classify(%q) = %s %v; an out-of-scope request is chat with no domains", tt.text, got.Intent, got.Domains)
		}
	}
}

// TestPointsBack checks that "cancel it" after a reply about an item is a
// followup that changes it (RequiresAction), "also add …" after Hearth
// added something is more of the same, and "cancel it" after a question
// is still an answer.
func TestPointsBack(t *testing.T) {
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	done := []Turn{{Text: "remind me to call the plumber"}, {FromBot: true, Text: "Got it — I'll remind you: “Call the plumber”, tomorrow at 10:00 AM."}}
	listed := []Turn{{Text: "add eggs to my shopping list"}, {FromBot: true, Text: "I started a shopping list with eggs."}}
	asked := []Turn{{Text: "email Sarah"}, {FromBot: true, Text: "Here's the draft. Shall I send it?", Options: []string{"Approve", "Cancel"}}}
	for _, tt := range []struct {
		text   string
		recent []Turn
		want   Intent
		acts   bool
	}{
		{"cancel it", done, Followup, true},
		{"move it to 11", done, Followup, true},
		{"mark that as done", done, Followup, true},
		{"actually make that 6pm", done, Followup, true},
		{"can you move it to 3?", done, Followup, true},
		{"could you cancel it please?", done, Followup, true},
		{"make it a priority", done, Chat, false},
		{"also add flour and butter", listed, Followup, true},
		{"add flour too", listed, Followup, true},
		{"add flour to it", listed, Followup, true},
		{"add flour to my shopping list", listed, RequestAction, true},
		{"and flour", listed, Followup, true},
		{"oh and some butter", listed, Followup, true},
		{"flour too", listed, Followup, true},
		{"and flour", done, Chat, false}, // a reminder is no list
		{"and flour", []Turn{{Text: "what's on my shopping list?"}, {FromBot: true, Text: "Your shopping list has eggs."}}, Followup, true},
		{"and thanks", listed, Chat, false},
		{"cancel it", asked, Followup, false},
	} {
		if got := c.Classify(tt.text, tt.recent, ref); got.Intent != tt.want || got.RequiresAction != tt.acts {
			t.Errorf("Classify(%q) after %q = %s (acts %v); want %s (acts %v)", tt.text, tt.recent[1].Text, got.Intent, got.RequiresAction, tt.want, tt.acts)
		}
	}
	// More of the same after a reply about a list is the list's, though
	// the request before it reads alone as a task.
	packed := []Turn{{Text: "add sunscreen"}, {FromBot: true, Text: "Done — I added sunscreen to your packing list."}}
	if got := c.Classify("add socks to it", packed, ref); got.Intent != Followup || !slices.Equal(got.Domains, []Domain{Keep}) {
		t.Errorf("Classify(add socks to it) after the packing list = %s %v; want a followup to the lists", got.Intent, got.Domains)
	}
}

// TestRemindIsATask checks that a request for a reminder is a task even
// when it names a call or a meeting.
func TestRemindIsATask(t *testing.T) {
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	// A bare "remind me" asks for a reminder too (what about is asked).
	for _, text := range []string{"remind me about the call with Tomas on Thursday at 3pm", "remind me about the team meeting tomorrow at 9", "remind me", "can you remind me"} {
		got := c.Classify(text, []Turn{}, ref)
		if got.Intent != RequestAction || !slices.Contains(got.Domains, Task) || slices.Contains(got.Domains, Calendar) {
			t.Errorf("Classify(%q) = %s %v; want request_action with task, not calendar", text, got.Intent, got.Domains)
		}
	}
	// "Remind me what …" asks to be told: what I have, the agenda.
	for _, text := range []string{"remind me what I have tomorrow", "remind me when the dentist is"} {
		if got := c.Classify(text, []Turn{}, ref); got.Intent != AskInfo {
			t.Errorf("Classify(%q) = %s; want ask_info", text, got.Intent)
		}
	}
	if got := c.Classify("remind me what I have tomorrow", []Turn{}, ref); !slices.Equal(got.Domains, []Domain{Calendar, Task}) {
		t.Errorf("remind me what I have tomorrow: %v; want the agenda (calendar and tasks)", got.Domains)
	}
}

// TestDoneQuestion: what was got done is asked with a verb of finishing;
// "do" and "done" only with a day or a week.
func TestDoneQuestion(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"what did I finish today?", true},
		{"What have I completed this week?", true},
		{"which tasks did I tick off this week?", true},
		{"what did I get done yesterday?", true},
		{"what did we manage to finish?", true},
		{"what did I do today?", true},
		{"what have I done so far?", true},
		{"what did I do last summer?", false},
		{"what did I get for Sam?", false},
		{"what did I check?", false},
		{"what's due today?", false},
		{"finish the report today", false},
		{"", false},
	} {
		if got := DoneQuestion(tt.text); got != tt.want {
			t.Errorf("DoneQuestion(%q) = %v; want %v", tt.text, got, tt.want)
		}
	}
}

// TestNextUp: "what's next?" asks for the next thing of any kind; a
// question naming what or when is another.
func TestNextUp(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"what's next?": true, "What is next today?": true, "so what's up next?": true, "what do I have next?": true,
		"what do I have next week?": false, "what's next on my list?": false, "what's my next meeting?": false, "next": false, "": false,
	} {
		if got := NextUp(text); got != want {
			t.Errorf("NextUp(%q) = %v; want %v", text, got, want)
		}
	}
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	if got := c.Classify("what's next?", []Turn{}, ref); got.Intent != AskInfo || !slices.Equal(got.Domains, []Domain{Calendar, Task}) {
		t.Errorf("Classify(what's next?) = %s %v; want ask_info calendar+task", got.Intent, got.Domains)
	}
}

// TestWhenIs: a question for when one named thing is, and its name.
func TestWhenIs(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"when is my haircut?": "haircut", "What time is the dentist?": "dentist", "when's the car insurance due?": "car insurance",
		"what day is our anniversary dinner": "anniversary dinner", "when is it?": "", "what time is it?": "", "when am I free?": "",
		"when is swimming?": "swimming", "what time is piano again?": "piano", "when is it due next week?": "", "when is that happening": "",
		"when's my next swimming?": "swimming", "when is swimming next?": "swimming", "what time is the next piano lesson": "piano lesson",
		"when am I seeing the doctor?": "doctor", "when do I have piano next?": "piano", "when are we going to the dentist": "dentist",
		"when do I have to leave?": "", "when do I see Ben again?": "Ben", "what time is the haircut now?": "haircut",
		"what time is dinner tomorrow?": "dinner", "when is the match on Saturday?": "match",
	} {
		got, ok := WhenIs(text)
		if got != want || ok != (want != "") {
			t.Errorf("WhenIs(%q) = %q, %v; want %q", text, got, ok, want)
		}
	}
	for text, want := range map[string]string{"when do I water the plants?": "water the plants", "when should we take out the bins": "take out the bins",
		"when do I take my pills again?": "take my pills", "when do I it": "", "when is my haircut?": ""} {
		if got, ok := WhenDo(text); got != want || ok != (want != "") {
			t.Errorf("WhenDo(%q) = %q, %v; want %q", text, got, ok, want)
		}
	}
}

// TestEventAsked: a question for who is invited to an event, where it
// is or how long it lasts, and its name without the day said after it.
func TestEventAsked(t *testing.T) {
	t.Parallel()
	type asked struct {
		ref  string
		what EventDetail
	}
	for text, want := range map[string]asked{
		"who's coming to Mia's play?": {"Mia's play", Guests}, "who is coming to dinner on Saturday?": {"dinner", Guests},
		"who's invited to the party tomorrow?": {"party", Guests}, "who is going to the meeting": {"meeting", Guests}, "who's coming?": {}, "who is coming to it?": {},
		"where is lunch with Sam?": {"lunch with Sam", Place}, "where's the party being held?": {"party", Place}, "where is my passport?": {"passport", Place},
		"where is the meeting tomorrow?": {"meeting", Place}, "where is it?": {}, "where's everyone?": {}, "where's the nearest pharmacy?": {}, "where is Sam?": {},
		"how long is the dentist?": {"dentist", Length}, "how long does the meeting take?": {"meeting", Length}, "how long will the flight be?": {"flight", Length},
		"how long until Christmas?": {}, "how long is it until the party?": {}, "how long is left?": {},
	} {
		ref, what, ok := EventAsked(text)
		if ok != (want.ref != "") || ok && (ref != want.ref || what != want.what) {
			t.Errorf("EventAsked(%q) = %q, %q, %v; want %q, %q", text, ref, what, ok, want.ref, want.what)
		}
	}
}

// TestWhenIsIt: a question for when the thing just spoken of is, and
// not the clock's questions.
func TestWhenIsIt(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"when is it?": true, "When's that again?": true, "what time is that?": true, "so when is it happening": true,
		"what day is that on?": true, "when was that?": true, "when?": true, "so when?": true, "when": false,
		"what time is it?": false, "what day is it?": false, "when is my haircut?": false, "when is it due next week?": false,
		"when is it ok to call": false,
	} {
		if got := WhenIsIt(text); got != want {
			t.Errorf("WhenIsIt(%q) = %v, want %v", text, got, want)
		}
	}
}

// TestPickByText: an answer picks the option whose words it is mostly
// made of; a new request that shares a word with one does not.
func TestPickByText(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		text    string
		options []string
		want    int
	}{
		{"the family one", []string{"Work calendar", "Family calendar"}, 2},
		{"dentist", []string{"Dentist (Tue 10:00)", "Dentist (Fri 10:00)"}, 0}, // both: a tie
		{"call mom please", []string{"Call mom (tomorrow)", "Call the bank"}, 1},
		{"remind me hourly to stand up", []string{"Remind me in an hour"}, 0},
		{"add the calendar thing", []string{"Work calendar", "Family calendar"}, 0},
		{"forget my favorite color", []string{"You are vegetarian.", "Your favorite color is green."}, 0},
		{"what's on wednesday?", []string{"Swimming (Wednesday at 4:00 PM)", "Swimming (Wed, Dec 9 at 4:00 PM)"}, 0},
		{"when is the dentist", []string{"Dentist (Tue 10:00)", "Call the bank"}, 0},
		{"the wednesday one", []string{"Swimming (Wednesday at 4:00 PM)", "Swimming (Wed, Dec 9 at 4:00 PM)"}, 1},
	} {
		var buf [features.MaxTokens]string
		tokens, _ := features.Tokens(buf[:0], tt.text)
		if got := pickByText(tokens, tt.options); got != tt.want {
			t.Errorf("pickByText(%q, %v) = %d; want %d", tt.text, tt.options, got, tt.want)
		}
	}
}

// TestStartsList: "start a packing list" asks for a list of one's own.
func TestStartsList(t *testing.T) {
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for _, text := range []string{"start a packing list", "make a new list for the trip", "create a list called holiday"} {
		if got := c.Classify(text, []Turn{}, ref); got.Intent != RequestAction || !slices.Equal(got.Domains, []Domain{Keep}) {
			t.Errorf("Classify(%q) = %s %v; want a request to the lists", text, got.Intent, got.Domains)
		}
	}
}

// TestMovesBy: a move by an amount is a request to the tasks or the
// calendar, however the model hears the amount; a number of days that
// is not a move is not one.
func TestMovesBy(t *testing.T) {
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for _, text := range []string{"push the dentist back an hour", "move it 30 minutes earlier", "bring forward the dentist by half an hour",
		"delay the call by a day", "make it an hour later", "push my run back two days"} {
		got := c.Classify(text, []Turn{}, ref)
		if got.Intent != RequestAction || !slices.Contains(got.Domains, Task) && !slices.Contains(got.Domains, Calendar) {
			t.Errorf("Classify(%q) = %s %v; want a request to the tasks or calendar", text, got.Intent, got.Domains)
		}
	}
	for _, text := range []string{"make a cake in an hour", "move on", "I moved here two weeks ago"} {
		if toks, _ := features.Tokens(nil, text); movesBy(toks) {
			t.Errorf("movesBy(%q); want no move by an amount", text)
		}
	}
}
