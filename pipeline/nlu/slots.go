package nlu

import (
	"regexp"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/hearthbot/hearth/pipeline/nlu/timex"
)

// Slots are the pieces of a message the action stage needs. Every field
// is optional; text fields keep the user's own spelling and case (the
// caller capitalises a title if it wants to).
type Slots struct {
	// Title is what a task or event is called: "call mom" for "Remind me
	// to call mom tomorrow at 5pm", "dentist appointment" for "add a
	// dentist appointment on Friday".
	Title string
	// When is the date or time span the message names ("tomorrow at
	// 5pm"), resolved against the reference instant; nil if none. Its
	// text is stripped from Title.
	When *timex.Match
	// People are the people the message names: capitalised names
	// ("Sarah", "Sarah Lee") and family words ("mom", "my wife").
	People []string
	// Recipient is who an email is for ("Sarah" in "Email Sarah that …").
	Recipient string
	// Gist is what an email should say or be about ("I'll be late").
	Gist string
	// Note is the text of a note or the item for a list ("milk").
	Note string
	// List is the list an item goes on ("shopping list").
	List string
	// Fact is what to remember ("John's birthday is March 15th").
	Fact string
	// Option is the 1-based choice a followup picks out of the previous
	// bot turn's options ("the first one" → 1, "2" → 2), 0 if none.
	Option int
}

// maxSlotBytes caps how much of a message the slot extractors read. The
// patterns they look for ("remind me to …", "email X that …") start a
// message; reading further would only cost time on pasted text.
const maxSlotBytes = 1024

// extractSlots fills the slots for a classified message. It splits the
// message into clauses ("I just closed on my house! Add a dinner
// Saturday") and lets each clause fill the slots its words call for; the
// first value found for a slot wins.
func extractSlots(text string, tokens []string, res Result, ctx botContext, ref time.Time) Slots {
	var s Slots
	if res.Intent == Followup && ctx.open {
		s.Option = pickOption(text, tokens, ctx.options)
	}
	if len(text) > maxSlotBytes {
		text = text[:maxSlotBytes]
	}
	s.People = people(text)
	if res.Intent != RequestAction && res.Intent != AskInfo {
		return s
	}
	has := func(d Domain) bool {
		for _, x := range res.Domains {
			if x == d {
				return true
			}
		}
		return false
	}
	for _, cl := range requestClauses(text) {
		lc := lowerASCII(cl)
		if res.Intent == RequestAction {
			if s.Fact == "" && has(Memory) {
				s.Fact = fact(cl, lc)
			}
			if s.Recipient == "" && has(Email) {
				s.Recipient, s.Gist = email(cl, lc)
			}
			if s.Note == "" && has(Keep) {
				s.Note, s.List = note(cl, lc)
			}
			if s.Title == "" && has(Task) {
				s.Title = taskTitle(cl, lc)
			}
			if s.Title == "" && has(Calendar) {
				s.Title = eventTitle(cl, lc)
			}
		}
	}
	if s.Recipient != "" && !containsFold(s.People, s.Recipient) {
		s.People = append(s.People, s.Recipient)
	}
	if mayHaveTime(tokens) {
		if m, ok := timex.Parse(text[:wordCut(text, maxTimeBytes)], ref, timex.Options{}); ok {
			s.When = &m
			if s.Title != "" {
				s.Title = StripTimes(s.Title, ref)
			}
		}
	}
	return s
}

// Clauses splits text at sentence ends ("." or "?" before a space, "!",
// ";", new lines) and at ", and", so each clause can be read on its own.
// "5.30" is not split.
func Clauses(text string) []string {
	var out []string
	start := 0
	for i := 0; i < len(text); i++ {
		c := text[i]
		end := -1
		next := i + 1
		switch {
		case c == '!' || c == ';' || c == '\n':
			end = i
		case c == '.' || c == '?':
			// A full stop followed by a space ends a sentence; "5.30" does not.
			if i+1 == len(text) || text[i+1] == ' ' {
				end = i
			}
		case c == ',' && strings.HasPrefix(lowerASCII(text[i:min(len(text), i+6)]), ", and "):
			end, next = i, i+6
		}
		if end >= 0 {
			if cl := strings.TrimSpace(text[start:end]); cl != "" {
				out = append(out, cl)
			}
			start = next
			i = next - 1
		}
	}
	if cl := strings.TrimSpace(text[start:]); cl != "" {
		out = append(out, cl)
	}
	return out
}

