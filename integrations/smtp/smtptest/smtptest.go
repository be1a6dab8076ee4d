// Package smtptest is a fake SMTP submission server for tests, on
// loopback: STARTTLS (as on port 587) or implicit TLS (as on 465) with a
// certificate generated for the test, AUTH PLAIN only over TLS,
// and every accepted message recorded. It is driven by the real client
// (github.com/wneessen/go-mail through integrations/smtp), pointed at it
// by the same HEARTH_SMTP_URL a user would set.
package smtptest

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/hearthbot/hearth/internal/signal"
)

// The credentials the fake accepts.
const (
	Username = "hearth"
	Password = "p@ss word"
)

// Mode is how the fake secures its connections.
type Mode int

// Modes.
const (
	// StartTLS offers STARTTLS on a plain connection (smtp://, port 587).
	StartTLS Mode = iota
	// ImplicitTLS speaks TLS from the first byte (smtps://, port 465).
	ImplicitTLS
	// Plaintext offers no TLS at all: a client that requires it must
	// refuse to send.
	Plaintext
)

// Message is one message the fake accepted.
type Message struct {
	From string
	To   []string
	// Data is the message as transmitted (RFC 5322 headers and body).
	Data []byte
	// TLS reports whether the message came over an encrypted connection.
	TLS bool
	// User is who authenticated.
	User string
}

// Server is the fake. Point the client at URL and trust RootCAs.
type Server struct {
	// URL is the HEARTH_SMTP_URL for this server, with the credentials.
	URL string
	// Addr is host:port.
	Addr string
	// RootCAs trusts the server's test certificate.
	RootCAs *x509.CertPool

	srv *smtp.Server

	mu       sync.Mutex
	messages []Message
	refuse   []error // answers to the next DATA ends, in order
	changed  signal.Signal
}

// NewServer starts a fake on 127.0.0.1 in the given mode, closed when the
// test ends.
func NewServer(t testing.TB, mode Mode) *Server {
	t.Helper()
	cert, pool, err := certificate()
	if err != nil {
		t.Fatalf("smtptest: certificate: %v", err)
	}
	s := &Server{RootCAs: pool}
	s.srv = smtp.NewServer(smtp.BackendFunc(func(c *smtp.Conn) (smtp.Session, error) {
		_, isTLS := c.TLSConnectionState()
		return &session{s: s, tls: isTLS}, nil
	}))
	s.srv.Domain = "localhost"
	s.srv.ReadTimeout, s.srv.WriteTimeout = 10*time.Second, 10*time.Second
	s.srv.MaxMessageBytes = 1 << 20
	tlsConf := &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("smtptest: listen: %v", err)
	}
	scheme := "smtp"
	switch mode {
	case StartTLS:
		s.srv.TLSConfig = tlsConf
	case ImplicitTLS:
		ln, scheme = tls.NewListener(ln, tlsConf), "smtps"
	}
	s.Addr = ln.Addr().String()
	s.URL = fmt.Sprintf("%s://%s:%s@%s", scheme, Username, "p%40ss%20word", s.Addr)
	go s.srv.Serve(ln) //nolint:errcheck // ends with Close
	t.Cleanup(func() { s.srv.Close() })
	return s
}

// Messages returns what was accepted so far.
func (s *Server) Messages() []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Message(nil), s.messages...)
}

// WaitMessages waits until at least n messages were accepted and returns
// them all.
func (s *Server) WaitMessages(t testing.TB, n int) []Message {
	t.Helper()
	s.changed.Await(t, fmt.Sprintf("%d SMTP messages", n), func() bool { return len(s.Messages()) >= n })
	return s.Messages()
}

// RefuseNext makes the server answer the end of the next message's data
// with a temporary failure (451), as a busy server does: nothing is
// accepted.
func (s *Server) RefuseNext() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refuse = append(s.refuse, &smtp.SMTPError{Code: 451, EnhancedCode: smtp.EnhancedCode{4, 3, 0}, Message: "try again later"})
}

type session struct {
	s    *Server
	tls  bool
	user string
	from string
	to   []string
}

var errAuthFirst = &smtp.SMTPError{Code: 530, EnhancedCode: smtp.EnhancedCode{5, 7, 0}, Message: "authentication required"}

func (ss *session) AuthMechanisms() []string { return []string{sasl.Plain} }

func (ss *session) Auth(mech string) (sasl.Server, error) {
	if mech != sasl.Plain {
		return nil, smtp.ErrAuthUnknownMechanism
	}
	return sasl.NewPlainServer(func(_, username, password string) error {
		if username != Username || password != Password {
			return errors.New("invalid username or password")
		}
		ss.user = username
		return nil
	}), nil
}

func (ss *session) Mail(from string, _ *smtp.MailOptions) error {
	if ss.user == "" {
		return errAuthFirst
	}
	ss.from = from
	return nil
}

func (ss *session) Rcpt(to string, _ *smtp.RcptOptions) error {
	if ss.user == "" {
		return errAuthFirst
	}
	ss.to = append(ss.to, to)
	return nil
}

func (ss *session) Data(r io.Reader) error {
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, r); err != nil {
		return err
	}
	s := ss.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.refuse) > 0 {
		err := s.refuse[0]
		s.refuse = s.refuse[1:]
		return err
	}
	s.messages = append(s.messages, Message{From: ss.from, To: append([]string(nil), ss.to...), Data: buf.Bytes(), TLS: ss.tls, User: ss.user})
	s.changed.Notify()
	return nil
}

func (ss *session) Reset()        { ss.from, ss.to = "", nil }
func (ss *session) Logout() error { return nil }

// certificate makes a self-signed certificate for 127.0.0.1 and
// localhost, and a pool that trusts it.
func certificate() (tls.Certificate, *x509.CertPool, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "smtptest"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:              []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(leaf)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, pool, nil
}
