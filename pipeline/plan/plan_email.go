package plan

import (
	"cmp"
	"context"
	"net/mail"
	"slices"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
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
	if words.StartsWithAny(words.StripPoliteness(words.ASCIILower(strings.TrimSpace(text))), "remind me ", "reminder to ", "don't let me forget ", "dont let me forget ") {
		// "Remind me to reply to Anna's email tomorrow": a to-do about
		// an email, the task planner's; no email to write now.
		return stage.Plan{}, nil
	}
	if d, ok := nlu.ReadDraftRef(text); ok {
		// "Send the email to Sam" with no draft to Sam saved: a new
		// one, whose words are asked for below.
		if p, err := planDrafts(in, d); !d.Maybe || len(p.Actions) > 0 || p.Question != nil {
			return p, err
		}
	}
	if who, said, ok := replyParts(text); ok {
		return planReply(in, who, said)
	}
	to, said, topic := emailParts(text)
	if to == "" && whole {
		to, said = in.Understanding.Slots.Recipient, in.Understanding.Slots.Gist
	}
	p := stage.Plan{Understood: "send an email"}
	if to == "" || IsPronoun(to) {
		return p, needDetails("whom to email")
	}
	p.Understood = "email " + to
	if said == "" && topic == "" {
		// "Email Sam": what it should say is asked, and the answer
		// finishes the request ("… saying I'll be late").
		return askRest(p, "What should the email to "+markdown.Escape(words.LowerLead(prose.SecondPerson(to)))+" say?", text, "saying")
	}
	kind := action.EmailSend
	lc := words.ASCIILower(text)
	if words.ContainsWord(lc, "draft") || words.ContainsWord(lc, "compose") || words.ContainsWord(lc, "prepare") {
		kind = action.EmailDraft
	}
	args := composeEmail(to, said, topic, in.User.DisplayName, in.Context.Style)
	// Mail goes to addresses, never to a bare name: each recipient the
	// user named is an address already, a person Hearth knows with an
	// email address, or (when memory has no address) an entry of the
	// user's address book. Two people by that name → a question with
	// buttons; no address known → Hearth asks for it, and the answer
	// sends the email (and is remembered).
	var addrs []string
	// remember are the addresses taken from the address book, each to be
	// remembered as its person's email, so that memory answers next time
	// without asking Google (and the reply says so, once).
	var remember []action.Action
	for _, name := range args.To {
		if addr, ok := EmailAddress(name); ok {
			addrs = append(addrs, addr)
			continue
		}
		people := recipients(name, in.Context)
		withAddr := slices.DeleteFunc(slices.Clone(people), func(r recipient) bool { return r.addr == "" })
		var known []recipient // memory's people, when the address book stands in
		if len(withAddr) == 0 {
			// No address in memory: the user's address book's, if any.
			if book := bookRecipients(name, in.Context); len(book) > 0 {
				known, people, withAddr = people, book, book
			}
		}
		switch {
		case len(people) > 1 && len(withAddr) > 0 && len(args.To) == 1:
			q := &stage.Question{Text: "Which " + name + "?"}
			for _, r := range withAddr {
				pick := args
				pick.To = []string{r.address()}
				a, err := action.New(kind, pick)
				if err != nil {
					return plannedErr(p, err)
				}
				acts := []action.Action{a}
				if r.book {
					m, err := rememberAddress(name, r, known)
					if err != nil {
						return plannedErr(p, err)
					}
					acts = []action.Action{m, a}
				}
				q.Options = append(q.Options, stage.Option{Label: r.address(), Actions: acts})
			}
			p.Question = q
			return p, nil
		case len(people) == 1 && people[0].addr != "":
			addrs = append(addrs, people[0].address())
			if people[0].book {
				m, err := rememberAddress(name, people[0], known)
				if err != nil {
					return plannedErr(p, err)
				}
				remember = append(remember, m)
			}
		case len(args.To) == 1:
			who := name
			if len(people) == 1 {
				who = people[0].name
			}
			f, err := stage.NewFill(stage.FillEmail, who, kind, args)
			if err != nil {
				return plannedErr(p, err)
			}
			p.Question = &stage.Question{Text: "I don't have an email address for " + markdown.Escape(words.LowerLead(prose.SecondPerson(who))) + " yet. What is it? I'll remember it and write the email.", Fill: f}
			return p, nil
		case len(people) > 1:
			return p, needDetails("which %s to email: say their full name", name)
		default:
			return p, needDetails("an email address for %s: tell me “%s's email is …” first", name, name)
		}
	}
	args.To = addrs
	a, err := action.New(kind, args)
	if err != nil {
		return plannedErr(p, err)
	}
	p.Actions = append(remember, a)
	return p, nil
}

