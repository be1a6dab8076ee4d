// Package webchat is Hearth's built-in chat channel: a page served by the
// bot itself and the small JSON API behind it, which is also how scripts
// and tests talk to Hearth. Who is calling is decided by Config.Sessions
// (real sign-in: package signin); without it, by the name in the request,
// which is development sign-in for a loopback listener only.
package webchat

import (
	"bytes"
	"context"
	"crypto/rand"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/httpreply"
	"github.com/hearthbot/hearth/pipeline"
)

// MaxBodyBytes bounds a request body; larger ones get 413.
const MaxBodyBytes = 1 << 20

// MaxNameRunes bounds a sign-in name.
const MaxNameRunes = 64

// pageSize is how many messages one GET returns at most.
const pageSize = 200

//go:embed static
var static embed.FS

// Inbox accepts inbound events onto the durable path.
type Inbox interface {
	Accept(ctx context.Context, in hearth.Inbound) (hearth.Receipt, error)
}

// Contacts finds and creates users by their web chat name.
type Contacts interface {
	SignIn(ctx context.Context, ch hearth.Channel, userKey, userName, convKey, tz string) (hearth.Contact, error)
	FindContact(ctx context.Context, ch hearth.Channel, userKey, convKey string) (hearth.Contact, error)
}

// Transcript reads a conversation's visible messages after a cursor.
type Transcript interface {
	Messages(ctx context.Context, conversationID, after int64, limit int) ([]hearth.Message, error)
}

// Sessions decides who is calling under real sign-in: the session's
// user, never a name in the request.
type Sessions interface {
	// Caller returns the web chat identity key and name of the request's
	// signed-in user, or a hearth.EUnauthorized error.
	Caller(r *http.Request) (key, name string, err error)
}

// Config is what the web chat needs. Inbox, Contacts and Transcript are
// required.
type Config struct {
	Inbox      Inbox
	Contacts   Contacts
	Transcript Transcript
	// Sessions, when set, decides who is calling and the "user" fields
	// and parameters of the API are ignored. Nil is development sign-in:
	// the name in the request is the user.
	Sessions Sessions
	// Hub wakes live event streams; without one, streams only send
	// heartbeats and clients must poll.
	Hub *Hub
	// Names sets display names (POST /api/webchat/users with
	// display_name); nil: they cannot be changed here.
	Names Names
	// Google is the Connect Google button's back end; nil when Google is
	// not configured.
	Google Google
	// Heartbeat is the interval of keep-alive comments on event streams.
	// Defaults to 25 seconds, under common proxies' idle timeouts.
	Heartbeat time.Duration
	Logger    *slog.Logger
}

// Handler serves the page and the API under /api/webchat/.
type Handler struct {
	cfg Config
	mux *http.ServeMux
}

