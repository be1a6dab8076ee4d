package signin

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	"github.com/hearthbot/hearth/internal/httpreply"
)

// Accounts exports and deletes a person's account.
type Accounts interface {
	// ExportUser returns everything Hearth holds about the user, as JSON.
	ExportUser(ctx context.Context, userID int64) (json.RawMessage, error)
	// DeleteUser removes the user and everything of theirs, except what
	// belongs to their family.
	DeleteUser(ctx context.Context, userID int64) error
}

// DeleteConfirmation must be sent to delete an account, so a stray
// request cannot.
const DeleteConfirmation = "delete my account"

// export answers the signed-in user's data as a downloadable file.
func (s *Service) export(w http.ResponseWriter, r *http.Request) {
	userID, _, err := s.session(r)
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	data, err := s.cfg.Store.ExportUser(r.Context(), userID)
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Disposition", `attachment; filename="hearth-export-`+time.Now().UTC().Format("2006-01-02")+`.json"`)
	w.Write(data) //nolint:errcheck // the client went away
}

type deleteRequest struct {
	Confirm string `json:"confirm"`
}

// deleteAccount removes the signed-in user (after the typed confirmation)
// and ends the session.
func (s *Service) deleteAccount(w http.ResponseWriter, r *http.Request) {
	userID, _, err := s.session(r)
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	var req deleteRequest
	if !decode(w, r, &req) {
		return
	}
	if req.Confirm != DeleteConfirmation {
		httpreply.Reason(w, http.StatusBadRequest, `confirm must be "`+DeleteConfirmation+`"`)
		return
	}
	if err := s.cfg.Store.DeleteUser(r.Context(), userID); err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	s.cfg.Logger.InfoContext(r.Context(), "account deleted by its user", "user", userID)
	http.SetCookie(w, &http.Cookie{Name: s.cookieName(), Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: s.cfg.Secure, SameSite: http.SameSiteStrictMode})
	httpreply.JSON(w, http.StatusOK, map[string]bool{"deleted": true})
}
