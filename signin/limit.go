package signin

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/hearthbot/hearth/internal/httpreply"
)

// attempt counts a sign-in attempt from the request's client and
// answers 429 itself when there were too many this minute, or 403 when
// the request comes from another site.
func (s *Service) attempt(w http.ResponseWriter, r *http.Request) bool {
	if !s.sameOrigin(r) {
		httpreply.Reason(w, http.StatusForbidden, "sign-in requests must come from Hearth's own page")
		return false
	}
	n, err := s.cfg.Store.CountAttempt(r.Context(), "ip:"+clientIP(r), s.cfg.Now(), time.Minute)
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return false
	}
	if n > s.cfg.AttemptsPerMinute {
		w.Header().Set("Retry-After", "60")
		httpreply.Reason(w, http.StatusTooManyRequests, "too many sign-in attempts; try again in a minute")
		return false
	}
	return true
}

// errAccountLimited: too many sign-in attempts aimed at one account.
var errAccountLimited = errors.New("too many sign-in attempts for this account")

// attemptOn counts a sign-in attempt aimed at one account (key names it:
// "user:ID", "name:NAME"), from whatever address, and answers 429 itself
// when the account had too many this hour.
func (s *Service) attemptOn(w http.ResponseWriter, r *http.Request, key string) bool {
	if err := s.countOn(r.Context(), key); err != nil {
		s.answerLimited(w, r, err)
		return false
	}
	return true
}

// countOn counts an attempt on the account key; errAccountLimited past
// AccountAttemptsPerHour.
func (s *Service) countOn(ctx context.Context, key string) error {
	n, err := s.cfg.Store.CountAttempt(ctx, key, s.cfg.Now(), time.Hour)
	if err != nil {
		return fmt.Errorf("signin: %w", err)
	}
	if n > s.cfg.AccountAttemptsPerHour {
		s.cfg.Logger.WarnContext(ctx, "sign-in attempts on one account limited", "account", key, "attempts", n)
		return errAccountLimited
	}
	return nil
}

// answerLimited answers countOn's error: 429 for a limited account.
func (s *Service) answerLimited(w http.ResponseWriter, r *http.Request, err error) {
	if !errors.Is(err, errAccountLimited) {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	w.Header().Set("Retry-After", "3600")
	httpreply.Reason(w, http.StatusTooManyRequests, "too many sign-in attempts for this account; try again in an hour")
}

// clientIP is the address a request came from: the peer's, or, when the
// peer is a proxy on this machine or a private network, the last address
// it put in X-Forwarded-For.
func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip := net.ParseIP(host)
	if ip != nil && (ip.IsLoopback() || ip.IsPrivate()) {
		if xff := r.Header.Get("X-Forwarded-For"); xff != "" {
			parts := strings.Split(xff, ",")
			if last := strings.TrimSpace(parts[len(parts)-1]); net.ParseIP(last) != nil {
				return last
			}
		}
	}
	return host
}
