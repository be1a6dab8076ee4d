// Package markdown renders the small Markdown subset Hearth's replies are
// written in for each chat channel: Slack's mrkdwn and Telegram's HTML.
//
// The subset is the one the web chat page renders
// (adapters/webchat/static/app.js): **bold**, *italic* or _italic_,
// `code`, [text](https://…) links, bare http(s) links, "- " bullets and
// line breaks. Everything else is text, escaped for the channel, so
// nothing a user typed can become markup.
//
// A backslash before ASCII punctuation or "•" makes that character
// plain text ("\\*x\\*" shows *x*), also inside bold, italic and link
// text. Escape writes user text that way: every reply template that puts
// user or untrusted text (a title, a name, an email subject) into Markdown
// passes it through Escape, so "*x*" or "[a](javascript:…)" shows as typed
// on every channel.
package markdown

import (
	"regexp"
	"strings"
	"unicode"
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
// the web chat page (adapters/webchat/static/app.js, which has the same
// expression), so a reply looks the same on every channel. An escaped
// character (group 13) comes first; inside bold, italic, code and link
// text an escaped marker does not end the span.
var inlineRule = regexp.MustCompile(
	`(\\([!-/:-@\[-` + "`" + `{-~]|•))|` + // 1, 2: an escaped character
		`(\*\*((?:\\\S|[^*\\])+)\*\*)|` + // 3, 4: bold
		"(`((?:\\\\\\S|[^`\\\\])+)`)|" + // 5, 6: code
		`(\[((?:\\\S|[^\]\\])+)\]\(([^)\s]+)\))|` + // 7, 8, 9: link
		`((?:https?://|mailto:)[^\s<>()]+[^\s<>().,;:!?'"])|` + // 10: bare link
		`(\*((?:\\\S|[^*\s\\])(?:\\\S|[^*\\])*)\*)|` + // 11, 12: italic
		`(\b_((?:\\\S|[^_\\])+)_\b)`) // 13, 14: italic

// unescapeRule matches one escaped character.
var unescapeRule = regexp.MustCompile(`\\([!-/:-@\[-` + "`" + `{-~]|•)`)

// unescape turns escaped characters back into themselves.
func unescape(s string) string { return unescapeRule.ReplaceAllString(s, "$1") }

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
			out = append(out, span{kind: text, text: group(2)})
		case has(3):
			out = append(out, span{kind: bold, text: unescape(group(4))})
		case has(5):
			out = append(out, span{kind: code, text: unescape(group(6))})
		case has(7):
			if safeHref(group(9)) {
				out = append(out, span{kind: link, text: unescape(group(8)), href: group(9)})
			} else {
				out = append(out, span{kind: text, text: unescape(group(8))})
			}
		case has(10):
			out = append(out, span{kind: link, text: group(10), href: group(10)})
		case has(11):
			out = append(out, span{kind: italic, text: unescape(group(12))})
		default:
			out = append(out, span{kind: italic, text: unescape(group(14))})
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

// slackText escapes text for mrkdwn. mrkdwn has no escape for its
// formatting markers and formats only a marker that opens at a word
// boundary, so a zero-width space goes before each marker that follows
// no letter or digit and is followed by text: a task called *x* shows as typed, and file_name
// keeps its underscores as they are.
func slackText(s string) string {
	s = slackEscaper.Replace(s)
	if !strings.ContainsAny(s, "*_~`") {
		return s
	}
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		opens := i+1 < len(rs) && !unicode.IsSpace(rs[i+1])
		if strings.ContainsRune("*_~`", r) && opens && (i == 0 || !unicode.IsLetter(rs[i-1]) && !unicode.IsDigit(rs[i-1])) {
			b.WriteString("\u200b")
		}
		b.WriteRune(r)
	}
	return b.String()
}

// slackHrefEscaper escapes a link's address for mrkdwn.
var slackHrefEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")

// Slack renders Markdown s as Slack mrkdwn: *bold*, _italic_, `code`,
// <url|text> links, with &, < and > escaped everywhere else.
func Slack(s string) string {
	return render(s, func(b *strings.Builder, sp span) {
		t := slackText(sp.text)
		switch sp.kind {
		case bold:
			b.WriteString("*" + t + "*")
		case italic:
			b.WriteString("_" + t + "_")
		case code:
			b.WriteString("`" + t + "`")
		case link:
			// "|" ends the URL part and cannot be escaped inside it.
			href := slackHrefEscaper.Replace(strings.ReplaceAll(sp.href, "|", "%7C"))
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

// Escape writes text so that it renders as itself: every character that
// could start or end a span (\\ * _ ` [ ]), a bullet marker at the start
// of a line, and the colon of a bare link's "http:", "https:" or
// "mailto:" get a backslash. Replies put user and untrusted text into
// their Markdown through it: Plain(Escape(s)) is s.
func Escape(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 8)
	lineStart := true
	for _, r := range s {
		if lineStart {
			switch r {
			case ' ', '\t', '\f', '\r':
				b.WriteRune(r)
				continue
			case '-', '•':
				b.WriteByte('\\')
			}
			lineStart = false
		}
		switch r {
		case '\\', '*', '_', '`', '[', ']':
			b.WriteByte('\\')
		case ':':
			if o := b.String(); strings.HasSuffix(o, "http") || strings.HasSuffix(o, "https") || strings.HasSuffix(o, "mailto") {
				b.WriteByte('\\')
			}
		case '\n':
			lineStart = true
		}
		b.WriteRune(r)
	}
	return b.String()
}

// EscapeAll escapes each of texts (a list of titles for prose.List).
func EscapeAll(texts []string) []string {
	out := make([]string, len(texts))
	for i, t := range texts {
		out[i] = Escape(t)
	}
	return out
}
