package nlu

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth/pipeline/nlu/internal/features"
)

// Tests of the readers of requests and statements (requests.go,
// statements.go) that override the model's reading.

// TestAboutMe: a favourite, an allergy or a diet told is kept; talk that
// only looks like it is not.
func TestAboutMe(t *testing.T) {
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for _, text := range []string{"my favorite color is green", "I'm allergic to peanuts", "I am vegetarian", "my favourite food is sushi", "I'm lactose intolerant",
		"Tom loves jazz", "my husband hates olives", "Priya likes hiking", "Tom's favourite colour is blue", "Ben's allergic to peanuts",
		"the wifi password is swordfish", "our gate code is 4471", "my car is a blue Golf", "my licence plate is KX12 ABC",
		"my blood type is O negative", "I parked on level 3", "we parked by the north entrance",
		"my dad is a pilot", "Tom is a pilot", "my sister is a nurse at the city hospital", "Priya works as a vet", "Sarah Kim is an architect",
		"my dad is retired", "our neighbour is a plumber"} {
		if got := c.Classify(text, []Turn{}, ref); got.Intent != RequestAction || !slices.Equal(got.Domains, []Domain{Memory}) {
			t.Errorf("Classify(%q) = %s %v; want a memory to keep", text, got.Intent, got.Domains)
		}
	}
	for _, text := range []string{"am I allergic to anything?", "what are my allergies?", "is Lea allergic to anything?", "what car do I have?",
		"what does my dad do?", "what does Tom do for a living?", "what does my sister like?", "how old am I?", "how old is my son now?"} {
		if got := c.Classify(text, []Turn{}, ref); got.Intent != AskInfo || !slices.Equal(got.Domains, []Domain{Memory}) {
			t.Errorf("Classify(%q) = %s %v; want a question to memory", text, got.Intent, got.Domains)
		}
	}
	for _, text := range []string{"he loves it", "who likes pizza?", "everyone loves a holiday"} {
		if toks, _ := features.Tokens(nil, text); likesSomething(toks, text) {
			t.Errorf("likesSomething(%q); want no one's liking told", text)
		}
	}
	for _, text := range []string{"I'm tired", "my favorite!", "I am so happy", "what's my favorite color?", "the password is wrong", "my pin is not working", "the code is too long",
		"my car is in the garage", "my car is broken", "my room is a mess", "my phone is dead", "my day is going well"} {
		if toks, _ := features.Tokens(nil, text); aboutMe(toks) && !strings.HasSuffix(text, "?") {
			t.Errorf("aboutMe(%q); want not a fact about oneself", text)
		}
	}
	for _, text := range []string{"what's your favourite colour", "it's favourite time of year", "thanks allergic to nothing", "Tom's here"} {
		if toks, _ := features.Tokens(nil, text); aboutSomeone(toks) {
			t.Errorf("aboutSomeone(%q); want nothing told of anyone", text)
		}
	}
}

// TestRole: what someone is or does for a living, told and asked; a
// day, a thing or a mood is no one's role, and what Hearth does is not
// asked of memory.
func TestRole(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"Monday is a holiday", "Sam is a bit tired", "It is a mess", "This is a test", "my phone is a mess",
		"Christmas is a Friday this year", "my dad is sick", "Tom is in the garden", "my sister is coming tomorrow"} {
		if toks, _ := features.Tokens(nil, text); roleTold(toks, text) {
			t.Errorf("roleTold(%q); want no one's role told", text)
		}
	}
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"Tom is a pilot", true}, {"My dad is retired", true}, {"Priya works at the vet's", true}, {"Sam works for Acme", true},
		{"Tom loves sailing", false}, {"Tom lives in Hamburg", false}, {"The shop works for me", false},
	} {
		if got := TellsRole(tt.text); got != tt.want {
			t.Errorf("TellsRole(%q) = %v; want %v", tt.text, got, tt.want)
		}
	}
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"what does Tom do?", true}, {"what does my dad do for a living?", true}, {"what does Sarah Kim do for work?", true},
		{"what's Sam's job?", true}, {"what is Tom's occupation?", true},
		{"what do you do?", false}, {"what does the app do?", false}, {"what does my sister like?", false}, {"what should I do?", false},
		{"what does Tom do on Fridays?", false}, {"what's the job?", false},
	} {
		if got := AsksRole(tt.text); got != tt.want {
			t.Errorf("AsksRole(%q) = %v; want %v", tt.text, got, tt.want)
		}
	}
}

