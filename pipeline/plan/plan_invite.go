package plan

import (
	"net/mail"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/words"
)

// reInvite reads "invite Sam to the dentist appointment", "add Priya and
// sam@example.com to my team lunch on Friday": who, then the event.
var reInvite = regexp.MustCompile(`(?i)^(?:add|invite)\s+(.+?)\s+to\s+(.+?)[.!]*$`)

// notEvents are what "add … to …" names that is no event: "add lunch
// with Sam to my calendar" makes one, "add Sam to the shopping list" is
// a list's.
var notEvents = []string{"calendar", "diary", "schedule", "agenda", "list", "shopping", "groceries", "to-do", "todo", "tasks", "notes", "note", "contacts", "address book", "family"}

// onDayNamed reports whether one of the events ref names is on the day
// when names, and at its time if it names one (MatchEvents prefers
// those, but takes another's): "lunch tomorrow at 1" is not the lunch
// at noon.
func onDayNamed(ref string, when *timex.Match, c stage.Context) bool {
	z := stage.UserZone(c)
	day := dayOf(when, z)
	at := fixClock(when.Value.In(z), when.Text, false)
	return slices.ContainsFunc(MatchEvents(ref, when, c), func(e hearth.CalendarEvent) bool {
		return stage.MidnightIn(e.Start, z).Equal(day) && (when.Kind != timex.Value || when.Grain >= timex.Day || e.Start.Equal(at))
	})
}

// InviteParts reads a request to invite people to an existing event
// ("add Sam to my dentist appointment"): the people as written (names
// or addresses) and how the event is named. ok is false when the message
// is not that: what it adds is not people ("add milk to …": a name is
// written capitalised, an address has an @) or where it adds them is no
// event ("… to my calendar", "… to the shopping list").
func InviteParts(text string) (people []string, ref string, ok bool) {
	return peopleAndEvent(reInvite, text)
}

// reUninvite reads "remove Sam from my dentist appointment", "take
// sam@example.com off the team lunch", "uninvite Bo from the party".
var reUninvite = regexp.MustCompile(`(?i)^(?:remove|uninvite|disinvite|drop|take)\s+(.+?)\s+(?:off of|off|from)\s+(.+?)[.!]*$`)

// UninviteParts reads a request to take people off an event's attendees
// ("remove Sam from my dentist appointment"), as InviteParts reads an
// invitation: not a request to cancel the event.
func UninviteParts(text string) (people []string, ref string, ok bool) {
	return peopleAndEvent(reUninvite, text)
}

// peopleAndEvent reads people and an event with re (its first group
// the people, its second the event); see InviteParts.
func peopleAndEvent(re *regexp.Regexp, text string) (people []string, ref string, ok bool) {
	m := re.FindStringSubmatch(words.TidySlot(text))
	if m == nil {
		return nil, "", false
	}
	where := words.ASCIILower(m[2])
	for _, w := range notEvents {
		if words.ContainsWord(where, w) {
			return nil, "", false
		}
	}
	for _, p := range strings.FieldsFunc(strings.NewReplacer(" and ", ",", " & ", ",").Replace(m[1]), func(r rune) bool { return r == ',' }) {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		if !isAddressOrName(p) {
			return nil, "", false
		}
		people = append(people, p)
	}
	return people, m[2], len(people) > 0
}

// isAddressOrName reports whether s is an email address or reads as a
// person's name: one to three words, each capitalised ("Sam", "Priya
// Shah"), none of them an article ("a Reminder" is no one).
func isAddressOrName(s string) bool {
	if _, ok := EmailAddress(s); ok {
		return !strings.ContainsRune(strings.TrimSpace(s), ' ')
	}
	fs := strings.Fields(s)
	if len(fs) == 0 || len(fs) > 3 {
		return false
	}
	for _, f := range fs {
		r := []rune(f)
		if !unicode.IsUpper(r[0]) {
			return false
		}
		switch strings.ToLower(f) {
		case "a", "an", "the", "my", "our", "some", "i":
			return false
		}
	}
	return true
}

