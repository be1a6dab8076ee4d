// Package signin signs people in to the web chat for real, so a household
// can put Hearth on the internet: passkeys (WebAuthn), one-time sign-in
// links (sent through a chat the person already uses, or printed by
// `bot signin-link`), the first account made from the machine itself on
// a fresh install, sessions kept in Postgres behind HttpOnly SameSite
// cookies, a CSRF token on every state-changing request, and rate limits
// on sign-in attempts shared by every replica.
//
// The web chat asks a Service who is calling (Caller); the session
// decides, never a name in the request. Development sign-in by name
// stays in the web chat, for loopback listeners only.
package signin

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/httpreply"
)

// LinkTTL is how long a sign-in link can be used (once).
const LinkTTL = 15 * time.Minute

// CSRFHeader carries the session's CSRF token on state-changing requests.
const CSRFHeader = "X-CSRF-Token"

// Sessions keeps web chat sessions by the hash of their token.
type Sessions interface {
	CreateSession(ctx context.Context, userID int64, tokenHash []byte, csrf string, now time.Time, ttl time.Duration) error
	FindSession(ctx context.Context, tokenHash []byte, now time.Time) (userID int64, csrf string, expiresAt time.Time, err error)
	// ExtendSession moves the expiry to expiresAt if it is before
	// ifBefore (so one of several replicas writes).
	ExtendSession(ctx context.Context, tokenHash []byte, expiresAt, ifBefore time.Time) (bool, error)
	DeleteSession(ctx context.Context, tokenHash []byte) error
}

// Links keeps one-time sign-in links by the hash of their token.
type Links interface {
	CreateSigninLink(ctx context.Context, userID int64, tokenHash []byte, ttl time.Duration) error
	RedeemSigninLink(ctx context.Context, tokenHash []byte) (int64, error)
}

// Passkeys keeps passkeys and the server half of their ceremonies.
type Passkeys interface {
	AddPasskey(ctx context.Context, userID int64, credentialID []byte, credential json.RawMessage) error
	Passkeys(ctx context.Context, userID int64) ([]json.RawMessage, error)
	UsePasskey(ctx context.Context, credentialID []byte, credential json.RawMessage) error
}

// Ceremonies keeps a passkey ceremony between its two requests.
type Ceremonies interface {
	SaveCeremony(ctx context.Context, id string, userID int64, data json.RawMessage, ttl time.Duration) error
	TakeCeremony(ctx context.Context, id string) (userID int64, data json.RawMessage, err error)
}

// Users finds and makes the people who sign in.
type Users interface {
	// WebContact returns the user's web chat identity key and
	// conversation, creating them for a user from another channel.
	WebContact(ctx context.Context, userID int64) (string, hearth.Contact, error)
	CountUsers(ctx context.Context) (int, error)
	// AddFirstUser makes the first user, only while there is none (a
	// hearth.ErrConflict error otherwise).
	AddFirstUser(ctx context.Context, name string) (hearth.Contact, error)
}

// Store is everything signing in keeps; store.Store implements it.
type Store interface {
	Sessions
	Links
	Passkeys
	Ceremonies
	Users
	Accounts
	DeleteSessions(ctx context.Context, userID int64) (int64, error)
	// CountAttempt counts an attempt under key and returns the attempts
	// in the current window.
	CountAttempt(ctx context.Context, key string, now time.Time, window time.Duration) (int, error)
}

// Config is what signing in needs. Store is required.
type Config struct {
	Store Store
	// PublicURL is where people reach Hearth ("https://hearth.example.com"):
	// the base of sign-in links, the origin requests must come from and
	// the passkeys' relying party. Empty: Hearth is reached on this
	// machine only, as http://localhost (passkeys then work only there).
	PublicURL string
	// LocalURL is the base of sign-in links when PublicURL is empty.
	// Defaults to http://localhost:8080.
	LocalURL string
	// Secure marks cookies Secure (Hearth is reached over HTTPS); the
	// cookie is then named with the __Host- prefix.
	Secure bool
	// SessionTTL is how long a session lasts. Defaults to 30 days.
	SessionTTL time.Duration
	// RenewWithin: a session used in its last RenewWithin is extended to
	// SessionTTL from then, at most once an hour. Defaults to 7 days.
	RenewWithin time.Duration
	// AttemptsPerMinute bounds sign-in attempts from one client address.
	// Defaults to 10.
	AttemptsPerMinute int
	// AccountAttemptsPerHour bounds sign-in attempts aimed at one account
	// (a passkey's user, a first account's name), from anywhere: many
	// addresses do not multiply the guesses one account gets. Defaults
	// to 30.
	AccountAttemptsPerHour int
	Logger                 *slog.Logger
	// Now is the clock sessions and attempts are judged by. Defaults to
	// time.Now.
	Now func() time.Time
}

