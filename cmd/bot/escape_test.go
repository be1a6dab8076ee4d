package main

import (
	"strings"
	"testing"

	"github.com/hearthbot/hearth/internal/markdown"
)

// TestUserTextEscaped checks, through the web chat API, that what a user
// typed shows literally in the replies that quote it: the JSON API keeps
// Markdown, with the user's markers escaped, so the web page, Slack and
// Telegram each show the title as typed and make no link of it.
func TestUserTextEscaped(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Esme", "UTC")
	for _, title := range []string{"*x*", "[a](javascript:alert(1))", "run `make` on my_new_file_name", "__init__ review"} {
		t.Run(title, func(t *testing.T) {
			r := c.say("remind me to " + title + " tomorrow at 5pm")
			// The title is capitalised: compare without case.
			shows := func(md string) bool {
				return strings.Contains(strings.ToLower(markdown.Plain(md)), strings.ToLower(title))
			}
			if !shows(r.Text) {
				t.Fatalf("reply %q shows %q; want the title %q as typed", r.Text, markdown.Plain(r.Text), title)
			}
			if h := markdown.TelegramHTML(r.Text); strings.Contains(h, "<i>") || strings.Contains(h, "<a ") || strings.Contains(h, "<code>") || strings.Contains(h, "<b>") {
				t.Fatalf("Telegram HTML %q formats the title", h)
			}
			if s := markdown.Slack(r.Text); strings.Contains(s, "<") {
				t.Fatalf("Slack mrkdwn %q has a link", s)
			}
			list := c.say("what's on my to-do list?")
			if !shows(list.Text) {
				t.Fatalf("task list %q shows %q; want %q in it", list.Text, markdown.Plain(list.Text), title)
			}
			c.say("delete the task " + title)
		})
	}
}