// planInvite plans inviting people to an existing event: an update of
// its attendees, which asks for approval first (the invitation leaves
// the machine from a connected calendar). Each person is an address
// already, someone Hearth knows with an email address, or an entry of
// the user's address book; anyone else is asked about rather than
// invited by name. ok is false when the message is not an invitation
// (InviteParts).
func planInvite(in stage.PlanInput, text string) (stage.Plan, bool, error) {
	people, refText, ok := InviteParts(text)
	if !ok {
		return stage.Plan{}, false, nil
	}
	if words.StartsWithAny(words.ASCIILower(refText), "a ", "an ") {
		// "Invite Sam to a budget review tomorrow at 7pm": an event to
		// make, with Sam invited, however like one there it is named.
		return stage.Plan{}, false, nil
	}
	// "My dentist appointment", "the team lunch": one that is there.
	// Named bare, it may be one to make ("invite Bo to lunch tomorrow"):
	// so when a date comes with it, or nothing there is called that.
	theirs := words.StartsWithAny(words.ASCIILower(refText), "my ", "the ", "our ", "this ", "that ", "tomorrow's ", "today's ")
	if isPronounRef(refText) {
		// "Invite Sam to it": the event the last reply was about.
		if t := LastMentioned(in.Context); t != "" {
			refText, theirs = t, true
		}
	}
	when := whenOf(in, refText, false)
	ref := inviteRef(refText, in.Context)
	if !theirs && when != nil && (ref == "" || !onDayNamed(ref, when, in.Context)) {
		// Unless that day has one so called: "invite Sam to dinner on
		// Saturday" with "Dinner with the Smiths" there that evening.
		return stage.Plan{}, false, nil
	}
	p := stage.Plan{Understood: "invite " + prose.List(people) + " to an event"}
	if ref == "" || IsPronoun(ref) {
		return p, true, needDetails("which event")
	}
	p.Understood = "invite " + prose.List(people) + " to " + ref
	hits := MatchEvents(ref, when, in.Context)
	if len(hits) == 0 {
		if !theirs {
			return stage.Plan{}, false, nil
		}
		return p, true, needDetails("which event: I couldn't find an event matching “%s”", ref)
	}
	var addrs []string
	for _, name := range people {
		if addr, ok := EmailAddress(name); ok {
			addrs = append(addrs, addr)
			continue
		}
		known := slices.DeleteFunc(recipients(name, in.Context), func(r recipient) bool { return r.addr == "" })
		if len(known) == 0 {
			known = bookRecipients(name, in.Context)
		}
		switch len(known) {
		case 1:
			addrs = append(addrs, known[0].address())
		case 0:
			// Never invited by name alone: a calendar invitation goes to
			// an address.
			n := markdown.Escape(name)
			p.Question = &stage.Question{Text: "I don't have an email address for " + n + " yet. Tell me “" + n + "'s email is …” and ask me again."}
			return p, true, nil
		default:
			p.Question = &stage.Question{Text: "Which " + markdown.Escape(name) + "? Say their full name or their email address."}
			return p, true, nil
		}
	}
	var labels []string
	var acts []action.Action
	for _, e := range hits {
		all := slices.Clone(e.Attendees)
		var added []string
		for _, a := range addrs {
			if !slices.ContainsFunc(all, func(x string) bool { return sameAddress(x, a) }) {
				all, added = append(all, a), append(added, a)
			}
		}
		if len(added) == 0 {
			continue
		}
		a, err := action.New(action.CalendarUpdate, action.EventUpdateArgs{ID: e.ID, Title: e.Title, Invited: added,
			Update: hearth.CalendarEventUpdate{Attendees: &all}})
		if err != nil {
			p, err = plannedErr(p, err)
			return p, true, err
		}
		acts = append(acts, a)
		labels = append(labels, eventLabel(e, in.Context))
	}
	if len(acts) == 0 {
		p.Question = &stage.Question{Text: markdown.Escape(prose.List(people)) + " " + isOrAre(len(people)) + " invited to " + markdown.Escape(hits[0].Title) + " already."}
		return p, true, nil
	}
	return actOrAsk(p, "Which one should I invite "+markdown.Escape(prose.List(people))+" to?", labels, acts), true, nil
}

// planUninvite plans taking people off an event's attendees ("remove
// Sam from my dentist appointment"): an update of its attendees, approved
// first like an invitation (a connected calendar tells them). It never
// cancels the event, which "remove …" alone would.
func planUninvite(in stage.PlanInput, people []string, refText string) (stage.Plan, error) {
	p := stage.Plan{Understood: "take " + prose.List(people) + " off an event"}
	ref := inviteRef(refText, in.Context)
	if ref == "" || IsPronoun(ref) {
		return p, needDetails("which event")
	}
	p.Understood = "take " + prose.List(people) + " off " + ref
	hits := MatchEvents(ref, whenOf(in, refText, false), in.Context)
	if len(hits) == 0 {
		return p, needDetails("which event: I couldn't find an event matching “%s”", ref)
	}
	var labels []string
	var acts []action.Action
	for _, e := range hits {
		var keep, gone []string
		for _, at := range e.Attendees {
			if slices.ContainsFunc(people, func(who string) bool { return attendeeIs(at, who, in.Context) }) {
				gone = append(gone, at)
			} else {
				keep = append(keep, at)
			}
		}
		if len(gone) == 0 {
			continue
		}
		if keep == nil {
			keep = []string{}
		}
		a, err := action.New(action.CalendarUpdate, action.EventUpdateArgs{ID: e.ID, Title: e.Title, Uninvited: gone,
			Update: hearth.CalendarEventUpdate{Attendees: &keep}})
		if err != nil {
			return plannedErr(p, err)
		}
		acts = append(acts, a)
		labels = append(labels, eventLabel(e, in.Context))
	}
	if len(acts) == 0 {
		p.Question = &stage.Question{Text: markdown.Escape(prose.List(people)) + " " + isOrAre(len(people)) + "n't invited to " + markdown.Escape(hits[0].Title) + "."}
		return p, nil
	}
	return actOrAsk(p, "Which one should I take "+markdown.Escape(prose.List(people))+" off?", labels, acts), nil
}