// requestClauses splits text into clauses and splits each clause again
// before "and" when a command follows ("add milk to my list and remind me
// to call mom").
func requestClauses(text string) []string {
	var out []string
	for _, cl := range Clauses(text) {
		for {
			lc := lowerASCII(cl)
			cut := -1
			for off := 0; ; {
				i := wordIndex(lc[off:], "and ")
				if i < 0 {
					break
				}
				i += off
				rest := strings.TrimPrefix(lc[i+4:], "also ")
				if i > 0 && isRequestVerb(rest) {
					cut = i
					break
				}
				off = i + 4
			}
			if cut < 0 {
				break
			}
			out = append(out, strings.TrimSpace(cl[:cut]))
			cl = strings.TrimPrefix(strings.TrimSpace(cl[cut+4:]), "also ")
		}
		out = append(out, cl)
	}
	return out
}

// lowerASCII lower-cases ASCII letters only, so byte offsets in the
// result are offsets in the original.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// after returns the part of s (original case) following the first of the
// triggers found at a word start in lc (s lower-cased), and whether one
// was found.
func after(s, lc string, triggers ...string) (string, bool) {
	for _, t := range triggers {
		i := wordIndex(lc, t)
		if i >= 0 {
			return strings.TrimSpace(s[i+len(t):]), true
		}
	}
	return "", false
}

// wordIndex finds t in s where it starts a word.
func wordIndex(s, t string) int {
	off := 0
	for {
		i := strings.Index(s[off:], t)
		if i < 0 {
			return -1
		}
		i += off
		if i == 0 || !isWordByte(s[i-1]) {
			return i
		}
		off = i + 1
	}
}

