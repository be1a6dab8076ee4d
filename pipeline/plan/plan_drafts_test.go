package plan

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/stage/stagetest"
)

// TestPlanDrafts: "delete the draft to Sam" deletes Sam's draft, found
// by an address memory knows for Sam or one that reads as the name;
// "that draft" the newest; "all my drafts" each; words that fit several
// ask which, a button each; words that fit none say so. Sent mail is
// never a draft to delete.
func TestPlanDrafts(t *testing.T) {
	t.Parallel()
	drafts := []hearth.Email{ // newest first, as the context reads them
		{ID: 3, To: []string{"sam.lee@example.org"}, Subject: "Saturday", Body: "Are we still on for the party?", Status: hearth.EmailDraft},
		{ID: 2, To: []string{"landlord@flats.example"}, Subject: "Heater", Body: "The heater is broken again.", Status: hearth.EmailDraft},
		{ID: 1, To: []string{"dana.home@example.com"}, Subject: "Rota", Body: "Swap Tuesday?", Status: hearth.EmailDraft},
		{ID: 9, To: []string{"sam.lee@example.org"}, Subject: "Sent one", Status: hearth.EmailSent},
	}
	dana := []hearth.Entity{{ID: 7, Name: "Dana"}}
	danaMail := []hearth.Memory{{ID: 8, EntityID: 7, Attribute: hearth.AttrEmail, Value: "dana.home@example.com"}}
	for _, tt := range []struct {
		text    string
		drafts  []hearth.Email
		want    []int64  // the drafts deleted
		options []string // or the question's buttons
		missing string   // or what the reply says is missing
	}{
		{"delete the draft to Sam", drafts, []int64{3}, nil, ""},
		{"scrap my draft to Dana", drafts, []int64{1}, nil, ""},
		{"discard the draft for the landlord", drafts, []int64{2}, nil, ""},
		{"delete that draft", drafts, []int64{3}, nil, ""},
		{"delete the draft about the heater", drafts, []int64{2}, nil, ""},
		{"delete all my drafts", drafts, []int64{3, 2, 1}, nil, ""},
		{"delete the draft", drafts[1:], nil, []string{"To landlord@flats.example: Heater", "To dana.home@example.com: Rota"}, ""},
		{"delete the draft", drafts[2:], []int64{1}, nil, ""},
		{"delete the draft to Quentin", drafts, nil, nil, "I couldn't find a draft to Quentin"},
		{"delete the draft about the boiler", drafts, nil, nil, "I couldn't find a draft about “the boiler”"},
		{"delete that draft", drafts[3:], nil, nil, "I couldn't find any drafts"},
		{"send the draft to Dana", drafts, []int64{1}, nil, ""},
		{"send that draft", drafts, []int64{3}, nil, ""},
		{"send the draft", drafts[1:], nil, []string{"To landlord@flats.example: Heater", "To dana.home@example.com: Rota"}, ""},
		{"send the draft to Quentin", drafts, nil, nil, "I couldn't find a draft to Quentin"},
		// An email not said to be a draft is the saved one when one fits.
		{"send the email to Dana", drafts, []int64{1}, nil, ""},
		{"send that email", drafts, []int64{3}, nil, ""},
	} {
		t.Run(tt.text, func(t *testing.T) {
			c := stagetest.Fixture(t)
			c.Drafts, c.Entities, c.Memories = tt.drafts, dana, danaMail
			p := planText(t, tt.text, c)
			var got []int64
			for _, a := range p.actions {
				switch {
				case a.Kind == action.EmailDiscard && !strings.HasPrefix(tt.text, "send"):
					got = append(got, decode[action.DraftRefArgs](t, a).ID)
				case a.Kind == action.EmailSend && strings.HasPrefix(tt.text, "send"):
					// The saved draft, as it is: what the approval shows.
					e := decode[action.EmailArgs](t, a)
					i := slices.IndexFunc(drafts, func(d hearth.Email) bool { return d.ID == e.DraftID })
					if i < 0 || !slices.Equal(e.To, drafts[i].To) || e.Subject != drafts[i].Subject || e.Body != drafts[i].Body {
						t.Fatalf("send %+v; want a saved draft as it is", e)
					}
					got = append(got, e.DraftID)
				default:
					t.Fatalf("planned %v for %q", kindsOf(p.actions), tt.text)
				}
			}
			if !slices.Equal(got, tt.want) {
				t.Fatalf("deleted drafts %v; want %v (errs %v)", got, tt.want, p.errs)
			}
			var opts []string
			for _, q := range p.questions {
				for _, o := range q.Options {
					opts = append(opts, o.Label)
				}
			}
			if !slices.Equal(opts, tt.options) {
				t.Fatalf("options %q; want %q", opts, tt.options)
			}
			var de *stage.DetailsError
			if tt.missing != "" && (len(p.errs) != 1 || !errors.As(p.errs[0], &de) || !strings.Contains(de.Detail, tt.missing)) {
				t.Fatalf("errors %v; want one saying %q", p.errs, tt.missing)
			}
		})
	}
}

// TestSendEmailNoDraft: "send the email to Quentin" with no draft to
// Quentin saved is a new email, whose words are asked for, never "I
// couldn't find a draft".
func TestSendEmailNoDraft(t *testing.T) {
	t.Parallel()
	c := stagetest.Fixture(t)
	c.Drafts = []hearth.Email{{ID: 3, To: []string{"sam.lee@example.org"}, Subject: "Saturday", Status: hearth.EmailDraft}}
	p := planText(t, "send the email to Quentin", c)
	if len(p.actions) != 0 || len(p.errs) != 0 || len(p.questions) != 1 || p.questions[0].Text != "What should the email to Quentin say?" {
		t.Fatalf("planned %v, errors %v, questions %+v; want the email's words asked for", kindsOf(p.actions), p.errs, p.questions)
	}
}
