package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// selfSigned writes a certificate for 127.0.0.1 and its key, and returns
// their paths and a pool that trusts the certificate.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "hearth test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// TestServeTLS: with HEARTH_TLS_CERT and HEARTH_TLS_KEY Hearth speaks
// HTTPS itself, and its session cookie is Secure and __Host- named.
func TestServeTLS(t *testing.T) {
	t.Parallel()
	certFile, keyFile, pool := selfSigned(t)
	base, app, _ := startAppWith(t, func(c *Config) { c.DevSignin, c.TLSCert, c.TLSKey = false, certFile, keyFile })
	base = "https://" + strings.TrimPrefix(base, "http://")
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	res, err := client.Get(base + "/healthz")
	if err != nil {
		t.Fatalf("healthz over TLS: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != 200 || res.TLS == nil {
		t.Fatalf("healthz over TLS: %d", res.StatusCode)
	}
	ctx := context.Background()
	c, err := app.Store.AddWebUser(ctx, "Tia")
	if err != nil {
		t.Fatal(err)
	}
	link, err := app.SignIn.NewLink(ctx, c.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(link, "https://localhost:") {
		t.Errorf("link %q; want https://localhost:PORT", link)
	}
	_, token, _ := strings.Cut(link, "#signin=")
	req, _ := http.NewRequest("POST", base+"/api/signin/link", strings.NewReader(`{"token":"`+token+`"}`))
	req.Header.Set("Content-Type", "application/json")
	res, err = client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	cookies := res.Cookies()
	if res.StatusCode != 200 || len(cookies) != 1 {
		t.Fatalf("sign in over TLS: %d, cookies %v", res.StatusCode, cookies)
	}
	ck := cookies[0]
	if ck.Name != "__Host-hearth_session" || !ck.Secure || !ck.HttpOnly || ck.SameSite != http.SameSiteStrictMode || ck.Path != "/" {
		t.Fatalf("session cookie %+v; want __Host-, Secure, HttpOnly, SameSite=Strict, Path=/", ck)
	}
	// `bot health` finds the server over TLS too.
	var out strings.Builder
	if err := Health(ctx, strings.TrimPrefix(base, "https://"), true, &out); err != nil || !strings.Contains(out.String(), "ready") {
		t.Fatalf("bot health: %v %q", err, out.String())
	}
}
