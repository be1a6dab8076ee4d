package google

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"golang.org/x/oauth2"
	calendar "google.golang.org/api/calendar/v3"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"

	"github.com/hearthbot/hearth"
)

// ErrRevoked means Google refused the user's grant (revoked in Google's
// settings, or a Testing client's 7-day refresh token expired). The
// account is marked, the user is told once, and the built-in calendar
// takes over until they connect again.
var ErrRevoked = errors.New("google refused the grant: reconnect google")

// maxAttempts bounds the tries of one request Google answers 429 or 5xx.
const maxAttempts = 4

// sealToken seals a token for the user's row.
func (g *Google) sealToken(userID int64, tok *oauth2.Token) ([]byte, error) {
	raw, err := json.Marshal(tok)
	if err != nil {
		return nil, fmt.Errorf("encode token: %w", err)
	}
	return g.cfg.Keys.Seal(userID, raw), nil
}

func (g *Google) openToken(a hearth.GoogleAccount) (*oauth2.Token, error) {
	raw, err := g.cfg.Keys.Open(a.UserID, a.Token)
	if err != nil {
		return nil, err
	}
	var tok oauth2.Token
	if err := json.Unmarshal(raw, &tok); err != nil {
		return nil, fmt.Errorf("decode token: %w", err)
	}
	return &tok, nil
}

// userTokens is one user's token source: it refreshes when the access
// token expires or Google answered 401, persists what a refresh returns,
// and turns invalid_grant into ErrRevoked (marking the account).
type userTokens struct {
	g      *Google
	userID int64
	mu     sync.Mutex
	tok    *oauth2.Token
	// replaced: the account is being replaced by another the user just
	// connected. A refresh is not stored (the row is about to hold the
	// other account's token) and a refused grant is not recorded or
	// announced (the user is connecting as we speak).
	replaced bool
}

func (u *userTokens) token(ctx context.Context, force bool) (*oauth2.Token, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if !force && u.tok.Valid() {
		return u.tok, nil
	}
	ctx = context.WithValue(ctx, oauth2.HTTPClient, u.g.cfg.HTTPClient)
	fresh, err := u.g.oauth.TokenSource(ctx, &oauth2.Token{RefreshToken: u.tok.RefreshToken}).Token()
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && (re.ErrorCode == "invalid_grant" || re.ErrorCode == "unauthorized_client") {
			if u.replaced {
				return nil, ErrRevoked
			}
			if _, rerr := u.g.cfg.Store.RevokeGoogleAccount(ctx, u.userID); rerr != nil {
				return nil, rerr
			}
			u.g.cfg.Log.Warn("google refused a grant; the user will be asked to reconnect", "user", u.userID)
			// Told at once; a notice that fails here is sent by the next
			// sync of the user's calendars.
			if nerr := u.g.notifyRevoked(context.WithoutCancel(ctx), u.userID); nerr != nil {
				u.g.cfg.Log.Warn("google reconnect notice not sent yet", "user", u.userID, "error", nerr)
			}
			return nil, ErrRevoked
		}
		return nil, fmt.Errorf("refresh google token: %w", err)
	}
	if fresh.RefreshToken == "" {
		fresh.RefreshToken = u.tok.RefreshToken
	}
	if u.replaced {
		u.tok = fresh
		return fresh, nil
	}
	sealed, err := u.g.sealToken(u.userID, fresh)
	if err != nil {
		return nil, err
	}
	if err := u.g.cfg.Store.SetGoogleToken(ctx, u.userID, sealed); err != nil {
		return nil, err
	}
	u.tok = fresh
	return fresh, nil
}

