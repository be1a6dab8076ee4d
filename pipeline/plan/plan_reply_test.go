package plan

import "testing"

func TestReplyParts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		text, who, said string
		ok              bool
	}{
		{"reply to Sarah's last email: sounds good", "Sarah", "sounds good", true},
		{"Reply to Tom’s email saying I'm in.", "Tom", "I'm in", true},
		{"answer the last email from Sarah Lee: Friday works", "Sarah Lee", "Friday works", true},
		{"respond to the latest message from bob@example.org - yes please", "bob@example.org", "yes please", true},
		{"email Sarah that I'll be late", "", "", false},
		{"what did Sarah's last email say?", "", "", false},
	}
	for _, c := range cases {
		who, said, ok := replyParts(c.text)
		if ok != c.ok || who != c.who || said != c.said {
			t.Errorf("%q: got (%q, %q, %v), want (%q, %q, %v)", c.text, who, said, ok, c.who, c.said, c.ok)
		}
	}
}
