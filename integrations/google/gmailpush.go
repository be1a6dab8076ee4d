package google

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/mail"
	"regexp"
	"strconv"
	"strings"
	"time"

	gmail "google.golang.org/api/gmail/v1"

	"github.com/hearthbot/hearth"
)

// Gmail push through Pub/Sub. With HEARTH_GMAIL_PUBSUB_TOPIC and a public
// URL, every mailbox that granted Gmail is watched (users.watch on the
// topic, renewed a day before its 7-day expiry by the periodic poll); the
// operator's push subscription on that topic posts to GmailPushURL, whose
// token proves the push came through it. A push enqueues the history poll
// of the mailbox it names, in the transaction that notes it; polling at
// its interval stays the fallback (a lost push delays mail, never loses
// it).

// GmailPushPath is where Pub/Sub pushes Gmail's notifications.
const GmailPushPath = "/webhooks/google/gmail"

// maxPushBody bounds a push delivery's body (Gmail's are a few hundred
// bytes).
const maxPushBody = 64 << 10

// reTopic is a Pub/Sub topic's full name.
var reTopic = regexp.MustCompile(`^projects/[A-Za-z0-9][A-Za-z0-9.:_-]{0,99}/topics/[A-Za-z][A-Za-z0-9._~+%-]{0,254}$`)

// CheckTopic checks HEARTH_GMAIL_PUBSUB_TOPIC: empty, or a topic's full
// name.
func CheckTopic(topic string) error {
	if topic != "" && !reTopic.MatchString(topic) {
		return fmt.Errorf("google: HEARTH_GMAIL_PUBSUB_TOPIC %q is not a Pub/Sub topic (want projects/PROJECT/topics/TOPIC)", topic)
	}
	return nil
}

// gmailPush reports whether mailboxes are watched: a topic to watch on
// and a public URL for its subscription to push to.
func (g *Google) gmailPush() bool { return g.cfg.GmailTopic != "" && g.cfg.PublicURL != "" }

// GmailPushURL is the push endpoint the operator gives the Pub/Sub
// subscription of HEARTH_GMAIL_PUBSUB_TOPIC, token included (a secret:
// anyone holding it can make Hearth poll a mailbox early, nothing more);
// "" when Gmail push is not configured.
func (g *Google) GmailPushURL() string {
	if !g.gmailPush() {
		return ""
	}
	return GmailPushEndpoint(g.cfg.PublicURL, g.cfg.Keys)
}

// GmailPushEndpoint is the Gmail push URL of a Hearth reached at
// publicURL with keys (what GmailPushURL returns, for `bot doctor`).
func GmailPushEndpoint(publicURL string, keys *Keys) string {
	return strings.TrimRight(publicURL, "/") + GmailPushPath + "?token=" + keys.PushToken()
}

// PushNotice is what a Gmail push says: which mailbox changed, and the
// history id it reached.
type PushNotice struct {
	EmailAddress string
	HistoryID    uint64
}

