package plan

import (
	"context"
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/stage"
)

func TestEditDraft(t *testing.T) {
	draft := action.EmailArgs{To: []string{"Sarah"}, Subject: "Lunch on Tuesday", Body: "Hi Sarah,\n\nCan we meet on Tuesday at 12:30? I'll bring the plans. Parking is behind the building.\n\n— Ann"}
	tests := []struct {
		instruction string
		want        string // the whole new body; "" when unchanged
		subject     string // the new subject, when it changes
	}{
		{"say Friday instead", "Hi Sarah,\n\nCan we meet on Friday at 12:30? I'll bring the plans. Parking is behind the building.\n\n— Ann", "Lunch on Friday"},
		{"change tuesday to thursday", "Hi Sarah,\n\nCan we meet on Thursday at 12:30? I'll bring the plans. Parking is behind the building.\n\n— Ann", "Lunch on Thursday"},
		{"wednesday instead of tuesday", "Hi Sarah,\n\nCan we meet on Wednesday at 12:30? I'll bring the plans. Parking is behind the building.\n\n— Ann", ""},
		{"make it 1pm", "Hi Sarah,\n\nCan we meet on Tuesday at 1pm? I'll bring the plans. Parking is behind the building.\n\n— Ann", ""},
		{"Friday at 2pm instead", "Hi Sarah,\n\nCan we meet on Friday at 2pm? I'll bring the plans. Parking is behind the building.\n\n— Ann", ""},
		{"more formal", "Dear Sarah,\n\nCan we meet on Tuesday at 12:30? I will bring the plans. Parking is behind the building.\n\nKind regards,\nAnn", ""},
		{"make it shorter", "Hi Sarah,\n\nCan we meet on Tuesday at 12:30? I'll bring the plans.\n\n— Ann", ""},
		{"drop the first sentence", "Hi Sarah,\n\nI'll bring the plans. Parking is behind the building.\n\n— Ann", ""},
		{"remove the bit about parking", "Hi Sarah,\n\nCan we meet on Tuesday at 12:30? I'll bring the plans.\n\n— Ann", ""},
		{"don't mention the plans", "Hi Sarah,\n\nCan we meet on Tuesday at 12:30? Parking is behind the building.\n\n— Ann", ""},
		{"change the subject to Friday plans", draft.Body, "Friday plans"}, // the body's Tuesday stays
		{"Subject: “Lunch?”", draft.Body, "Lunch?"},
		{"make it sound happier", "", ""},
		{"Running late, start without me.", "", ""},
		{"say Tuesday instead", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.instruction, func(t *testing.T) {
			got, err := EmailEditor{}.EditDraft(context.Background(), stage.DraftEdit{Instruction: tt.instruction, Draft: draft})
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if got.Changed || got.Draft.Body != draft.Body {
					t.Fatalf("changed to %q (%s); want unchanged", got.Draft.Body, got.What)
				}
				return
			}
			if !got.Changed || got.Draft.Body != tt.want || got.What == "" {
				t.Fatalf("body %q (changed %v, %q)\nwant %q", got.Draft.Body, got.Changed, got.What, tt.want)
			}
			if tt.subject != "" && got.Draft.Subject != tt.subject {
				t.Fatalf("subject %q; want %q", got.Draft.Subject, tt.subject)
			}
			if strings.Join(got.Draft.To, ",") != "Sarah" {
				t.Fatalf("recipients changed: %v", got.Draft.To)
			}
		})
	}
}

func TestEditDraftCasual(t *testing.T) {
	d := action.EmailArgs{To: []string{"Tom"}, Body: "Dear Tom,\n\nThe report is attached.\n\nKind regards,\nAnn"}
	got := editDraft(stage.DraftEdit{Instruction: "less formal please", Draft: d, Style: hearth.MailStyle{Greeting: "Hey {name}!", SignOff: "Cheers,"}})
	if want := "Hey Tom!\n\nThe report is attached.\n\nCheers,\nAnn"; got.Draft.Body != want {
		t.Fatalf("body %q; want %q", got.Draft.Body, want)
	}
}

// TestEditDraftAlready: asked for the style the draft already has, the
// edit changes nothing and says so, so the user is not asked to write it.
func TestEditDraftAlready(t *testing.T) {
	for _, tt := range []struct{ instruction, body, want string }{
		{"make it more formal", "Dear Tom,\n\nThe report is attached.\n\nKind regards,\nAnn", "formal"},
		{"more casual please", "Hi Tom,\n\nReport's attached.\n\n— Ann", "casual"},
		{"make it more formal", "The report is attached.", ""},
	} {
		got := editDraft(stage.DraftEdit{Instruction: tt.instruction, Draft: action.EmailArgs{To: []string{"Tom"}, Body: tt.body}})
		if got.Changed || got.Already != tt.want {
			t.Errorf("%q of %q: changed %v, already %q; want unchanged, %q", tt.instruction, tt.body, got.Changed, got.Already, tt.want)
		}
	}
}

func TestComposeWithStyle(t *testing.T) {
	tests := []struct {
		style hearth.MailStyle
		to    string
		want  string
	}{
		{hearth.MailStyle{}, "Sarah", "Hi Sarah,\n\nI'll be late.\n\n— Ann"},
		{hearth.MailStyle{Greeting: "Hello {name},", SignOff: "Best,"}, "Sarah", "Hello Sarah,\n\nI'll be late.\n\nBest,\nAnn"},
		{hearth.MailStyle{Greeting: "Hello {name},", SignOff: "Best,"}, "the landlord", "Hello,\n\nI'll be late.\n\nBest,\nAnn"},
		{hearth.MailStyle{Greeting: "Good morning!"}, "Sarah", "Good morning!\n\nI'll be late.\n\n— Ann"},
	}
	for _, tt := range tests {
		if got := composeEmail(tt.to, "I'll be late", "", "Ann", tt.style); got.Body != tt.want {
			t.Errorf("style %+v to %s: %q; want %q", tt.style, tt.to, got.Body, tt.want)
		}
	}
}

func FuzzEditDraft(f *testing.F) {
	f.Add("say Friday instead", "Hi Sarah,\n\nSee you Tuesday at 3pm. Bring snacks.\n\n— Ann")
	f.Add("more formal", "Dear,\n\n\n\n— ")
	f.Add("drop the last sentence about", "Hi\n\nA. B! C?\n\nCheers,\nX\nY")
	f.Add("change 3pm to noon", "3pm 3PM 3 pm")
	f.Fuzz(func(t *testing.T, instruction, body string) {
		d := action.EmailArgs{To: []string{"Sarah"}, Subject: "s", Body: body}
		got := editDraft(stage.DraftEdit{Instruction: instruction, Draft: d})
		if got.Changed && strings.TrimSpace(got.Draft.Body) == "" {
			t.Fatalf("an edit emptied the body: %q → %q", body, got.Draft.Body)
		}
		if !got.Changed && got.Draft.Body != body {
			t.Fatalf("unchanged edit changed the body")
		}
		if len(got.Draft.To) != 1 || got.Draft.To[0] != "Sarah" {
			t.Fatalf("recipients changed")
		}
	})
}
