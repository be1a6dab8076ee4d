package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/integrations/geocode/locationfake"
	"github.com/hearthbot/hearth/memory"
)

// TestMemoryScenario: facts are told, kept with a tier, and seen across a
// family only as the tiers, grants and shares allow, decided in SQL.
func TestMemoryScenario(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	ann := newChatter(t, base, app, "Ann", "Europe/Berlin")
	ben := newChatter(t, base, app, "Ben", "Europe/Berlin")

	mustContain(t, ann.say("What do you remember about me?"), "haven't told me anything")
	ann.say("Remember that Emma's school play is on April 2nd")
	ann.say("Remember that Emma is allergic to peanuts")
	var toldIn int
	if err := app.Store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM facts f JOIN inbound_events e ON e.id = f.told_in
		WHERE f.content LIKE '%peanuts%' AND e.text LIKE 'Remember that Emma is allergic%'`).Scan(&toldIn); err != nil || toldIn != 1 {
		t.Fatalf("facts recorded with the message they were told in: %d, %v", toldIn, err)
	}
	about := ann.say("What do you remember about me?")
	mustContain(t, about, "Here's what you've told me", "school play is on April 2nd", "allergic to peanuts", "you told me on")

	invite := ann.say("Start a family")
	code := regexp.MustCompile(`[A-Z2-9]{4}-[A-Z2-9]{4}`).FindString(invite.Text)
	mustContain(t, ben.say("join family "+code), "welcome")

	// The default grant shows events and milestones, not health.
	emma := ben.say("What do you know about Emma?")
	mustContain(t, emma, "school play")
	if strings.Contains(emma.Text, "peanuts") {
		t.Fatalf("Ben sees Ann's private fact: %q", emma.Text)
	}
	// A person Ann names who is in her family is linked to their account.
	ann.say("Remember that Ben is my husband")
	if es, err := app.Store.FindEntities(t.Context(), hearth.EntityFilter{UserID: ann.contact().User.ID, Name: "my husband"}); err != nil || len(es) != 1 || es[0].MemberID != ben.contact().User.ID {
		t.Fatalf("Ben's entity: %+v, %v", es, err)
	}
	// In a family, a fact whose words do not say how private it is gets
	// a question with buttons; the choice decides what Ben sees.
	q := ann.say("Remember that Emma's locker code is 4711")
	if len(q.Buttons) != 4 || q.Buttons[0].Label != "Personal" {
		t.Fatalf("tier question %q %+v", q.Text, q.Buttons)
	}
	if strings.Contains(ben.say("What do you know about Emma?").Text, "4711") {
		t.Fatal("Ben sees a fact not yet stored")
	}
	ann.click(q, "An event or milestone")
	mustContain(t, ben.say("What do you know about Emma?"), "locker code is 4711")
	// Ann shares the allergy with Ben, and only with him.
	ann.say("Remember that Emma is allergic to peanuts and cashews")
	mustContain(t, ann.say("Ben should know"), "Ben can see", "peanuts and cashews")
	mustContain(t, ben.say("What do you know about Emma?"), "school play", "peanuts and cashews")
	// Ben's own facts stay his.
	ben.say("Remember that Emma's shoe size is 31")
	if r := ann.say("What do you know about Emma?"); strings.Contains(r.Text, "shoe size") {
		t.Fatalf("Ann sees Ben's personal fact: %q", r.Text)
	}
	mustContain(t, ben.say("share this with the family"), "now belongs to")
	mustContain(t, ann.say("What do you know about Emma?"), "shoe size is 31")
	// What to give someone is what Hearth knows they like.
	ann.say("Remember that Emma loves dinosaurs")
	if r := ann.say("what should I get Emma for her birthday?"); !strings.Contains(r.Text, "Emma loves dinosaurs") || strings.Contains(r.Text, "school play") {
		t.Fatalf("a present for Emma: %q", r.Text)
	}

	// A correction replaces the old value without losing it: the past
	// still has it, and undo brings it back.
	ann.say("Remember that my phone number is 555 0100")
	ann.say("Remember that my phone number is 555 0199")
	now := ann.say("What is my phone number?")
	mustContain(t, now, "555 0199")
	if strings.Contains(now.Text, "0100") {
		t.Fatalf("the corrected number is still given: %q", now.Text)
	}
	mustContain(t, ann.say("What was my phone number last year?"), "555 0100")
	ann.say("undo")
	mustContain(t, ann.say("What is my phone number?"), "555 0100")

	// Told plainly, without "remember that": where one lives and works,
	// and who works where, asked back.
	ann.say("I live in Berlin")
	mustContain(t, ann.say("where do I live?"), "You live in Berlin")
	// A move replaces the home, whatever words tell it.
	ann.say("I moved to Munich")
	if r := ann.say("where do I live?"); !strings.Contains(r.Text, "You live in Munich") || strings.Contains(r.Text, "Berlin") {
		t.Fatalf("where do I live after the move: %q", r.Text)
	}
	// The move is news: the home before it is last year's.
	if r := ann.say("where did I live last year?"); !strings.Contains(r.Text, "Berlin") || strings.Contains(r.Text, "Munich") {
		t.Fatalf("where did I live last year: %q", r.Text)
	}
	ann.say("Jon works at Initech")
	if r := ann.say("who works at Initech?"); !strings.Contains(r.Text, "Jon works at Initech") {
		t.Fatalf("who works at Initech: %q", r.Text)
	}

	// Told again, then undone: nothing changed, and the reply does not
	// claim otherwise; the fact stays.
	ann.say("Remember that my phone number is 555 0100")
	mustContain(t, ann.say("undo"), "Nothing to undo there", "555 0100", "so it stays")
	mustContain(t, ann.say("What is my phone number?"), "555 0100")
	// Told as a change, in fewer words than the fact: the same fact,
	// with the new value.
	mustContain(t, ann.say("my number changed to 555 0142"), "your phone number is 555 0142")
	if now := ann.say("What is my phone number?"); !strings.Contains(now.Text, "555 0142") || strings.Contains(now.Text, "0100") || strings.Contains(now.Text, "changed") {
		t.Fatalf("the number after a change: %q", now.Text)
	}
}

// TestEntityScenario: people and things with names, aliases and
// attributes over time, told in chat.
func TestEntityScenario(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	ann := newChatter(t, base, app, "Ann", "Europe/Berlin")
	for _, s := range []string{
		"Remember that Jon is my brother",
		"Remember that my brother's email is jon@example.com",
		"Remember that Sarah Kim's email is sarah@example.com",
		"Remember that Jon works at Acme since March",
		"Remember that Jon worked at Initech from 2015 to 2019",
		"Remember that I worked at Initech",
		"from 2016 to 2020",
		"Remember that Sarah Kim works at Acme",
		"Remember that Emma is my daughter",
		"My nephew's name is Leo", // named by the relation first: still about Leo
		"Remember that Emma was born on 3 May 2018",
		"Remember that we lived at 12 Oak Street from 2015 to 2020",
		"Remember that we live at 4 Elm Road since 2020",
		"Kai is my neighbour", // told without "remember": remembered all the same
		"Remember that the wifi password is hunter2",
		"Remember that my passport expires in June 2027",
	} {
		r := ann.say(s)
		t.Logf("%s → %s %v", s, r.Text, r.Buttons)
	}
	for _, qa := range []struct{ q, want string }{
		{"Who works at Acme?", "Jon (since March 2026) and Sarah Kim work at Acme."},
		{"Who worked at Initech in 2017?", "In 2017, Jon (2015 to 2019) worked at Initech."},
		{"Who did I work with in 2019?", "In 2019, you were at Initech, with Jon."},
		{"Where does Jon work?", "Jon works at Acme (since March 2026)."},
		{"Where did my brother work in 2016?", "In 2016, Jon worked at Initech (2015 to 2019)."},
		{"Where did we live when Emma was born?", "When Emma was born (3 May 2018), you lived at 12 Oak Street."},
		{"Who is my daughter?", "Your daughter is Emma."},
		{"Is Emma my daughter?", "Yes — Emma is your daughter."},
		{"Is Kai my daughter?", "Not that you've told me. Your daughter is Emma."},
		{"Is Kai my son?", "You haven't told me who your son is."},
		{"Who is Jon?", "Jon is your brother."},
		{"Who is Leo?", "Here's what I know about Leo (your nephew):"},
		{"Tell me about my nephew", "Here's what I know about Leo (your nephew):"},
		{"Who is my neighbour?", "Your neighbour is Kai."},
		{"What's the wifi password?", "hunter2"},               // small talk to the classifier
		{"What's the gate code?", "I don't know that one yet"}, // never told: memory says so
		{"What's the capital of France?", "outside what I can check"},
		{"When does my passport expire?", "June 2027"}, // "expire" finds "expires"
		{"Who works at Globex?", "I don't know anyone who works at Globex."},
	} {
		mustContain(t, ann.say(qa.q), qa.want)
	}
	ctx := t.Context()
	uid := ann.contact().User.ID
	jon, err := app.Store.FindEntities(ctx, hearth.EntityFilter{UserID: uid, Name: "my brother"})
	if err != nil || len(jon) != 1 || jon[0].Name != "Jon" || jon[0].Relation != "brother" {
		t.Fatalf("my brother = %+v, %v", jon, err)
	}
	values := func(attr string, at time.Time) []string {
		t.Helper()
		ms, err := app.Store.FindMemories(ctx, hearth.MemoryFilter{UserID: uid, EntityID: jon[0].ID, Attribute: attr, AsOf: at})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, m := range ms {
			out = append(out, m.Value)
		}
		return out
	}
	if got := values(hearth.AttrEmail, time.Time{}); !slices.Equal(got, []string{"jon@example.com"}) {
		t.Fatalf("Jon's email: %v", got)
	}
	if got := values(hearth.AttrEmployer, time.Time{}); !slices.Equal(got, []string{"Acme"}) {
		t.Fatalf("Jon's employer now: %v", got)
	}
	if got := values(hearth.AttrEmployer, time.Date(2017, 6, 1, 0, 0, 0, 0, time.UTC)); !slices.Equal(got, []string{"Initech"}) {
		t.Fatalf("Jon's employer in 2017: %v", got)
	}
	// The user's own history, its time asked for and given in words.
	self, err := app.Store.FindEntities(ctx, hearth.EntityFilter{UserID: uid, Relation: "self"})
	if err != nil || len(self) != 1 || self[0].MemberID != uid {
		t.Fatalf("self = %+v, %v", self, err)
	}
	mine, err := app.Store.FindMemories(ctx, hearth.MemoryFilter{UserID: uid, EntityID: self[0].ID, Attribute: hearth.AttrEmployer, AsOf: time.Date(2018, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil || len(mine) != 1 || mine[0].Value != "Initech" || mine[0].ValidFrom.Year() != 2015 && mine[0].ValidFrom.Year() != 2016 {
		t.Fatalf("own employer in 2018 = %+v, %v", mine, err)
	}
}

// TestMemoryByPronoun: "actually it's the 16th" (or "… amoxicillin")
// corrects the fact just told, and "forget that" deletes it for real at
// once, both with undo.
func TestMemoryByPronoun(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	ann := newChatter(t, base, app, "Ann", "Europe/Berlin")
	ann.say("Remember that John's birthday is March 15th")
	mustContain(t, ann.say("actually it's the 16th"), "March 16th")
	mustContain(t, ann.say("When is John's birthday?"), "March 16th")
	ann.say("undo")
	mustContain(t, ann.say("When is John's birthday?"), "March 15th")
	// A fact with no "is": its last word is what a correction replaces.
	ann.say("I'm allergic to penicillin")
	mustContain(t, ann.say("actually it's amoxicillin"), "allergic to amoxicillin")
	if got := ann.say("what am I allergic to?"); strings.Contains(got.Text, "penicillin") {
		t.Fatalf("reply %q; want the allergy corrected", got.Text)
	}

	ann.say("Remember that my locker code is 4711")
	forgot := ann.say("forget that")
	if len(forgot.Buttons) != 0 {
		t.Fatalf("forgetting asked for approval: %q %v", forgot.Text, forgot.Buttons)
	}
	var rows int
	if err := app.Store.Pool().QueryRow(t.Context(), `SELECT count(*) FROM facts WHERE content LIKE '%locker code%'`).Scan(&rows); err != nil || rows != 0 {
		t.Fatalf("%d rows of the forgotten fact (%v): it is deleted for real", rows, err)
	}
	t.Logf("forget: %q; undo: %q", forgot.Text, ann.say("undo").Text)
	mustContain(t, ann.say("What is my locker code?"), "4711")
	// The older fact is untouched by either.
	mustContain(t, ann.say("When is John's birthday?"), "March 15th")

	// Forgetting who someone is forgets it for the questions by relation
	// too; undo remembers it again.
	ann.say("My sister's name is Lea")
	mustContain(t, ann.say("Who is Lea?"), "Lea (your sister)")
	ann.say("forget that")
	mustContain(t, ann.say("Who is my sister?"), "You haven't told me who your sister is")
	mustContain(t, ann.say("Who is Lea?"), "I don't know anything about Lea")
	ann.say("undo")
	mustContain(t, ann.say("Tell me about my sister"), "Here's what I know about Lea (your sister)")
}

// TestProximityScenario: which of Emma's friends live within walking
// distance of her school, offline: without a geocoder the answer says why
// it cannot judge, and coordinates given in chat place addresses.
func TestProximityScenario(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	ann := newChatter(t, base, app, "Ann", "Europe/London")
	const q = "Which of Emma's friends live within walking distance of her school?"
	ann.say("Remember that Emma is my daughter")
	ann.say("Remember that Emma was born on 3 May 2018")
	mustContain(t, ann.say(q), "I don't know where Emma's school is")
	ann.say("Remember that Emma goes to Lincoln Elementary School")
	mustContain(t, ann.say(q), "can't judge distance: no geocoder is set up (HEARTH_GEOCODER)", "Lincoln Elementary School")
	for _, s := range []string{
		"Remember that Emma's school is at 1 School Road (51.5007, -0.1246)",
		"Remember that Lily is Emma's friend",
		"Remember that Lily lives at 12 Oak Street (51.5033, -0.1196)",
		"Remember that Noah is Emma's friend",
		"Remember that Noah lives at 3 Far Lane (51.5194, -0.1270)",
		"Remember that Max is Emma's friend",
	} {
		ann.say(s)
	}
	age := memory.Age(time.Date(2018, 5, 3, 0, 0, 0, 0, time.UTC), time.Now())
	r := ann.say(q)
	mustContain(t, r, fmt.Sprintf("Emma is %d, so I count up to", age), "walking distance from Emma's school (1 School Road; by age: up to 6 years 400 m, 7–9 800 m, 10–12 1.2 km, older 1.5 km)",
		"Lily (450 m) lives within it", "Further: Noah (2.1 km)", "I can't tell for Max")
	mustContain(t, ann.say("Which of Emma's friends live within 3 km of her school?"), "Lily (450 m) and Noah (2.1 km) live within it")
}

// TestProximityGeocoded: with HEARTH_GEOCODER=aws, addresses told in chat
// are placed by Amazon Location Service (a fake place index behind the
// real SDK).
func TestProximityGeocoded(t *testing.T) {
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "secret")
	t.Setenv("AWS_CONFIG_FILE", "/nonexistent")
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent")
	fake := locationfake.New(t, "hearth-places", map[string]hearth.Coordinates{
		"1 School Road, London": {Lat: 51.5007, Lon: -0.1246},
		"12 Oak Street, London": {Lat: 51.5033, Lon: -0.1196},
	})
	base, app, _ := startAppWith(t, func(c *Config) {
		c.Geocoder, c.AWSPlaceIndex, c.GeocoderURL, c.GeocoderRegion = "aws", "hearth-places", fake.URL, "eu-west-2"
		c.WalkingDistances = "6:300,*:1000"
	})
	ann := newChatter(t, base, app, "Ann", "Europe/London")
	for _, s := range []string{
		"Remember that Emma's school is at 1 School Road, London",
		"Remember that Lily is Emma's friend",
		"Remember that Lily lives at 12 Oak Street, London",
		"Remember that Zoe is Emma's friend",
		"Remember that Zoe lives at 99 Unknown Road",
	} {
		ann.say(s)
	}
	r := ann.say("Which of Emma's friends live within walking distance of her school?")
	mustContain(t, r, "I don't know Emma's age, so I count up to 1 km", "by age: up to 6 years 300 m, older 1 km", "Lily (450 m) lives within it",
		"I can't tell for Zoe: I have no location for their home.")
	if s := fake.Searched(); len(s) != 3 {
		t.Fatalf("geocoded %q", s)
	}
}

// TestForgetByWhatItIsAbout: "forget the dentist" forgets what Hearth
// remembers about the dentist; it once put "Forget the dentist" on the
// to-do list instead, and "forget about the meeting tomorrow" on the
// calendar.
func TestForgetByWhatItIsAbout(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	ada := newChatter(t, base, app, "Ada", "UTC")
	ada.say("Remember that the dentist's phone number is 555 0100")
	mustContain(t, ada.say("forget the dentist"), "forgotten", "555 0100")
	if r := ada.say("what do I have to do?"); strings.Contains(r.Text, "orget") {
		t.Fatalf("the forget became a task: %q", r.Text)
	}
	if r := ada.say("what's the dentist's phone number?"); strings.Contains(r.Text, "555 0100") {
		t.Fatalf("the number is still known: %q", r.Text)
	}
	// Nothing remembered by those words: said so, and nothing made.
	mustContain(t, ada.say("forget the milk"), "I couldn't find anything remembered matching")
	mustContain(t, ada.say("forget about the meeting tomorrow"), "I couldn't find anything remembered matching")
	if r := ada.say("what do I have to do?"); strings.Contains(r.Text, "orget") {
		t.Fatalf("a forget became a task: %q", r.Text)
	}
	if r := ada.say("what's on my calendar tomorrow?"); strings.Contains(r.Text, "orget") {
		t.Fatalf("a forget became an event: %q", r.Text)
	}
}

// TestPeopleAsTold: facts about people told the way people tell them are
// found again by the person's name, and a question is never answered
// with another fact that only shares the name.
func TestPeopleAsTold(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Lou", "Europe/Berlin")
	c.say("my daughter Mia is allergic to strawberries")
	mustContain(t, c.say("what is Mia allergic to?"), "strawberries")
	c.say("Mia's teacher is Mrs Klein")
	if r := c.say("what is Mia allergic to?"); !strings.Contains(r.Text, "strawberries") || strings.Contains(r.Text, "Klein") {
		t.Fatalf("allergy answered with %q", r.Text)
	}
	mustContain(t, c.say("Tom loves jazz"), "Tom loves jazz")
	mustContain(t, c.say("gift ideas for Tom?"), "jazz")
	mustContain(t, c.say("Tom enjoys cooking"), "Tom enjoys cooking")
	mustContain(t, c.say("what does Tom like?"), "jazz", "cooking")
	// How far off something of the user's is: when it is.
	c.say("Tom's birthday is March 3")
	mustContain(t, c.say("how many days until Tom's birthday?"), "March 3")
	if r := c.say("what is Tom allergic to?"); strings.Contains(r.Text, "jazz") {
		t.Fatalf("Tom's allergies answered with %q", r.Text)
	}
}

// TestValueEnds: "Sam doesn't work at Initech anymore" ends what Hearth
// knew of where Sam works, with nothing in its place, and the works-at
// relationship with it; "undo" and "forget that" bring both back.
// "Does Sam work at Initech?" is answered yes or no from what Hearth
// knows, ended values included ("is Sam still at Initech?": no, since
// when).
func TestValueEnds(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ada", "UTC")
	c.say("Sam works at Initech")
	mustContain(t, c.say("does Sam work at Initech?"), "Yes — Sam works at Initech")
	mustContain(t, c.say("does Sam work at Globex?"), "Not that I know: Sam works at Initech")
	mustContain(t, c.say("Sam doesn't work at Initech anymore"), "Noted")
	mustContain(t, c.say("where does Sam work?"), "I don't know where Sam works now")
	mustContain(t, c.say("is Sam still at Initech?"), "No — Sam worked at Initech (until")
	mustContain(t, c.say("did Sam use to work at Initech?"), "Yes — Sam worked at Initech")
	if got := c.say("tell me about Sam"); strings.Contains(got.Text, "works at") {
		t.Fatalf("reply %q; want the works-at relationship ended", got.Text)
	}
	c.say("undo")
	mustContain(t, c.say("where does Sam work?"), "Sam works at Initech")
	mustContain(t, c.say("tell me about Sam"), "Sam → Initech: works at")
	// Forgotten, as if never said: what it ended holds again.
	c.say("Sam doesn't work at Initech anymore")
	c.say("forget that")
	mustContain(t, c.say("where does Sam work?"), "Sam works at Initech")
	c.say("undo") // of the forget: ended again
	mustContain(t, c.say("where does Sam work?"), "I don't know where Sam works now")

	c.say("I live in Leeds")
	mustContain(t, c.say("do I live in Leeds?"), "Yes — you live in Leeds")

	c.say("Mia goes to Lincoln Elementary")
	mustContain(t, c.say("Mia no longer goes to Lincoln Elementary"), "Mia no longer goes to Lincoln Elementary")
	if got := c.say("where does Mia go to school?"); strings.Contains(got.Text, "goes to Lincoln") {
		t.Fatalf("reply %q; want the school ended", got.Text)
	}
}