// Service signs people in and tells the web chat who is calling.
type Service struct {
	cfg    Config
	public *url.URL
	mux    *http.ServeMux
}

// New returns the sign-in service.
func New(cfg Config) (*Service, error) {
	if cfg.SessionTTL <= 0 {
		cfg.SessionTTL = 30 * 24 * time.Hour
	}
	if cfg.RenewWithin <= 0 {
		cfg.RenewWithin = 7 * 24 * time.Hour
	}
	if cfg.AttemptsPerMinute <= 0 {
		cfg.AttemptsPerMinute = 10
	}
	if cfg.AccountAttemptsPerHour <= 0 {
		cfg.AccountAttemptsPerHour = 30
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.LocalURL == "" {
		cfg.LocalURL = "http://localhost:8080"
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Service{cfg: cfg, mux: http.NewServeMux()}
	if cfg.PublicURL != "" {
		u, err := url.Parse(strings.TrimRight(cfg.PublicURL, "/"))
		if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
			return nil, fmt.Errorf("signin: public URL %q is not an http(s) URL", cfg.PublicURL)
		}
		s.public = u
	}
	s.mux.HandleFunc("GET /api/signin/me", s.me)
	s.mux.HandleFunc("POST /api/signin/link", s.redeemLink)
	s.mux.HandleFunc("POST /api/signin/first", s.first)
	s.mux.HandleFunc("POST /api/signin/passkey/begin", s.loginBegin)
	s.mux.HandleFunc("POST /api/signin/passkey/finish", s.loginFinish)
	s.mux.HandleFunc("POST /api/signin/passkeys/begin", s.registerBegin)
	s.mux.HandleFunc("POST /api/signin/passkeys/finish", s.registerFinish)
	s.mux.HandleFunc("POST /api/signin/signout", s.signOut)
	s.mux.HandleFunc("GET /api/signin/export", s.export)
	s.mux.HandleFunc("POST /api/signin/delete", s.deleteAccount)
	return s, nil
}

// ServeHTTP serves the sign-in API under /api/signin/.
func (s *Service) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// NewLink makes a one-time sign-in link for userID, valid for LinkTTL.
func (s *Service) NewLink(ctx context.Context, userID int64) (string, error) {
	token := newToken()
	if err := s.cfg.Store.CreateSigninLink(ctx, userID, hash(token), LinkTTL); err != nil {
		return "", fmt.Errorf("signin: new link: %w", err)
	}
	base := s.cfg.LocalURL
	if s.public != nil {
		base = s.public.String()
	}
	// The token travels in the fragment, which browsers never send to a
	// server: a chat's link preview fetches the page, not the token, and
	// the page spends it only when a person opens it.
	return strings.TrimRight(base, "/") + "/#signin=" + token, nil
}

// ErrSignedOut is the answer to a request without a live session.
var ErrSignedOut = &hearth.Error{Code: hearth.EUnauthorized, Message: "sign in first"}

// errCSRF is a state-changing request without the session's CSRF token
// or from another site.
var errCSRF = &hearth.Error{Code: hearth.EUnauthorized, Message: "missing or wrong " + CSRFHeader + " header; reload the page"}

// Caller returns the signed-in user's web chat identity key and name.
// A state-changing request must carry the session's CSRF token and come
// from Hearth's own origin. Errors are hearth.EUnauthorized ones.
func (s *Service) Caller(r *http.Request) (key, name string, err error) {
	userID, _, err := s.session(r)
	if err != nil {
		return "", "", err
	}
	key, c, err := s.cfg.Store.WebContact(r.Context(), userID)
	if err != nil {
		return "", "", fmt.Errorf("signin: %w", err)
	}
	return key, c.User.DisplayName, nil
}

// session returns the user of the request's session, checking the CSRF
// token and origin of state-changing requests.
func (s *Service) session(r *http.Request) (userID int64, token string, err error) {
	c, err := r.Cookie(s.cookieName())
	if err != nil || c.Value == "" {
		return 0, "", ErrSignedOut
	}
	now := s.cfg.Now()
	userID, csrf, expires, err := s.cfg.Store.FindSession(r.Context(), hash(c.Value), now)
	if errors.Is(err, hearth.ErrNotFound) {
		return 0, "", ErrSignedOut
	}
	if err != nil {
		return 0, "", fmt.Errorf("signin: %w", err)
	}
	if err := s.renew(r.Context(), c.Value, now, expires); err != nil {
		return 0, "", err
	}
	if !safeMethod(r.Method) {
		got := r.Header.Get(CSRFHeader)
		if got == "" || subtle.ConstantTimeCompare([]byte(got), []byte(csrf)) != 1 || !s.sameOrigin(r) {
			return 0, "", errCSRF
		}
	}
	return userID, c.Value, nil
}

// renew extends a session used in its last RenewWithin to SessionTTL
// from now. A session extended less than an hour ago is not written again,
// so a busy page costs one write an hour at most.
func (s *Service) renew(ctx context.Context, token string, now, expires time.Time) error {
	if !expires.Before(now.Add(s.cfg.RenewWithin)) || !expires.Before(now.Add(s.cfg.SessionTTL-time.Hour)) {
		return nil
	}
	if _, err := s.cfg.Store.ExtendSession(ctx, hash(token), now.Add(s.cfg.SessionTTL), now.Add(s.cfg.SessionTTL-time.Hour)); err != nil {
		return fmt.Errorf("signin: %w", err)
	}
	return nil
}

func safeMethod(m string) bool {
	return m == http.MethodGet || m == http.MethodHead || m == http.MethodOptions
}

// sameOrigin reports whether a request comes from Hearth's own pages:
// its Origin (sent by browsers on every POST) is Hearth's, and fetch
// metadata, when sent, does not say another site.
func (s *Service) sameOrigin(r *http.Request) bool {
	if site := r.Header.Get("Sec-Fetch-Site"); site != "" && site != "same-origin" && site != "none" {
		return false
	}
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true // not a browser's cross-site request: browsers send Origin on POST
	}
	return origin == s.origin(r)
}

