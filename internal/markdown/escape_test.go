package markdown_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/hearthbot/hearth/internal/markdown"
)

// escapeSeeds are user texts that would be markup if put into a reply
// as they are.
var escapeSeeds = []string{
	"*x*", "**bold**", "_under_", "snake_case_name", "`rm -rf`", "[a](javascript:alert(1))", "[a](https://evil.test)",
	"https://x.test/_a_", "mailto:me@x.test", "- not a bullet", "  • nor this", "back\\slash \\*", "a < b & c > d",
	"line one\n- line two", "C:\\Users\\me", "~strike~", "\\", "*", "**", "x_", "http:", "Https://x.test",
}

// TestEscape checks that escaped text renders as itself on every
// channel, also inside bold (the briefing's titles) and quotes.
func TestEscape(t *testing.T) {
	t.Parallel()
	for _, s := range escapeSeeds {
		for _, tmpl := range []string{"%s", "Added “%s” to your tasks.", "**%s** at 9:00", "- %s"} {
			md := strings.Replace(tmpl, "%s", markdown.Escape(s), 1)
			want := strings.Replace(tmpl, "%s", s, 1)
			if tmpl == "**%s** at 9:00" {
				if strings.Contains(s, "\n") {
					continue // bold does not span lines
				}
				want = s + " at 9:00"
			}
			if tmpl == "- %s" {
				if strings.Contains(s, "\n") {
					continue
				}
				want = "• " + strings.TrimLeft(s, " \t\f\r") // the bullet takes the spaces after it
			}
			if got := markdown.Plain(md); got != want {
				t.Errorf("Plain(%q) = %q; want %q", md, got, want)
			}
			if got := shownTelegram(t, markdown.TelegramHTML(md), tmpl == "**%s** at 9:00"); got != want {
				t.Errorf("TelegramHTML(%q) shows %q; want %q", md, got, want)
			}
			if got := shownSlack(markdown.Slack(md)); got != want && tmpl != "**%s** at 9:00" {
				t.Errorf("Slack(%q) shows %q; want %q", md, got, want)
			}
		}
	}
}

// shownTelegram is the text Telegram shows for h; it fails if h has any
// element other than the one bold a template made.
func shownTelegram(t *testing.T, h string, bold bool) string {
	t.Helper()
	var out strings.Builder
	z := html.NewTokenizer(strings.NewReader(h))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return out.String()
		case html.TextToken:
			out.Write(z.Text())
		case html.StartTagToken, html.EndTagToken:
			if name, _ := z.TagName(); !bold || string(name) != "b" {
				t.Errorf("TelegramHTML made an element %s: %q", name, h)
			}
		default:
			t.Errorf("TelegramHTML made a token %q", h)
		}
	}
}

// shownSlack is the text Slack shows for mrkdwn that has no formatting:
// the entities read and the zero-width spaces invisible.
func shownSlack(s string) string {
	s = strings.ReplaceAll(s, "\u200b", "")
	return strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(s)
}

// FuzzEscape checks render(escape(s)) shows s: as plain text, as
// Telegram HTML with no element at all, and as Slack mrkdwn with no
// formatting marker left open to Slack and no link.
func FuzzEscape(f *testing.F) {
	for _, s := range escapeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) || strings.Contains(s, "\u200b") {
			return
		}
		md := markdown.Escape(s)
		if got := markdown.Plain(md); got != s {
			t.Fatalf("Plain(Escape(%q)) = %q", s, got)
		}
		tg := markdown.TelegramHTML(md)
		z := html.NewTokenizer(strings.NewReader(tg))
		var shown strings.Builder
		for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
			if tt != html.TextToken {
				t.Fatalf("TelegramHTML(Escape(%q)) = %q: token %v", s, tg, tt)
			}
			shown.Write(z.Text())
		}
		// The HTML tokenizer reads \r\n and \r as \n, as browsers do.
		crlf := strings.NewReplacer("\r\n", "\n", "\r", "\n")
		if crlf.Replace(shown.String()) != crlf.Replace(s) {
			t.Fatalf("TelegramHTML(Escape(%q)) shows %q", s, shown.String())
		}
		sl := markdown.Slack(md)
		if strings.Contains(sl, "<") {
			t.Fatalf("Slack(Escape(%q)) = %q: a link", s, sl)
		}
		if got := shownSlack(sl); got != s {
			t.Fatalf("Slack(Escape(%q)) shows %q", s, got)
		}
	})
}
