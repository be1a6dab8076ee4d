package memory

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/internal/prose"
	"github.com/hearthbot/hearth/pipeline"
)

// Store is what the share command needs.
type Store interface {
	FindMemories(ctx context.Context, f hearth.MemoryFilter) ([]hearth.Memory, error)
	FindFamily(ctx context.Context, userID int64) (hearth.Family, error)
	ShareMemory(ctx context.Context, ownerID, id, viewerID int64) error
	GiveMemoryToFamily(ctx context.Context, ownerID, id int64) (hearth.Memory, error)
}

var (
	// "tell Grandma too", "show it to Emma as well", "share this with Bob";
	// a bare "tell Sarah …" is a message for Sarah, not a share.
	reTell = regexp.MustCompile(`(?i)^(?:please\s+)?(?:(?:tell|show\s+(?:it|this|that)\s+to)\s+(.+?)\s+(?:too|as\s+well|also)|share\s+(?:it|this|that)\s+with\s+(.+?)(?:\s+(?:too|as\s+well|also))?|let\s+(.+?)\s+know(?:\s+(?:too|as\s+well|also))?)$`)
	// "grandma should know", "Bob should know too"
	reShould = regexp.MustCompile(`(?i)^(.+?)\s+should\s+(?:know|see\s+(?:it|this|that))(?:\s+(?:too|as\s+well))?$`)
	// "share this with the family", "make it a family thing"
	reFamily = regexp.MustCompile(`(?i)^(?:the\s+(?:whole\s+)?family|everyone|everybody|all\s+of\s+us|my\s+family|our\s+family|the\s+family\s+too)$`)
)

// shareTarget reads whom a share names, if the message is one.
func shareTarget(norm string) (string, bool) {
	for _, re := range []*regexp.Regexp{reTell, reShould} {
		if g := re.FindStringSubmatch(norm); g != nil {
			who := strings.TrimSpace(strings.Join(g[1:], ""))
			// "tell me …" and "let me know" are requests, not shares.
			if who == "" || strings.HasPrefix(strings.ToLower(who), "me ") || strings.EqualFold(who, "me") || strings.Contains(who, " about ") {
				return "", false
			}
			return who, true
		}
	}
	return "", false
}

// ShareCommand is "tell Grandma too" (the fact the user told last becomes
// visible to that family member as well) and "share this with the family"
// (it becomes the family's, seen by every member and staying with the
// family). It needs no time zone.
func ShareCommand(st Store) commands.Command {
	return commands.Command{
		Name: "share", Args: "[NAME | family]",
		Help:     "let one family member, or the whole family, see what you just told me",
		Examples: []string{"tell Grandma too", "grandma should know", "share this with the family", "let Bob know as well"},
		Match: func(norm string) bool {
			who, ok := shareTarget(norm)
			return ok && len(strings.Fields(who)) <= 4
		},
		Handler: commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
			who, ok := shareTarget(commands.Tidy(r.Text))
			if _, _, node := readShareNode(r.Text); !ok && node {
				// "share what you know about Bob with the family" is the
				// memory graph's (GraphShareCommand).
				return pipeline.Answer{}, false, nil
			}
			if !ok && r.ByName {
				// "/share Grandma", "/share family"
				who, ok = strings.TrimSpace(r.Args), r.Args != ""
			}
			if !ok {
				return pipeline.Reply("Whom should I show it to? Say “tell NAME too” or “share this with the family”."), true, nil
			}
			text, err := share(ctx, st, r.User.ID, who)
			return pipeline.Reply(text), err == nil, err
		}),
	}
}

// notInFamily answers a share by someone in no family.
const notInFamily = "You're not in a family yet, so there is no one to share with. Say “start a family” to set one up."

func share(ctx context.Context, st Store, uid int64, who string) (string, error) {
	fam, err := st.FindFamily(ctx, uid)
	if errors.Is(err, hearth.ErrNotFound) {
		return notInFamily, nil
	}
	if err != nil {
		return "", fmt.Errorf("share: %w", err)
	}
	last, err := st.FindMemories(ctx, hearth.MemoryFilter{UserID: uid, ToldBy: uid, Limit: 1})
	if err != nil {
		return "", fmt.Errorf("share: %w", err)
	}
	if len(last) == 0 {
		return "There's nothing you've told me to share yet. Tell me something first (“remember that …”).", nil
	}
	m := last[0]
	if reFamily.MatchString(who) || strings.EqualFold(who, "family") {
		if _, err := st.GiveMemoryToFamily(ctx, uid, m.ID); err != nil {
			return "", fmt.Errorf("share: %w", err)
		}
		return "Done — “" + markdown.Escape(m.Content) + "” now belongs to " + markdown.Escape(fam.Name) + ": everyone in it sees it, and it stays with the family.", nil
	}
	var hits []hearth.FamilyMember
	for _, mem := range fam.Members {
		if strings.EqualFold(mem.Name, who) || strings.EqualFold(strings.Fields(mem.Name + " x")[0], who) {
			hits = append(hits, mem)
		}
	}
	switch len(hits) {
	case 0:
		var names []string
		for _, mem := range fam.Members {
			names = append(names, mem.Name)
		}
		if len(names) == 0 {
			return "It's just you in " + fam.Name + " so far, so there is no one to share with yet.", nil
		}
		return "I don't see " + who + " in " + fam.Name + " (" + prose.List(names) + "). Who did you mean?", nil
	case 1:
	default:
		return "Two people in " + fam.Name + " are called " + who + ". Say their full name, like “tell " + hits[0].Name + " too”.", nil
	}
	if err := st.ShareMemory(ctx, uid, m.ID, hits[0].UserID); err != nil {
		return "", fmt.Errorf("share: %w", err)
	}
	return "Okay — " + markdown.Escape(hits[0].Name) + " can see “" + markdown.Escape(m.Content) + "” too. Nothing else of yours changes.", nil
}
