package googletest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"mime"
	"mime/quotedprintable"
	"net/http"
	"net/mail"
	"sort"
	"strconv"
	"strings"
	"time"

	gmail "google.golang.org/api/gmail/v1"
)

// ScopeGmail is the scope the fake's Gmail API asks of a caller.
const ScopeGmail = "https://www.googleapis.com/auth/gmail.modify"

// The fake Gmail: drafts (create, update, get, delete, send), messages
// (list by rfc822msgid: or label, get), the profile, users.history
// (messageAdded records), and users.watch / users.stop (the push watch on
// a Pub/Sub topic; GmailPush makes the delivery Pub/Sub would post). A
// caller without ScopeGmail is refused 403.

type mailbox struct {
	history  uint64
	drafts   map[string]*fakeMessage // draft id → message
	messages map[string]*fakeMessage // message id → message
	// added are the history records: message ids added at each history id.
	added []historyRecord
	// floor: history ids below it answer 404 (too old).
	floor uint64
	// topic is the Pub/Sub topic users.watch named ("" when not
	// watched), until watchExpires.
	topic        string
	watchExpires time.Time
}

type historyRecord struct {
	id  uint64
	msg string
}

type fakeMessage struct {
	id, threadID string
	labels       []string
	raw          []byte
	at           time.Time
}

// Mail is a message as the fake holds it, parsed.
type Mail struct {
	ID, ThreadID string
	Labels       []string
	// Header is the message's header, MIME words not decoded.
	Header mail.Header
	// Subject and From are decoded.
	Subject, From string
	Body          string
	Raw           []byte
}

func (s *Server) mailbox(email string) *mailbox {
	if s.mail == nil {
		s.mail = map[string]*mailbox{}
	}
	m := s.mail[email]
	if m == nil {
		m = &mailbox{history: 1000, drafts: map[string]*fakeMessage{}, messages: map[string]*fakeMessage{}}
		s.mail[email] = m
	}
	return m
}

func parseMail(m *fakeMessage) Mail {
	out := Mail{ID: m.id, ThreadID: m.threadID, Labels: append([]string(nil), m.labels...), Raw: m.raw}
	msg, err := mail.ReadMessage(bytes.NewReader(m.raw))
	if err != nil {
		return out
	}
	out.Header = msg.Header
	dec := new(mime.WordDecoder)
	out.Subject, _ = dec.DecodeHeader(msg.Header.Get("Subject"))
	out.From, _ = dec.DecodeHeader(msg.Header.Get("From"))
	body, _ := io.ReadAll(msg.Body)
	if strings.EqualFold(msg.Header.Get("Content-Transfer-Encoding"), "quoted-printable") {
		out.Body = decodeQP(body)
	} else if strings.EqualFold(msg.Header.Get("Content-Transfer-Encoding"), "base64") {
		b, _ := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(string(body)), ""))
		out.Body = string(b)
	} else {
		out.Body = string(body)
	}
	return out
}

