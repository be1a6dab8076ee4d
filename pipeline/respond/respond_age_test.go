package respond

import (
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/stage/stagetest"
)

// TestRespondOwnAge: "how old am I?" is answered from when the user said
// they were born, to the day when their birthday is known too; nothing
// told is said so, and someone else's birth is not theirs.
func TestRespondOwnAge(t *testing.T) {
	t.Parallel()
	year := hearth.Memory{ID: 1, Content: "I was born in 1990", Attribute: hearth.AttrBorn, Value: "1990-01-01"}
	birthday := hearth.Memory{ID: 2, Content: "My birthday is March 3"}
	leo := hearth.Memory{ID: 3, Content: "Leo was born on 4 May 2017", About: "Leo", Attribute: hearth.AttrBorn, Value: "2017-05-04"}
	for _, tt := range []struct {
		name     string
		memories []hearth.Memory
		want     string
	}{
		{"the year alone", []hearth.Memory{year, leo}, "You were born in 1990, so you're 35 or 36."},
		{"the year and the birthday", []hearth.Memory{leo, year, birthday}, "You're 36 (born March 3, 1990)."}, // the fixture's today is March 10, 2026
		{"told by their name", []hearth.Memory{{ID: 4, Content: "Alex Kim was born on 5 June 1985", About: "Alex Kim", Attribute: hearth.AttrBorn, Value: "1985-06-05"}}, "You're 40 (born June 5, 1985)."},
		{"not told", []hearth.Memory{leo}, "I don't know how old you are yet."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := stagetest.Fixture(t)
			c.Memories = tt.memories
			if got := respondTo(t, stage.RespondInput{Text: "how old am I?", Context: c}); !strings.HasPrefix(got, tt.want) {
				t.Errorf("%q; want %q…", got, tt.want)
			}
		})
	}
}