// New returns the web chat handler.
func New(cfg Config) *Handler {
	if cfg.Heartbeat <= 0 {
		cfg.Heartbeat = 25 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	h := &Handler{cfg: cfg, mux: http.NewServeMux()}
	assets, _ := fs.Sub(static, "static") // the embedded folder always exists
	h.mux.Handle("GET /{$}", http.FileServerFS(assets))
	h.mux.Handle("GET /static/", http.StripPrefix("/static/", http.FileServerFS(assets)))
	h.mux.HandleFunc("POST /api/webchat/users", h.signIn)
	h.mux.HandleFunc("POST /api/webchat/messages", h.postMessage)
	h.mux.HandleFunc("GET /api/webchat/messages", h.getMessages)
	h.mux.HandleFunc("POST /api/webchat/buttons", h.postButton)
	h.mux.HandleFunc("POST /api/webchat/files", h.postFile) // files.go
	h.mux.HandleFunc("GET /api/webchat/events", h.events)
	h.mux.HandleFunc("GET /api/webchat/google", h.google)                 // profile.go
	h.mux.HandleFunc("POST /api/webchat/google/connect", h.googleConnect) // profile.go
	return h
}

// ServeHTTP routes to the page or the API.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h.mux.ServeHTTP(w, r) }

type signInRequest struct {
	User string `json:"user"`
	TZ   string `json:"tz"`
	// DisplayName, when set, changes what the user is called in what
	// Hearth writes for them (drafts are signed with it); the name they
	// sign in with stays.
	DisplayName string `json:"display_name"`
}

type signInResponse struct {
	// User is the display name (kept for older clients).
	User        string `json:"user"`
	DisplayName string `json:"display_name"`
	Timezone    string `json:"timezone"`
}

func (h *Handler) signIn(w http.ResponseWriter, r *http.Request) {
	var req signInRequest
	if !decode(w, r, &req) {
		return
	}
	name, key, ok := h.caller(w, r, req.User)
	if !ok {
		return
	}
	if req.TZ != "" {
		if _, err := pipeline.LoadTimezone(req.TZ); err != nil {
			httpreply.Error(w, r, h.cfg.Logger, err)
			return
		}
	}
	display := ""
	if req.DisplayName != "" {
		var reason string
		if display, reason = cleanName(req.DisplayName); reason != "" {
			httpreply.Reason(w, http.StatusBadRequest, "display_name "+reason)
			return
		}
		if h.cfg.Names == nil {
			httpreply.Reason(w, http.StatusBadRequest, "display names cannot be changed here")
			return
		}
	}
	c, err := h.cfg.Contacts.SignIn(r.Context(), hearth.ChannelWebchat, key, name, key, req.TZ)
	if err != nil {
		httpreply.Error(w, r, h.cfg.Logger, err)
		return
	}
	if display != "" && display != c.User.DisplayName {
		if err := h.cfg.Names.SetDisplayName(r.Context(), c.User.ID, display); err != nil {
			httpreply.Error(w, r, h.cfg.Logger, err)
			return
		}
		c.User.DisplayName = display
	}
	httpreply.JSON(w, http.StatusOK, signInResponse{User: c.User.DisplayName, DisplayName: c.User.DisplayName, Timezone: c.User.Timezone})
}

type postMessageRequest struct {
	User string `json:"user"`
	Text string `json:"text"`
	TZ   string `json:"tz"`
	// ID is an optional client-chosen idempotency key: a retried POST
	// with the same id is acknowledged and not processed again.
	ID string `json:"id"`
}

type acceptedResponse struct {
	ID        int64 `json:"id"`
	Duplicate bool  `json:"duplicate,omitempty"`
}

func (h *Handler) postMessage(w http.ResponseWriter, r *http.Request) {
	var req postMessageRequest
	if !decode(w, r, &req) {
		return
	}
	name, key, ok := h.caller(w, r, req.User)
	if !ok {
		return
	}
	if strings.TrimSpace(req.Text) == "" {
		httpreply.Reason(w, http.StatusBadRequest, "text is required")
		return
	}
	if len(req.ID) > 128 {
		httpreply.Reason(w, http.StatusBadRequest, "id is longer than 128 bytes")
		return
	}
	external := "msg:" + req.ID
	if req.ID == "" {
		external = "msg:" + randomID()
	}
	rec, err := h.cfg.Inbox.Accept(r.Context(), hearth.Inbound{
		Channel:         hearth.ChannelWebchat,
		ExternalID:      external,
		ConversationKey: key,
		UserKey:         key,
		UserName:        name,
		Timezone:        req.TZ,
		Kind:            hearth.KindMessage,
		Text:            req.Text,
	})
	if err != nil {
		httpreply.Error(w, r, h.cfg.Logger, err)
		return
	}
	httpreply.JSON(w, http.StatusAccepted, acceptedResponse{ID: rec.MessageID, Duplicate: rec.Duplicate})
}

type postButtonRequest struct {
	User      string `json:"user"`
	MessageID int64  `json:"message_id"`
	ButtonID  string `json:"button_id"`
}

func (h *Handler) postButton(w http.ResponseWriter, r *http.Request) {
	var req postButtonRequest
	if !decode(w, r, &req) {
		return
	}
	_, key, ok := h.caller(w, r, req.User)
	if !ok {
		return
	}
	if req.MessageID <= 0 || req.ButtonID == "" {
		httpreply.Reason(w, http.StatusBadRequest, "message_id and button_id are required")
		return
	}
	c, ok := h.contact(w, r, key)
	if !ok {
		return
	}
	// One click per button: a double click or a second tab is the same
	// event and is dropped as a duplicate.
	rec, err := h.cfg.Inbox.Accept(r.Context(), hearth.Inbound{
		Channel:         hearth.ChannelWebchat,
		ExternalID:      "click:" + strconv.FormatInt(req.MessageID, 10) + ":" + req.ButtonID,
		ConversationKey: key,
		UserKey:         key,
		UserName:        c.User.DisplayName,
		Kind:            hearth.KindButton,
		MessageID:       req.MessageID,
		ButtonID:        req.ButtonID,
	})
	if err != nil {
		httpreply.Error(w, r, h.cfg.Logger, err)
		return
	}
	httpreply.JSON(w, http.StatusAccepted, acceptedResponse{ID: rec.EventID, Duplicate: rec.Duplicate})
}

// Message is one transcript line as the API shows it.
type Message struct {
	ID        int64           `json:"id"`
	Seq       int64           `json:"seq"`
	From      hearth.Author   `json:"from"`
	Text      string          `json:"text"`
	Buttons   []hearth.Button `json:"buttons"`
	CreatedAt time.Time       `json:"created_at"`
}

type messagesResponse struct {
	Messages []Message `json:"messages"`
	// Cursor is the value to pass as "after" to get only newer messages.
	Cursor string `json:"cursor"`
}

func (h *Handler) getMessages(w http.ResponseWriter, r *http.Request) {
	_, key, ok := h.caller(w, r, r.URL.Query().Get("user"))
	if !ok {
		return
	}
	after, ok := cursor(w, r.URL.Query().Get("after"))
	if !ok {
		return
	}
	c, ok := h.contact(w, r, key)
	if !ok {
		return
	}
	msgs, err := h.cfg.Transcript.Messages(r.Context(), c.ConversationID, after, pageSize)
	if err != nil {
		httpreply.Error(w, r, h.cfg.Logger, err)
		return
	}
	resp := messagesResponse{Messages: make([]Message, 0, len(msgs)), Cursor: strconv.FormatInt(after, 10)}
	for _, m := range msgs {
		resp.Messages = append(resp.Messages, toMessage(m))
		resp.Cursor = strconv.FormatInt(m.Seq, 10)
	}
	httpreply.JSON(w, http.StatusOK, resp)
}

func toMessage(m hearth.Message) Message {
	b := m.Buttons
	if b == nil {
		b = []hearth.Button{}
	}
	return Message{ID: m.ID, Seq: m.Seq, From: m.From, Text: m.Text, Buttons: b, CreatedAt: m.CreatedAt}
}

// events streams new messages as Server-Sent Events. The stream starts
// after the "after" cursor (or the Last-Event-ID a reconnecting browser
// sends), so nothing is missed between a page's history load and its
// stream.
func (h *Handler) events(w http.ResponseWriter, r *http.Request) {
	_, key, ok := h.caller(w, r, r.URL.Query().Get("user"))
	if !ok {
		return
	}
	raw := r.URL.Query().Get("after")
	if id := r.Header.Get("Last-Event-ID"); id != "" {
		raw = id
	}
	after, ok := cursor(w, raw)
	if !ok {
		return
	}
	c, ok := h.contact(w, r, key)
	if !ok {
		return
	}
	rc := http.NewResponseController(w)
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)

	var wake <-chan struct{}
	if h.cfg.Hub != nil {
		ch, cancel := h.cfg.Hub.Subscribe(c.ConversationID)
		defer cancel()
		wake = ch
	}
	beat := time.NewTicker(h.cfg.Heartbeat)
	defer beat.Stop()
	ctx := r.Context()
	for {
		msgs, err := h.cfg.Transcript.Messages(ctx, c.ConversationID, after, pageSize)
		if err != nil {
			if ctx.Err() == nil {
				h.cfg.Logger.WarnContext(ctx, "webchat stream: read messages", "error", err)
			}
			return
		}
		for _, m := range msgs {
			b, _ := json.Marshal(toMessage(m)) // plain structs always marshal
			if _, err := io.WriteString(w, "id: "+strconv.FormatInt(m.Seq, 10)+"\nevent: message\ndata: "+string(b)+"\n\n"); err != nil {
				return
			}
			after = m.Seq
		}
		if err := rc.Flush(); err != nil {
			return
		}
		if len(msgs) == pageSize {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-wake:
		case <-beat.C:
			// A session signed out (here or everywhere) ends its streams.
			if h.cfg.Sessions != nil {
				if _, _, err := h.cfg.Sessions.Caller(r); err != nil {
					return
				}
			}
			if _, err := io.WriteString(w, ": keep-alive\n\n"); err != nil {
				return
			}
		}
	}
}