// TestRunOut: the household running out of something is for the lists;
// running out of time is not.
func TestRunOut(t *testing.T) {
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for _, text := range []string{"we're out of coffee", "we ran out of milk and eggs", "we're running low on detergent", "we need toilet paper", "we need more eggs",
		"I'm out of coffee", "I've run out of shampoo", "I ran out of milk", "I am almost out of rice"} {
		if got := c.Classify(text, []Turn{}, ref); got.Intent != RequestAction || !slices.Equal(got.Domains, []Domain{Keep}) {
			t.Errorf("Classify(%q) = %s %v; want a request to the lists", text, got.Intent, got.Domains)
		}
	}
	for _, text := range []string{"we're out of time", "we're out of ideas", "I'm out of the office", "we need to talk", "we need a plan",
		"I need a break", "I'm out of breath", "I ran out of time", "I need eggs", "I am tired of waiting", "I'm sick of it"} {
		if toks, _ := features.Tokens(nil, text); runOut(toks) {
			t.Errorf("runOut(%q); want nothing for the lists", text)
		}
	}
}

// TestErrandWithDate: an errand the user does themselves, said with a
// date, is a to-do (errandVerbs), whatever the model heard; asked of
// Hearth, or with no date, it is not.
func TestErrandWithDate(t *testing.T) {
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		text string
		todo bool
	}{
		{"buy eggs tomorrow", true},
		{"buy a present for grandpa on friday", true},
		{"order new glasses next week", true},
		{"order me a pizza at 7", false},
		{"can you buy eggs tomorrow", false},
		{"buy eggs", false},
		// A call to make, something to fetch or give back: the user's.
		{"call the bank tomorrow", true},
		{"pick up milk tomorrow", true},
		{"return the library books on Saturday", true},
		{"call me tomorrow", false},
	} {
		got := c.Classify(tt.text, []Turn{}, ref)
		if todo := got.Intent == RequestAction && slices.Equal(got.Domains, []Domain{Task}); todo != tt.todo {
			t.Errorf("Classify(%q) = %s %v (out of scope %v); want a to-do %v", tt.text, got.Intent, got.Domains, got.OutOfScope, tt.todo)
		}
	}
}

// TestMyTime: a question about one's own day or week asks for the events
// and the tasks due then; "snooze it for an hour" moves a reminder.
func TestMyTime(t *testing.T) {
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for _, text := range []string{"how's my day looking", "show me my week", "what's my weekend like?"} {
		if got := c.Classify(text, []Turn{}, ref); got.Intent != AskInfo || !slices.Equal(got.Domains, []Domain{Calendar, Task}) {
			t.Errorf("Classify(%q) = %s %v; want ask_info about the calendar and tasks", text, got.Intent, got.Domains)
		}
	}
	for _, text := range []string{"what's left to pack?", "what do I still need to pack?"} {
		if got := c.Classify(text, []Turn{}, ref); got.Intent != AskInfo || !slices.Equal(got.Domains, []Domain{Keep}) {
			t.Errorf("Classify(%q) = %s %v; want a question about the lists", text, got.Intent, got.Domains)
		}
	}
	for _, text := range []string{"snooze it for an hour", "snooze that 10 minutes"} {
		if got := c.Classify(text, []Turn{}, ref); got.Intent != RequestAction || !slices.Equal(got.Domains, []Domain{Task}) {
			t.Errorf("Classify(%q) = %s %v; want a request to move a reminder", text, got.Intent, got.Domains)
		}
	}
}

// TestWritesNote: a request to write a note is one, whatever the note
// says.
func TestWritesNote(t *testing.T) {
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for _, text := range []string{"write a note: bring snacks on friday", "take a quick note: the gate code changed", "jot a note about the boiler"} {
		if got := c.Classify(text, []Turn{}, ref); got.Intent != RequestAction || len(got.Domains) == 0 {
			t.Errorf("Classify(%q) = %s %v; want a request", text, got.Intent, got.Domains)
		}
	}
	for _, text := range []string{"write back to me", "take note", "make it quick"} {
		if toks, _ := features.Tokens(nil, text); writesNote(toks) {
			t.Errorf("writesNote(%q); want no note", text)
		}
	}
}

