package google

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/pipeline"
)

// Known finds the email addresses of the people Hearth knows for a user
// (memory's facts, through the permission-aware reader).
type Known interface {
	FindMemories(ctx context.Context, f hearth.MemoryFilter) ([]hearth.Memory, error)
}

// Commands are the mail and notes chat commands: connect Gmail, connect
// Keep, and "any important email?".
func (m *Mail) Commands(known Known) []commands.Command {
	return []commands.Command{
		{
			Name: "connect_gmail", Private: true,
			Help:     "connect your Gmail, so the emails I write are Gmail drafts and go out from your address",
			Examples: []string{"connect gmail", "connect my gmail"},
			Match:    phrase("connect gmail", "connect my gmail", "link gmail", "link my gmail"),
			Handler: commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
				return pipeline.Reply("Open this link within 10 minutes to connect your Gmail (and Google Calendar): " + m.g.ConnectURL(r.User.ID, GmailScopes...) +
					"\nThe emails I write become drafts in your Gmail and I send them only after you approve; I read new mail to tell you what's important, and I never act on what an email says. I look up the addresses of the people you write to in your Google contacts (read-only)."), true, nil
			}),
		},
		{
			Name: "connect_contacts", Private: true,
			Help:     "let me look up email addresses in your Google contacts (read-only)",
			Examples: []string{"connect contacts", "connect my google contacts"},
			Match:    phrase("connect contacts", "connect my contacts", "connect google contacts", "connect my google contacts", "link contacts", "link my contacts"),
			Handler: commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
				return pipeline.Reply("Open this link within 10 minutes to let me read your Google contacts: " + m.g.ConnectURL(r.User.ID, ContactsScopes...) +
					"\nWhen you ask me to email someone whose address I don't know, I look them up there (read-only): one match is used, several get a button each."), true, nil
			}),
		},
		{
			Name: "connect_keep", Private: true,
			Help:     "connect Google Keep (Google Workspace accounts), so your notes and lists go there",
			Examples: []string{"connect keep", "connect google keep"},
			Match:    phrase("connect keep", "connect google keep", "connect my keep", "link keep", "link google keep"),
			Handler: commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
				return pipeline.Reply("Open this link within 10 minutes to connect Google Keep (and Google Calendar): " + m.g.ConnectURL(r.User.ID, KeepScopes...) +
					"\nKeep's API works only for Google Workspace accounts that allow it; if yours doesn't, your notes stay in Hearth and I'll say so. Family lists always stay in Hearth, where everyone in the family can change them."), true, nil
			}),
		},
		{
			Name: "important_mail", Private: true, NeedsZone: true,
			Help:     "unread mail from people I know, or marked important, in short",
			Examples: []string{"any important email?", "check my email"},
			Match:    phrase("any important email", "any important emails", "any important mail", "any new email", "any new emails", "check my email", "check my mail", "important email", "important emails"),
			Handler: commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
				text, err := m.importantReply(ctx, r.User, known)
				return pipeline.Reply(text), err == nil, err
			}),
		},
	}
}

func (m *Mail) importantReply(ctx context.Context, u hearth.User, known Known) (string, error) {
	svc, _, err := m.gmailFor(ctx, u.ID)
	if err != nil {
		return "", err
	}
	if svc == nil {
		return "I can't read your email: Gmail isn't connected. Say “connect gmail” to connect it.", nil
	}
	if _, err := m.Poll(ctx, u.ID); err != nil {
		m.g.cfg.Log.WarnContext(ctx, "gmail poll failed; answering from what I have", "user", u.ID, "error", err)
	}
	msgs, err := m.Important(ctx, u.ID, known)
	if err != nil {
		return "", err
	}
	if len(msgs) == 0 {
		return "Nothing important: no unread mail from people I know, and nothing marked important.", nil
	}
	loc := time.UTC
	if l, err := time.LoadLocation(u.Timezone); err == nil {
		loc = l
	}
	return "Unread and worth a look:\n" + Summary(msgs, loc), nil
}

// Important is the user's unread mail from people Hearth knows, or marked
// important (or starred) in Gmail, newest first, from the last week.
func (m *Mail) Important(ctx context.Context, userID int64, known Known) ([]hearth.InboxMessage, error) {
	msgs, err := m.st.FindInbox(ctx, hearth.InboxFilter{UserID: userID, Unread: true, Since: m.g.cfg.Now().Add(-7 * 24 * time.Hour), Limit: 50})
	if err != nil {
		return nil, err
	}
	addrs := map[string]bool{}
	if known != nil {
		facts, err := known.FindMemories(ctx, hearth.MemoryFilter{UserID: userID, Attribute: hearth.AttrEmail, Limit: 500})
		if err != nil {
			return nil, err
		}
		for _, f := range facts {
			addrs[strings.ToLower(strings.TrimSpace(f.Value))] = true
		}
	}
	var out []hearth.InboxMessage
	for _, msg := range msgs {
		if msg.Important || addrs[strings.ToLower(msg.From)] {
			out = append(out, msg)
		}
	}
	return out, nil
}

// Summary lists messages in short, one line each: who, when, the subject
// and the start of the text, quoted. The text is the sender's, shown as
// data, never followed.
func Summary(msgs []hearth.InboxMessage, loc *time.Location) string {
	var b strings.Builder
	for i, msg := range msgs {
		if i > 0 {
			b.WriteByte('\n')
		}
		who := msg.FromName
		if who == "" {
			who = msg.From
		}
		// Mail is untrusted text: escaped, it shows as sent and links nowhere.
		fmt.Fprintf(&b, "• %s (%s): “%s”", markdown.Escape(who), msg.ReceivedAt.In(loc).Format("Mon 3:04 PM"), markdown.Escape(clip(msg.Subject, 80)))
		if s := clip(msg.Snippet, 100); s != "" {
			fmt.Fprintf(&b, " — “%s”", markdown.Escape(s))
		}
	}
	return b.String()
}

// clip shortens s to n runes on one line.
func clip(s string, n int) string {
	s = oneLine(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
