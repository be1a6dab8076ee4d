package google

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"strings"

	"golang.org/x/oauth2"

	"github.com/hearthbot/hearth"
)

// ConnectURL is the consent link for a user: Google's consent page asking
// for scopes (on top of those granted before), offline access, and a
// signed state bound to the user that expires in StateTTL.
func (g *Google) ConnectURL(userID int64, scopes ...string) string {
	c := *g.oauth
	c.Scopes = scopes
	return c.AuthCodeURL(g.cfg.Keys.NewState(userID, g.cfg.Now()), oauth2.AccessTypeOffline,
		oauth2.SetAuthURLParam("include_granted_scopes", "true"), oauth2.SetAuthURLParam("prompt", "consent"))
}

// Callback handles Google's redirect after consent: it checks the state
// (forged or expired → 400, and the code is never exchanged), exchanges
// the code, stores the token sealed, adds the primary calendar and
// enqueues its first sync and watch.
func (g *Google) Callback(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	userID, err := g.cfg.Keys.ParseState(q.Get("state"), g.cfg.Now())
	if err != nil {
		page(w, http.StatusBadRequest, "This link is invalid or expired. Say “connect google” in the chat for a new one.")
		return
	}
	if e := q.Get("error"); e != "" {
		page(w, http.StatusOK, "Google was not connected ("+e+"). You can try again with “connect google”.")
		return
	}
	code := q.Get("code")
	if code == "" {
		page(w, http.StatusBadRequest, "Google sent no authorisation code.")
		return
	}
	email, err := g.connect(r.Context(), userID, code)
	if err != nil {
		g.cfg.Log.Error("google connect failed", "user", userID, "error", err)
		page(w, http.StatusBadGateway, "Google could not be connected just now. Please try “connect google” again.")
		return
	}
	page(w, http.StatusOK, "Google is connected as "+email+". You can go back to the chat: your calendar is syncing.")
}

func page(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<!doctype html><meta charset=utf-8><title>Hearth</title><p>%s</p>\n", html.EscapeString(msg))
}

func (g *Google) connect(ctx context.Context, userID int64, code string) (string, error) {
	ctx = context.WithValue(ctx, oauth2.HTTPClient, g.cfg.HTTPClient)
	tok, err := g.oauth.Exchange(ctx, code)
	if err != nil {
		return "", fmt.Errorf("exchange code: %w", err)
	}
	var scopes []string
	if s, ok := tok.Extra("scope").(string); ok {
		scopes = strings.Fields(s)
	}
	email, err := g.userEmail(ctx, tok)
	if err != nil {
		return "", err
	}
	old, oldErr := g.cfg.Store.GoogleAccount(ctx, userID)
	// A reconnection of the same account may not return a refresh token;
	// keep the old one (another account's would not be its).
	if tok.RefreshToken == "" && oldErr == nil && old.Email == email {
		if ot, err := g.openToken(old); err == nil {
			tok.RefreshToken = ot.RefreshToken
		}
	}
	sealed, err := g.sealToken(userID, tok)
	if err != nil {
		return "", err
	}
	// Another account than before: its Gmail watch is stopped (or its
	// pushes would come for a week), and its calendars, sync state and
	// synced copies go (its calendar channels expire on their own; their
	// pushes find no channel).
	if oldErr == nil && old.Email != email {
		if old.RevokedAt.IsZero() {
			g.stopGmailWatch(ctx, old, true)
		}
		if err := g.cfg.Store.DeleteGoogleAccount(ctx, userID); err != nil {
			return "", err
		}
	}
	if err := g.cfg.Store.SaveGoogleAccount(ctx, hearth.GoogleAccount{UserID: userID, Email: email, Token: sealed, Scopes: scopes}); err != nil {
		return "", err
	}
	if err := g.cfg.Store.AddGoogleCalendar(ctx, hearth.GoogleCalendar{UserID: userID, CalendarID: "primary", Summary: email, Default: true}); err != nil {
		return "", err
	}
	if g.cfg.Queue != nil {
		if _, err := g.cfg.Queue.Insert(ctx, SyncArgs{UserID: userID, CalendarID: "primary"}, nil); err != nil {
			return "", fmt.Errorf("enqueue first sync: %w", err)
		}
		if _, err := g.cfg.Queue.Insert(ctx, WatchArgs{UserID: userID}, nil); err != nil {
			return "", fmt.Errorf("enqueue watch: %w", err)
		}
		if hasScope(scopes, ScopeGmail) {
			// The first poll of the mailbox, and its push watch, now.
			if _, err := g.cfg.Queue.Insert(ctx, MailPollArgs{UserID: userID}, nil); err != nil {
				return "", fmt.Errorf("enqueue mail poll: %w", err)
			}
		}
	}
	return email, nil
}

