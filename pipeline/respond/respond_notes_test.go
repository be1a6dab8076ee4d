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

// TestRespondNamedList: a question naming a list the user does not have
// says so; it was answered from another list (the word "list" matched).
func TestRespondNamedList(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	shopping := []hearth.Note{{ID: 3, Body: "Gate code 4471"}, {ID: 1, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "bread"}}}}
	packing := []hearth.Note{{ID: 2, Title: "Packing list", Items: []hearth.ChecklistItem{{Text: "passport"}}}}
	for _, tt := range []struct {
		notes      []hearth.Note
		text, want string
	}{
		{shopping, "what's on the packing list?", "You don't have a packing list. Your notes and lists:"},
		{shopping, "show me the Christmas list", "You don't have a christmas list."},
		{shopping, "what's on the list?", "Your shopping list has bread."},
		{shopping, "what's on my shopping list?", "Your shopping list has bread."},
		{shopping, "what's on the grocery list?", "Your shopping list has bread."},
		// The other way round: only a packing list.
		{packing, "what's on the shopping list?", "You don't have a shopping list."},
		{packing, "what's on my list?", "Your packing list has passport."},
		{packing, "what's on the packing list?", "Your packing list has passport."},
	} {
		c.Notes = tt.notes
		in := stage.RespondInput{Text: tt.text, Context: c, Understanding: stage.Understanding{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Keep}}}
		if got := respondTo(t, in); !strings.HasPrefix(got, tt.want) {
			t.Errorf("%q: %q; want %q", tt.text, got, tt.want)
		}
	}
}

// TestRespondSent: a question about mail sent is answered from the mail
// sent, to whom it names when it names someone; mail kept in the outbox
// is said not to have left the machine.
func TestRespondSent(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	sentAt := c.Now.Add(-time.Hour)
	sent := []hearth.Email{
		{ID: 1, To: []string{"Sam <sam@example.com>"}, Subject: "The party is at 7", Status: hearth.EmailSent, Via: hearth.ViaOutbox, SentAt: sentAt},
		{ID: 2, To: []string{"Lee <lee@example.com>"}, Subject: "Car", Status: hearth.EmailSent, Via: hearth.ViaSMTP, SentAt: sentAt},
	}
	for _, tt := range []struct {
		text  string
		mail  []hearth.Email
		wants []string
		not   string
	}{
		{"what emails have I sent?", sent, []string{"You sent 2 emails:", "“The party is at 7”", "“Car”"}, ""},
		{"did Sam get my email?", sent, []string{"You sent one email: to Sam", "did not leave this machine"}, "Car"},
		{"did Lee get my email?", sent, []string{"You sent one email: to Lee"}, "did not leave"},
		{"did Ben get my email?", sent, []string{"I haven't sent any email to Ben."}, ""},
		{"what have I emailed?", nil, []string{"You haven't sent any email through me yet."}, ""},
	} {
		c.Drafts = tt.mail
		in := stage.RespondInput{Text: tt.text, Context: c, Understanding: stage.Understanding{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Email}}}
		got := respondTo(t, in)
		for _, w := range tt.wants {
			if !strings.Contains(got, w) {
				t.Errorf("%q: %q; want %q in it", tt.text, got, w)
			}
		}
		if tt.not != "" && strings.Contains(got, tt.not) {
			t.Errorf("%q: %q; want no %q", tt.text, got, tt.not)
		}
	}
	if nlu.SentQuestion("what drafts do I have?") {
		t.Error("a question about drafts read as one about mail sent")
	}
	for _, q := range []string{"what emails did I send?", "did we email the landlord?", "have I sent anything to Sam?"} {
		if !nlu.SentQuestion(q) {
			t.Errorf("%q not read as a question about mail sent", q)
		}
	}
}

// TestRespondOnList: whether something is on a list is answered yes, no
// (with what is), or ticked off; how many things are on it is counted.
func TestRespondOnList(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	c.Notes = []hearth.Note{{ID: 1, Title: "Shopping list", Items: []hearth.ChecklistItem{{Text: "milk", Done: true}, {Text: "eggs"}, {Text: "bread"}}}}
	keep := stage.Understanding{Intent: nlu.AskInfo, Domains: []nlu.Domain{nlu.Keep}}
	for text, want := range map[string]string{
		"is bread on the shopping list?":           "Yes — bread is on your shopping list.",
		"are lemons on my shopping list?":          "No — lemons aren't on your shopping list. It has eggs and bread.",
		"is the milk on the list?":                 "Milk is on your shopping list, ticked off.",
		"how many things are on my shopping list?": "Your shopping list has 2 things: eggs and bread.",
		"is the passport on the packing list?":     "You don't have a packing list.",
	} {
		if got := respondTo(t, stage.RespondInput{Text: text, Context: c, Understanding: keep}); !strings.HasPrefix(got, want) {
			t.Errorf("%q: %q; want %q…", text, got, want)
		}
	}
}
