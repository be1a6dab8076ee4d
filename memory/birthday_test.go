package memory

import (
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/scheduler/recur"
)

// TestParseBirthday: a birthday or anniversary fact, its date and whose
// it is; anything else, or a date that does not exist, is not one.
func TestParseBirthday(t *testing.T) {
	tests := []struct {
		content, about string
		want           hearth.ScheduleDetail
		ok             bool
	}{
		{"John's birthday is March 15th", "John", hearth.ScheduleDetail{Month: 3, Day: 15, About: "John", What: "birthday"}, true},
		{"Our anniversary is on the 3rd of June.", "", hearth.ScheduleDetail{Month: 6, Day: 3, About: "your", What: "anniversary"}, true},
		{"Mom’s birthday is Dec 1", "Mom", hearth.ScheduleDetail{Month: 12, Day: 1, About: "Mom", What: "birthday"}, true},
		{"Emma's birthday is February 30", "Emma", hearth.ScheduleDetail{}, false},
		{"Leo's birthday is February 29th", "Leo", hearth.ScheduleDetail{Month: 2, Day: 29, About: "Leo", What: "birthday"}, true},
		{"Kim's birthday is 3/15", "Kim", hearth.ScheduleDetail{Month: 3, Day: 15, About: "Kim", What: "birthday"}, true},
		{"John likes March", "John", hearth.ScheduleDetail{}, false},
		{"John's birthday is soon", "John", hearth.ScheduleDetail{}, false},
	}
	for _, tt := range tests {
		got, ok := ParseBirthday(tt.content, tt.about)
		if ok != tt.ok || got != tt.want {
			t.Errorf("ParseBirthday(%q) = %+v, %v; want %+v, %v", tt.content, got, ok, tt.want, tt.ok)
		}
	}
}

// Facts are what users typed: reading one as a birthday never panics,
// and what is accepted is a real date.
func FuzzParseBirthday(f *testing.F) {
	for _, s := range []string{"John's birthday is March 15th", "our anniversary is on the 3rd of June",
		"Mia's bday is 2/29", "Bob's birthday is February 30", "birthday is", "'s birthday is 13/45"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, content string) {
		d, ok := ParseBirthday(content, "")
		if !ok {
			return
		}
		if d.Month < 1 || d.Month > 12 || d.Day < 1 || !(recur.Date{Year: 2024, Month: time.Month(d.Month), Day: d.Day}).Valid() {
			t.Fatalf("%q: accepted month %d day %d", content, d.Month, d.Day)
		}
	})
}
