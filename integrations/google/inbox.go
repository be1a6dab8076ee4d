package google

import (
	"context"
	"fmt"
	"mime"
	"net/http"
	"net/mail"
	"strconv"
	"strings"
	"time"

	gmail "google.golang.org/api/gmail/v1"

	"github.com/hearthbot/hearth"
)

// firstFill is how many recent inbox messages the first poll reads.
const firstFill = 25

// Poll finds the user's new mail: users.history from the stored history
// id (messages added to the inbox), each read once for its headers and
// snippet and stored once, whatever the polls; the first poll (or one
// whose history id Gmail forgot, 404) reads the latest inbox messages
// instead. It returns the messages that were new. A user without Gmail
// has nothing to poll. One poll of a mailbox runs at a time: while
// another runs (and is not stale) it is hearth.ErrConflict.
//
// Mail is stored as data: nothing in it is ever obeyed (ARCHITECTURE
// invariant 4), and polling starts no turn and plans no action.
func (m *Mail) Poll(ctx context.Context, userID int64) ([]hearth.InboxMessage, error) {
	svc, _, err := m.gmailFor(ctx, userID)
	if err != nil || svc == nil {
		return nil, err
	}
	// Counted as begun before history is read: a push from now on asks
	// for the poll after this one.
	box, err := m.st.BeginGmailPoll(ctx, userID, staleSync)
	if err != nil {
		return nil, err
	}
	msgs, historyID, err := m.fetch(ctx, svc, userID, box.HistoryID)
	if err == nil {
		var added []hearth.InboxMessage
		if added, err = m.st.SaveInbox(ctx, userID, msgs, strconv.FormatUint(historyID, 10)); err == nil {
			return added, nil
		}
	}
	if aerr := m.st.EndGmailPoll(context.WithoutCancel(ctx), userID); aerr != nil {
		m.g.cfg.Log.Warn("gmail poll not released; it is taken over once stale", "user", userID, "error", aerr)
	}
	return nil, err
}

// fetch reads the messages added to the inbox since start (the latest
// ones when start is empty or forgotten) and the history id to continue
// from.
func (m *Mail) fetch(ctx context.Context, svc *gmail.Service, userID int64, start string) ([]hearth.InboxMessage, uint64, error) {
	var ids []string
	var historyID uint64
	var err error
	if start != "" {
		from, _ := strconv.ParseUint(start, 10, 64)
		ids, historyID, err = m.history(ctx, svc, from)
		if statusOf(err) == http.StatusNotFound {
			start, err = "", nil
		}
		if err != nil {
			return nil, 0, fmt.Errorf("gmail history: %w", unavailable(err))
		}
	}
	if start == "" {
		p, err := svc.Users.GetProfile("me").Context(ctx).Do()
		if err != nil {
			return nil, 0, fmt.Errorf("gmail profile: %w", unavailable(err))
		}
		historyID = p.HistoryId
		list, err := svc.Users.Messages.List("me").LabelIds("INBOX").MaxResults(firstFill).Context(ctx).Do()
		if err != nil {
			return nil, 0, fmt.Errorf("gmail list: %w", unavailable(err))
		}
		ids = ids[:0]
		for _, msg := range list.Messages {
			ids = append(ids, msg.Id)
		}
	}
	msgs := make([]hearth.InboxMessage, 0, len(ids))
	for _, id := range ids {
		msg, err := svc.Users.Messages.Get("me", id).Format("metadata").
			MetadataHeaders("From", "Subject", "Message-ID", "References", "Date").Context(ctx).Do()
		if statusOf(err) == http.StatusNotFound {
			continue // deleted since
		}
		if err != nil {
			return nil, 0, fmt.Errorf("gmail get message: %w", unavailable(err))
		}
		if !hasScope(msg.LabelIds, "INBOX") {
			continue
		}
		msgs = append(msgs, inboxMessage(userID, msg))
	}
	return msgs, historyID, nil
}

// history lists the messages added since from, in order, each once, and
// the history id to continue from.
func (m *Mail) history(ctx context.Context, svc *gmail.Service, from uint64) ([]string, uint64, error) {
	var ids []string
	seen := map[string]bool{}
	last := from
	call := svc.Users.History.List("me").StartHistoryId(from).HistoryTypes("messageAdded").Context(ctx)
	err := call.Pages(ctx, func(r *gmail.ListHistoryResponse) error {
		for _, h := range r.History {
			for _, a := range h.MessagesAdded {
				if a.Message == nil || seen[a.Message.Id] || !hasScope(a.Message.LabelIds, "INBOX") {
					continue
				}
				seen[a.Message.Id] = true
				ids = append(ids, a.Message.Id)
			}
		}
		last = max(last, r.HistoryId)
		return nil
	})
	return ids, last, err
}

// inboxMessage reads a message's metadata.
func inboxMessage(userID int64, msg *gmail.Message) hearth.InboxMessage {
	im := hearth.InboxMessage{UserID: userID, ExternalID: msg.Id, ThreadID: msg.ThreadId, Snippet: msg.Snippet,
		Unread: hasScope(msg.LabelIds, "UNREAD"), Important: hasScope(msg.LabelIds, "IMPORTANT") || hasScope(msg.LabelIds, "STARRED"),
		ReceivedAt: time.UnixMilli(msg.InternalDate).UTC()}
	if msg.Payload != nil {
		for _, h := range msg.Payload.Headers {
			switch strings.ToLower(h.Name) {
			case "from":
				if a, err := mail.ParseAddress(h.Value); err == nil {
					im.From, im.FromName = strings.ToLower(a.Address), a.Name
				} else {
					im.From = h.Value
				}
			case "subject":
				if s, err := new(mime.WordDecoder).DecodeHeader(h.Value); err == nil {
					im.Subject = s
				} else {
					im.Subject = h.Value
				}
			case "message-id":
				im.MessageID = strings.TrimSpace(h.Value)
			case "references":
				im.References = oneLine(h.Value)
			}
		}
	}
	return im
}
