package google

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// The HKDF labels, one per use of the server key: a key derived for one
// use never serves another.
const (
	labelTokens  = "hearth google tokens v1"
	labelState   = "hearth oauth state v1"
	labelChannel = "hearth google channel token v1"
	labelPush    = "hearth gmail push token v1"
)

// Keys are the keys derived from HEARTH_ENCRYPTION_KEY: one sealing
// tokens at rest (AES-256-GCM), one signing OAuth states, one making
// channel tokens, one making the Gmail push token. Keys derived from old secrets
// (HEARTH_ENCRYPTION_OLD_KEYS) are kept for reading only: Open, ParseState
// ValidChannelToken and ValidPushToken try the current key, then each old one; Seal,
// NewState, ChannelToken and PushToken use only the current key.
type Keys struct {
	tokens  cipher.AEAD
	state   []byte
	channel []byte
	push    []byte
	old     []*Keys
}

// ParseKeys reads HEARTH_ENCRYPTION_KEY and HEARTH_ENCRYPTION_OLD_KEYS
// (comma-separated, each like the current key; empty means none) and
// derives the keys: the current one for writing and reading, the old ones
// for reading what was written before a rotation.
func ParseKeys(current, old string) (*Keys, error) {
	k, err := ParseKey(current)
	if err != nil {
		return nil, err
	}
	for i, o := range strings.Split(old, ",") {
		if strings.TrimSpace(o) == "" {
			continue
		}
		ok, err := ParseKey(o)
		if err != nil {
			return nil, fmt.Errorf("HEARTH_ENCRYPTION_OLD_KEYS entry %d: %w", i+1, err)
		}
		k.old = append(k.old, ok)
	}
	return k, nil
}

// WithOld returns the keys with old added for reading only.
func (k *Keys) WithOld(old ...*Keys) *Keys {
	c := *k
	c.old = append(append([]*Keys(nil), k.old...), old...)
	return &c
}

// all is the current key, then each old one.
func (k *Keys) all() []*Keys { return append([]*Keys{k}, k.old...) }

// ParseKey reads HEARTH_ENCRYPTION_KEY (32 random bytes in standard
// base64, as `openssl rand -base64 32` prints them) and derives the keys.
func ParseKey(b64 string) (*Keys, error) {
	raw, err := base64.StdEncoding.DecodeString(strings.TrimSpace(b64))
	if err != nil {
		return nil, errors.New("HEARTH_ENCRYPTION_KEY is not base64 (make one with `openssl rand -base64 32`)")
	}
	if len(raw) != 32 {
		return nil, fmt.Errorf("HEARTH_ENCRYPTION_KEY is %d bytes, want 32 (make one with `openssl rand -base64 32`)", len(raw))
	}
	return NewKeys(raw)
}

// NewKeys derives the keys from a 32-byte secret.
func NewKeys(secret []byte) (*Keys, error) {
	derive := func(label string) ([]byte, error) {
		return hkdf.Key(sha256.New, secret, nil, label, 32)
	}
	tk, err := derive(labelTokens)
	if err != nil {
		return nil, fmt.Errorf("derive token key: %w", err)
	}
	block, err := aes.NewCipher(tk)
	if err != nil {
		return nil, fmt.Errorf("token cipher: %w", err)
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, fmt.Errorf("token cipher: %w", err)
	}
	k := &Keys{tokens: aead}
	if k.state, err = derive(labelState); err != nil {
		return nil, fmt.Errorf("derive state key: %w", err)
	}
	if k.channel, err = derive(labelChannel); err != nil {
		return nil, fmt.Errorf("derive channel key: %w", err)
	}
	if k.push, err = derive(labelPush); err != nil {
		return nil, fmt.Errorf("derive push key: %w", err)
	}
	return k, nil
}

// Seal encrypts plaintext for storage; the user id is authenticated with
// it, so a sealed token copied to another user's row does not open.
func (k *Keys) Seal(userID int64, plaintext []byte) []byte {
	nonce := make([]byte, k.tokens.NonceSize())
	rand.Read(nonce)
	return k.tokens.Seal(nonce, nonce, plaintext, userAAD(userID))
}

// Open decrypts what Seal sealed for the same user, under the current key
// or an old one.
func (k *Keys) Open(userID int64, sealed []byte) ([]byte, error) {
	plain, _, err := k.open(userID, sealed)
	return plain, err
}

// open is Open, also reporting whether the current key opened it.
func (k *Keys) open(userID int64, sealed []byte) (plain []byte, current bool, err error) {
	n := k.tokens.NonceSize()
	if len(sealed) < n {
		return nil, false, errors.New("sealed token too short")
	}
	for i, kk := range k.all() {
		if plain, err := kk.tokens.Open(nil, sealed[:n], sealed[n:], userAAD(userID)); err == nil {
			return plain, i == 0, nil
		}
	}
	return nil, false, errors.New("sealed token opens with neither HEARTH_ENCRYPTION_KEY nor any of HEARTH_ENCRYPTION_OLD_KEYS (was the key changed without keeping the old one?)")
}

// Reseal opens a stored token and seals it again under the current key,
// for `bot keys rotate`. It reports whether the token was under an old key
// (one already under the current key comes back unchanged).
func (k *Keys) Reseal(userID int64, sealed []byte) (resealed []byte, changed bool, err error) {
	plain, current, err := k.open(userID, sealed)
	if err != nil {
		return nil, false, err
	}
	if current {
		return sealed, false, nil
	}
	return k.Seal(userID, plain), true, nil
}

func userAAD(userID int64) []byte { return fmt.Appendf(nil, "user:%d", userID) }

// ChannelToken is the token a push channel is created with: an HMAC of the
// channel id, so a push naming the channel proves it came from the watch
// Hearth made.
func (k *Keys) ChannelToken(channelID string) string {
	return base64.RawURLEncoding.EncodeToString(mac(k.channel, channelID))
}

// ValidChannelToken checks a push's token against its channel id, under
// the current key or an old one: a channel made before a rotation keeps
// working until it expires (ChannelTTL) or the poll renews it.
func (k *Keys) ValidChannelToken(channelID, token string) bool {
	got, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		return false
	}
	for _, kk := range k.all() {
		if hmac.Equal(got, mac(kk.channel, channelID)) {
			return true
		}
	}
	return false
}

// pushSubject is what the Gmail push token signs: the token is the same
// for every push, as Pub/Sub's push URL is one per subscription.
const pushSubject = "gmail push"

// PushToken is the secret in the Gmail push URL the operator gives the
// Pub/Sub subscription: only a push carrying it is taken.
func (k *Keys) PushToken() string {
	return base64.RawURLEncoding.EncodeToString(mac(k.push, pushSubject))
}

// ValidPushToken checks a Gmail push's token, under the current key or an
// old one (a subscription made before a rotation keeps working while the
// old key is listed).
func (k *Keys) ValidPushToken(token string) bool {
	got, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil || len(got) == 0 {
		return false
	}
	for _, kk := range k.all() {
		if hmac.Equal(got, mac(kk.push, pushSubject)) {
			return true
		}
	}
	return false
}

func mac(key []byte, msg string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(msg))
	return h.Sum(nil)
}
