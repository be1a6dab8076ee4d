package pipeline

import (
	"context"
	"errors"
	"fmt"
	"github.com/hearthbot/hearth"
	"strings"
	"time"
)

// LinkAlphabet is what link codes are made of: no look-alikes (0/O,
// 1/I/L), so a code read off one screen is typed right on another. Eight
// of them are about 40 bits, far beyond guessing in ten minutes.
const LinkAlphabet = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"

// LinkCodeTTL is how long a link code can be used.
const LinkCodeTTL = 10 * time.Minute

// Linker makes and redeems one-time link codes.
type Linker interface {
	CreateLinkCode(ctx context.Context, userID int64, ttl time.Duration) (string, error)
	// RedeemLinkCode joins user from to the code's owner; a wrong, used or
	// expired code is ErrNotFound.
	RedeemLinkCode(ctx context.Context, code string, from int64) (int64, error)
}

// LinkIdentities lets one person use Hearth from several channels: "/link"
// in one chat answers with a code, and typing that code in another chat
// joins it to the same account, so memories, tasks and briefings follow
// the person. Everything else goes to next. It runs before the time-zone
// question, so a new chat can be linked before it is asked anything.
func LinkIdentities(l Linker, next Handler) Handler {
	return HandlerFunc(func(ctx context.Context, t Turn) ([]hearth.Outbound, error) {
		if t.Event.Kind != hearth.KindMessage {
			return next.HandleTurn(ctx, t)
		}
		verb, rest := linkCommand(t.Event.Text)
		switch {
		case verb && rest == "":
			code, err := l.CreateLinkCode(ctx, t.User.ID, LinkCodeTTL)
			if err != nil {
				return nil, fmt.Errorf("link: %w", err)
			}
			return []hearth.Outbound{{Text: fmt.Sprintf("Your link code is %s. Within 10 minutes, send it to me from your other chat (Slack, Telegram or the web chat) and both will share one account. It works once.", code)}}, nil
		case verb || looksLikeCode(rest):
			code := NormaliseLinkCode(rest)
			if code == "" {
				return []hearth.Outbound{{Text: "That doesn't look like a link code. Send /link to get one."}}, nil
			}
			_, err := l.RedeemLinkCode(ctx, code, t.User.ID)
			switch {
			case errors.Is(err, hearth.ErrNotFound):
				return []hearth.Outbound{{Text: "That link code isn't valid any more (they work once, for 10 minutes). Send /link in your other chat to get a new one."}}, nil
			case errors.Is(err, hearth.ErrInvalid):
				return []hearth.Outbound{{Text: "That code is for this account already — send it from your other chat."}}, nil
			case err != nil:
				return nil, fmt.Errorf("link: %w", err)
			}
			return []hearth.Outbound{{Text: "Linked! This chat now shares your tasks, memories, notes and briefings with your other one."}}, nil
		}
		return next.HandleTurn(ctx, t)
	})
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

// looksLikeCode is a message that is only a link code, written as shown
// ("ABCD-EFGH") or with a digit in it, so that a word made of code letters
// ("strength") is not taken for one. Generated codes always have a digit.
func looksLikeCode(s string) bool {
	return NormaliseLinkCode(s) != "" && strings.ContainsAny(s, "-23456789")
}

// NormaliseLinkCode returns the code in text ("abcd efgh", "ABCD-EFGH")
// as stored, or "" when text is not a link code.
func NormaliseLinkCode(text string) string {
	var b strings.Builder
	for _, r := range strings.ToUpper(strings.TrimSpace(text)) {
		switch {
		case r == '-' || r == ' ':
		case strings.ContainsRune(LinkAlphabet, r):
			b.WriteRune(r)
		default:
			return ""
		}
	}
	if b.Len() != 8 {
		return ""
	}
	return b.String()
}
