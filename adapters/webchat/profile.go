package webchat

import (
	"context"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hearthbot/hearth/internal/httpreply"
)

// Names sets what a user is called in what Hearth writes for them (drafts
// are signed with it), apart from the name they sign in with.
type Names interface {
	SetDisplayName(ctx context.Context, userID int64, name string) error
}

// Google connects a user's Google account from the page; nil when Google
// is not configured on this Hearth.
type Google interface {
	// ConsentURL is the consent link, the one the chat command gives.
	ConsentURL(userID int64) string
	// Connection is the account connected (email) and whether Hearth may
	// still use it.
	Connection(ctx context.Context, userID int64) (email string, connected bool, err error)
}

// cleanName trims a name and says what is wrong with it, if anything.
func cleanName(raw string) (name, reason string) {
	name = strings.Join(strings.Fields(raw), " ")
	switch {
	case name == "":
		return "", "is required"
	case !utf8.ValidString(name):
		return "", "is not valid UTF-8"
	case utf8.RuneCountInString(name) > MaxNameRunes:
		return "", "is longer than 64 characters"
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return "", "contains control characters"
	}
	return name, ""
}

type googleResponse struct {
	// Configured is false when this Hearth has no Google client: the page
	// shows no button then.
	Configured bool   `json:"configured"`
	Connected  bool   `json:"connected"`
	Account    string `json:"account,omitempty"`
	// URL is the consent link (POST .../google/connect only).
	URL string `json:"url,omitempty"`
}

// google answers whether the caller's Google account is connected, and
// which.
func (h *Handler) google(w http.ResponseWriter, r *http.Request) {
	_, key, ok := h.caller(w, r, r.URL.Query().Get("user"))
	if !ok {
		return
	}
	if h.cfg.Google == nil {
		httpreply.JSON(w, http.StatusOK, googleResponse{})
		return
	}
	c, ok := h.contact(w, r, key)
	if !ok {
		return
	}
	email, connected, err := h.cfg.Google.Connection(r.Context(), c.User.ID)
	if err != nil {
		httpreply.Error(w, r, h.cfg.Logger, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	httpreply.JSON(w, http.StatusOK, googleResponse{Configured: true, Connected: connected, Account: email})
}

type userRequest struct {
	User string `json:"user"`
}

// googleConnect starts the consent flow for the caller: the same signed,
// 10-minute link the "connect google" command answers with.
func (h *Handler) googleConnect(w http.ResponseWriter, r *http.Request) {
	var req userRequest
	if !decode(w, r, &req) {
		return
	}
	_, key, ok := h.caller(w, r, req.User)
	if !ok {
		return
	}
	if h.cfg.Google == nil {
		httpreply.Reason(w, http.StatusNotFound, "Google is not set up on this Hearth (HEARTH_GOOGLE_CLIENT_ID, HEARTH_GOOGLE_CLIENT_SECRET, HEARTH_ENCRYPTION_KEY)")
		return
	}
	c, ok := h.contact(w, r, key)
	if !ok {
		return
	}
	httpreply.JSON(w, http.StatusOK, googleResponse{Configured: true, URL: h.cfg.Google.ConsentURL(c.User.ID)})
}
