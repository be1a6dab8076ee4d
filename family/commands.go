// Package family is Hearth's families by chat: starting one, inviting
// someone with a one-time code, joining, leaving, listing who is in it,
// and setting how much of your things each member sees ("let Grandma see
// only basics"). The family model and every permission live in the store
// (store/families.go); this package only reads and answers the messages.
package family

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline"
)

// InviteTTL is how long a family invitation code can be used.
const InviteTTL = 10 * time.Minute

// Store is what the family commands need.
type Store interface {
	CreateFamilyInvite(ctx context.Context, userID int64, ttl time.Duration) (hearth.FamilyInvite, error)
	JoinFamily(ctx context.Context, code string, userID int64) (hearth.Family, error)
	LeaveFamily(ctx context.Context, userID int64) (hearth.Family, error)
	FindFamily(ctx context.Context, userID int64) (hearth.Family, error)
	SetAccessGrant(ctx context.Context, targetID, viewerID int64, tier hearth.Tier) error
}

var (
	reStart  = regexp.MustCompile(`(?i)^(?:start|create|make|set up) (?:a |my |our )?family(?: group)?$`)
	reInvite = regexp.MustCompile(`(?i)^(?:invite|add) (?:someone|somebody|a person|people|[a-z]+(?: [a-z]+)?) (?:to|into) (?:my|our|the) family$|^(?:family invite|invite code|family code|(?:give me |get )?(?:a |an )?(?:family )?invite(?: code)? for my family)$`)
	reJoin   = regexp.MustCompile(`(?i)^join (?:the |my |our |a |your )?family(?: with(?: the)? code| code|:)? (.+)$`)
	reWho    = regexp.MustCompile(`(?i)^(?:who(?:'s| is| are)? in (?:my|our) family|(?:show|list)(?: me)? (?:my|our) family(?: members)?|my family|family members|who can see my (?:events|things|stuff|calendar))$`)
	reLeave  = regexp.MustCompile(`(?i)^(?:leave|quit|exit) (?:my |our |the )?family$`)
	reLet    = regexp.MustCompile(`(?i)^(?:let|allow) (.+?) (?:to )?see (.+)$`)
	reHide   = regexp.MustCompile(`(?i)^(?:hide my (?:events|calendar|things|stuff) from (.+)|(?:stop|don't let) (.+?) (?:from )?see(?:ing)? my (?:events|calendar|things|stuff))$`)
)

// Command is the family command: starting a family, inviting, joining
// (also by a code typed alone), listing, leaving and who sees what. It
// needs no time zone. Register it before the link command, so that an
// invitation code typed alone joins the family, and a code that is not
// one (a /link code) goes on to link.
func Command(st Store) commands.Command {
	c := &cmds{st: st}
	return commands.Command{
		Name: "family", Args: "[join CODE | leave]",
		Help: "start a family or invite someone, join one, see who is in it and who sees what of yours",
		Examples: []string{"start a family", "invite someone to my family", "join family ABCD-EFG2", "who is in my family",
			"leave my family", "let Grandma see only basics", "hide my events from Bob", "ABCD-EFG2"},
		Match: func(norm string) bool {
			for _, re := range []*regexp.Regexp{reStart, reInvite, reJoin, reWho, reLeave, reLet, reHide} {
				if re.MatchString(norm) {
					return true
				}
			}
			return hearth.LooksLikeCode(norm)
		},
		Handler: commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
			text := r.Text
			if r.ByName {
				text = byName(r.Args)
			}
			reply, ok, err := c.message(ctx, r.User.ID, text)
			if err != nil {
				return pipeline.Answer{}, false, fmt.Errorf("family command: %w", err)
			}
			return pipeline.Reply(reply), ok, nil
		}),
	}
}

// byName turns "/family [join CODE | leave]" into the phrasing it stands
// for; "/family" alone shows the family.
func byName(args string) string {
	switch word, rest, _ := strings.Cut(strings.ToLower(args), " "); word {
	case "":
		return "who is in my family"
	case "join":
		return "join family " + rest
	case "leave":
		return "leave my family"
	case "start", "invite":
		return "invite someone to my family"
	}
	return args
}

type cmds struct {
	st Store
}

