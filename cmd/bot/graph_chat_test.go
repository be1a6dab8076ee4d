package main

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/llm/llmtest"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
)

// relationships lists the user's relationships that hold now, as
// "From → To: label att/prox state".
func (c *chatter) relationships() []string {
	c.t.Helper()
	rs, err := c.app.Store.FindRelationships(context.Background(), hearth.RelationshipFilter{UserID: c.contact().User.ID, Limit: 100})
	if err != nil {
		c.t.Fatal(err)
	}
	var out []string
	for _, r := range rs {
		out = append(out, fmt.Sprintf("%s → %s: %s %d/%d %s", r.FromName, r.ToName, r.Label, r.Attitude, r.Proximity, r.State))
	}
	slices.Sort(out)
	return out
}

// TestRelationshipsFromChat: statements in the web chat, offline, become
// relationships (confirmed when stated, candidates when hedged, with the
// scales their words say), the graph questions answer from them, a
// hedged one is confirmed with its button, an ended one is closed, and
// undo takes a statement's relationship back with its fact.
func TestRelationshipsFromChat(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	ann := newChatter(t, base, app, "Ann", "Europe/London")
	for _, s := range []string{
		"Remember that Lily is Emma's best friend",
		"Remember that Priya is my manager",
		"Remember that I know Sam from college",
		"Remember that Emma loves dinosaurs",
		"Remember that I volunteer at the food bank",
		"Remember that Bob and I are close friends",
		"Remember that I think Noah is Emma's friend",
	} {
		r := ann.say(s)
		t.Logf("%s → %s", s, r.Text)
	}
	want := []string{
		"Ann → Bob: friend 5/4 confirmed",
		"Ann → Priya: manager 3/3 confirmed",
		"Ann → Sam: knows 3/3 confirmed",
		"Ann → food bank: volunteers at 4/4 confirmed",
		"Emma → Lily: friend 5/5 confirmed",
		"Emma → Noah: friend 4/3 candidate",
		"Emma → dinosaurs: loves 5/3 confirmed",
	}
	if got := ann.relationships(); !slices.Equal(got, want) {
		t.Fatalf("relationships:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	mustContain(t, ann.say("what is Emma into?"), "dinosaurs (loves; passionate")
	mustContain(t, ann.say("how do I know Sam?"), "You know Sam directly", "known from college")
	// "Tell me about Emma" lists the inferred friendship, with its button.
	about := ann.say("tell me about Emma")
	mustContain(t, about, "Emma → Noah: friend (friendly, familiar, not confirmed)")
	if len(about.Buttons) != 1 || about.Buttons[0].Label != "Confirm Emma → Noah" {
		t.Fatalf("buttons of the answer: %+v", about.Buttons)
	}
	close := ann.say("who is Emma close to?")
	mustContain(t, close, "Lily (friend; close, intimate-knowledge)", "Noah (friend; friendly, familiar; not confirmed)")
	mustContain(t, ann.click(close, "Confirm Emma → Noah"), "confirmed")
	if got := ann.relationships(); !slices.Contains(got, "Emma → Noah: friend 4/3 confirmed") {
		t.Errorf("after confirming: %v", got)
	}

	// "Tell me about Emma": her facts, her relationships and her notes.
	ann.say("note on Emma: nervous about her first swim lesson for a week")
	mustContain(t, ann.say("tell me about Emma"), "Emma loves dinosaurs", "Relationships:", "Emma → Lily: friend (close, intimate-knowledge)",
		"Emma → dinosaurs: loves (passionate, understands)", "Notes:", "Nervous about her first swim lesson. (until")
	mustContain(t, ann.say("what do you know about Priya?"), "Ann → Priya: manager (neutral, familiar)")
	// A note on a relationship, named by its two ends.
	mustContain(t, ann.say("note on Lily and Emma: building a dinosaur fort together this month"), "Noted on Emma → Lily, until")
	mustContain(t, ann.say("who is Emma close to?"), "Lily")
	mustContain(t, ann.say("note on Lily and Priya: they met once"), "I don't know how Lily and Priya are related yet")
	if rs, err := app.Store.FindRelationships(context.Background(), hearth.RelationshipFilter{UserID: ann.contact().User.ID, Query: "dinosaur fort"}); err != nil || len(rs) != 1 || rs[0].ToName != "Lily" || len(rs[0].Notes) != 1 {
		t.Errorf("the relationship's note: %+v %v", rs, err)
	}
	// Offline, by words: whose notes or relationships say so.
	ann.say("note on Sam: goes bouldering on Sundays forever")
	r := ann.say("who do I know who goes bouldering?")
	mustContain(t, r, "From what you've told me:", "Sam: goes bouldering on Sundays")
	mustContain(t, ann.say("do I know anyone who volunteers?"), "Ann → food bank: volunteers at")

	// Telling the role again changes nothing of how close they are.
	ann.say("Remember that Bob is my friend")
	if got := ann.relationships(); !slices.Contains(got, "Ann → Bob: friend 5/4 confirmed") {
		t.Errorf("after telling the role again: %v", got)
	}

	// A changed relationship closes the old one; undo reopens it.
	ann.say("Remember that Bob and I aren't friends anymore")
	if got := ann.relationships(); slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "Ann → Bob") }) {
		t.Errorf("Bob's friendship still holds: %v", got)
	}
	ann.say("undo")
	if got := ann.relationships(); !slices.Contains(got, "Ann → Bob: friend 5/4 confirmed") {
		t.Errorf("after undo: %v", got)
	}
	ann.say("Remember that Bob and I aren't close anymore")
	if got := ann.relationships(); !slices.Contains(got, "Ann → Bob: friend 3/2 confirmed") || slices.Contains(got, "Ann → Bob: friend 5/4 confirmed") {
		t.Errorf("no longer close: %v", got)
	}
	var closed int
	if err := app.Store.Pool().QueryRow(context.Background(), `SELECT count(*) FROM relationships WHERE valid_to IS NOT NULL`).Scan(&closed); err != nil || closed != 1 {
		t.Errorf("closed relationships: %d %v", closed, err)
	}
	// Forgetting that statement opens what it closed again; undo of the
	// forget closes it again.
	mustContain(t, ann.say("forget that"), "forgotten")
	if got := ann.relationships(); !slices.Contains(got, "Ann → Bob: friend 5/4 confirmed") || slices.Contains(got, "Ann → Bob: friend 3/2 confirmed") {
		t.Errorf("after forgetting that they are not close: %v", got)
	}
	ann.say("undo")
	if got := ann.relationships(); !slices.Contains(got, "Ann → Bob: friend 3/2 confirmed") || slices.Contains(got, "Ann → Bob: friend 5/4 confirmed") {
		t.Errorf("after undo of the forget: %v", got)
	}
	// Forgetting the fact forgets its relationship, and undo of the
	// forget brings both back; undo of the statement removes both.
	horses := func() bool {
		return slices.ContainsFunc(ann.relationships(), func(s string) bool { return strings.Contains(s, "horses") })
	}
	ann.say("Remember that Emma loves horses")
	if !horses() {
		t.Fatal("no relationship with horses")
	}
	mustContain(t, ann.say("note on Emma and horses: scared of the big grey pony forever"), "Noted on Emma → horses")
	mustContain(t, ann.say("forget that"), "forgotten")
	if horses() {
		t.Error("the forgotten fact's relationship is still there")
	}
	ann.say("undo")
	if !horses() {
		t.Error("undo of the forget did not bring the relationship back")
	}
	// With its note, as it was.
	if rs, err := app.Store.FindRelationships(context.Background(), hearth.RelationshipFilter{UserID: ann.contact().User.ID, Query: "grey pony"}); err != nil ||
		len(rs) != 1 || len(rs[0].Notes) != 1 || rs[0].Notes[0].Body != "Scared of the big grey pony." && rs[0].Notes[0].Body != "scared of the big grey pony" {
		t.Errorf("the note after undo of the forget: %+v %v", rs, err)
	}
	ann.say("undo")
	if horses() {
		t.Errorf("undone relationship still there: %v", ann.relationships())
	}
}

