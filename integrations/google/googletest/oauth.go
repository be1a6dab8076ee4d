package googletest

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
)

// The fake OAuth endpoints: consent, token exchange and refresh, revoke,
// userinfo.

func (s *Server) auth(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	s.mu.Lock()
	s.lastAuth = q
	s.counts["auth"]++
	if q.Get("client_id") != ClientID || q.Get("redirect_uri") == "" {
		s.mu.Unlock()
		http.Error(w, "invalid_client", http.StatusBadRequest)
		return
	}
	code := "code-" + newID()
	s.codes[code] = s.consent
	a := s.account(s.consent)
	for _, sc := range strings.Fields(q.Get("scope")) {
		if !contains(a.scopes, sc) {
			a.scopes = append(a.scopes, sc)
		}
	}
	s.mu.Unlock()
	u, _ := url.Parse(q.Get("redirect_uri"))
	v := u.Query()
	v.Set("code", code)
	v.Set("state", q.Get("state"))
	u.RawQuery = v.Encode()
	http.Redirect(w, r, u.String(), http.StatusFound)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func oauthError(w http.ResponseWriter, code string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusBadRequest)
	json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": code})
}

func (s *Server) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, "invalid_request")
		return
	}
	id, secret, ok := r.BasicAuth()
	if !ok {
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	}
	if id != ClientID || secret != ClientSecret {
		oauthError(w, "invalid_client")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var email string
	switch r.PostForm.Get("grant_type") {
	case "authorization_code":
		s.counts["exchange"]++
		email = s.codes[r.PostForm.Get("code")]
		delete(s.codes, r.PostForm.Get("code"))
		if email == "" {
			oauthError(w, "invalid_grant")
			return
		}
		s.accounts[email].revoked = false
	case "refresh_token":
		s.counts["refresh"]++
		email = s.refresh[r.PostForm.Get("refresh_token")]
		if email == "" {
			oauthError(w, "invalid_grant")
			return
		}
	default:
		oauthError(w, "unsupported_grant_type")
		return
	}
	at := "at-" + newID()
	s.access[at] = email
	out := map[string]any{"access_token": at, "token_type": "Bearer", "expires_in": 3600,
		"scope": strings.Join(s.accounts[email].scopes, " ")}
	if r.PostForm.Get("grant_type") == "authorization_code" {
		rt := "rt-" + newID()
		s.refresh[rt] = email
		out["refresh_token"] = rt
	}
	writeJSON(w, out)
}

func (s *Server) revoke(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	tok := r.Form.Get("token")
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts["revoke"]++
	email := s.refresh[tok]
	if email == "" {
		email = s.access[tok]
	}
	if email == "" {
		oauthError(w, "invalid_token")
		return
	}
	s.revokeLocked(email)
	w.WriteHeader(http.StatusOK)
}

// caller returns the account of the request's bearer token.
func (s *Server) caller(r *http.Request) *account {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if email := s.access[tok]; email != "" {
		return s.accounts[email]
	}
	return nil
}

func (s *Server) userinfo(w http.ResponseWriter, r *http.Request) {
	a := s.caller(r)
	if a == nil {
		apiError(w, http.StatusUnauthorized, "invalid credentials")
		return
	}
	writeJSON(w, map[string]any{"sub": "sub-" + a.email, "email": a.email, "email_verified": true})
}
