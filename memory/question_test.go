package memory_test

import (
	"testing"
	"time"

	"github.com/hearthbot/hearth/memory"
)

func TestReadQuestion(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	y := func(year int) time.Time { return time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC) }
	tests := []struct {
		text string
		want memory.Question
		ok   bool
	}{
		{"Who works at Acme?", memory.Question{Kind: memory.WhoHas, Attribute: "employer", Value: "Acme"}, true},
		{"who worked at Initech in 2017?", memory.Question{Kind: memory.WhoHas, Attribute: "employer", Value: "Initech", From: y(2017), To: y(2018)}, true},
		{"Who worked at Initech?", memory.Question{Kind: memory.WhoHas, Attribute: "employer", Value: "Initech", Past: true}, true},
		{"Who goes to Lincoln Elementary?", memory.Question{Kind: memory.WhoHas, Attribute: "school", Value: "Lincoln Elementary"}, true},
		{"Who did I work with in 2019?", memory.Question{Kind: memory.WhoWithMe, Attribute: "employer", From: y(2019), To: y(2020)}, true},
		{"Where does Jon work?", memory.Question{Kind: memory.ValueOf, Attribute: "employer", Name: "Jon"}, true},
		{"Where did my brother work in 2015?", memory.Question{Kind: memory.ValueOf, Attribute: "employer", Name: "my brother", From: y(2015), To: y(2016)}, true},
		{"Where did we live when Emma was born?", memory.Question{Kind: memory.LivedWhenBorn, Attribute: "home", Name: "Emma"}, true},
		{"Who is my dentist?", memory.Question{Kind: memory.WhoIsMy, Relation: "dentist"}, true},
		{"WHERE DOES JON WORK?", memory.Question{Kind: memory.ValueOf, Attribute: "employer", Name: "JON"}, true},
		{"Who are my colleagues?", memory.Question{Kind: memory.WhoIsMy, Relation: "colleague"}, true},
		{"Which of Emma's friends live within walking distance of her school?", memory.Question{Kind: memory.WithinWalking, Name: "Emma"}, true},
		{"Is Sam my brother?", memory.Question{Kind: memory.WhoIsMy, Relation: "brother", Name: "Sam"}, true},
		{"is Sarah Kim our dentist?", memory.Question{Kind: memory.WhoIsMy, Relation: "dentist", Name: "Sarah Kim"}, true},
		{"Is Sam my favourite author?", memory.Question{}, false},
		// The user's own: their facts by their words, not someone named "I".
		{"Where do I live?", memory.Question{Kind: memory.ValueOf, Attribute: memory.AttrHome, Self: true}, true},
		{"where do we work?", memory.Question{Kind: memory.ValueOf, Attribute: "employer", Self: true}, true},
		{"is it my turn?", memory.Question{}, false},
		// Whether a value holds, or held.
		{"does Lea work at Globex?", memory.Question{Kind: memory.ValueOf, Attribute: "employer", Name: "Lea", Value: "Globex"}, true},
		{"did Sam use to live in Leeds?", memory.Question{Kind: memory.ValueOf, Attribute: memory.AttrHome, Name: "Sam", Value: "Leeds", Past: true}, true},
		{"Does Mia still go to Lincoln Elementary?", memory.Question{Kind: memory.ValueOf, Attribute: "school", Name: "Mia", Value: "Lincoln Elementary"}, true},
		{"is Lea still at Globex?", memory.Question{Kind: memory.ValueOf, Attribute: "employer", Name: "Lea", Value: "Globex"}, true},
		{"do I work at Acme?", memory.Question{Kind: memory.ValueOf, Attribute: "employer", Self: true, Value: "Acme"}, true},
		{"does Lea like Globex?", memory.Question{}, false},
		{"Who is my favourite author?", memory.Question{}, false},
		{"When is John's birthday?", memory.Question{}, false},
		{"What's on my calendar tomorrow?", memory.Question{}, false},
	}
	for _, tt := range tests {
		got, ok := memory.ReadQuestion(tt.text, now)
		if ok != tt.ok || got.Kind != tt.want.Kind || got.Attribute != tt.want.Attribute || got.Value != tt.want.Value || got.Name != tt.want.Name ||
			got.Relation != tt.want.Relation || !got.From.Equal(tt.want.From) || !got.To.Equal(tt.want.To) || got.Past != tt.want.Past {
			t.Errorf("ReadQuestion(%q) = %+v, %v; want %+v, %v", tt.text, got, ok, tt.want, tt.ok)
		}
	}
}

// BenchmarkReadQuestion: most messages are not such a question, and a
// turn asks up to three times.
func BenchmarkReadQuestion(b *testing.B) {
	now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	for _, text := range []string{"Add oat milk to the shopping list on Friday", "Where did my brother work in 2015?"} {
		b.Run(text[:3], func(b *testing.B) {
			for b.Loop() {
				memory.ReadQuestion(text, now)
			}
		})
	}
}