// TestRelationshipsWithAModel: a relationship the offline reader cannot
// read goes to the model through the same typed memory.store schema, and
// is kept as a candidate even when the model calls it confirmed; the
// graph around a person the user asks about reaches the model's prompt
// as quoted data.
func TestRelationshipsWithAModel(t *testing.T) {
	t.Parallel()
	b := newBrain(t)
	base, app, fake := startModelApp(t, b, nil)
	b.set(func(c llmtest.Call) (llmtest.Answer, bool) {
		msg := message(c.User)
		if !strings.HasPrefix(c.System, "You plan") || !strings.Contains(msg, "obsessed") {
			return llmtest.Answer{}, false
		}
		payload, _ := json.Marshal(map[string]any{"content": "Emma has been obsessed with dinosaurs", "about": "Emma", "category": "personal",
			"relationship": map[string]any{"from": map[string]any{"name": "Emma", "kind": "person"}, "to": map[string]any{"name": "dinosaurs", "kind": "concept"},
				"label": "obsessed with", "attitude": 5, "proximity": 4, "confirmed": true}})
		out, _ := json.Marshal(map[string]any{"understood": "remember Emma's dinosaurs", "actions": []any{map[string]any{"kind": "memory.store", "payload": string(payload)}}})
		return llmtest.Answer{Text: string(out)}, true
	})
	ann := newChatter(t, base, app, "Ann", "Europe/London")
	t.Logf("%s", ann.say("Remember that Emma's been obsessed with dinosaurs since the museum trip").Text)
	if got := ann.relationships(); !slices.Equal(got, []string{"Emma → dinosaurs: obsessed with 5/4 candidate"}) {
		t.Fatalf("relationships: %v", got)
	}
	ann.say("note on Emma: wants a T. rex cake for her birthday forever")
	before := len(fake.Calls())
	r := ann.say("what do you know about Emma?")
	t.Logf("%s", r.Text)
	var prompt string
	for _, c := range fake.Calls()[before:] {
		if strings.Contains(c.User, `<data label="relationship id=`) {
			prompt = c.User
		}
	}
	if !strings.Contains(prompt, "Emma engages_with dinosaurs (obsessed with); attitude: passionate; proximity: experienced") ||
		!strings.Contains(prompt, `<data label="note on Emma">`+"\nwants a T. rex cake for her birthday\n</data>") {
		t.Fatalf("no quoted graph in the prompts:\n%s", prompt)
	}
}