// TestClearsDay: cancelling a day's or a week's events at once goes to
// the calendar, which asks first; "everything" on a list does not.
func TestClearsDay(t *testing.T) {
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		text     string
		calendar bool
	}{
		{"cancel everything on thursday", true},
		{"delete everything tomorrow", true},
		{"clear sunday", true},
		{"clear my schedule next week", true},
		{"please cancel all my appointments this weekend", true},
		{"delete everything on my packing list", false},
		{"cancel everything", false},
		{"clear the packing list", false},
	} {
		toks, _ := features.Tokens(nil, tt.text)
		if got := clearsDay(toks); got != tt.calendar {
			t.Errorf("clearsDay(%q) = %v; want %v", tt.text, got, tt.calendar)
		}
		if !tt.calendar {
			continue
		}
		if got := c.Classify(tt.text, []Turn{}, ref); got.Intent != RequestAction || !slices.Equal(got.Domains, []Domain{Calendar}) {
			t.Errorf("Classify(%q) = %s %v; want a request to the calendar", tt.text, got.Intent, got.Domains)
		}
	}
}

// TestAwayUntil: news of where one is until a time is small talk, not a
// task with nothing to do; a request said with it is still a request.
func TestAwayUntil(t *testing.T) {
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for _, text := range []string{"We are out of the house until 6", "I'm at the gym until 7", "I will be away till Sunday", "we're out until 6 pm tonight",
		"I'm going to be away next week", "we'll be gone for the weekend"} {
		if got := c.Classify(text, []Turn{}, ref); got.Intent != Chat || len(got.Domains) != 0 || got.RequiresAction {
			t.Errorf("Classify(%q) = %s %v; want small talk", text, got.Intent, got.Domains)
		}
	}
	for _, text := range []string{"I'm at the dentist until 4, remind me to call mom after", "I am busy until 3 so move my call to 4", "I'm away next week, remind me to pack on Friday"} {
		if got := c.Classify(text, []Turn{}, ref); got.Intent != RequestAction {
			t.Errorf("Classify(%q) = %s %v; want a request", text, got.Intent, got.Domains)
		}
	}
	for _, text := range []string{"I'm out of milk", "we are away", "I am going until 6"} {
		if toks, _ := features.Tokens(nil, text); awayUntil(toks) {
			t.Errorf("awayUntil(%q); want not news of being away until a time", text)
		}
	}
	// Days off in the words of work or holidays, with a date: the
	// calendar's.
	for _, text := range []string{"I'm out of the office from December 20 to January 3", "we're on holiday next week", "I'll be on leave until the 14th",
		"I am on vacation from Monday to Wednesday", "I'm off work on Friday"} {
		if got := c.Classify(text, []Turn{}, ref); got.Intent != RequestAction || !slices.Equal(got.Domains, []Domain{Calendar}) {
			t.Errorf("Classify(%q) = %s %v; want days off for the calendar", text, got.Intent, got.Domains)
		}
	}
	for _, text := range []string{"I'm on it", "we're on our way", "I'm off to bed", "I'm out of milk", "I'm on the phone until 3"} {
		if toks, _ := features.Tokens(nil, text); awayTold(toks) {
			t.Errorf("awayTold(%q); want no days off", text)
		}
	}
}

// TestTimeAlone: a time alone after a reply is when the item just made
// is, after a request; after a question it asks the same for then.
func TestTimeAlone(t *testing.T) {
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	made := []Turn{{Text: "remind me to call mom"}, {FromBot: true, Text: "Added “Call mom” to your to-do list."}}
	asked := []Turn{{Text: "what's on my calendar today?"}, {FromBot: true, Text: "Nothing on your calendar today."}}
	for _, text := range []string{"tomorrow at 5", "Saturday", "on Monday"} {
		if got := c.Classify(text, made, ref); got.Intent != Followup || !got.RequiresAction || !slices.Equal(got.Domains, []Domain{Task}) {
			t.Errorf("%q after a request: %s %v (acts %v); want a change of the task", text, got.Intent, got.Domains, got.RequiresAction)
		}
		if got := c.Classify(text, asked, ref); got.Intent != AskInfo || got.RequiresAction {
			t.Errorf("%q after a question: %s %v; want the question for then", text, got.Intent, got.Domains)
		}
	}
	if got := c.Classify("the first one", made, ref); got.RequiresAction {
		t.Errorf("the first one: %s %v; want no change", got.Intent, got.Domains)
	}
}