func isWordByte(c byte) bool {
	return c == '\'' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// cutAt cuts s at the first of the separators (matched at a word start,
// case-insensitively) and returns the part before and the part after.
func cutAt(s string, seps ...string) (before, rest, sep string) {
	lc := lowerASCII(s)
	best := -1
	for _, p := range seps {
		if i := wordIndex(lc, p); i >= 0 && (best < 0 || i < best) {
			best, sep = i, p
		}
	}
	if best < 0 {
		return s, "", ""
	}
	return strings.TrimSpace(s[:best]), strings.TrimSpace(s[best+len(sep):]), sep
}

// tidy trims punctuation, politeness and a leading article off a slot.
func tidy(s string) string {
	s = strings.TrimSpace(s)
	for {
		old := s
		s = strings.TrimRight(s, " .!?,;:")
		s = strings.TrimLeft(s, " :,-–—")
		lc := lowerASCII(s)
		for _, suf := range []string{" please", " pls", " thanks", " thank you", " for me"} {
			if strings.HasSuffix(lc, suf) {
				s = s[:len(s)-len(suf)]
				lc = lc[:len(lc)-len(suf)]
			}
		}
		for _, pre := range []string{"please ", "to ", "that "} {
			if strings.HasPrefix(lc, pre) {
				s = s[len(pre):]
				lc = lc[len(pre):]
			}
		}
		if s == old {
			return s
		}
	}
}

// maxTimeBytes caps how much of a message the date parser reads: the time
// of a request is said in its first sentences, and parsing is the most
// expensive step of Classify.
const maxTimeBytes = 256

// wordCut returns a length no greater than n that does not split a word.
func wordCut(s string, n int) int {
	if len(s) <= n {
		return len(s)
	}
	for i := n; i > 0; i-- {
		if s[i] == ' ' {
			return i
		}
	}
	return n
}

// timeWords are the tokens without which a message names no date or
// time; a message with none of them (and no number) skips the parser.
var timeWords = map[string]bool{
	"0": true, "today": true, "tomorrow": true, "tonight": true, "yesterday": true, "tmrw": true, "tmr": true,
	"now": true, "later": true, "soon": true, "noon": true, "midnight": true, "morning": true, "afternoon": true,
	"evening": true, "night": true, "weekend": true, "week": true, "weeks": true, "month": true, "months": true,
	"year": true, "years": true, "day": true, "days": true, "hour": true, "hours": true, "minute": true, "minutes": true,
	"christmas": true, "easter": true, "thanksgiving": true, "halloween": true,
	"eod": true, "eow": true, "one": true, "two": true, "three": true, "four": true, "five": true, "six": true,
	"seven": true, "eight": true, "nine": true, "ten": true, "eleven": true, "twelve": true, "half": true, "quarter": true,
}

func mayHaveTime(tokens []string) bool {
	for _, t := range tokens {
		if timeWords[t] || isDateName(t) {
			return true
		}
	}
	return false
}

// StripTimes removes the date and time expressions (as timex finds them
// relative to ref) from a title, and the prepositions they leave dangling:
// "call mom tomorrow at 5pm" → "call mom". A title that was only its time
// ("tomorrow", "at 5pm") leaves nothing: "remind me tomorrow" has no title.
func StripTimes(title string, ref time.Time) string {
	ms := timex.Find(title, ref, timex.Options{})
	if len(ms) == 0 {
		return title
	}
	var b strings.Builder
	last := 0
	for _, m := range ms {
		if m.Start < last || m.End > len(title) {
			continue
		}
		b.WriteString(title[last:m.Start])
		b.WriteByte(' ')
		last = m.End
	}
	b.WriteString(title[last:])
	out := strings.Join(strings.Fields(b.String()), " ")
	for {
		lc := lowerASCII(out)
		trimmed := false
		for _, w := range []string{" on", " at", " by", " for", " in", " from", " until", " this", " next", " every"} {
			if strings.HasSuffix(lc, w) {
				out, trimmed = out[:len(out)-len(w)], true
				break
			}
		}
		if !trimmed {
			break
		}
	}
	return tidy(out)
}

// fact reads what to remember: "remember that X", "note that X",
// "don't forget that X", "fyi X"; a clause that is itself a statement of
// fact ("my sister's name is Anna") is the fact.
func fact(cl, lc string) string {
	if f, ok := after(cl, lc, "remember that ", "don't forget that ", "dont forget that ", "keep in mind that ", "note that ", "note: ", "make a mental note that ", "for future reference ", "for the record ", "fyi ", "just so you know ", "remember ", "keep in mind "); ok {
		return tidy(f)
	}
	if isRequestVerb(lc) {
		return ""
	}
	return tidy(cl)
}

// isRequestVerb reports whether a clause starts with a command, which is
// not itself a fact to remember.
func isRequestVerb(lc string) bool {
	lc = strings.TrimPrefix(lc, "please ")
	lc = strings.TrimPrefix(lc, "can you ")
	lc = strings.TrimPrefix(lc, "could you ")
	for _, v := range []string{"add ", "put ", "remind ", "schedule ", "book ", "email ", "send ", "set ", "make ", "create ", "cancel ", "delete ", "remove ", "move ", "write ", "take ", "tell ", "reply ", "forward ", "invite ", "clear ", "mark ", "note ", "jot ", "block ", "forget ", "update ", "change "} {
		if strings.HasPrefix(lc, v) {
			return true
		}
	}
	return false
}

// email reads "email Sarah that I'll be late", "send an email to Sarah
// saying …", "write to the landlord about the heater".
func email(cl, lc string) (recipient, gist string) {
	rest, ok := after(cl, lc, "send an email to ", "send a mail to ", "write an email to ", "send an e-mail to ", "shoot an email to ", "drop an email to ", "draft an email to ", "send a message to ", "write a message to ", "drop a line to ", "reply to ", "respond to ", "write back to ", "write to ", "e-mail ", "email ", "mail ", "message ")
	if !ok {
		return "", ""
	}
	who, what, _ := cutAt(rest, "that ", "saying ", "to say ", "and say ", "and tell him ", "and tell her ", "and tell them ", "about ", "regarding ", "re ", ":", ", ")
	return tidy(who), tidy(what)
}

// note reads "add milk to my shopping list" (note "milk", list
// "shopping list") and "make a note: call the vet" (note "call the vet").
func note(cl, lc string) (text, list string) {
	if rest, ok := after(cl, lc, "add ", "put ", "throw ", "stick ", "include ", "pop "); ok {
		item, l, sep := cutAt(rest, "to my ", "on my ", "onto my ", "in my ", "to the ", "on the ", "to our ", "on our ")
		if sep != "" && strings.Contains(lowerASCII(l), "list") || strings.Contains(lowerASCII(l), "groceries") {
			return tidy(item), tidy(l)
		}
	}
	if rest, ok := after(cl, lc, "note to self", "memo to self", "make a note", "take a note", "write a note", "save a note", "quick note", "jot down", "write down", "jot this down", "write this down"); ok {
		return tidy(strings.TrimLeft(trimWords(rest, "that", "about", "saying", "of"), ":,- ")), ""
	}
	return "", ""
}

// trimWords drops one of the given leading words from s.
func trimWords(s string, words ...string) string {
	lc := lowerASCII(s)
	for _, w := range words {
		if strings.HasPrefix(lc, w+" ") {
			return strings.TrimSpace(s[len(w)+1:])
		}
	}
	return s
}

// taskTitle reads "remind me to call mom …", "add call the bank to my
// to-do list", "set a reminder to …".
func taskTitle(cl, lc string) string {
	if rest, ok := after(cl, lc, "remind me to ", "reminder to ", "don't let me forget to ", "dont let me forget to ", "don't forget to ", "task to "); ok {
		// All of the rest: "tell Ben to take out the trash" keeps its "to".
		return tidy(rest)
	}
	if rest, ok := after(cl, lc, "remind me about ", "reminder about ", "reminder for ", "alarm for ", "alarm at ", "remind me "); ok {
		// "remind me tomorrow at 5 to call mom": the title follows "to".
		if _, title, sep := cutAt(rest, "to "); sep != "" && !strings.HasPrefix(lowerASCII(rest), "to ") {
			return tidy(title)
		}
		return tidy(rest)
	}
	if rest, ok := after(cl, lc, "add ", "put ", "mark ", "check off ", "cross off ", "tick off "); ok {
		item, _, _ := cutAt(rest, "to my ", "on my ", "as done", "as complete", "off my ", "from my ")
		return tidy(item)
	}
	if rest, ok := after(cl, lc, IntentionCues...); ok {
		item, _, _ := cutAt(rest, ", remind", " remind", ", can you", ", add it", ", put it")
		return tidy(item)
	}
	return ""
}

// IntentionCues start a to-do told as what one means to do: "I need to
// renew my passport", "I'm going to call mum tomorrow". What follows is
// the task's title, for the slot reader and the task planner alike.
var IntentionCues = []string{"i need to ", "i have to ", "i must ", "i gotta ", "i should ", "i'm going to ", "im going to ", "i am going to ", "i'm gonna ", "we need to ", "we have to "}

// eventTitle reads "schedule lunch with Carlos on Friday", "add a
// dentist appointment to my calendar".
func eventTitle(cl, lc string) string {
	rest, ok := after(cl, lc, "schedule ", "book ", "set up ", "add ", "put ", "create ", "plan ", "arrange ", "organize ", "block out ", "pencil in ", "move ", "reschedule ", "cancel ")
	if !ok {
		return ""
	}
	title := rest
	if i, _, ok := CalendarNamed(rest); ok {
		title = strings.TrimSpace(rest[:i])
	}
	return tidy(trimWords(title, "a", "an", "the", "my", "our"))
}

// reOnCalendar finds where a request names the calendar, which is not
// the event's title: "on my calendar", "to the family calendar", "in our
// shared calendar", "on my schedule".
var reOnCalendar = regexp.MustCompile(`(?i)\b(?:on|to|in|into|onto)\s+(?:my|the|our)\s+(?:[\w'’-]+\s+)?(?:calendar|schedule|diary)\b`)

// CalendarNamed returns where in s a request names the calendar the event
// goes on ("… on the family calendar …"): s[start:end], ok when it does.
func CalendarNamed(s string) (start, end int, ok bool) {
	loc := reOnCalendar.FindStringIndex(s)
	if loc == nil {
		return 0, 0, false
	}
	return loc[0], loc[1], true
}

// nameStop are capitalised words that are not people.
var nameStop = map[string]bool{
	"I": true, "I'm": true, "I'll": true, "I've": true, "I'd": true, "OK": true, "Ok": true,
	"Hearth": true, "Google": true, "Gmail": true, "Keep": true, "Slack": true, "Telegram": true, "Christmas": true,
	"Thanksgiving": true, "Easter": true, "AM": true, "PM": true, "Dr": false,
	// Question words open a sentence and read like possessives ("What's
	// my sister's name?"), but they never name anyone.
	"What": true, "When": true, "Where": true, "Who": true, "Whose": true, "Which": true, "How": true,
	"Why": true, "That": true, "There": true, "Here": true, "It": true, "Let": true, "Today": true, "Tomorrow": true,
}

// kin are family words that name a person.
var kin = map[string]bool{
	"mom": true, "mum": true, "dad": true, "grandma": true, "grandpa": true, "mother": true, "father": true,
	"wife": true, "husband": true, "sister": true, "brother": true, "son": true, "daughter": true,
	"aunt": true, "uncle": true, "cousin": true, "boss": true, "partner": true,
}

// people finds capitalised names not at the start of a sentence (a
// sentence's first word is capitalised anyway; "John's" there still
// counts) and family words ("mom", "my wife").
func people(text string) []string {
	var out []string
	words := strings.Fields(text)
	sentenceStart := true
	for i := 0; i < len(words); i++ {
		w := strings.Trim(words[i], "\"()[]“”")
		core := strings.TrimRight(w, ".,!?;:")
		ends := core != w && strings.ContainsAny(w[len(core):], ".!?")
		poss := strings.HasSuffix(core, "'s") || strings.HasSuffix(core, "’s")
		base := strings.TrimSuffix(strings.TrimSuffix(core, "'s"), "’s")
		r, _ := utf8.DecodeRuneInString(base)
		lcBase := strings.ToLower(base)
		switch {
		case kin[lcBase]:
			name := lcBase
			if i > 0 && strings.EqualFold(words[i-1], "my") {
				name = "my " + lcBase
			}
			if !containsFold(out, name) {
				out = append(out, name)
			}
		case unicode.IsUpper(r) && len(base) > 1 && !nameStop[base] && !timex.FullDateName(base) && (!sentenceStart || poss):
			name := base
			// Join following capitalised words: "Sarah Lee".
			for !ends && !poss && i+1 < len(words) {
				nw := strings.TrimRight(words[i+1], ".,!?;:")
				nr, _ := utf8.DecodeRuneInString(nw)
				if !unicode.IsUpper(nr) || nameStop[nw] || timex.FullDateName(nw) || len(nw) < 2 {
					break
				}
				ends = nw != words[i+1]
				name += " " + strings.TrimSuffix(nw, "'s")
				i++
			}
			if !containsFold(out, name) {
				out = append(out, name)
			}
		}
		sentenceStart = ends
	}
	return out
}

func containsFold(xs []string, s string) bool {
	for _, x := range xs {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// isDateName reports a month or weekday name, full or abbreviated.
func isDateName(w string) bool {
	if _, ok := timex.MonthNamed(w); ok {
		return true
	}
	_, ok := timex.WeekdayNamed(w)
	return ok
}

// OnlyTime reports a message that is only a time or a date ("tomorrow at
// 5", "on Saturday", "make it Friday"): said right after a reply about a
// task or an event, it is when that item is.
func OnlyTime(text string, ref time.Time) bool {
	t := strings.Trim(strings.TrimSpace(text), ".!")
	if t == "" || len(timex.Find(t, ref, timex.Options{})) == 0 {
		return false
	}
	rest := " " + lowerASCII(StripTimes(t, ref)) + " "
	for _, w := range []string{" make it ", " it's ", " its ", " at ", " on ", " for ", " by ", " this ", " next "} {
		rest = strings.ReplaceAll(rest, w, " ")
	}
	return strings.TrimSpace(rest) == ""
}
