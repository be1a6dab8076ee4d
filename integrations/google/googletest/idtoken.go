package googletest

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"math/big"
	"net/http"
	"sync"
)

// Google's signing certificates, as the JWKS at /oauth2/v3/certs, and ID
// tokens signed with them: what a Pub/Sub push subscription with
// authentication attaches (Authorization: Bearer) for its service
// account.

// KeyID is the key id ("kid") of the fake's signing key.
const KeyID = "googletest-1"

var (
	// signingKey is made once per test binary: RSA key generation is
	// slow, and every fake may share it.
	signingOnce sync.Once
	signingKey  *rsa.PrivateKey
)

func fakeKey() *rsa.PrivateKey {
	signingOnce.Do(func() {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			panic(err)
		}
		signingKey = k
	})
	return signingKey
}

// IDToken returns an RS256 JWT with claims, signed with the key the
// fake's /oauth2/v3/certs publishes, as Google signs a push's token.
func (s *Server) IDToken(claims map[string]any) string {
	return SignJWT(fakeKey(), KeyID, claims)
}

// SignJWT returns an RS256 JWT with claims signed with key under key id
// kid (a test's own key, to forge a signature Google never made).
func SignJWT(key *rsa.PrivateKey, kid string, claims map[string]any) string {
	enc := func(v any) string {
		b, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		return base64.RawURLEncoding.EncodeToString(b)
	}
	signed := enc(map[string]string{"alg": "RS256", "typ": "JWT", "kid": kid}) + "." + enc(claims)
	sum := sha256.Sum256([]byte(signed))
	sig, err := rsa.SignPKCS1v15(rand.Reader, key, crypto.SHA256, sum[:])
	if err != nil {
		panic(err)
	}
	return signed + "." + base64.RawURLEncoding.EncodeToString(sig)
}

// certs answers GET /oauth2/v3/certs: the fake's public key as a JWKS,
// cacheable for an hour as Google's is for hours.
func (s *Server) certs(w http.ResponseWriter, _ *http.Request) {
	pub := fakeKey().PublicKey
	w.Header().Set("Cache-Control", "public, max-age=3600")
	writeJSON(w, map[string]any{"keys": []map[string]string{{
		"kty": "RSA", "alg": "RS256", "use": "sig", "kid": KeyID,
		"n": base64.RawURLEncoding.EncodeToString(pub.N.Bytes()),
		"e": base64.RawURLEncoding.EncodeToString(big.NewInt(int64(pub.E)).Bytes()),
	}}})
}
