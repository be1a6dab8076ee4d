package google

import (
	"context"
	"encoding/base64"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	gmail "google.golang.org/api/gmail/v1"

	"github.com/hearthbot/hearth"
)

// StyleEvery is how often a user's style profile is learned again from
// their sent mail.
const StyleEvery = 7 * 24 * time.Hour

// styleSample is how many recent sent messages the profile is learned
// from.
const styleSample = 20

// RefreshStyle learns the user's style again when it is older than
// StyleEvery (or unknown) and they granted Gmail; it reports whether it
// did.
func (m *Mail) RefreshStyle(ctx context.Context, userID int64) (bool, error) {
	cur, err := m.st.MailStyle(ctx, userID)
	if err != nil {
		return false, err
	}
	if !cur.UpdatedAt.IsZero() && m.g.cfg.Now().Sub(cur.UpdatedAt) < StyleEvery {
		return false, nil
	}
	_, ok, err := m.LearnStyle(ctx, userID)
	return ok, err
}

// LearnStyle reads the user's recent sent mail and stores the style it
// shows (greeting, sign-off, typical length, formality); ok is false when
// there is no Gmail or no sent mail to learn from.
func (m *Mail) LearnStyle(ctx context.Context, userID int64) (hearth.MailStyle, bool, error) {
	svc, _, err := m.gmailFor(ctx, userID)
	if err != nil || svc == nil {
		return hearth.MailStyle{}, false, err
	}
	list, err := svc.Users.Messages.List("me").LabelIds("SENT").MaxResults(styleSample).Context(ctx).Do()
	if err != nil {
		return hearth.MailStyle{}, false, fmt.Errorf("gmail sent mail: %w", unavailable(err))
	}
	var bodies []string
	for _, ref := range list.Messages {
		msg, err := svc.Users.Messages.Get("me", ref.Id).Format("full").Context(ctx).Do()
		if err != nil {
			return hearth.MailStyle{}, false, fmt.Errorf("gmail sent message: %w", unavailable(err))
		}
		if b := plainText(msg.Payload); strings.TrimSpace(b) != "" {
			bodies = append(bodies, b)
		}
	}
	if len(bodies) == 0 {
		return hearth.MailStyle{}, false, nil
	}
	st := StyleOf(bodies)
	st.UserID = userID
	st, err = m.st.SetMailStyle(ctx, st)
	return st, err == nil, err
}

// plainText is the text/plain body of a message part, decoded.
func plainText(p *gmail.MessagePart) string {
	if p == nil {
		return ""
	}
	if (p.MimeType == "" || strings.HasPrefix(p.MimeType, "text/plain")) && p.Body != nil && p.Body.Data != "" {
		b, err := base64.URLEncoding.DecodeString(p.Body.Data)
		if err != nil {
			b, _ = base64.RawURLEncoding.DecodeString(p.Body.Data)
		}
		return string(b)
	}
	for _, part := range p.Parts {
		if t := plainText(part); t != "" {
			return t
		}
	}
	return ""
}

var (
	greetingWords = regexp.MustCompile(`(?i)^(hi|hello|hey|dear|good (morning|afternoon|evening)|hiya|greetings)\b`)
	quoteStart    = regexp.MustCompile(`(?i)^(on .+ wrote:|-----original message-----|>)`)
)

// StyleOf learns a style from email bodies the user wrote: the most
// common greeting (the name after it becomes {name}), the most common
// sign-off (the short line ending in a comma before the name at the
// end), the median length in words and a formality from the words
// used.
func StyleOf(bodies []string) hearth.MailStyle {
	greetings, signoffs := map[string]int{}, map[string]int{}
	var lengths []int
	formal, casual := 0, 0
	for _, body := range bodies {
		lines := ownLines(body)
		if len(lines) == 0 {
			continue
		}
		lengths = append(lengths, len(strings.Fields(strings.Join(lines, " "))))
		if g := greetingWords.FindString(lines[0]); g != "" {
			rest := strings.TrimSpace(lines[0][len(g):])
			tmpl := g + ","
			if rest != "" && rest != "," {
				tmpl = g + " {name},"
			}
			greetings[tmpl]++
			switch strings.ToLower(strings.Fields(g)[0]) {
			case "dear", "good", "greetings":
				formal++
			case "hey", "hiya":
				casual++
			}
		}
		for i := len(lines) - 1; i >= max(0, len(lines)-3); i-- {
			l := lines[i]
			if strings.HasSuffix(l, ",") && len(strings.Fields(l)) <= 4 && !greetingWords.MatchString(l) {
				signoffs[l]++
				low := strings.ToLower(l)
				switch {
				case strings.Contains(low, "regards") || strings.Contains(low, "sincerely") || strings.Contains(low, "respectfully"):
					formal++
				case strings.Contains(low, "cheers") || strings.Contains(low, "love") || strings.Contains(low, "xx"):
					casual++
				}
				break
			}
		}
	}
	st := hearth.MailStyle{Greeting: mostCommon(greetings), SignOff: mostCommon(signoffs)}
	if len(lengths) > 0 {
		slices.Sort(lengths)
		st.Length = lengths[len(lengths)/2]
	}
	st.Formality = 3
	switch {
	case formal > casual:
		st.Formality = 4
	case casual > formal:
		st.Formality = 2
	}
	return st
}

// ownLines are the non-empty lines the user wrote, before any quoted
// message.
func ownLines(body string) []string {
	var out []string
	for l := range strings.Lines(strings.ReplaceAll(body, "\r\n", "\n")) {
		l = strings.TrimSpace(l)
		if quoteStart.MatchString(l) {
			break
		}
		if l != "" {
			out = append(out, l)
		}
	}
	return out
}

func mostCommon(counts map[string]int) string {
	best, n := "", 0
	for k, c := range counts {
		if c > n || c == n && k < best {
			best, n = k, c
		}
	}
	return best
}