// ParsePush reads a Pub/Sub push delivery of a Gmail notification: a JSON
// envelope whose message.data is base64 of {"emailAddress", "historyId"}.
// Anything else is an error saying what is wrong.
func ParsePush(body []byte) (PushNotice, error) {
	var env struct {
		Message *struct {
			Data string `json:"data"`
		} `json:"message"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return PushNotice{}, errors.New("the body is not a Pub/Sub push (JSON)")
	}
	if env.Message == nil || env.Message.Data == "" {
		return PushNotice{}, errors.New("the push has no message.data")
	}
	raw, err := base64.StdEncoding.DecodeString(env.Message.Data)
	if err != nil {
		if raw, err = base64.URLEncoding.DecodeString(env.Message.Data); err != nil {
			return PushNotice{}, errors.New("message.data is not base64")
		}
	}
	var n struct {
		EmailAddress string      `json:"emailAddress"`
		HistoryID    json.Number `json:"historyId"`
	}
	if err := json.Unmarshal(raw, &n); err != nil {
		return PushNotice{}, errors.New("message.data is not a Gmail notification (JSON)")
	}
	a, err := mail.ParseAddress(n.EmailAddress)
	if err != nil || a.Address != strings.TrimSpace(n.EmailAddress) {
		return PushNotice{}, errors.New("the notification's emailAddress is not an address")
	}
	h, err := strconv.ParseUint(n.HistoryID.String(), 10, 64)
	if err != nil || h == 0 {
		return PushNotice{}, errors.New("the notification's historyId is not a history id")
	}
	return PushNotice{EmailAddress: a.Address, HistoryID: h}, nil
}

// PushWebhook takes Pub/Sub's push deliveries of Gmail notifications. A
// missing or wrong token is 403 and nothing is enqueued, as is, when push
// tokens are required, a missing or invalid signed one (pushauth.go); a malformed body
// is 400 with the reason; a mailbox Hearth does not watch is 204 (so
// Pub/Sub stops retrying); otherwise one transaction notes the push and
// enqueues the mailbox's history poll (unique while it waits: a burst of
// pushes is one poll), then 204. A database that cannot take it is 503,
// which Pub/Sub retries.
func (m *Mail) PushWebhook(w http.ResponseWriter, r *http.Request) {
	if !m.g.cfg.Keys.ValidPushToken(r.URL.Query().Get("token")) {
		http.Error(w, "wrong token", http.StatusForbidden)
		return
	}
	if pa := m.g.pushAuth; pa != nil {
		if err := pa.verify(r.Context(), r.Header.Get("Authorization")); err != nil {
			// The reason helps an operator whose subscription names
			// another audience or account; the token is never logged.
			m.g.cfg.Log.Warn("gmail push refused", "reason", err)
			http.Error(w, "wrong token", http.StatusForbidden)
			return
		}
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxPushBody))
	if err != nil {
		http.Error(w, "the body is too large or broken", http.StatusRequestEntityTooLarge)
		return
	}
	n, err := ParsePush(body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	if err := m.enqueuePush(r.Context(), n); err != nil {
		m.g.cfg.Log.Error("gmail push not enqueued", "error", err)
		http.Error(w, "try again", http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// enqueuePush notes a push and enqueues the poll of each mailbox it
// names, in one transaction. The poll's round is the polls begun so far:
// pushes before the next poll begins share its job, and a push while a
// poll runs gets the one after it.
func (m *Mail) enqueuePush(ctx context.Context, n PushNotice) error {
	if m.g.cfg.Queue == nil {
		return errors.New("no queue")
	}
	tx, err := m.g.cfg.Store.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck // after commit, a no-op
	boxes, err := m.st.MarkGmailPushTx(ctx, tx, ScopeGmail, n.EmailAddress)
	if err != nil {
		return err
	}
	for _, b := range boxes {
		if _, err := m.g.cfg.Queue.InsertTx(ctx, tx, MailPollArgs{UserID: b.UserID, Round: b.PollsBegun}, nil); err != nil {
			return fmt.Errorf("enqueue mail poll: %w", err)
		}
	}
	return tx.Commit(ctx)
}

// Watch asks Gmail to push the user's inbox changes to the topic
// (users.watch), when push is configured and their watch is missing or
// expires within RenewBefore; every poll calls it, so the periodic poll
// renews each watch a day before it expires. Calling watch again
// replaces the watch: nothing to stop.
func (m *Mail) Watch(ctx context.Context, userID int64) error {
	if !m.g.gmailPush() {
		return nil
	}
	box, err := m.st.GmailMailbox(ctx, userID)
	if err != nil {
		return err
	}
	if box.WatchExpiresAt.After(m.g.cfg.Now().Add(m.g.cfg.RenewBefore)) {
		return nil
	}
	svc, _, err := m.gmailFor(ctx, userID)
	if err != nil || svc == nil {
		return err
	}
	res, err := svc.Users.Watch("me", &gmail.WatchRequest{
		TopicName: m.g.cfg.GmailTopic, LabelIds: []string{"INBOX"}, LabelFilterBehavior: "include",
	}).Context(ctx).Do()
	if errors.Is(err, ErrRevoked) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("gmail watch: %w", unavailable(err))
	}
	expires := time.UnixMilli(res.Expiration)
	if res.Expiration == 0 {
		expires = m.g.cfg.Now().Add(7 * 24 * time.Hour) // Gmail's lifetime
	}
	return m.st.SetGmailWatch(ctx, userID, expires)
}

// stopGmailWatch stops the account's Gmail push (users.stop), when push
// is configured and Gmail was granted; replaced when the user connected
// another account in its place (accountClient). A failure is logged (the
// watch lapses within 7 days, and its pushes find no account).
func (g *Google) stopGmailWatch(ctx context.Context, a hearth.GoogleAccount, replaced bool) {
	if g.cfg.GmailTopic == "" || !hasScope(a.Scopes, ScopeGmail) {
		return
	}
	svc, err := g.gmailService(ctx, a, replaced)
	if err == nil {
		err = svc.Users.Stop("me").Context(ctx).Do()
	}
	if err != nil && statusOf(err) != http.StatusNotFound {
		g.cfg.Log.Warn("gmail users.stop failed; the watch will lapse on its own", "user", a.UserID, "error", err)
	}
}
