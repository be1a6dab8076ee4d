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
)

// Keys are the keys derived from HEARTH_ENCRYPTION_KEY: one sealing
// tokens at rest (AES-256-GCM), one signing OAuth states, one making
// channel tokens.
type Keys struct {
	tokens  cipher.AEAD
	state   []byte
	channel []byte
}

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
	return k, nil
}

// Seal encrypts plaintext for storage; the user id is authenticated with
// it, so a sealed token copied to another user's row does not open.
func (k *Keys) Seal(userID int64, plaintext []byte) []byte {
	nonce := make([]byte, k.tokens.NonceSize())
	rand.Read(nonce)
	return k.tokens.Seal(nonce, nonce, plaintext, userAAD(userID))
}

// Open decrypts what Seal sealed for the same user.
func (k *Keys) Open(userID int64, sealed []byte) ([]byte, error) {
	n := k.tokens.NonceSize()
	if len(sealed) < n {
		return nil, errors.New("sealed token too short")
	}
	plain, err := k.tokens.Open(nil, sealed[:n], sealed[n:], userAAD(userID))
	if err != nil {
		return nil, errors.New("sealed token does not open (was HEARTH_ENCRYPTION_KEY changed?)")
	}
	return plain, nil
}

func userAAD(userID int64) []byte { return fmt.Appendf(nil, "user:%d", userID) }

// ChannelToken is the token a push channel is created with: an HMAC of the
// channel id, so a push naming the channel proves it came from the watch
// Hearth made.
func (k *Keys) ChannelToken(channelID string) string {
	return base64.RawURLEncoding.EncodeToString(mac(k.channel, channelID))
}

// ValidChannelToken checks a push's token against its channel id.
func (k *Keys) ValidChannelToken(channelID, token string) bool {
	got, err := base64.RawURLEncoding.DecodeString(token)
	return err == nil && hmac.Equal(got, mac(k.channel, channelID))
}

func mac(key []byte, msg string) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(msg))
	return h.Sum(nil)
}
