// Package markdown renders the small Markdown subset Hearth's replies are
// written in for each chat channel: Slack's mrkdwn and Telegram's HTML.
//
// The subset is the one the web chat page renders
// (adapters/webchat/static/app.js): **bold**, *italic* or _italic_,
// `code`, [text](https://…) links, bare http(s) links, "- " bullets and
// line breaks. Everything else is text, escaped for the channel, so
// nothing a user typed can become markup.
package markdown

import (
	"regexp"
	"strings"
)

// kind is the sort of one inline span.
type kind int

const (
	text kind = iota
	bold
	italic
	code
	link
)

// span is one inline piece of a line: its kind, its text and, for a
// link, where it points.
type span struct {
	kind kind
	text string
	href string
}

// inlineRule matches the inline forms in the same order of precedence as
// the web chat page, so a reply looks the same on every channel.
var inlineRule = regexp.MustCompile(
	`(\*\*([^*]+)\*\*)|` + // 1, 2: bold
		"(`([^`]+)`)|" + // 3, 4: code
		`(\[([^\]]+)\]\(([^)\s]+)\))|` + // 5, 6, 7: link
		`((?:https?://|mailto:)[^\s<>()]+[^\s<>().,;:!?'"])|` + // 8: bare link
		`(\*([^*\s][^*]*)\*)|` + // 9, 10: italic
		`(\b_([^_]+)_\b)`) // 11, 12: italic

// bulletRule matches a list item: "- ", "* " or "• " at the line start.
var bulletRule = regexp.MustCompile(`^\s*[-*•]\s+(.*)$`)

// safeHref reports whether a link may be made to href: only http(s) and
// mailto, as on the web chat page.
func safeHref(href string) bool {
	h := strings.ToLower(href)
	return strings.HasPrefix(h, "http://") || strings.HasPrefix(h, "https://") || strings.HasPrefix(h, "mailto:")
}

// parseInline cuts one line into spans.
func parseInline(s string) []span {
	var out []span
	for s != "" {
		m := inlineRule.FindStringSubmatchIndex(s)
		if m == nil {
			out = append(out, span{kind: text, text: s})
			break
		}
		if m[0] > 0 {
			out = append(out, span{kind: text, text: s[:m[0]]})
		}
		group := func(i int) string { return s[m[2*i]:m[2*i+1]] }
		has := func(i int) bool { return m[2*i] >= 0 }
		switch {
		case has(1):
			out = append(out, span{kind: bold, text: group(2)})
		case has(3):
			out = append(out, span{kind: code, text: group(4)})
		case has(5):
			if safeHref(group(7)) {
				out = append(out, span{kind: link, text: group(6), href: group(7)})
			} else {
				out = append(out, span{kind: text, text: group(6)})
			}
		case has(8):
			out = append(out, span{kind: link, text: group(8), href: group(8)})
		case has(9):
			out = append(out, span{kind: italic, text: group(10)})
		default:
			out = append(out, span{kind: italic, text: group(12)})
		}
		s = s[m[1]:]
	}
	return out
}

// render writes s line by line, bullets as "• ", with inline spans
// rendered by each.
func render(s string, each func(b *strings.Builder, sp span)) string {
	var b strings.Builder
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		if m := bulletRule.FindStringSubmatch(line); m != nil {
			b.WriteString("• ")
			line = m[1]
		}
		for _, sp := range parseInline(line) {
			each(&b, sp)
		}
	}
	return b.String()
}

// slackEscaper escapes the three characters Slack's mrkdwn requires.
var slackEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// Slack renders Markdown s as Slack mrkdwn: *bold*, _italic_, `code`,
// <url|text> links, with &, < and > escaped everywhere else.
func Slack(s string) string {
	return render(s, func(b *strings.Builder, sp span) {
		t := slackEscaper.Replace(sp.text)
		switch sp.kind {
		case bold:
			b.WriteString("*" + t + "*")
		case italic:
			b.WriteString("_" + t + "_")
		case code:
			b.WriteString("`" + t + "`")
		case link:
			// "|" ends the URL part and cannot be escaped inside it.
			href := slackEscaper.Replace(strings.ReplaceAll(sp.href, "|", "%7C"))
			if sp.text == sp.href {
				b.WriteString("<" + href + ">")
			} else {
				b.WriteString("<" + href + "|" + t + ">")
			}
		default:
			b.WriteString(t)
		}
	})
}

// htmlEscaper escapes what Telegram's HTML requires in text: &, < and >
// (quotes and apostrophes stay as they are, readable in logs and tests).
var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// attrEscaper also escapes the double quote that would end an attribute.
var attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")

// TelegramHTML renders Markdown s as the HTML Telegram accepts with
// parse_mode HTML: <b>, <i>, <code> and <a href>, everything else
// escaped.
func TelegramHTML(s string) string {
	return render(s, func(b *strings.Builder, sp span) {
		t := htmlEscaper.Replace(sp.text)
		switch sp.kind {
		case bold:
			b.WriteString("<b>" + t + "</b>")
		case italic:
			b.WriteString("<i>" + t + "</i>")
		case code:
			b.WriteString("<code>" + t + "</code>")
		case link:
			b.WriteString(`<a href="` + attrEscaper.Replace(sp.href) + `">` + t + "</a>")
		default:
			b.WriteString(t)
		}
	})
}

// Plain renders Markdown s as plain text, the markers removed, for the
// places that show no formatting (a notification's preview).
func Plain(s string) string {
	return render(s, func(b *strings.Builder, sp span) {
		if sp.kind == link && sp.text != sp.href {
			b.WriteString(sp.text + " (" + sp.href + ")")
			return
		}
		b.WriteString(sp.text)
	})
}