// Drafts returns the account's Gmail drafts, parsed, by id.
func (s *Server) Drafts(email string) []Mail {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Mail
	for id, m := range s.mailbox(email).drafts {
		p := parseMail(m)
		p.ID = id
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Sent returns the messages the account sent, oldest first.
func (s *Server) Sent(email string) []Mail {
	return s.labelled(email, "SENT")
}

func (s *Server) labelled(email, label string) []Mail {
	s.mu.Lock()
	defer s.mu.Unlock()
	var ms []*fakeMessage
	for _, m := range s.mailbox(email).messages {
		if contains(m.labels, label) {
			ms = append(ms, m)
		}
	}
	sort.Slice(ms, func(i, j int) bool {
		return ms[i].at.Before(ms[j].at) || ms[i].at.Equal(ms[j].at) && ms[i].id < ms[j].id
	})
	out := make([]Mail, len(ms))
	for i, m := range ms {
		out[i] = parseMail(m)
	}
	return out
}

// Deliver puts a message in the account's inbox (unread) as mail arriving
// would, with a history record, and returns its id. raw is the whole
// RFC 5322 message; threadID may be empty for a new thread.
func (s *Server) Deliver(email, threadID string, raw string, labels ...string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addMessage(s.mailbox(email), threadID, []byte(raw), append([]string{"INBOX", "UNREAD"}, labels...))
}

// AddSent puts a message in the account's sent mail, as if the user had
// sent it from Gmail, and returns its id.
func (s *Server) AddSent(email, raw string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.addMessage(s.mailbox(email), "", []byte(raw), []string{"SENT"})
}

// SendDraft sends a draft as Gmail would (a send whose answer Hearth
// never got) and returns the sent message's id, or "" with no such draft.
func (s *Server) SendDraft(email, draftID string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	mb := s.mailbox(email)
	m := mb.drafts[draftID]
	if m == nil {
		return ""
	}
	s.sendLocked(mb, draftID, m)
	return m.id
}

func (s *Server) sendLocked(mb *mailbox, draftID string, m *fakeMessage) {
	delete(mb.drafts, draftID)
	mb.history++
	m.labels = []string{"SENT"}
	m.at = time.Now()
	mb.messages[m.id] = m
	mb.added = append(mb.added, historyRecord{id: mb.history, msg: m.id})
}

// GmailWatch returns the Pub/Sub topic the account's mailbox is watched
// on ("" when it is not) and when the watch expires.
func (s *Server) GmailWatch(email string) (topic string, expires time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mb := s.mailbox(email)
	return mb.topic, mb.watchExpires
}

// GmailPush returns the body Pub/Sub posts to a push subscription when
// the account's mailbox changed: the envelope whose message.data is the
// base64 of {"emailAddress", "historyId"} at the mailbox's current
// history id.
func (s *Server) GmailPush(email string) []byte {
	s.mu.Lock()
	h := s.mailbox(email).history
	s.mu.Unlock()
	data, _ := json.Marshal(map[string]string{"emailAddress": email, "historyId": strconv.FormatUint(h, 10)})
	body, _ := json.Marshal(map[string]any{
		"message":      map[string]any{"data": base64.StdEncoding.EncodeToString(data), "messageId": newID(), "publishTime": time.Now().UTC().Format(time.RFC3339Nano)},
		"subscription": "projects/hearth-test/subscriptions/gmail-push",
	})
	return body
}

// ExpireHistory makes every history id given so far too old (404).
func (s *Server) ExpireHistory(email string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	mb := s.mailbox(email)
	mb.history++
	mb.floor = mb.history
}

func (s *Server) addMessage(mb *mailbox, threadID string, raw []byte, labels []string) string {
	id := newID()
	if threadID == "" {
		threadID = "t" + id
	}
	mb.history++
	mb.messages[id] = &fakeMessage{id: id, threadID: threadID, labels: labels, raw: raw, at: time.Now()}
	mb.added = append(mb.added, historyRecord{id: mb.history, msg: id})
	return id
}

func hasScope(a *account, scope string) bool {
	return contains(a.scopes, scope) || contains(a.scopes, "https://mail.google.com/")
}

func (s *Server) gmailAPI(w http.ResponseWriter, r *http.Request) {
	a := s.caller(r)
	if a == nil {
		apiError(w, http.StatusUnauthorized, "invalid credentials")
		return
	}
	s.mu.Lock()
	ok := hasScope(a, ScopeGmail)
	s.mu.Unlock()
	if !ok {
		apiError(w, http.StatusForbidden, "Request had insufficient authentication scopes.")
		return
	}
	rest, _ := strings.CutPrefix(r.URL.Path, "/gmail/v1/users/me/")
	parts := strings.Split(rest, "/")
	s.mu.Lock()
	defer s.mu.Unlock()
	mb := s.mailbox(a.email)
	switch {
	case rest == "watch" && r.Method == http.MethodPost:
		var req gmail.WatchRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.TopicName == "" {
			apiError(w, http.StatusBadRequest, "a watch needs a topicName")
			return
		}
		mb.topic, mb.watchExpires = req.TopicName, time.Now().Add(7*24*time.Hour)
		writeJSON(w, gmail.WatchResponse{HistoryId: mb.history, Expiration: mb.watchExpires.UnixMilli()})
	case rest == "stop" && r.Method == http.MethodPost:
		mb.topic, mb.watchExpires = "", time.Time{}
		w.WriteHeader(http.StatusNoContent)
	case rest == "profile" && r.Method == http.MethodGet:
		writeJSON(w, gmail.Profile{EmailAddress: a.email, HistoryId: mb.history})
	case rest == "drafts" && r.Method == http.MethodPost:
		var d gmail.Draft
		raw, ok := draftRaw(w, r, &d)
		if !ok {
			return
		}
		id := "r" + newID()
		msgID := newID()
		th := d.Message.ThreadId
		if th == "" {
			th = "t" + msgID
		}
		mb.drafts[id] = &fakeMessage{id: msgID, threadID: th, labels: []string{"DRAFT"}, raw: raw, at: time.Now()}
		writeJSON(w, gmail.Draft{Id: id, Message: &gmail.Message{Id: msgID, ThreadId: th}})
	case rest == "drafts/send" && r.Method == http.MethodPost:
		var d gmail.Draft
		json.NewDecoder(r.Body).Decode(&d)
		m := mb.drafts[d.Id]
		if m == nil {
			apiError(w, http.StatusNotFound, "Requested entity was not found.")
			return
		}
		s.sendLocked(mb, d.Id, m)
		writeJSON(w, gmail.Message{Id: m.id, ThreadId: m.threadID, LabelIds: m.labels})
	case len(parts) == 2 && parts[0] == "drafts":
		m := mb.drafts[parts[1]]
		if m == nil {
			apiError(w, http.StatusNotFound, "Requested entity was not found.")
			return
		}
		switch r.Method {
		case http.MethodGet:
			writeJSON(w, gmail.Draft{Id: parts[1], Message: &gmail.Message{Id: m.id, ThreadId: m.threadID}})
		case http.MethodDelete:
			delete(mb.drafts, parts[1])
			w.WriteHeader(http.StatusNoContent)
		case http.MethodPut:
			var d gmail.Draft
			raw, ok := draftRaw(w, r, &d)
			if !ok {
				return
			}
			m.raw = raw
			writeJSON(w, gmail.Draft{Id: parts[1], Message: &gmail.Message{Id: m.id, ThreadId: m.threadID}})
		default:
			apiError(w, http.StatusMethodNotAllowed, "method")
		}
	case rest == "messages" && r.Method == http.MethodGet:
		s.listMessages(w, r, mb)
	case len(parts) == 2 && parts[0] == "messages" && r.Method == http.MethodGet:
		m := mb.messages[parts[1]]
		if m == nil {
			apiError(w, http.StatusNotFound, "Requested entity was not found.")
			return
		}
		writeJSON(w, messageOut(m, r.URL.Query().Get("format")))
	case rest == "history" && r.Method == http.MethodGet:
		start, err := strconv.ParseUint(r.URL.Query().Get("startHistoryId"), 10, 64)
		if err != nil || start < mb.floor {
			apiError(w, http.StatusNotFound, "Requested entity was not found.")
			return
		}
		out := gmail.ListHistoryResponse{HistoryId: mb.history}
		for _, h := range mb.added {
			if h.id > start {
				m := mb.messages[h.msg]
				out.History = append(out.History, &gmail.History{Id: h.id, MessagesAdded: []*gmail.HistoryMessageAdded{
					{Message: &gmail.Message{Id: m.id, ThreadId: m.threadID, LabelIds: m.labels}}}})
			}
		}
		writeJSON(w, out)
	default:
		apiError(w, http.StatusNotFound, "no such Gmail endpoint in the fake")
	}
}

// draftRaw decodes a draft with a base64url raw message.
func draftRaw(w http.ResponseWriter, r *http.Request, d *gmail.Draft) ([]byte, bool) {
	if err := json.NewDecoder(r.Body).Decode(d); err != nil || d.Message == nil {
		apiError(w, http.StatusBadRequest, "a draft needs a message")
		return nil, false
	}
	raw, err := base64.URLEncoding.DecodeString(d.Message.Raw)
	if err != nil {
		raw, err = base64.RawURLEncoding.DecodeString(d.Message.Raw)
	}
	if err != nil {
		apiError(w, http.StatusBadRequest, "raw is not base64url")
		return nil, false
	}
	if _, err := mail.ReadMessage(bytes.NewReader(raw)); err != nil {
		apiError(w, http.StatusBadRequest, "Invalid RFC 5322 message: "+err.Error())
		return nil, false
	}
	return raw, true
}

func (s *Server) listMessages(w http.ResponseWriter, r *http.Request, mb *mailbox) {
	q := r.URL.Query()
	var out gmail.ListMessagesResponse
	var ms []*fakeMessage
	for _, m := range mb.messages {
		ms = append(ms, m)
	}
	sort.Slice(ms, func(i, j int) bool {
		return ms[i].at.After(ms[j].at) || ms[i].at.Equal(ms[j].at) && ms[i].id > ms[j].id
	})
	for _, m := range ms {
		if !matches(m, q.Get("q"), q["labelIds"]) {
			continue
		}
		out.Messages = append(out.Messages, &gmail.Message{Id: m.id, ThreadId: m.threadID})
		if n, _ := strconv.Atoi(q.Get("maxResults")); n > 0 && len(out.Messages) >= n {
			break
		}
	}
	out.ResultSizeEstimate = int64(len(out.Messages))
	writeJSON(w, out)
}

// matches understands the queries Hearth makes: rfc822msgid:ID, in:sent,
// is:unread.
func matches(m *fakeMessage, query string, labels []string) bool {
	for _, l := range labels {
		if !contains(m.labels, l) {
			return false
		}
	}
	p := parseMail(m)
	for _, term := range strings.Fields(query) {
		k, v, _ := strings.Cut(term, ":")
		switch k {
		case "rfc822msgid":
			if strings.Trim(p.Header.Get("Message-Id"), "<>") != strings.Trim(v, "<>") {
				return false
			}
		case "in", "is", "label":
			if !contains(m.labels, strings.ToUpper(v)) {
				return false
			}
		}
	}
	return true
}

func messageOut(m *fakeMessage, format string) *gmail.Message {
	p := parseMail(m)
	snippet := strings.Join(strings.Fields(p.Body), " ")
	if len(snippet) > 200 {
		snippet = snippet[:200]
	}
	out := &gmail.Message{Id: m.id, ThreadId: m.threadID, LabelIds: m.labels, Snippet: snippet, InternalDate: m.at.UnixMilli(),
		SizeEstimate: int64(len(m.raw))}
	if format == "raw" {
		out.Raw = base64.URLEncoding.EncodeToString(m.raw)
		return out
	}
	out.Payload = &gmail.MessagePart{MimeType: p.Header.Get("Content-Type")}
	for k, vs := range p.Header {
		for _, v := range vs {
			out.Payload.Headers = append(out.Payload.Headers, &gmail.MessagePartHeader{Name: k, Value: v})
		}
	}
	sort.Slice(out.Payload.Headers, func(i, j int) bool { return out.Payload.Headers[i].Name < out.Payload.Headers[j].Name })
	if format == "full" || format == "" {
		out.Payload.Body = &gmail.MessagePartBody{Data: base64.URLEncoding.EncodeToString([]byte(p.Body)), Size: int64(len(p.Body))}
	}
	return out
}

// decodeQP decodes a quoted-printable body.
func decodeQP(b []byte) string {
	out, err := io.ReadAll(quotedprintable.NewReader(bytes.NewReader(b)))
	if err != nil {
		return string(b)
	}
	return string(out)
}