func (h *Handler) contact(w http.ResponseWriter, r *http.Request, key string) (hearth.Contact, bool) {
	c, err := h.cfg.Contacts.FindContact(r.Context(), hearth.ChannelWebchat, key, key)
	if errors.Is(err, hearth.ErrNotFound) {
		httpreply.Reason(w, http.StatusBadRequest, "unknown user: sign in first")
		return c, false
	}
	if err != nil {
		httpreply.Error(w, r, h.cfg.Logger, err)
		return c, false
	}
	return c, true
}

// decode reads one JSON object from the body, answering 400 or 413 itself
// when it cannot.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBodyBytes))
	if err == nil && !utf8.Valid(body) {
		// encoding/json would quietly turn the bad bytes into U+FFFD.
		httpreply.Reason(w, http.StatusBadRequest, "body is not valid UTF-8")
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err == nil {
		err = dec.Decode(v)
	}
	if err == nil && dec.More() {
		err = errors.New("trailing data")
	}
	if err == nil {
		if _, terr := dec.Token(); terr != io.EOF {
			err = errors.New("trailing data")
		}
	}
	var tooBig *http.MaxBytesError
	switch {
	case err == nil:
		return true
	case errors.As(err, &tooBig):
		httpreply.Reason(w, http.StatusRequestEntityTooLarge, "body is larger than 1 MiB")
	case errors.Is(err, io.EOF):
		httpreply.Reason(w, http.StatusBadRequest, "body is empty; expected a JSON object")
	default:
		var typeErr *json.UnmarshalTypeError
		if errors.As(err, &typeErr) && typeErr.Field != "" {
			httpreply.Reason(w, http.StatusBadRequest, "field "+typeErr.Field+" has the wrong type")
			return false
		}
		httpreply.Reason(w, http.StatusBadRequest, "body is not a valid JSON object")
	}
	return false
}