// TestRelationshipsByMeaning: with offline embeddings, a question finds
// the person whose relationship or its notes say what is asked, through
// the permission predicate: another user's relationship that says the
// same is never found.
func TestRelationshipsByMeaning(t *testing.T) {
	t.Parallel()
	base, app, _ := startAppWith(t, func(c *Config) {
		c.Embeddings, c.EmbeddingDims, c.EmbedInterval = "offline", 256, 50*time.Millisecond
	})
	ctx := context.Background()
	ann := newChatter(t, base, app, "Ann", "Europe/London")
	ann.say("Remember that Dana is my friend")
	ann.say("Remember that I know Priya from college")
	eve := newChatter(t, base, app, "Eve", "Europe/London")
	eve.say("Remember that Zed is my friend")
	// Notes on the relationships: what Ann knows of Dana's climbing, and
	// what Eve knows of Zed's.
	note := func(c *chatter, other string, body string) {
		t.Helper()
		uid := c.contact().User.ID
		es, err := app.Store.FindEntities(ctx, hearth.EntityFilter{UserID: uid, Name: other, Limit: 1})
		if err != nil || len(es) != 1 {
			t.Fatalf("%s: %v %v", other, es, err)
		}
		rs, err := app.Store.FindRelationships(ctx, hearth.RelationshipFilter{UserID: uid, EntityID: es[0].ID})
		if err != nil || len(rs) != 1 {
			t.Fatalf("%s's relationship: %v %v", other, rs, err)
		}
		if _, err := app.Store.AddGraphNote(ctx, hearth.GraphNote{AddedBy: uid, RelationshipID: rs[0].ID, Body: body, Lifetime: hearth.LifetimeYear}, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	note(ann, "Dana", "goes bouldering every Sunday at the climbing gym")
	note(eve, "Zed", "goes bouldering and climbing every day")
	// Notes on people: their words are not all the question's ("goes"),
	// so only their meaning finds them; Eve's Kim is never Ann's.
	mustContain(t, ann.say("note on Kim: climbing mountains every summer forever"), "Kim")
	mustContain(t, eve.say("note on Kim: climbing with Zed every summer forever"), "Kim")
	pipelinetest.WaitForJobs(t, app.River, "the relationships' offline embeddings", func() bool {
		left, err := app.Store.Unembedded(ctx, app.Embeddings.Model, 10)
		if err != nil {
			t.Fatal(err)
		}
		return len(left) == 0
	})
	r := ann.say("who do I know who goes climbing?")
	mustContain(t, r, "From what you've told me:", "Ann → Dana: friend", "bouldering every Sunday", "Kim: climbing mountains every summer")
	if strings.Contains(r.Text, "Zed") || strings.Contains(r.Text, "Priya") {
		t.Fatalf("found what it should not: %q", r.Text)
	}
	if r := eve.say("do I know anyone who goes bouldering?"); !strings.Contains(r.Text, "Zed") || strings.Contains(r.Text, "Dana") {
		t.Fatalf("Eve's answer: %q", r.Text)
	}
}

// TestShareWhatYouKnowWithTheFamily: "share what you know about Bob with
// the family" makes Bob, Ann's relationships with him and her notes on
// him the family's, so Ben (whose grant of Ann's is events) sees her
// personal notes; "make what you know about Bob private" takes them back.
func TestShareWhatYouKnowWithTheFamily(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	ann := newChatter(t, base, app, "Ann", "Europe/London")
	ben := newChatter(t, base, app, "Ben", "Europe/London")
	invite := ann.say("start a family")
	code := regexp.MustCompile(`[A-Z0-9]{4}-[A-Z0-9]{4}`).FindString(invite.Text)
	mustContain(t, ben.say("join family "+code), "welcome")
	ann.say("note on Bob: stressed about the move for a week")
	ann.say("Remember that Bob is into sailing")
	if got := ben.say("what notes do you have on Bob?").Text; strings.Contains(got, "stressed") {
		t.Fatalf("Ben sees Ann's personal note before she shares it: %q", got)
	}
	mustContain(t, ann.say("share what you know about Bob with the family"), "Done — Bob, with 1 relationship and 1 note, now belongs to")
	mustContain(t, ben.say("what notes do you have on Bob?"), "stressed about the move")
	mustContain(t, ben.say("what is Bob into?"), "sailing")
	mustContain(t, ann.say("make what you know about Bob private"), "is yours alone again")
	if got := ben.say("what notes do you have on Bob?").Text; strings.Contains(got, "stressed") {
		t.Fatalf("Ben still sees the note: %q", got)
	}
	mustContain(t, ben.say("share what you know about Bob with the family"), "told by someone else")
}

// TestRelationshipsFromEmployers: an employer, a school or a home told in
// chat is an attribute (which "who works at …?" reads) and a relationship with
// the organisation, with the statement's dates; a new employer ends the
// old relationship as it closes the old value, and undo takes the
// statement back whole: the new value and relationship go, the old ones
// hold again.
func TestRelationshipsFromEmployers(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	ann := newChatter(t, base, app, "Ann", "Europe/London")
	ann.say("Remember that Jon works at Acme")
	ann.say("Remember that Mia studies at MIT")
	want := []string{"Jon → Acme: works at 3/4 confirmed", "Mia → MIT: studies at 3/4 confirmed"}
	if got := ann.relationships(); !slices.Equal(got, want) {
		t.Fatalf("relationships: %v, want %v", got, want)
	}
	mustContain(t, ann.say("who works at Acme?"), "Jon")
	// Told again, then undone: what Hearth knew before stays, both.
	ann.say("Remember that Jon works at Acme")
	ann.say("undo")
	if got := ann.relationships(); !slices.Equal(got, want) {
		t.Fatalf("after undoing a retelling: %v, want %v", got, want)
	}
	mustContain(t, ann.say("who works at Acme?"), "Jon")

	ann.say("Remember that Jon works at Initech")
	want = []string{"Jon → Initech: works at 3/4 confirmed", "Mia → MIT: studies at 3/4 confirmed"}
	if got := ann.relationships(); !slices.Equal(got, want) {
		t.Fatalf("after the new employer: %v, want %v", got, want)
	}
	ann.say("undo")
	want = []string{"Jon → Acme: works at 3/4 confirmed", "Mia → MIT: studies at 3/4 confirmed"}
	if got := ann.relationships(); !slices.Equal(got, want) {
		t.Fatalf("after undo: %v, want %v", got, want)
	}
	mustContain(t, ann.say("who works at Acme?"), "Jon")
	// Forgetting the new employer: as if never told, the old one holds
	// again (value and relationship); undo of the forget, the new again.
	ann.say("Remember that Jon works at Initech")
	mustContain(t, ann.say("forget that"), "forgotten")
	want = []string{"Jon → Acme: works at 3/4 confirmed", "Mia → MIT: studies at 3/4 confirmed"}
	if got := ann.relationships(); !slices.Equal(got, want) {
		t.Fatalf("after forgetting the new employer: %v, want %v", got, want)
	}
	mustContain(t, ann.say("who works at Acme?"), "Jon")
	ann.say("undo")
	want = []string{"Jon → Initech: works at 3/4 confirmed", "Mia → MIT: studies at 3/4 confirmed"}
	if got := ann.relationships(); !slices.Equal(got, want) {
		t.Fatalf("after undo of the forget: %v, want %v", got, want)
	}
	mustContain(t, ann.say("who works at Initech?"), "Jon")

	// History: the relationship held over the statement's dates.
	ann.say("Remember that I worked at Initech from 2015 to 2019")
	var label string
	var from, to time.Time
	if err := app.Store.Pool().QueryRow(context.Background(), `SELECT r.label, r.valid_from, r.valid_to FROM relationships r
		JOIN entities e ON e.id = r.to_id JOIN entities f ON f.id = r.from_id WHERE e.name = 'Initech' AND f.name = 'Ann' AND r.user_id = $1`, ann.contact().User.ID).Scan(&label, &from, &to); err != nil {
		t.Fatal(err)
	}
	if label != "worked at" || from.Year() != 2015 || to.Year() < 2019 || to.Year() > 2020 {
		t.Errorf("worked at Initech: %q %v – %v", label, from, to)
	}
	// Told without when, asked once: the answer dates both.
	mustContain(t, ann.say("Remember that I worked at Globex"), "When was that?")
	ann.say("from 2010 to 2012")
	if err := app.Store.Pool().QueryRow(context.Background(), `SELECT r.label, r.valid_from, r.valid_to FROM relationships r
		JOIN entities e ON e.id = r.to_id WHERE e.name = 'Globex' AND r.user_id = $1`, ann.contact().User.ID).Scan(&label, &from, &to); err != nil {
		t.Fatal(err)
	}
	if label != "worked at" || from.Year() != 2010 || to.Year() < 2012 || to.Year() > 2013 {
		t.Errorf("worked at Globex: %q %v – %v", label, from, to)
	}
	// Forgetting the statement forgets its relationship.
	mustContain(t, ann.say("forget that"), "forgotten")
	var n int
	if err := app.Store.Pool().QueryRow(context.Background(), `SELECT count(*) FROM relationships r JOIN entities e ON e.id = r.to_id WHERE e.name = 'Globex'`).Scan(&n); err != nil || n != 0 {
		t.Errorf("worked at after forget: %d %v", n, err)
	}

	// A home is a place: one at a time, like an employer.
	ann.say("Remember that Grandma lives in Leeds")
	ann.say("Remember that Grandma lives in York")
	if got := ann.relationships(); !slices.Contains(got, "Grandma → York: lives in 3/4 confirmed") || slices.Contains(got, "Grandma → Leeds: lives in 3/4 confirmed") {
		t.Errorf("Grandma's home: %v", got)
	}
}
