// Package httpreply writes Hearth's JSON answers to HTTP requests. It is
// the one place where an error's code (hearth.Code) becomes an HTTP
// status, so the web chat API, the Slack and Telegram webhooks and every
// other endpoint answer the same failure the same way.
package httpreply

import (
	"encoding/json"
	"log/slog"
	"net/http"

	"github.com/hearthbot/hearth"
)

// JSON answers with status and v encoded as JSON.
func JSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v) //nolint:errcheck // the client went away; nothing to do
}

// Reason answers with status and {"error": reason}.
func Reason(w http.ResponseWriter, status int, reason string) {
	JSON(w, status, map[string]string{"error": reason})
}

// Status returns the HTTP status for err's code: bad input is the
// client's to fix (400), a missing thing 404, a clash 409, an unverified
// sender 401, an unreachable dependency the client's to retry (503), and
// anything else is ours (500).
func Status(err error) int {
	switch hearth.ErrorCode(err) {
	case hearth.EInvalid:
		return http.StatusBadRequest
	case hearth.ENotFound:
		return http.StatusNotFound
	case hearth.EConflict:
		return http.StatusConflict
	case hearth.EUnauthorized:
		return http.StatusUnauthorized
	case hearth.EUnavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// Error answers err with its status and a short reason. The reason of an
// invalid request is its message, which was written to be shown; other
// codes get a fixed phrase. A 503 asks the client to retry in a second.
// Internal errors are logged with the request's path (log may be nil) and
// reach the client only as "internal error".
func Error(w http.ResponseWriter, r *http.Request, log *slog.Logger, err error) {
	status := Status(err)
	reason := "internal error"
	switch status {
	case http.StatusBadRequest, http.StatusConflict, http.StatusUnauthorized:
		reason = hearth.ErrorMessage(err)
	case http.StatusNotFound:
		reason = "not found"
	case http.StatusServiceUnavailable:
		w.Header().Set("Retry-After", "1")
		reason = "temporarily unavailable, try again"
	default:
		if log != nil {
			log.ErrorContext(r.Context(), "request failed", "path", r.URL.Path, "error", err)
		}
	}
	Reason(w, status, reason)
}
