package plan

import (
	"cmp"
	"context"
	"regexp"
	"strings"

	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// EmailEditor is the offline stage.DraftEditor: rules for the edits that
// need no model. It sets the subject ("change the subject to Running
// late"), moves the day or the time ("say Friday instead",
// "make it 4pm", "change Tuesday to Friday"), makes the greeting and
// sign-off more formal ("Dear Sarah," … "Kind regards,") or more casual,
// and drops a sentence ("make it shorter", "drop the last sentence",
// "remove the bit about parking"). Anything else comes back unchanged, and
// the runner asks for the new text.
type EmailEditor struct{}

var _ stage.DraftEditor = EmailEditor{}

// EditDraft applies what the rules understand of the instruction.
func (EmailEditor) EditDraft(_ context.Context, in stage.DraftEdit) (stage.DraftEdited, error) {
	return editDraft(in), nil
}

func editDraft(in stage.DraftEdit) stage.DraftEdited {
	lc := strings.ToLower(strings.TrimSpace(in.Instruction))
	d := in.Draft
	out := stage.DraftEdited{Draft: d}
	var what []string
	if g := reSubject.FindStringSubmatch(strings.TrimSpace(in.Instruction)); g != nil {
		// The new subject is all the instruction says: its words move
		// no day in the text ("change the subject to Friday plans").
		if subject := strings.Trim(strings.TrimSpace(g[1]), `"“”'`); subject != "" && subject != d.Subject {
			d.Subject = subject
			return stage.DraftEdited{Draft: d, Changed: true, What: "changed the subject to “" + markdown.Escape(subject) + "”"}
		}
		return out
	}
	if old, nu, ok := swapWords(lc, dayWord, d.Subject+"\n"+d.Body); ok {
		d.Subject, d.Body = replaceWord(d.Subject, old, nu), replaceWord(d.Body, old, nu)
		what = append(what, "changed "+old+" to "+nu)
	}
	if old, nu, ok := swapWords(lc, clockTime, d.Subject+"\n"+d.Body); ok {
		d.Subject, d.Body = replaceWord(d.Subject, old, nu), replaceWord(d.Body, old, nu)
		what = append(what, "changed "+old+" to "+nu)
	}
	switch {
	case asksCasual(lc):
		if b := casualize(d.Body, in.Style.Greeting, in.Style.SignOff); b != d.Body {
			d.Body = b
			what = append(what, "made it more casual")
		} else if g := splitDraft(d.Body).greeting; g != "" && !strings.HasPrefix(strings.ToLower(g), "dear") {
			out.Already = "casual"
		}
	case asksFormal(lc):
		if b := formalize(d.Body); b != d.Body {
			d.Body = b
			what = append(what, "made it more formal")
		} else if g := splitDraft(d.Body).greeting; strings.HasPrefix(strings.ToLower(g), "dear") {
			// Written in the user's formal style already.
			out.Already = "formal"
		}
	}
	if b, dropped := dropSentence(lc, d.Body); dropped != "" {
		d.Body = b
		what = append(what, "dropped “"+markdown.Escape(strings.TrimRight(dropped, "."))+"”")
	}
	if len(what) == 0 || strings.TrimSpace(d.Body) == "" {
		return out
	}
	return stage.DraftEdited{Draft: d, Changed: true, What: prose.List(what)}
}

var (
	// reSubject reads a new subject: "change the subject to Running
	// late", "subject: Running late".
	reSubject = regexp.MustCompile(`(?i)^(?:please\s+)?(?:(?:change|set|make|update)\s+the\s+subject(?:\s+line)?\s+(?:to|as)|subject(?:\s+line)?\s*:)\s*(.+?)\s*$`)
	dayWord   = regexp.MustCompile(`(?i)\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|today|tonight|tomorrow)\b`)
	clockTime = regexp.MustCompile(`(?i)\b(\d{1,2}(:\d{2})? ?(am|pm)|\d{1,2}:\d{2}|noon|midnight)\b`)
)

// swapWords reads which word of a kind (a day, a time) the instruction
// replaces with which: "change Tuesday to Friday", "Friday instead of
// Tuesday", or just "say Friday instead" when the draft holds exactly one
// such word. ok is false when nothing can be swapped.
func swapWords(instruction string, kind *regexp.Regexp, draft string) (old, nu string, ok bool) {
	said := kind.FindAllString(instruction, -1)
	inDraft := map[string]string{} // lower → as written
	for _, w := range kind.FindAllString(draft, -1) {
		inDraft[normWord(w)] = w
	}
	switch len(said) {
	case 1:
		if len(inDraft) != 1 {
			return "", "", false
		}
		for _, w := range inDraft {
			old = w
		}
		nu = said[0]
	case 2:
		a, b := said[0], said[1]
		// "Friday instead of Tuesday", "Friday not Tuesday", "Friday rather than Tuesday".
		between := instruction[strings.Index(instruction, a)+len(a) : strings.LastIndex(instruction, b)]
		if strings.Contains(between, "instead of") || strings.Contains(between, "not") || strings.Contains(between, "rather than") {
			a, b = b, a
		}
		w, found := inDraft[normWord(a)]
		if !found {
			return "", "", false
		}
		old, nu = w, b
	default:
		return "", "", false
	}
	if normWord(old) == normWord(nu) {
		return "", "", false
	}
	if kind == dayWord && len(nu) > 0 && !isRelativeDay(nu) {
		nu = prose.UpperFirst(strings.ToLower(nu))
	}
	return old, nu, true
}

func normWord(w string) string { return strings.ReplaceAll(strings.ToLower(w), " ", "") }

func isRelativeDay(w string) bool {
	switch strings.ToLower(w) {
	case "today", "tonight", "tomorrow":
		return true
	}
	return false
}

// replaceWord replaces every whole-word old in s with nu, keeping a
// capital at the start of a sentence.
func replaceWord(s, old, nu string) string {
	re := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(old) + `\b`)
	return re.ReplaceAllStringFunc(s, func(m string) string {
		if m != "" && m[0] >= 'A' && m[0] <= 'Z' {
			return prose.UpperFirst(nu)
		}
		return nu
	})
}