// TestBirthdaysAsked: a question for the birthdays coming up is told from
// one for a person's birthday, from news of one and from birthday
// reminder settings; it is memory's to answer.
func TestBirthdaysAsked(t *testing.T) {
	t.Parallel()
	type asked struct {
		what string
		next bool
	}
	for _, tt := range []struct {
		text string
		want *asked
	}{
		{"what birthdays are coming up?", &asked{"birthday", false}},
		{"any birthdays this month?", &asked{"birthday", false}},
		{"upcoming birthdays", &asked{"birthday", false}},
		{"are there any anniversaries in June?", &asked{"anniversary", false}},
		{"whose birthday is next?", &asked{"birthday", true}},
		{"when's the next birthday?", &asked{"birthday", true}},
		{"next birthday?", &asked{"birthday", true}},
		{"is it anyone's birthday this week?", &asked{"birthday", false}},
		{"who has a birthday coming up?", &asked{"birthday", false}},
		{"when is Ben's birthday?", nil},
		{"when is Ben's next birthday?", nil},
		{"when is my next birthday?", nil},
		{"Ben's birthday is next Friday", nil},
		{"my birthday is December 1", nil},
		{"turn off birthday reminders", nil},
		{"remind me about birthdays a week ahead", nil},
		{"what should I get for the birthdays?", nil},
		{"what gift for Ben's birthday?", nil},
		{"birthdays", nil},
	} {
		what, next, ok := BirthdaysAsked(tt.text)
		switch {
		case tt.want == nil && ok:
			t.Errorf("BirthdaysAsked(%q) = %q, %v; want not asked", tt.text, what, next)
		case tt.want != nil && (!ok || what != tt.want.what || next != tt.want.next):
			t.Errorf("BirthdaysAsked(%q) = %q, %v, %v; want %q, %v", tt.text, what, next, ok, tt.want.what, tt.want.next)
		}
	}
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for _, text := range []string{"any birthdays this month?", "whose birthday is next?", "upcoming birthdays", "who has a birthday coming up?"} {
		if got := c.Classify(text, []Turn{}, ref); got.Intent != AskInfo || !slices.Equal(got.Domains, []Domain{Memory}) {
			t.Errorf("Classify(%q) = %s %v; want a question to memory", text, got.Intent, got.Domains)
		}
	}
}

// TestChangesLength: a change of how long something lasts, to a length or
// by an amount, and not a move by an amount or a request of another kind.
func TestChangesLength(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]LengthChange{
		"make it an hour and a half":           {Ref: "it", D: 90 * time.Minute},
		"make lunch with Sam 2 hours long":     {Ref: "lunch with sam", D: 2 * time.Hour},
		"make the 3pm meeting 45 minutes":      {Ref: "the 3pm meeting", D: 45 * time.Minute},
		"make the meeting 30 minutes longer":   {Ref: "the meeting", D: 30 * time.Minute, By: 1},
		"please extend the call by 15 minutes": {Ref: "the call", D: 15 * time.Minute, By: 1},
		"shorten the review by half an hour":   {Ref: "the review", D: 30 * time.Minute, By: -1},
		"cut the meeting short by 10 minutes":  {Ref: "the meeting", D: 10 * time.Minute, By: -1},
		"make it 2 hours later":                {},
		"make it 3pm":                          {},
		"cut the grass":                        {},
		"make dinner":                          {},
		"extend my visa":                       {},
	} {
		got, ok := ChangesLength(text)
		if ok != (want.D != 0) || got != want {
			t.Errorf("ChangesLength(%q) = %+v, %v; want %+v", text, got, ok, want)
		}
	}
}

// TestFreeFor: a question for free time of a length, and not one for
// free time at a time, or a reminder.
func TestFreeFor(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]time.Duration{
		"find me an hour on Friday":                     time.Hour,
		"when do I have 2 hours free on Friday?":        2 * time.Hour,
		"am I free for 90 minutes this afternoon?":      90 * time.Minute,
		"can you find time for a 30 minute call":        30 * time.Minute,
		"please find me an hour and a half tomorrow":    90 * time.Minute,
		"am I free in 2 hours?":                         0,
		"am I free tomorrow at 3?":                      0,
		"find my keys":                                  0,
		"I was free for 2 hours yesterday, 3 hours ago": 2 * time.Hour,
	} {
		if got, ok := FreeFor(text); got != want || ok != (want > 0) {
			t.Errorf("FreeFor(%q) = %v, %v; want %v", text, got, ok, want)
		}
	}
	c := newTestClassifier(t)
	ref := time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)
	for _, text := range []string{"find me an hour on Friday", "when do I have 2 hours free on Friday?"} {
		if got := c.Classify(text, []Turn{}, ref); got.Intent != AskInfo || !slices.Equal(got.Domains, []Domain{Calendar}) {
			t.Errorf("Classify(%q) = %s %v; want a question to the calendar", text, got.Intent, got.Domains)
		}
	}
}
