// Package link lets one person use Hearth from several chats: "/link" in
// one chat answers with a one-time code, and sending that code from
// another chat (Slack, Telegram, another browser) joins it to the same
// account, so memories, tasks and briefings follow the person. It
// provides the link command for the commands registry.
package link

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/pipeline"
)

// CodeTTL is how long a link code can be used.
const CodeTTL = 10 * time.Minute

// Linker makes and redeems one-time link codes.
type Linker interface {
	CreateLinkCode(ctx context.Context, userID int64, ttl time.Duration) (string, error)
	// RedeemLinkCode joins user from to the code's owner; a wrong, used or
	// expired code is hearth.ErrNotFound.
	RedeemLinkCode(ctx context.Context, code string, from int64) (int64, error)
}

// Command is the link command: "/link" makes a code, "/link CODE" or the
// code typed alone redeems one. It needs no time zone, so a new chat can
// be linked before it is asked anything.
func Command(l Linker) commands.Command {
	return commands.Command{
		Name: "link", Args: "[CODE]", Private: true,
		Help:     "a one-time code to use me from your other chats as one person; the code sent from another chat joins them",
		Examples: []string{"link", "ABCD-EFG2"},
		Match: func(norm string) bool {
			verb, rest := linkCommand(norm)
			return (verb && (rest == "" || hearth.NormaliseCode(rest) != "")) || hearth.LooksLikeCode(rest)
		},
		Handler: commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
			text, err := handle(ctx, l, r.User.ID, r.Text)
			return pipeline.Reply(text), err == nil, err
		}),
	}
}

func handle(ctx context.Context, l Linker, userID int64, text string) (string, error) {
	verb, rest := linkCommand(text)
	if verb && rest == "" {
		code, err := l.CreateLinkCode(ctx, userID, CodeTTL)
		if err != nil {
			return "", fmt.Errorf("link: %w", err)
		}
		return fmt.Sprintf("Your link code is %s. Within 10 minutes, send it to me from your other chat (Slack, Telegram or the web chat) and both will share one account. It works once.", code), nil
	}
	code := hearth.NormaliseCode(rest)
	if code == "" {
		return "That doesn't look like a link code. Send /link to get one.", nil
	}
	_, err := l.RedeemLinkCode(ctx, code, userID)
	switch {
	case errors.Is(err, hearth.ErrNotFound):
		return "That link code isn't valid any more (they work once, for 10 minutes). Send /link in your other chat to get a new one.", nil
	case errors.Is(err, hearth.ErrInvalid):
		return "That code is for this account already — send it from your other chat.", nil
	case err != nil:
		return "", fmt.Errorf("link: %w", err)
	}
	return "Linked! This chat now shares your tasks, memories, notes and briefings with your other one.", nil
}

// linkCommand reads "/link", "link" or "/link CODE"; a bare message is
// returned as rest, for a code typed on its own.
func linkCommand(text string) (verb bool, rest string) {
	s := strings.TrimSpace(text)
	for _, prefix := range []string{"/link", "link"} {
		if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
			after := s[len(prefix):]
			if after == "" || after[0] == ' ' {
				return true, strings.TrimSpace(after)
			}
		}
	}
	return false, s
}
