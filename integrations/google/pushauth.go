package google

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/mail"
	"net/url"
	"slices"
	"strings"

	"google.golang.org/api/idtoken"
	"google.golang.org/api/option"
)

// Pub/Sub push authentication. A push subscription created with
// --push-auth-service-account and --push-auth-token-audience attaches an
// OIDC ID token (Authorization: Bearer) that Google signs for that
// service account. With HEARTH_GMAIL_PUSH_AUDIENCE and
// HEARTH_GMAIL_PUSH_SERVICE_ACCOUNT set, a Gmail push needs such a token
// besides the URL's: the URL token alone is a shared secret that leaks
// with any log of the URL, the signed token cannot be forged without the
// service account.
//
// The token is checked by google.golang.org/api/idtoken's Validator
// (signature against Google's certificates, cached as their
// Cache-Control says; audience; expiry), then here: issuer, the service
// account's address and email_verified, which the Validator leaves to
// its caller. The Validator's certificate URL is a constant, so with
// HEARTH_GOOGLE_ENDPOINT its HTTP client sends that host's requests to
// the endpoint instead (hostRewrite), Google's path kept as for every
// other Google host.

// googleIssuers are the issuers of Google's ID tokens (Google's docs
// name both forms).
var googleIssuers = []string{"https://accounts.google.com", "accounts.google.com"}

// CheckPushAuth checks HEARTH_GMAIL_PUSH_AUDIENCE and
// HEARTH_GMAIL_PUSH_SERVICE_ACCOUNT: both empty, or both set with an
// address as the service account. Both are needed: any Google Cloud
// project can have tokens minted for an audience it names, so the
// audience alone proves nothing, and the service account alone would
// take its tokens meant for other services.
func CheckPushAuth(audience, account string) error {
	switch {
	case audience == "" && account == "":
		return nil
	case audience == "" || account == "":
		return errors.New("google: HEARTH_GMAIL_PUSH_AUDIENCE and HEARTH_GMAIL_PUSH_SERVICE_ACCOUNT go together")
	}
	if a, err := mail.ParseAddress(account); err != nil || a.Address != account {
		return fmt.Errorf("google: HEARTH_GMAIL_PUSH_SERVICE_ACCOUNT %q is not a service account's address", account)
	}
	return nil
}

// pushAuth verifies the ID tokens of Gmail pushes.
type pushAuth struct {
	audience, account string
	validator         *idtoken.Validator
}

// newPushAuth returns the verifier the configuration asks for; nil when
// push tokens are not required.
func newPushAuth(cfg Config) (*pushAuth, error) {
	if cfg.PushAudience == "" {
		return nil, nil
	}
	client := cfg.HTTPClient
	if base := strings.TrimRight(strings.TrimSpace(cfg.Endpoint), "/"); base != "" {
		u, err := url.Parse(base)
		if err != nil {
			return nil, fmt.Errorf("google: HEARTH_GOOGLE_ENDPOINT: %w", err)
		}
		next := client.Transport
		if next == nil {
			next = http.DefaultTransport
		}
		c := *client
		c.Transport = hostRewrite{base: u, next: next}
		client = &c
	}
	v, err := idtoken.NewValidator(context.Background(), option.WithHTTPClient(client))
	if err != nil {
		return nil, fmt.Errorf("google: push token validator: %w", err)
	}
	return &pushAuth{audience: cfg.PushAudience, account: cfg.PushServiceAccount, validator: v}, nil
}

// verify checks a push's Authorization header. The error says why a
// token was refused, never what it was.
func (p *pushAuth) verify(ctx context.Context, authorization string) error {
	scheme, tok, ok := strings.Cut(authorization, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || tok == "" {
		return errors.New("no bearer token")
	}
	// Pub/Sub signs with RS256. Refusing anything else before the
	// Validator keeps its other path (ES256, for IAP's keys) out of reach.
	if alg, err := jwtAlg(tok); err != nil || alg != "RS256" {
		return errors.New("not an RS256 token")
	}
	pl, err := p.validator.Validate(ctx, tok, p.audience)
	if err != nil {
		return fmt.Errorf("token refused: %w", err)
	}
	if !slices.Contains(googleIssuers, pl.Issuer) {
		return fmt.Errorf("issuer %q is not Google", pl.Issuer)
	}
	if email, _ := pl.Claims["email"].(string); !strings.EqualFold(email, p.account) {
		return fmt.Errorf("email %q is not the push service account", email)
	}
	if verified, _ := pl.Claims["email_verified"].(bool); !verified {
		return errors.New("email not verified")
	}
	return nil
}

// jwtAlg reads the algorithm a JWT's header names, without checking
// anything else.
func jwtAlg(tok string) (string, error) {
	head, _, ok := strings.Cut(tok, ".")
	if !ok {
		return "", errors.New("not a JWT")
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(head, "="))
	if err != nil {
		return "", errors.New("the header is not base64url")
	}
	var h struct {
		Alg string `json:"alg"`
	}
	if err := json.Unmarshal(raw, &h); err != nil {
		return "", errors.New("the header is not JSON")
	}
	return h.Alg, nil
}

// hostRewrite sends every request to base's scheme and host, base's path
// prefixed to the request's: how a library with Google's URLs built in
// reaches HEARTH_GOOGLE_ENDPOINT.
type hostRewrite struct {
	base *url.URL
	next http.RoundTripper
}

func (h hostRewrite) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.URL.Scheme, r.URL.Host, r.Host = h.base.Scheme, h.base.Host, ""
	r.URL.Path = strings.TrimRight(h.base.Path, "/") + r.URL.Path
	r.URL.RawPath = ""
	return h.next.RoundTrip(r)
}