// attendeeIs reports whether attendee at ("Sam Lee <sam@example.com>",
// "sam@example.com") is who, as the user names them: their address, a
// name written with it, or a person Hearth knows by that name (memory's
// or the address book's address).
func attendeeIs(at, who string, c stage.Context) bool {
	if _, ok := EmailAddress(who); ok {
		return sameAddress(at, who)
	}
	if a, err := mail.ParseAddress(at); err == nil && a.Name != "" && entityNamed(hearth.Entity{Name: a.Name}, who) {
		return true
	}
	for _, r := range append(recipients(who, c), bookRecipients(who, c)...) {
		if r.addr != "" && sameAddress(at, r.addr) {
			return true
		}
	}
	return false
}

// inviteRef is how the event invited to is named, without its date
// and time: "my dentist appointment on Friday" → "dentist appointment".
func inviteRef(refText string, c stage.Context) string {
	rest := words.TrimWordsLeft(words.TidySlot(stripTimeWords(refText, c)), "my", "the", "our", "a", "an", "event", "meeting called")
	return words.TidySlot(words.TrimWordsRight(rest, "event", "on", "at", "for"))
}

func isOrAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// sameAddress reports whether two attendees ("Sam <sam@example.com>",
// "SAM@example.com") are one address.
func sameAddress(a, b string) bool {
	x, okx := EmailAddress(a)
	y, oky := EmailAddress(b)
	if !okx || !oky {
		return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b))
	}
	return strings.EqualFold(x, y)
}

// attendeesOf are the people the user explicitly asked to invite:
// capitalised names or addresses after "invite", and addresses after
// "with". A name after "with" ("lunch with Marco") only says who the
// event is with: inviting sends Marco an email, so it takes the word
// "invite" (or his address). Family words ("with mom") are never
// invitations: there is no one to send them to.
func attendeesOf(text string) []string {
	var out []string
	lc := words.ASCIILower(text)
	for _, trig := range []string{"with ", "invite "} {
		if trig == "with " {
			for _, a := range attendeesAfter(text, lc, trig) {
				if strings.Contains(a, "@") && !hasFold(out, a) {
					out = append(out, a)
				}
			}
			continue
		}
		for _, a := range attendeesAfter(text, lc, trig) {
			if !hasFold(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

// attendeesAfter reads the names and addresses after a trigger word.
func attendeesAfter(text, lc, trig string) []string {
	var out []string
	i := words.WordAt(lc, trig)
	if i < 0 {
		return nil
	}
	{
		var name []string
		flush := func() {
			if n := strings.Join(name, " "); n != "" && !hasFold(out, n) {
				out = append(out, n)
			}
			name = nil
		}
	matchWords:
		for _, f := range strings.Fields(text[i+len(trig):]) {
			w := strings.TrimRight(f, ".,!?;:")
			lw := strings.ToLower(w)
			r, _ := utf8.DecodeRuneInString(w)
			switch {
			case lw == "and" || lw == "&":
				flush()
				continue
			case strings.Contains(w, "@"):
				flush()
				name = []string{w}
			case unicode.IsUpper(r) && !monthOrDay(lw) && w != "I":
				// "Sarah Lee": following capitalised words join the name.
				name = append(name, strings.TrimSuffix(w, "'s"))
			default:
				break matchWords
			}
			if w != f {
				flush()
				if !strings.HasSuffix(f, ",") {
					break
				}
			}
		}
		flush()
	}
	return out
}

// monthOrDay reports a full month or weekday name, today or tomorrow:
// capitalised, they are not part of a name.
func monthOrDay(w string) bool {
	return timex.FullDateName(w) || w == "today" || w == "tomorrow"
}

func hasFold(xs []string, s string) bool {
	for _, x := range xs {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}