// origin is the origin Hearth's pages have: the public URL's, else the
// one this request was made to.
func (s *Service) origin(r *http.Request) string {
	if s.public != nil {
		return s.public.Scheme + "://" + s.public.Host
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + r.Host
}

func (s *Service) cookieName() string {
	if s.cfg.Secure {
		return "__Host-hearth_session"
	}
	return "hearth_session"
}

type meResponse struct {
	User     string `json:"user,omitempty"`
	CSRF     string `json:"csrf,omitempty"`
	Passkeys int    `json:"passkeys"`
	// FirstRun says the first account can be made here: no user exists
	// and the request comes from this machine.
	FirstRun bool   `json:"first_run,omitempty"`
	Error    string `json:"error,omitempty"`
}

// me answers who is signed in, with the CSRF token the page sends back,
// or 401 (and whether the first account can be made from here).
func (s *Service) me(w http.ResponseWriter, r *http.Request) {
	userID, _, err := s.session(r)
	if errors.Is(err, ErrSignedOut) {
		resp := meResponse{Error: "sign in first"}
		if s.fromThisMachine(r) {
			n, err := s.cfg.Store.CountUsers(r.Context())
			if err != nil {
				httpreply.Error(w, r, s.cfg.Logger, err)
				return
			}
			resp.FirstRun = n == 0
		}
		httpreply.JSON(w, http.StatusUnauthorized, resp)
		return
	}
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	s.answerSignedIn(w, r, userID, "")
}

// answerSignedIn tells the page who it is signed in as and its CSRF
// token; csrf is the token when the session was just made.
func (s *Service) answerSignedIn(w http.ResponseWriter, r *http.Request, userID int64, csrf string) {
	if csrf == "" {
		c, _ := r.Cookie(s.cookieName()) // present: the session was found by it
		now := s.cfg.Now()
		_, found, expires, err := s.cfg.Store.FindSession(r.Context(), hash(c.Value), now)
		if err != nil {
			httpreply.Error(w, r, s.cfg.Logger, err)
			return
		}
		csrf = found
		// The page asks this at every load: the cookie follows a renewed
		// session's expiry.
		s.setCookie(w, c.Value, expires.Sub(now))
	}
	_, contact, err := s.cfg.Store.WebContact(r.Context(), userID)
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	keys, err := s.cfg.Store.Passkeys(r.Context(), userID)
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	httpreply.JSON(w, http.StatusOK, meResponse{User: contact.User.DisplayName, CSRF: csrf, Passkeys: len(keys)})
}

// startSession makes a session for userID, sets its cookie and answers
// who is signed in.
func (s *Service) startSession(w http.ResponseWriter, r *http.Request, userID int64) {
	token, csrf := newToken(), newToken()
	if err := s.cfg.Store.CreateSession(r.Context(), userID, hash(token), csrf, s.cfg.Now(), s.cfg.SessionTTL); err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	s.setCookie(w, token, s.cfg.SessionTTL)
	s.answerSignedIn(w, r, userID, csrf)
}

// setCookie sets the session cookie, kept by the browser for ttl.
func (s *Service) setCookie(w http.ResponseWriter, token string, ttl time.Duration) {
	http.SetCookie(w, &http.Cookie{
		Name: s.cookieName(), Value: token, Path: "/",
		MaxAge: max(1, int(ttl/time.Second)), HttpOnly: true, Secure: s.cfg.Secure,
		SameSite: http.SameSiteStrictMode,
	})
}

type linkRequest struct {
	Token string `json:"token"`
}

// redeemLink spends a one-time sign-in link and starts a session.
func (s *Service) redeemLink(w http.ResponseWriter, r *http.Request) {
	if !s.attempt(w, r) {
		return
	}
	var req linkRequest
	if !decode(w, r, &req) {
		return
	}
	if req.Token == "" || len(req.Token) > 128 {
		httpreply.Reason(w, http.StatusBadRequest, "token is required")
		return
	}
	userID, err := s.cfg.Store.RedeemSigninLink(r.Context(), hash(req.Token))
	if errors.Is(err, hearth.ErrNotFound) {
		httpreply.Reason(w, http.StatusUnauthorized, "this sign-in link is not valid any more (links work once, for 15 minutes); ask for a new one")
		return
	}
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	s.startSession(w, r, userID)
}

type firstRequest struct {
	Name string `json:"name"`
}

// first makes the first account of a fresh install, from this machine
// only, and signs it in.
func (s *Service) first(w http.ResponseWriter, r *http.Request) {
	if !s.attempt(w, r) {
		return
	}
	var req firstRequest
	if !decode(w, r, &req) {
		return
	}
	name, reason := CheckName(req.Name)
	if reason != "" {
		httpreply.Reason(w, http.StatusBadRequest, reason)
		return
	}
	if !s.attemptOn(w, r, "name:"+strings.ToLower(name)) {
		return
	}
	if !s.fromThisMachine(r) {
		httpreply.Reason(w, http.StatusForbidden, "the first account can only be made from the machine Hearth runs on (or with `bot user add NAME`)")
		return
	}
	c, err := s.cfg.Store.AddFirstUser(r.Context(), name)
	if errors.Is(err, hearth.ErrConflict) {
		httpreply.Reason(w, http.StatusForbidden, "Hearth has users already: ask one of them for a sign-in link")
		return
	}
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	s.startSession(w, r, c.User.ID)
}

type signOutRequest struct {
	Everywhere bool `json:"everywhere"`
}

// signOut ends this session, or every session of the user.
func (s *Service) signOut(w http.ResponseWriter, r *http.Request) {
	userID, token, err := s.session(r)
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	var req signOutRequest
	if r.ContentLength != 0 && !decode(w, r, &req) {
		return
	}
	if req.Everywhere {
		_, err = s.cfg.Store.DeleteSessions(r.Context(), userID)
	} else {
		err = s.cfg.Store.DeleteSession(r.Context(), hash(token))
	}
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: s.cookieName(), Value: "", Path: "/", MaxAge: -1, HttpOnly: true, Secure: s.cfg.Secure, SameSite: http.SameSiteStrictMode})
	httpreply.JSON(w, http.StatusOK, map[string]bool{"signed_out": true})
}