// caller returns who is calling: the session's user under real sign-in,
// else the name given (development sign-in). It answers itself when it
// cannot tell.
func (h *Handler) caller(w http.ResponseWriter, r *http.Request, given string) (name, key string, ok bool) {
	if h.cfg.Sessions == nil {
		return checkName(w, given)
	}
	key, name, err := h.cfg.Sessions.Caller(r)
	if err != nil {
		httpreply.Error(w, r, h.cfg.Logger, err)
		return "", "", false
	}
	return name, key, true
}

// checkName validates a sign-in name and returns it trimmed, with the key
// it is stored under: case and spacing do not make a different person.
func checkName(w http.ResponseWriter, raw string) (name, key string, ok bool) {
	name, reason := cleanName(raw)
	if reason != "" {
		httpreply.Reason(w, http.StatusBadRequest, "user "+reason)
		return "", "", false
	}
	return name, strings.ToLower(name), true
}

func cursor(w http.ResponseWriter, raw string) (int64, bool) {
	if raw == "" {
		return 0, true
	}
	n, err := strconv.ParseInt(raw, 10, 64)
	if err != nil || n < 0 {
		httpreply.Reason(w, http.StatusBadRequest, "after must be a cursor returned by this API")
		return 0, false
	}
	return n, true
}

func randomID() string {
	var b [16]byte
	rand.Read(b[:]) //nolint:errcheck // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}