func asksFormal(lc string) bool {
	return anyWord(lc, "formal", "formally", "professional", "polite", "politer")
}

func asksCasual(lc string) bool {
	return strings.Contains(lc, "less formal") || strings.Contains(lc, "not so formal") || strings.Contains(lc, "more relaxed") ||
		anyWord(lc, "casual", "informal", "friendlier", "chattier", "warmer")
}

// The parts of a composed email: a greeting line, the text, a sign-off.
var (
	greetingLine = regexp.MustCompile(`(?i)^(hi|hey|hello|hiya|dear|good (morning|afternoon|evening))\b ?([^\n,!]*)[,!]?$`)
	closingLine  = regexp.MustCompile(`(?i)^(cheers|thanks|thank you|many thanks|best|best wishes|all the best|kind regards|best regards|warm regards|regards|yours sincerely|sincerely|yours|take care|love|speak soon|talk soon|see you)[,!.]?$`)
)

// draftParts splits a body into greeting, text paragraphs, and sign-off
// (closing line and name, or "— Name").
type draftParts struct {
	greeting, name string // the greeting line and the name in it
	text           []string
	closing, from  string // the closing line ("Best,") and the name under it
	dash           bool   // signed "— Name"
}

func splitDraft(body string) draftParts {
	var p draftParts
	paras := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n\n")
	if len(paras) > 1 {
		if m := greetingLine.FindStringSubmatch(strings.TrimSpace(paras[0])); m != nil {
			p.greeting, p.name = strings.TrimSpace(paras[0]), strings.TrimSpace(m[3])
			paras = paras[1:]
		}
	}
	if n := len(paras); n > 1 {
		last := strings.TrimSpace(paras[n-1])
		lines := strings.Split(last, "\n")
		switch {
		case strings.HasPrefix(last, "— ") || strings.HasPrefix(last, "- ") || strings.HasPrefix(last, "-- "):
			p.dash, p.from = true, strings.TrimSpace(strings.TrimLeft(last, "—- "))
			paras = paras[:n-1]
		case len(lines) <= 2 && closingLine.MatchString(strings.TrimSpace(lines[0])):
			p.closing = strings.TrimSpace(lines[0])
			if len(lines) == 2 {
				p.from = strings.TrimSpace(lines[1])
			}
			paras = paras[:n-1]
		}
	}
	p.text = paras
	return p
}

func (p draftParts) join() string {
	var parts []string
	if p.greeting != "" {
		parts = append(parts, p.greeting)
	}
	parts = append(parts, p.text...)
	switch {
	case p.dash:
		parts = append(parts, "— "+p.from)
	case p.closing != "" && p.from != "":
		parts = append(parts, p.closing+"\n"+p.from)
	case p.closing != "":
		parts = append(parts, p.closing)
	}
	return strings.Join(parts, "\n\n")
}

var contractions = strings.NewReplacer(
	"I'll", "I will", "I'm", "I am", "I've", "I have", "I'd", "I would",
	"can't", "cannot", "won't", "will not", "don't", "do not", "doesn't", "does not", "didn't", "did not",
	"isn't", "is not", "aren't", "are not", "wasn't", "was not", "couldn't", "could not", "wouldn't", "would not",
	"shouldn't", "should not", "haven't", "have not", "it's", "it is", "It's", "It is", "that's", "that is",
	"That's", "That is", "we're", "we are", "We're", "We are", "you're", "you are", "You're", "You are",
	"we'll", "we will", "We'll", "We will", "let's", "let us", "Let's", "Let us",
)

// formalize turns "Hi Sarah," into "Dear Sarah,", the sign-off into
// "Kind regards," over the name, and spells contractions out.
func formalize(body string) string {
	p := splitDraft(strings.ReplaceAll(body, "’", "'"))
	if p.greeting != "" {
		p.greeting = "Dear " + p.name + ","
		if p.name == "" {
			p.greeting = "Hello,"
		}
	}
	if p.dash || p.closing != "" {
		p.dash, p.closing = false, "Kind regards,"
	}
	for i, t := range p.text {
		p.text[i] = contractions.Replace(t)
	}
	return p.join()
}