// transport authorises requests with the user's token, refreshes and
// retries once on 401, and retries 429 and 5xx with backoff (honouring
// Retry-After, capped by the backoff's own bound).
type transport struct {
	g      *Google
	tokens *userTokens
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	var body []byte
	if req.Body != nil {
		b, err := io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		body = b
	}
	refreshed := false
	for attempt := 1; ; attempt++ {
		tok, err := t.tokens.token(req.Context(), false)
		if err != nil {
			return nil, err
		}
		r := req.Clone(req.Context())
		if body != nil {
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		tok.SetAuthHeader(r)
		base := t.g.cfg.HTTPClient.Transport
		if base == nil {
			base = http.DefaultTransport
		}
		res, err := base.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		switch {
		case res.StatusCode == http.StatusUnauthorized && !refreshed:
			drain(res)
			refreshed = true
			if _, err := t.tokens.token(req.Context(), true); err != nil {
				return nil, err
			}
			attempt--
			continue
		case (res.StatusCode == http.StatusTooManyRequests || res.StatusCode >= 500) && attempt < maxAttempts:
			wait := t.g.cfg.Backoff(attempt)
			if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil && time.Duration(s)*time.Second < wait {
				wait = time.Duration(s) * time.Second
			}
			drain(res)
			select {
			case <-time.After(wait):
			case <-req.Context().Done():
				return nil, req.Context().Err()
			}
			continue
		}
		return res, nil
	}
}

func drain(res *http.Response) {
	io.Copy(io.Discard, io.LimitReader(res.Body, 64<<10))
	res.Body.Close()
}

// httpClient returns the user's authorised client.
func (g *Google) httpClient(a hearth.GoogleAccount) (*http.Client, error) {
	return g.accountClient(a, false)
}

// accountClient returns the authorised client of account a; replaced
// when a is being replaced by another account (userTokens.replaced).
func (g *Google) accountClient(a hearth.GoogleAccount, replaced bool) (*http.Client, error) {
	tok, err := g.openToken(a)
	if err != nil {
		return nil, err
	}
	return &http.Client{Transport: &transport{g: g, tokens: &userTokens{g: g, userID: a.UserID, tok: tok, replaced: replaced}}}, nil
}

// ClientOptions are the options that make a google.golang.org/api client
// act as the user: their token (refreshed and persisted, 401 retried,
// 429/5xx backed off, a refused grant marked) and, with
// HEARTH_GOOGLE_ENDPOINT, the base URL plus the API's own path
// ("calendar/v3/", "gmail/v1/"… as the library's base path has it; empty
// for APIs whose base path is the host alone). A user with no working
// account is hearth.ErrNotFound.
func (g *Google) ClientOptions(ctx context.Context, userID int64, apiPath string) ([]option.ClientOption, error) {
	a, err := g.active(ctx, userID)
	if errors.Is(err, errNotConnected) {
		return nil, fmt.Errorf("google: user %d: %w", userID, hearth.ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return g.clientOptions(a, apiPath)
}

func (g *Google) clientOptions(a hearth.GoogleAccount, apiPath string) ([]option.ClientOption, error) {
	hc, err := g.httpClient(a)
	if err != nil {
		return nil, err
	}
	opts := []option.ClientOption{option.WithHTTPClient(hc)}
	if g.ends.API != "" {
		opts = append(opts, option.WithEndpoint(g.ends.API+apiPath))
	}
	return opts, nil
}

// HasScope reports whether the user granted a scope (asked incrementally:
// a feature that needs one asks with ConnectURL(userID, scope)).
func (g *Google) HasScope(ctx context.Context, userID int64, scope string) (bool, error) {
	a, err := g.active(ctx, userID)
	if errors.Is(err, errNotConnected) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return slices.Contains(a.Scopes, scope), nil
}

// calendarService is the Calendar API as the user.
func (g *Google) calendarService(ctx context.Context, a hearth.GoogleAccount) (*calendar.Service, error) {
	opts, err := g.clientOptions(a, "calendar/v3/")
	if err != nil {
		return nil, err
	}
	svc, err := calendar.NewService(ctx, opts...)
	if err != nil {
		return nil, fmt.Errorf("calendar client: %w", err)
	}
	return svc, nil
}

// googleMessage is Google's short reason for an error.
func googleMessage(err error) string {
	var ge *googleapi.Error
	if errors.As(err, &ge) && ge.Message != "" {
		return ge.Message
	}
	return "bad request"
}

// statusOf is the HTTP status of a Google API error, or 0.
func statusOf(err error) int {
	var ge *googleapi.Error
	if errors.As(err, &ge) {
		return ge.Code
	}
	return 0
}