// fromThisMachine reports whether the request comes straight from a
// loopback address, not through a proxy (which would make every request
// look local).
func (s *Service) fromThisMachine(r *http.Request) bool {
	for _, h := range []string{"X-Forwarded-For", "Forwarded", "X-Real-Ip"} {
		if r.Header.Get(h) != "" {
			return false
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// MaxNameRunes bounds a user's name.
const MaxNameRunes = 64

// CheckName returns a name with its spacing tidied, or the reason it
// cannot be one.
func CheckName(raw string) (name, reason string) {
	name = strings.Join(strings.Fields(raw), " ")
	switch {
	case name == "":
		return "", "name is required"
	case !utf8.ValidString(name):
		return "", "name is not valid UTF-8"
	case utf8.RuneCountInString(name) > MaxNameRunes:
		return "", "name is longer than " + strconv.Itoa(MaxNameRunes) + " characters"
	case strings.IndexFunc(name, unicode.IsControl) >= 0:
		return "", "name contains control characters"
	}
	return name, ""
}

// decode reads one small JSON object from the body, answering 400 itself
// when it cannot.
func decode(w http.ResponseWriter, r *http.Request, v any) bool {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 64<<10))
	if err == nil {
		err = json.Unmarshal(body, v)
	}
	if err != nil {
		httpreply.Reason(w, http.StatusBadRequest, "body is not a valid JSON object")
		return false
	}
	return true
}

// newToken returns 32 random bytes, base64url: unguessable.
func newToken() string {
	var b [32]byte
	rand.Read(b[:]) //nolint:errcheck // crypto/rand.Read never fails
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// hash is what is stored of a token.
func hash(token string) []byte {
	h := sha256.Sum256([]byte(token))
	return h[:]
}
