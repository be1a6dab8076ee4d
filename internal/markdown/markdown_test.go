package markdown_test

import (
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"

	"github.com/hearthbot/hearth/internal/markdown"
)

func TestRender(t *testing.T) {
	tests := []struct {
		name, in, slack, telegram, plain string
	}{
		{"text", "Call mom", "Call mom", "Call mom", "Call mom"},
		{"bold", "**Today**\n• 9:00 AM Dentist", "*Today*\n• 9:00 AM Dentist", "<b>Today</b>\n• 9:00 AM Dentist", "Today\n• 9:00 AM Dentist"},
		{"italic", "an *idea* and _another_", "an _idea_ and _another_", "an <i>idea</i> and <i>another</i>", "an idea and another"},
		{"snake case is text", "file_name_here", "file_name_here", "file_name_here", "file_name_here"},
		{"code", "type `undo`", "type `undo`", "type <code>undo</code>", "type undo"},
		{"link", "[the docs](https://x.test/a?b=1&c=2)", "<https://x.test/a?b=1&amp;c=2|the docs>", `<a href="https://x.test/a?b=1&amp;c=2">the docs</a>`, "the docs (https://x.test/a?b=1&c=2)"},
		{"bare link", "see https://x.test/p.", "see <https://x.test/p>.", `see <a href="https://x.test/p">https://x.test/p</a>.`, "see https://x.test/p."},
		{"unsafe link", "[click](javascript:x)", "click", "click", "click"},
		{"escapes", "a < b & c > d", "a &lt; b &amp; c &gt; d", "a &lt; b &amp; c &gt; d", "a < b & c > d"},
		{"markup in bold", "**<script>**", "*&lt;script&gt;*", "<b>&lt;script&gt;</b>", "<script>"},
		{"bullets", "- milk\n* eggs", "• milk\n• eggs", "• milk\n• eggs", "• milk\n• eggs"},
		{"lone asterisk", "5 * 3", "5 * 3", "5 * 3", "5 * 3"},
		{"quotes stay", `Heard: "it's 5"`, `Heard: "it's 5"`, `Heard: "it's 5"`, `Heard: "it's 5"`},
		{"quote in a link", `[a](https://x.test/"b)`, `<https://x.test/"b|a>`, `<a href="https://x.test/&quot;b">a</a>`, `a (https://x.test/"b)`},
		{"slack pipe in link", "[a](https://x.test/a|b)", "<https://x.test/a%7Cb|a>", `<a href="https://x.test/a|b">a</a>`, "a (https://x.test/a|b)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := markdown.Slack(tt.in); got != tt.slack {
				t.Errorf("Slack(%q) = %q, want %q", tt.in, got, tt.slack)
			}
			if got := markdown.TelegramHTML(tt.in); got != tt.telegram {
				t.Errorf("TelegramHTML(%q) = %q, want %q", tt.in, got, tt.telegram)
			}
			if got := markdown.Plain(tt.in); got != tt.plain {
				t.Errorf("Plain(%q) = %q, want %q", tt.in, got, tt.plain)
			}
		})
	}
}

// telegramTags are the only elements TelegramHTML may produce.
var telegramTags = map[string]bool{"b": true, "i": true, "code": true, "a": true}

func FuzzRender(f *testing.F) {
	for _, s := range []string{"**Today**\n- a", "*x* _y_ `z`", "[a](https://b.test)", "<b>&amp;</b>", "**a*b**c*", "_\x00_", "https://x.test/)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		// Slack: every < opens a link Slack would parse, and each is one
		// Hearth made: "<http…" or "<mailto:".
		sl := markdown.Slack(s)
		for i := 0; i < len(sl); i++ {
			if sl[i] == '<' && !strings.HasPrefix(sl[i:], "<http") && !strings.HasPrefix(sl[i:], "<mailto:") {
				t.Fatalf("Slack(%q) = %q: a raw < at %d", s, sl, i)
			}
		}
		// Telegram: the HTML has only the allowed elements, balanced.
		tg := markdown.TelegramHTML(s)
		z := html.NewTokenizer(strings.NewReader(tg))
		depth := 0
		for {
			tt := z.Next()
			if tt == html.ErrorToken {
				break
			}
			name, _ := z.TagName()
			switch tt {
			case html.StartTagToken:
				if !telegramTags[string(name)] {
					t.Fatalf("TelegramHTML(%q) = %q: element %s", s, tg, name)
				}
				depth++
			case html.EndTagToken:
				depth--
			case html.SelfClosingTagToken, html.CommentToken, html.DoctypeToken:
				t.Fatalf("TelegramHTML(%q) = %q: token %v", s, tg, tt)
			}
			if depth < 0 || depth > 1 {
				t.Fatalf("TelegramHTML(%q) = %q: unbalanced", s, tg)
			}
		}
		if depth != 0 {
			t.Fatalf("TelegramHTML(%q) = %q: unclosed", s, tg)
		}
		// Plain keeps every letter and digit of the input in order.
		var want, got strings.Builder
		for _, r := range s {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
				want.WriteRune(r)
			}
		}
		for _, r := range markdown.Plain(s) {
			if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
				got.WriteRune(r)
			}
		}
		if !strings.Contains(got.String(), want.String()) && !strings.Contains(s, "](") {
			t.Fatalf("Plain(%q) lost text: %q", s, markdown.Plain(s))
		}
	})
}
