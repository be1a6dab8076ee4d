package plan

import (
	"context"
	"net/mail"
	"regexp"
	"slices"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/prose"

	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// planEmail plans one email: "email Sarah that I'll be late", "tell
// Sarah that …", "write to the landlord about the heater" become
// email.send (high risk: the runner stores the draft and asks before
// sending); "draft an email to …" becomes email.draft. The recipient is
// kept as written: the built-in outbox stores names, not addresses.
func planEmail(_ context.Context, in stage.PlanInput) (stage.Plan, error) {
	text, whole := ownText(in, nlu.Email)
	if strings.TrimSpace(text) == "" {
		return stage.Plan{}, nil
	}
	if in.Understanding.Intent != nlu.RequestAction {
		return stage.Plan{Understood: "check your email"}, nil
	}
	to, said, topic := emailParts(text)
	if to == "" && whole {
		to, said = in.Understanding.Slots.Recipient, in.Understanding.Slots.Gist
	}
	p := stage.Plan{Understood: "send an email"}
	if to == "" || isPronoun(to) {
		return p, needDetails("whom to email")
	}
	p.Understood = "email " + to
	if said == "" && topic == "" {
		return p, needDetails("what the email to %s should say", to)
	}
	kind := action.EmailSend
	lc := words.ASCIILower(text)
	if words.ContainsWord(lc, "draft") || words.ContainsWord(lc, "compose") || words.ContainsWord(lc, "prepare") {
		kind = action.EmailDraft
	}
	args := composeEmail(to, said, topic, in.User.DisplayName, in.Context.Style)
	// "Sarah" may be one of several Sarahs Hearth knows: ask, never guess.
	if len(args.To) == 1 {
		switch people := peopleNamed(args.To[0], in.Context.Memories); len(people) {
		case 0:
		case 1:
			args.To = []string{withAddress(people[0], in.Context.Memories)}
		default:
			q := &stage.Question{Text: "Which " + args.To[0] + "?"}
			for _, person := range people {
				pick := args
				pick.To = []string{withAddress(person, in.Context.Memories)}
				a, err := action.New(kind, pick)
				if err != nil {
					return plannedErr(p, err)
				}
				q.Options = append(q.Options, stage.Option{Label: person, Actions: []action.Action{a}})
			}
			p.Question = q
			return p, nil
		}
	}
	a, err := action.New(kind, args)
	if err != nil {
		return plannedErr(p, err)
	}
	p.Actions = []action.Action{a}
	return p, nil
}

// peopleNamed returns the full names, among what the memories are about,
// that the name the user gave can stand for: "Sarah" → "Sarah Kim",
// "Sarah Lopez". A name that is already full matches only itself.
func peopleNamed(name string, memories []hearth.Memory) []string {
	want := strings.Fields(words.ASCIILower(name))
	if len(want) == 0 {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, m := range memories {
		have := strings.Fields(m.About)
		if len(have) < len(want) || seen[words.ASCIILower(m.About)] {
			continue
		}
		match := true
		for i, w := range want {
			if words.ASCIILower(have[i]) != w {
				match = false
				break
			}
		}
		if match {
			seen[words.ASCIILower(m.About)] = true
			out = append(out, strings.Join(have, " "))
		}
	}
	slices.Sort(out)
	return out
}

// emailAddress finds an address written in a remembered fact.
var emailAddress = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}`)

// withAddress adds to a person's name the email address the user told
// Hearth for them ("Sarah Kim's email is sarah@example.com" → "Sarah Kim
// <sarah@example.com>"), so a mail provider that transmits can; the name
// alone when no single address is known.
func withAddress(person string, memories []hearth.Memory) string {
	var found []string
	for _, m := range memories {
		if !strings.EqualFold(strings.TrimSpace(m.About), person) {
			continue
		}
		for _, a := range emailAddress.FindAllString(m.Content, -1) {
			a = strings.TrimRight(a, ".")
			if !slices.ContainsFunc(found, func(f string) bool { return strings.EqualFold(f, a) }) {
				found = append(found, a)
			}
		}
	}
	if len(found) != 1 {
		return person
	}
	if plainName.MatchString(person) {
		return person + " <" + found[0] + ">"
	}
	return (&mail.Address{Name: person, Address: found[0]}).String()
}

// plainName is a display name that needs no quoting in an address.
var plainName = regexp.MustCompile(`^\pL[\pL '-]*$`)

// emailParts reads the recipient and either what to say ("that I'll be
// late") or what it is about ("about the heater").
func emailParts(text string) (to, said, topic string) {
	rest, trig, ok := words.AfterAny(text, "send an email to ", "send a mail to ", "send an e-mail to ", "write an email to ", "write an e-mail to ", "draft an email to ", "draft a message to ", "draft a reply to ", "compose an email to ", "shoot an email to ", "drop an email to ", "send a message to ", "write a message to ", "drop a line to ", "send a note to ", "write to ", "email ", "e-mail ", "mail ", "message ", "tell ", "let ")
	if !ok {
		return "", "", ""
	}
	who, what, sep := words.CutSep(rest, "that ", "saying ", "to say ", "and say ", "and tell him ", "and tell her ", "and tell them ", "telling ", "know that ", "know ", "about ", "regarding ", "re: ", "re ", "to ask ", "asking ", ":", ",")
	if trig == "let " && !strings.HasPrefix(sep, "know") {
		return "", "", "" // "let's …" is not a message to anyone
	}
	who = words.TidySlot(words.TrimWordsLeft(who, "an email to", "a message to", "to"))
	what = words.TidySlot(what)
	switch sep {
	case "":
		return who, "", ""
	case "about ", "regarding ", "re: ", "re ":
		return who, "", what
	case "to ask ", "asking ":
		return who, "I wanted to ask " + what, ""
	}
	return who, what, ""
}

// composeEmail writes a short email: a greeting by name, what the user
// wants said as a sentence, and their name, with the greeting and
// sign-off of the user's style when it has them.
func composeEmail(to, said, topic, from string, style hearth.MailStyle) action.EmailArgs {
	var rcpts []string
	for _, r := range strings.FieldsFunc(strings.ReplaceAll(strings.ReplaceAll(to, " and ", ","), " & ", ","), func(r rune) bool { return r == ',' }) {
		if r = words.TidySlot(r); r != "" {
			rcpts = append(rcpts, r)
		}
	}
	if len(rcpts) == 0 {
		rcpts = []string{to}
	}
	subject := said
	body := words.AsSentence(said)
	if said == "" {
		subject = topic
		body = words.AsSentence("I wanted to get in touch about " + topic)
	}
	subject = prose.UpperFirst(words.TidySlot(words.FirstWords(words.TidySlot(subject), 6)))
	var b strings.Builder
	b.WriteString(emailGreeting(rcpts, style.Greeting))
	b.WriteString("\n\n")
	b.WriteString(body)
	if sign := signOff(style.SignOff, from); sign != "" {
		b.WriteString("\n\n")
		b.WriteString(sign)
	}
	return action.EmailArgs{To: rcpts, Subject: subject, Body: b.String()}
}

// signOff is the closing of an email: the style's line and the name
// ("Best,\nAnn"), or "— Ann" by default.
func signOff(line, from string) string {
	line = strings.TrimSpace(line)
	switch {
	case line == "" && from == "":
		return ""
	case line == "":
		return "— " + from
	case from == "":
		return line
	}
	return line + "\n" + from
}

// emailGreeting is the greeting template ("Hi {name},", the default)
// filled with the names of people and family words ("Hi Sarah,"); without
// names ("the landlord") the name is left out ("Hi,").
func emailGreeting(rcpts []string, template string) string {
	if template = strings.TrimSpace(template); template == "" {
		template = "Hi {name},"
	}
	var names []string
	for _, r := range rcpts {
		if name, _, ok := strings.Cut(r, "<"); ok && strings.TrimSpace(name) != "" {
			r = strings.Trim(strings.TrimSpace(name), `"`) // "Sarah Kim <sarah@example.com>"
		}
		lr := strings.ToLower(r)
		switch {
		case strings.Contains(r, "@"):
		case strings.HasPrefix(lr, "the ") || strings.HasPrefix(lr, "my ") && !isKin(lr[3:]):
		case isKin(strings.TrimPrefix(lr, "my ")):
			names = append(names, prose.UpperFirst(strings.TrimPrefix(lr, "my ")))
		case r[0] >= 'A' && r[0] <= 'Z':
			names = append(names, r)
		}
	}
	if !strings.Contains(template, "{name}") {
		return template
	}
	if len(names) == 0 || len(names) != len(rcpts) {
		g := strings.ReplaceAll(template, "{name}", "")
		g = strings.Join(strings.Fields(g), " ")
		return strings.ReplaceAll(strings.ReplaceAll(g, " ,", ","), " !", "!")
	}
	return strings.ReplaceAll(template, "{name}", prose.List(names))
}

func isKin(w string) bool {
	switch w {
	case "mom", "mum", "dad", "mother", "father", "grandma", "grandpa", "sis", "bro":
		return true
	}
	return false
}
