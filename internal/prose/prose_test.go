package prose_test

import (
	"testing"

	"github.com/hearthbot/hearth/internal/prose"
)

func TestProse(t *testing.T) {
	tests := []struct{ got, want string }{
		{prose.UpperFirst("call mom"), "Call mom"},
		{prose.UpperFirst("éclairs"), "Éclairs"},
		{prose.UpperFirst(""), ""},
		{prose.LowerFirst("Call mom"), "call mom"},
		{prose.LowerFirst("NASA launch"), "NASA launch"},
		{prose.LowerFirst("Sarah's party"), "Sarah's party"},
		{prose.LowerFirst("Christmas gifts"), "Christmas gifts"},
		{prose.Capitalise("friday afternoon"), "Friday afternoon"},
		{prose.Capitalise("before march"), "before March"},
		{prose.Capitalise("this week"), "this week"},
		{prose.Capitalise("in may"), "in May"},
		{prose.Capitalise("may 5"), "May 5"},
		{prose.Capitalise("early may"), "early May"},
		{prose.Capitalise("this may take a while"), "this may take a while"},
		{prose.Capitalise("we may"), "we may"},
		{prose.LowerFirst("Monday yoga"), "Monday yoga"},
		{prose.LowerFirst("May trip"), "may trip"}, // "May" is a word too: left to the sentence
		{prose.List(nil), ""},
		{prose.List([]string{"a"}), "a"},
		{prose.List([]string{"a", "b", "c"}), "a, b and c"},
		{prose.Possessive("John"), "John's"},
		{prose.Possessive("James"), "James'"},
		{prose.Possessive(""), "your"},
		{prose.SecondPerson("I just closed on my house!"), "You just closed on your house!"},
		{prose.SecondPerson("take my vitamins"), "take your vitamins"},
		{prose.SecondPerson("I am late, call me"), "You are late, call you"},
		{prose.SecondPerson("My keys are mine"), "Your keys are yours"},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%d: %q; want %q", i, tt.got, tt.want)
		}
	}
}