// rememberAddress is the memory of an address the user's address book
// gave for name: the person's email attribute, as "Dana's email is …"
// stores it. The person is the one memory knows by that name when there
// is exactly one (who had no address), else the contact's own name, else
// the name as written.
func rememberAddress(name string, r recipient, known []recipient) (action.Action, error) {
	who := cmp.Or(r.name, name)
	if len(known) == 1 {
		who = known[0].name
	}
	return rememberEmail(who, r.addr)
}

// rememberEmail is the memory that who's email is addr: the person's
// email attribute, which recipients reads.
func rememberEmail(who, addr string) (action.Action, error) {
	return action.New(action.MemoryStore, action.MemoryStoreArgs{
		Content: who + "'s email is " + addr, About: who, Category: hearth.MemoryPersonal, Tier: hearth.TierPersonal,
		Entity: &action.EntityArgs{Name: who, Kind: hearth.EntityPerson}, Attribute: hearth.AttrEmail, Value: addr,
	})
}

// recipient is a person an email can go to, with their current address
// ("" when Hearth has none); book when the address came from the user's
// address book rather than memory.
type recipient struct {
	name, addr string
	book       bool
}

// address is the recipient as an email header writes them: "Sarah Kim
// <sarah@example.com>".
func (r recipient) address() string { return NameAddress(r.name, r.addr) }

// NameAddress writes a recipient as "Sarah Kim <sarah@example.com>",
// quoting the name only when an email header must.
func NameAddress(name, addr string) string {
	if name == "" {
		return addr
	}
	if plain := name + " <" + addr + ">"; !strings.ContainsAny(name, `"<>,;:@\()[]`) {
		if a, err := mail.ParseAddress(plain); err == nil && a.Name == name {
			return plain
		}
	}
	return (&mail.Address{Name: name, Address: addr}).String()
}

// recipients are the people Hearth knows that name can stand for
// ("Sarah" → Sarah Kim, Sarah Lopez; "my brother" → Jon), each with the
// newest current email address the context holds for them.
func recipients(name string, c stage.Context) []recipient {
	var out []recipient
	for _, e := range c.Entities {
		if !entityNamed(e, name) {
			continue
		}
		r := recipient{name: e.Name}
		for _, m := range c.Memories {
			if m.EntityID == e.ID && m.Attribute == hearth.AttrEmail && m.Value != "" && m.SupersededBy == 0 {
				if _, ok := EmailAddress(m.Value); ok {
					r.addr = m.Value
					break
				}
			}
		}
		out = append(out, r)
	}
	return out
}

// bookRecipients are the address book's entries found for name (see
// stage.Context.Contacts), each a recipient with an address.
func bookRecipients(name string, c stage.Context) []recipient {
	var out []recipient
	for _, e := range c.Contacts[strings.ToLower(strings.TrimSpace(name))] {
		if _, ok := EmailAddress(e.Email); ok {
			out = append(out, recipient{name: e.Name, addr: e.Email, book: true})
		}
	}
	return out
}

// entityNamed reports whether name can stand for e: its name or an alias,
// or the first words of its name ("Sarah" for "Sarah Kim").
func entityNamed(e hearth.Entity, name string) bool {
	for _, n := range append([]string{e.Name}, e.Aliases...) {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	want, have := strings.Fields(words.ASCIILower(name)), strings.Fields(words.ASCIILower(e.Name))
	return len(want) > 0 && len(have) >= len(want) && slices.Equal(have[:len(want)], want)
}

// Recipient is whom an email request is for, as written ("Sarah", "my
// brother and Jon"), or "".
func Recipient(text string) string {
	to, _, _ := emailParts(text)
	return to
}

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
	if sep == "" {
		// "Tell mum I'll be late": what to say starts with its subject.
		f := strings.Fields(who)
		for i := 1; i < len(f); i++ {
			if saidSubjects[strings.ToLower(strings.NewReplacer("’", "'").Replace(f[i]))] {
				who, what, sep = strings.Join(f[:i], " "), strings.Join(f[i:], " "), "that "
				break
			}
		}
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

// saidSubjects start what a message says when nothing marks where the
// recipient ends ("tell mum I'll be late", "email Sam we're on our way").
var saidSubjects = map[string]bool{
	"i": true, "i'll": true, "i'm": true, "i've": true, "i'd": true, "ill": true, "im": true, "ive": true,
	"we": true, "we'll": true, "we're": true, "we've": true, "we'd": true,
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