const (
	notInFamily = "You're not in a family yet. Say “start a family” to set one up, or “join family CODE” with a code from someone who is in one."
	howToShare  = "Say “let NAME see only basics” or “let NAME see my events” to change what someone sees of yours."
)

func (c *cmds) message(ctx context.Context, uid int64, raw string) (string, bool, error) {
	raw = strings.TrimSpace(raw)
	text := commands.Tidy(raw)
	switch {
	case reStart.MatchString(text) || reInvite.MatchString(text):
		inv, err := c.st.CreateFamilyInvite(ctx, uid, InviteTTL)
		if err != nil {
			return "", true, err
		}
		invite := "ask them to send me “join family " + inv.Code + "” from their own chat within 10 minutes (the code works once)."
		switch {
		case inv.Started:
			return "Your family is set up! 🏡 To invite someone, " + invite +
				" Family members see each other's events and milestones in their briefings; " + prose.LowerFirst(howToShare), true, nil
		case reStart.MatchString(text):
			return "You're already in " + inv.Family.Name + " (" + membersWords(inv.Family) + "). To invite someone else, " + invite, true, nil
		}
		return "Here's an invitation to " + inv.Family.Name + ": " + invite, true, nil
	case reJoin.MatchString(text):
		code := hearth.NormaliseCode(reJoin.FindStringSubmatch(text)[1])
		if code == "" {
			return "That doesn't look like a family code. They look like ABCD-EFGH: ask someone in the family to say “invite someone to my family”.", true, nil
		}
		return c.join(ctx, uid, code, true)
	case hearth.LooksLikeCode(raw):
		// A code typed alone: a family invitation joins; anything else
		// (a /link code) is for the next handler.
		return c.join(ctx, uid, hearth.NormaliseCode(raw), false)
	case reWho.MatchString(text):
		f, err := c.st.FindFamily(ctx, uid)
		if errors.Is(err, hearth.ErrNotFound) {
			return notInFamily, true, nil
		}
		if err != nil {
			return "", true, err
		}
		return describe(f), true, nil
	case reLeave.MatchString(text):
		f, err := c.st.LeaveFamily(ctx, uid)
		if errors.Is(err, hearth.ErrNotFound) {
			return "You're not in a family, so there is nothing to leave.", true, nil
		}
		if err != nil {
			return "", true, err
		}
		return "You've left " + f.Name + ". Its members no longer see your events, and you no longer see theirs.", true, nil
	case reLet.MatchString(text):
		g := reLet.FindStringSubmatch(text)
		tier, ok := tierOf(g[2])
		if !ok || isSelf(g[1]) {
			return "", false, nil // "let me see my calendar" is not about sharing
		}
		return c.grant(ctx, uid, g[1], tier)
	case reHide.MatchString(text):
		g := reHide.FindStringSubmatch(text)
		if isSelf(g[1] + g[2]) {
			return "", false, nil
		}
		return c.grant(ctx, uid, g[1]+g[2], hearth.TierBasic)
	}
	return "", false, nil
}

// join admits uid to the family of code. told is whether the user said
// "join family": a code typed alone that is no family code is not ours.
func (c *cmds) join(ctx context.Context, uid int64, code string, told bool) (string, bool, error) {
	if told {
		if f, err := c.st.FindFamily(ctx, uid); err == nil {
			return "You're already in " + f.Name + " (" + membersWords(f) + "). Say “leave my family” first if you want to join another one.", true, nil
		} else if !errors.Is(err, hearth.ErrNotFound) {
			return "", true, err
		}
	}
	f, err := c.st.JoinFamily(ctx, code, uid)
	switch {
	case errors.Is(err, hearth.ErrNotFound):
		if !told {
			return "", false, nil
		}
		return "That family code isn't valid any more (codes work once, for 10 minutes). Ask for a new one: someone in the family says “invite someone to my family”.", true, nil
	case errors.Is(err, hearth.ErrInvalid):
		return prose.UpperFirst(hearth.ErrorMessage(err)) + ".", true, nil
	case err != nil:
		return "", true, err
	}
	return "Welcome to " + f.Name + "! 🏡 You're in with " + membersWords(f) +
		". You'll see each other's events in your briefings. " + howToShare, true, nil
}

