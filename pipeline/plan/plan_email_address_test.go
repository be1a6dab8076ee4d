package plan

import (
	"testing"

	"github.com/hearthbot/hearth"
)

func TestWithAddress(t *testing.T) {
	mems := []hearth.Memory{
		{About: "Sarah Kim", Content: "Sarah Kim's email is sarah.kim@example.com."},
		{About: "Sarah Kim", Content: "Sarah Kim is my dentist"},
		{About: "Tom", Content: "Tom's email is tom@a.example, or tom@b.example at work"},
		{About: "Zoë", Content: "Zoë's email is zoe@example.com"},
	}
	tests := []struct{ person, want string }{
		{"Sarah Kim", "Sarah Kim <sarah.kim@example.com>"},
		{"sarah kim", "sarah kim <sarah.kim@example.com>"},
		{"Tom", "Tom"}, // two addresses: not guessed
		{"Ann", "Ann"},
		{"Zoë", "Zoë <zoe@example.com>"},
	}
	for _, tt := range tests {
		if got := withAddress(tt.person, mems); got != tt.want {
			t.Errorf("withAddress(%q) = %q; want %q", tt.person, got, tt.want)
		}
	}
	if g := emailGreeting([]string{"Sarah Kim <sarah.kim@example.com>"}, ""); g != "Hi Sarah Kim," {
		t.Errorf("greeting %q", g)
	}
}
