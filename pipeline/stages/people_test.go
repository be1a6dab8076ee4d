package stages

import (
	"slices"
	"testing"

	"github.com/hearthbot/hearth"
)

func TestPeopleNamed(t *testing.T) {
	mems := []hearth.Memory{
		{About: "Sarah Kim"}, {About: "sarah kim"}, {About: "Sarah Lopez"},
		{About: "Sarahbeth"}, {About: "John"}, {About: ""},
	}
	tests := []struct {
		name string
		want []string
	}{
		{"Sarah", []string{"Sarah Kim", "Sarah Lopez"}},
		{"sarah", []string{"Sarah Kim", "Sarah Lopez"}},
		{"Sarah Kim", []string{"Sarah Kim"}},
		{"John", []string{"John"}},
		{"Emma", nil},
		{"", nil},
	}
	for _, tt := range tests {
		if got := peopleNamed(tt.name, mems); !slices.Equal(got, tt.want) {
			t.Errorf("peopleNamed(%q) = %v; want %v", tt.name, got, tt.want)
		}
	}
}
