package google

import (
	"crypto/hmac"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// StateTTL is how long a consent link works.
const StateTTL = 10 * time.Minute

// errBadState is a state that is forged, garbled or expired: the callback
// answers 4xx and never exchanges the code.
var errBadState = errors.New("the sign-in link is invalid or expired")

// NewState returns the OAuth state for a user's consent link: the user id,
// an expiry and a nonce, signed. It binds the callback to the user who
// asked, for StateTTL.
func (k *Keys) NewState(userID int64, now time.Time) string {
	nonce := make([]byte, 9)
	rand.Read(nonce)
	body := fmt.Sprintf("%d.%d.%s", userID, now.Add(StateTTL).Unix(), base64.RawURLEncoding.EncodeToString(nonce))
	return body + "." + base64.RawURLEncoding.EncodeToString(mac(k.state, body))
}

// ParseState checks a state's signature (under the current key or an old
// one, so a consent link made just before a rotation still works for its
// StateTTL) and expiry, and returns its user.
func (k *Keys) ParseState(state string, now time.Time) (int64, error) {
	i := strings.LastIndexByte(state, '.')
	if i < 0 {
		return 0, errBadState
	}
	body, sig := state[:i], state[i+1:]
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !slices.ContainsFunc(k.all(), func(kk *Keys) bool { return hmac.Equal(got, mac(kk.state, body)) }) {
		return 0, errBadState
	}
	parts := strings.Split(body, ".")
	if len(parts) != 3 {
		return 0, errBadState
	}
	userID, err1 := strconv.ParseInt(parts[0], 10, 64)
	exp, err2 := strconv.ParseInt(parts[1], 10, 64)
	if err1 != nil || err2 != nil || userID <= 0 || !now.Before(time.Unix(exp, 0)) {
		return 0, errBadState
	}
	return userID, nil
}