// grant sets what the member called name sees of uid's things.
func (c *cmds) grant(ctx context.Context, uid int64, name string, tier hearth.Tier) (string, bool, error) {
	f, err := c.st.FindFamily(ctx, uid)
	if errors.Is(err, hearth.ErrNotFound) {
		return notInFamily, true, nil
	}
	if err != nil {
		return "", true, err
	}
	name = strings.Trim(strings.TrimSpace(name), "“”\"'")
	hits := find(f.Members, name)
	switch len(hits) {
	case 0:
		if len(f.Members) == 0 {
			return "There's no one else in " + f.Name + " yet. Say “invite someone to my family” to get a code for them.", true, nil
		}
		return "I don't know anyone called “" + name + "” in " + f.Name + ". Your family: " + membersWords(f) + ".", true, nil
	case 1:
	default:
		var names []string
		for _, m := range hits {
			names = append(names, m.Name)
		}
		return "More than one person in your family goes by “" + name + "”: " + strings.Join(names, ", ") + ". Which one? Use the full name.", true, nil
	}
	m := hits[0]
	err = c.st.SetAccessGrant(ctx, uid, m.UserID, tier)
	if errors.Is(err, hearth.ErrNotFound) {
		// They left between the two reads.
		return m.Name + " isn't in your family any more.", true, nil
	}
	if err != nil {
		return "", true, err
	}
	return "Done — " + m.Name + " now sees " + tierWords(tier, "your") + ".", true, nil
}

// find returns the members called name: the whole name, else the first
// name, case-insensitively.
func find(members []hearth.FamilyMember, name string) []hearth.FamilyMember {
	var whole, first []hearth.FamilyMember
	for _, m := range members {
		switch {
		case strings.EqualFold(m.Name, name):
			whole = append(whole, m)
		case strings.EqualFold(strings.Fields(m.Name + " x")[0], name):
			first = append(first, m)
		}
	}
	if len(whole) > 0 {
		return whole
	}
	return first
}

// tierOf reads what "let NAME see …" shares.
func tierOf(what string) (hearth.Tier, bool) {
	w := " " + strings.ToLower(what) + " "
	has := func(words ...string) bool {
		for _, x := range words {
			if strings.Contains(w, x) {
				return true
			}
		}
		return false
	}
	switch {
	case has(" basic", " only my name", " just my name", " nothing"):
		return hearth.TierBasic, true
	case has(" everything", " all my ", " all of my ", " private"):
		return hearth.TierPrivate, true
	case has(" personal"):
		return hearth.TierPersonal, true
	case has(" event", " milestone", " calendar", " plans", " schedule"):
		return hearth.TierEvents, true
	}
	return 0, false
}

func isSelf(name string) bool {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "me", "us", "myself", "i":
		return true
	}
	return false
}

// describe lists a family and who sees what.
func describe(f hearth.Family) string {
	if len(f.Members) == 0 {
		return "It's just you in " + f.Name + " so far. Say “invite someone to my family” to get a code for someone to join."
	}
	lines := []string{f.Name + ": you, " + namesWords(f) + "."}
	for _, m := range f.Members {
		lines = append(lines, "• "+m.Name+" sees "+tierWords(m.Sees, "your")+"; you see "+tierWords(m.Shows, prose.Possessive(m.Name))+".")
	}
	return strings.Join(lines, "\n") + "\n" + howToShare
}

// tierWords says what a grant of tier t shows of owner's ("your",
// "Emma's") things.
func tierWords(t hearth.Tier, owner string) string {
	switch t {
	case hearth.TierPrivate:
		return "all of " + owner + " things, private ones included"
	case hearth.TierPersonal:
		return owner + " personal things and events"
	case hearth.TierEvents:
		return owner + " events and milestones"
	case hearth.TierBasic:
		return "only " + owner + " basics (name and relationship)"
	}
	return "none of " + owner + " things"
}

// membersWords is "Bob and Emma" (or "just you").
func membersWords(f hearth.Family) string {
	if len(f.Members) == 0 {
		return "just you so far"
	}
	return namesWords(f)
}

func namesWords(f hearth.Family) string {
	var names []string
	for _, m := range f.Members {
		names = append(names, m.Name)
	}
	return prose.List(names)
}
