package respond

import (
	"strings"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/stage/stagetest"
)

// TestRespondBirthdays: a question for the birthdays coming up lists the
// ones that fall then, soonest first, each once; whose is next names the
// soonest; a span with none says which comes next.
func TestRespondBirthdays(t *testing.T) {
	t.Parallel()
	memories := []hearth.Memory{ // the fixture's today is Tuesday, March 10, 2026
		{ID: 1, Content: "Ben's birthday is on March 28th", About: "Ben"},
		{ID: 2, Content: "Julia's birthday is March 12", About: "Julia"},
		{ID: 3, Content: "My brother's birthday is July 4"},
		{ID: 4, Content: "Alex Kim's birthday is 1 April", About: "Alex Kim"},
		{ID: 5, Content: "Our anniversary is on March 11"},
		{ID: 6, Content: "Ben's birthday is March 28", About: "Ben"}, // told twice
		{ID: 7, Content: "Ben loves jazz", About: "Ben"},
		{ID: 8, Content: "Mia's birthday is March 2", About: "Mia"}, // gone by this year
	}
	tests := []struct {
		name, text, want string
		memories         []hearth.Memory
	}{
		{"coming up", "what birthdays are coming up?", "Birthdays in the next 30 days:\n• Julia's birthday, Thu, Mar 12 (in 2 days)\n• Ben's birthday, Sat, Mar 28 (in 18 days)", memories},
		{"this month, those gone by left out", "any birthdays this month?", "Birthdays this month:\n• Julia's birthday, Thu, Mar 12 (in 2 days)\n• Ben's birthday, Sat, Mar 28 (in 18 days)", memories},
		{"whose is next", "whose birthday is next?", "Next up: Julia's birthday, Thu, Mar 12 (in 2 days).", memories},
		{"anniversaries", "any anniversaries coming up?", "Anniversaries in the next 30 days:\n• Your anniversary, tomorrow", memories},
		{"the user's own", "any birthdays in April?", "Birthdays in April:\n• Your birthday, Wed, Apr 1 (in 22 days)", memories},
		{"by relation", "any birthdays in July?", "Birthdays in July:\n• Your brother's birthday, Sat, Jul 4 (in 116 days)", memories},
		{"none then", "any birthdays in May?", "No birthdays in May. The next one: Julia's birthday, Thu, Mar 12 (in 2 days).", memories},
		{"none known", "what birthdays are coming up?", "I don't know of any birthdays yet.", memories[6:7]},
		{"one person's stays theirs", "when is Ben's birthday?", "Ben's birthday is on March 28th — in 18 days.", memories[:5]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := stagetest.Fixture(t)
			c.Memories = tt.memories
			if got := respondTo(t, stage.RespondInput{Text: tt.text, Context: c}); !strings.HasPrefix(got, tt.want) {
				t.Errorf("%q:\n%s\nwant\n%s", tt.text, got, tt.want)
			}
		})
	}
}