// userEmail asks the userinfo endpoint which account consented.
func (g *Google) userEmail(ctx context.Context, tok *oauth2.Token) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, g.ends.UserInfo, nil)
	if err != nil {
		return "", err
	}
	tok.SetAuthHeader(req)
	res, err := g.cfg.HTTPClient.Do(req)
	if err != nil {
		return "", fmt.Errorf("userinfo: %w", err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("userinfo: %s", res.Status)
	}
	var info struct {
		Email string `json:"email"`
	}
	if err := json.NewDecoder(res.Body).Decode(&info); err != nil {
		return "", fmt.Errorf("userinfo: %w", err)
	}
	return info.Email, nil
}

// Disconnect revokes the user's grant at Google, stops their push
// channels and Gmail watch and deletes their tokens, synced copies and
// the copy of their inbox. What Google
// refuses (a grant already revoked) does not stop the rest: the user's
// wish to disconnect is honoured locally in any case.
func (g *Google) Disconnect(ctx context.Context, userID int64) (email string, err error) {
	a, err := g.cfg.Store.GoogleAccount(ctx, userID)
	if err != nil {
		return "", err
	}
	if a.RevokedAt.IsZero() {
		g.stopGmailWatch(ctx, a, false)
		cals, err := g.cfg.Store.GoogleCalendars(ctx, userID)
		if err != nil {
			return "", err
		}
		if svc, err := g.calendarService(ctx, a); err == nil {
			for _, c := range cals {
				if c.ChannelID != "" {
					g.stopChannel(ctx, svc, c.ChannelID, c.ChannelResourceID)
				}
			}
		}
		if tok, err := g.openToken(a); err == nil {
			if err := g.revoke(ctx, tok); err != nil {
				g.cfg.Log.Warn("google revoke failed; deleting the tokens anyway", "user", userID, "error", err)
			}
		}
	}
	return a.Email, g.cfg.Store.DeleteGoogleAccount(ctx, userID)
}

func (g *Google) revoke(ctx context.Context, tok *oauth2.Token) error {
	t := tok.RefreshToken
	if t == "" {
		t = tok.AccessToken
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.ends.Revoke, strings.NewReader(url.Values{"token": {t}}.Encode()))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := g.cfg.HTTPClient.Do(req)
	if err != nil {
		return err
	}
	drain(res)
	if res.StatusCode != http.StatusOK && res.StatusCode != http.StatusBadRequest {
		return errors.New("revoke: " + res.Status)
	}
	return nil
}

// ConsentURL is the link that connects a user's Google Calendar: the
// one the "connect google" command answers with, for the web chat's
// Connect Google button.
func (g *Google) ConsentURL(userID int64) string { return g.ConnectURL(userID, CalendarScopes...) }

// Connection says which Google account a user connected (email) and
// whether Hearth may still use it (connected is false after Google
// refused the grant, or when there is none).
func (g *Google) Connection(ctx context.Context, userID int64) (email string, connected bool, err error) {
	a, err := g.cfg.Store.GoogleAccount(ctx, userID)
	if errors.Is(err, hearth.ErrNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("google connection: %w", err)
	}
	return a.Email, a.RevokedAt.IsZero(), nil
}
