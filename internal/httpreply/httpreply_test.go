package httpreply_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/httpreply"
)

func TestError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err        error
		status     int
		reason     string
		retryAfter string
	}{
		{hearth.Invalidf("text is empty"), 400, "text is empty", ""},
		{fmt.Errorf("accept: %w", hearth.Invalidf("user is required")), 400, "user is required", ""},
		{fmt.Errorf("message 7: %w", hearth.ErrNotFound), 404, "not found", ""},
		{hearth.Errorf(hearth.EConflict, "that code was used"), 409, "that code was used", ""},
		{hearth.Errorf(hearth.EUnauthorized, "wrong secret"), 401, "wrong secret", ""},
		{fmt.Errorf("store: %w", hearth.ErrUnavailable), 503, "temporarily unavailable, try again", "1"},
		{errors.New("boom: password=secret"), 500, "internal error", ""},
		{hearth.ErrPermanent, 500, "internal error", ""},
	}
	for _, tt := range tests {
		w := httptest.NewRecorder()
		httpreply.Error(w, httptest.NewRequest(http.MethodPost, "/x", nil), nil, tt.err)
		var body struct{ Error string }
		if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
			t.Fatalf("%v: body %q: %v", tt.err, w.Body, err)
		}
		if w.Code != tt.status || body.Error != tt.reason || w.Header().Get("Retry-After") != tt.retryAfter {
			t.Errorf("Error(%v) = %d %q Retry-After %q; want %d %q %q", tt.err, w.Code, body.Error,
				w.Header().Get("Retry-After"), tt.status, tt.reason, tt.retryAfter)
		}
	}
}
