package signin

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/internal/httpreply"
)

// ceremonyTTL is how long a passkey prompt may stay open.
const ceremonyTTL = 5 * time.Minute

// passkeyUser is a Hearth user as WebAuthn sees one. The user handle is
// the user id, which says nothing about the person.
type passkeyUser struct {
	id    int64
	name  string
	creds []webauthn.Credential
}

func (u passkeyUser) WebAuthnID() []byte                         { return userHandle(u.id) }
func (u passkeyUser) WebAuthnName() string                       { return u.name }
func (u passkeyUser) WebAuthnDisplayName() string                { return u.name }
func (u passkeyUser) WebAuthnCredentials() []webauthn.Credential { return u.creds }

func userHandle(id int64) []byte { return binary.BigEndian.AppendUint64(nil, uint64(id)) }

// relyingParty is the WebAuthn configuration for a request: the public
// URL's host, or localhost when Hearth is reached on this machine only.
func (s *Service) relyingParty(r *http.Request) (*webauthn.WebAuthn, error) {
	origin := s.origin(r)
	rpID := ""
	if s.public != nil {
		rpID = s.public.Hostname()
	} else {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		if host != "localhost" {
			return nil, hearth.Invalidf("passkeys need HEARTH_PUBLIC_URL when Hearth is not reached at localhost")
		}
		rpID = host
	}
	return webauthn.New(&webauthn.Config{RPID: rpID, RPDisplayName: "Hearth", RPOrigins: []string{origin}})
}

// loadUser returns a user with their passkeys.
func (s *Service) loadUser(r *http.Request, userID int64) (passkeyUser, error) {
	_, c, err := s.cfg.Store.WebContact(r.Context(), userID)
	if err != nil {
		return passkeyUser{}, err
	}
	raw, err := s.cfg.Store.Passkeys(r.Context(), userID)
	if err != nil {
		return passkeyUser{}, err
	}
	u := passkeyUser{id: userID, name: c.User.DisplayName}
	for _, b := range raw {
		var cred webauthn.Credential
		if err := json.Unmarshal(b, &cred); err != nil {
			return passkeyUser{}, fmt.Errorf("passkey of user %d: %w", userID, err)
		}
		u.creds = append(u.creds, cred)
	}
	return u, nil
}

type ceremonyResponse struct {
	// Ceremony is passed back as ?ceremony= on the finishing request.
	Ceremony string `json:"ceremony"`
	Options  any    `json:"options"`
}

// saveCeremony keeps the server half of a ceremony and answers the
// browser's half.
func (s *Service) saveCeremony(w http.ResponseWriter, r *http.Request, userID int64, session *webauthn.SessionData, options any) {
	data, err := json.Marshal(session)
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	id := newToken()
	if err := s.cfg.Store.SaveCeremony(r.Context(), id, userID, data, ceremonyTTL); err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	httpreply.JSON(w, http.StatusOK, ceremonyResponse{Ceremony: id, Options: options})
}

// takeCeremony returns the ceremony named by ?ceremony=, once, or
// answers itself.
func (s *Service) takeCeremony(w http.ResponseWriter, r *http.Request) (int64, webauthn.SessionData, bool) {
	var session webauthn.SessionData
	userID, data, err := s.cfg.Store.TakeCeremony(r.Context(), r.URL.Query().Get("ceremony"))
	if errors.Is(err, hearth.ErrNotFound) {
		httpreply.Reason(w, http.StatusBadRequest, "this passkey prompt has expired; try again")
		return 0, session, false
	}
	if err == nil {
		err = json.Unmarshal(data, &session)
	}
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return 0, session, false
	}
	return userID, session, true
}

// loginBegin starts signing in with a passkey: any passkey of this site
// the browser holds (the user is not named first).
func (s *Service) loginBegin(w http.ResponseWriter, r *http.Request) {
	if !s.attempt(w, r) {
		return
	}
	rp, err := s.relyingParty(r)
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	options, session, err := rp.BeginDiscoverableLogin(webauthn.WithUserVerification(protocol.VerificationPreferred))
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	s.saveCeremony(w, r, 0, session, options)
}

// loginFinish checks the browser's assertion and starts a session for
// the passkey's owner.
func (s *Service) loginFinish(w http.ResponseWriter, r *http.Request) {
	if !s.attempt(w, r) {
		return
	}
	_, session, ok := s.takeCeremony(w, r)
	if !ok {
		return
	}
	rp, err := s.relyingParty(r)
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	var owner passkeyUser
	var countErr error
	user, cred, err := rp.FinishPasskeyLogin(func(rawID, handle []byte) (webauthn.User, error) {
		if len(handle) != 8 {
			return nil, errors.New("unknown user handle")
		}
		id := int64(binary.BigEndian.Uint64(handle))
		// The assertion names its account: attempts on it are counted
		// from every address, before its signature is checked.
		if countErr = s.countOn(r.Context(), "user:"+strconv.FormatInt(id, 10)); countErr != nil {
			return nil, countErr
		}
		u, err := s.loadUser(r, id)
		owner = u
		return u, err
	}, session, r)
	if countErr != nil {
		s.answerLimited(w, r, countErr)
		return
	}
	if err != nil || user == nil {
		s.cfg.Logger.InfoContext(r.Context(), "passkey sign-in refused", "error", err)
		httpreply.Reason(w, http.StatusUnauthorized, "that passkey was not accepted")
		return
	}
	if cred.Authenticator.CloneWarning {
		s.cfg.Logger.WarnContext(r.Context(), "passkey sign count went backwards: refused as a possible clone", "user", owner.id)
		httpreply.Reason(w, http.StatusUnauthorized, "that passkey was not accepted")
		return
	}
	data, err := json.Marshal(cred)
	if err == nil {
		err = s.cfg.Store.UsePasskey(r.Context(), cred.ID, data)
	}
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	s.startSession(w, r, owner.id)
}

// registerBegin starts adding a passkey to the signed-in user.
func (s *Service) registerBegin(w http.ResponseWriter, r *http.Request) {
	userID, _, err := s.session(r)
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	rp, err := s.relyingParty(r)
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	u, err := s.loadUser(r, userID)
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	options, session, err := rp.BeginRegistration(u,
		webauthn.WithResidentKeyRequirement(protocol.ResidentKeyRequirementRequired),
		webauthn.WithExclusions(webauthn.Credentials(u.creds).CredentialDescriptors()))
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	s.saveCeremony(w, r, userID, session, options)
}

// registerFinish checks the browser's new credential and keeps it.
func (s *Service) registerFinish(w http.ResponseWriter, r *http.Request) {
	userID, _, err := s.session(r)
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	owner, session, ok := s.takeCeremony(w, r)
	if !ok {
		return
	}
	if owner != userID {
		httpreply.Reason(w, http.StatusBadRequest, "this passkey prompt belongs to another session")
		return
	}
	rp, err := s.relyingParty(r)
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	u, err := s.loadUser(r, userID)
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	cred, err := rp.FinishRegistration(u, session, r)
	if err != nil {
		s.cfg.Logger.InfoContext(r.Context(), "passkey registration refused", "error", err)
		httpreply.Reason(w, http.StatusBadRequest, "the passkey could not be added")
		return
	}
	data, err := json.Marshal(cred)
	if err == nil {
		err = s.cfg.Store.AddPasskey(r.Context(), userID, cred.ID, data)
	}
	if err != nil {
		httpreply.Error(w, r, s.cfg.Logger, err)
		return
	}
	httpreply.JSON(w, http.StatusCreated, map[string]int{"passkeys": len(u.creds) + 1})
}