// casualize turns "Dear Sarah," into the user's greeting ("Hi Sarah,")
// and a formal closing into theirs ("Cheers,").
func casualize(body, greeting, closing string) string {
	p := splitDraft(body)
	if p.greeting != "" && strings.HasPrefix(strings.ToLower(p.greeting), "dear") {
		p.greeting = emailGreeting([]string{cmp.Or(p.name, "the")}, greeting)
	}
	switch strings.ToLower(strings.TrimRight(p.closing, ",.!")) {
	case "kind regards", "best regards", "regards", "yours sincerely", "sincerely", "warm regards":
		if closing = strings.TrimSpace(closing); closing == "" {
			p.closing, p.dash = "", true
		} else {
			p.closing = closing
		}
	}
	return p.join()
}

// anyWord reports whether lc holds any of ws as a whole word.
func anyWord(lc string, ws ...string) bool {
	for _, w := range ws {
		if words.ContainsWord(lc, w) {
			return true
		}
	}
	return false
}

// ordinals pick the sentence to drop.
var ordinals = map[string]int{"first": 0, "second": 1, "third": 2, "last": -1}

// dropSentence removes the sentence the instruction names: "the last
// sentence", "the bit about parking"; "shorter" drops the last sentence
// when there are several. It returns the body and the dropped sentence
// ("" when nothing was dropped).
func dropSentence(lc, body string) (string, string) {
	p := splitDraft(body)
	var sents []string
	for _, t := range p.text {
		sents = append(sents, sentences(t)...)
	}
	if len(sents) == 0 {
		return body, ""
	}
	drop := -1
	dropVerb := anyWord(lc, "drop", "remove", "delete", "cut", "lose", "skip", "without") || strings.Contains(lc, "take out") || strings.Contains(lc, "leave out") || strings.Contains(lc, "don't mention") || strings.Contains(lc, "do not mention")
	switch {
	case dropVerb && strings.Contains(lc, "sentence"):
		for w, i := range ordinals {
			if words.ContainsWord(lc, w) {
				drop = i
				if i < 0 {
					drop = len(sents) - 1
				}
			}
		}
		if about := afterAbout(lc); about != "" {
			drop = sentenceAbout(sents, about)
		}
	case dropVerb || strings.Contains(lc, "mention"):
		about := afterAbout(lc)
		if about == "" {
			_, rest, ok := strings.Cut(lc, "mention ")
			if !ok {
				return body, ""
			}
			about = rest
		}
		drop = sentenceAbout(sents, about)
	case anyWord(lc, "shorter", "shorten", "concise", "brief", "briefer", "trim") || strings.Contains(lc, "cut it down"):
		if len(sents) > 1 {
			drop = len(sents) - 1
		}
	}
	if drop < 0 || drop >= len(sents) || len(sents) == 1 {
		return body, ""
	}
	dropped := sents[drop]
	// Rebuild the text without it, paragraph by paragraph.
	var text []string
	i := 0
	for _, t := range p.text {
		var kept []string
		for _, s := range sentences(t) {
			if i != drop {
				kept = append(kept, s)
			}
			i++
		}
		if len(kept) > 0 {
			text = append(text, strings.Join(kept, " "))
		}
	}
	p.text = text
	return p.join(), dropped
}

// afterAbout is what follows "about" ("the bit about parking" → "parking").
func afterAbout(lc string) string {
	for _, sep := range []string{" about ", " on ", " mentioning ", " regarding "} {
		if _, rest, ok := strings.Cut(" "+lc, sep); ok {
			return strings.Trim(rest, " .!?\"'“”")
		}
	}
	return ""
}

// sentenceAbout is the index of the one sentence holding every content
// word of about, or -1.
func sentenceAbout(sents []string, about string) int {
	var want []string
	for _, w := range strings.Fields(about) {
		if w = strings.Trim(w, ".,!?\"'“”"); len(w) > 2 && !anyWord(w, "the", "and", "that", "this", "bit", "part", "sentence") {
			want = append(want, w)
		}
	}
	if len(want) == 0 {
		return -1
	}
	hit := -1
	for i, s := range sents {
		ls := strings.ToLower(s)
		all := true
		for _, w := range want {
			if !strings.Contains(ls, w) {
				all = false
				break
			}
		}
		if all {
			if hit >= 0 {
				return -1 // two candidates: ask rather than guess
			}
			hit = i
		}
	}
	return hit
}

// sentences cuts a paragraph after ".", "!" or "?" followed by a space or
// the end.
func sentences(t string) []string {
	var out []string
	start := 0
	for i := 0; i < len(t); i++ {
		if c := t[i]; (c == '.' || c == '!' || c == '?') && (i+1 == len(t) || t[i+1] == ' ' || t[i+1] == '\n') {
			if s := strings.TrimSpace(t[start : i+1]); s != "" {
				out = append(out, s)
			}
			start = i + 1
		}
	}
	if s := strings.TrimSpace(t[start:]); s != "" {
		out = append(out, s)
	}
	return out
}
