package storetest

import (
	"io"
	"net"
	"net/url"
	"sync"
	"testing"
)

// Proxy sits between a test and Postgres so the test can take the
// database away (Cut) and bring it back (Restore) while everything else
// keeps running, to prove what happens when Postgres is unreachable.
type Proxy struct {
	t      testing.TB
	target string
	mu     sync.Mutex
	ln     net.Listener
	addr   string
	conns  map[net.Conn]struct{}
}

// NewProxy returns a proxy to the server of dbURL and the URL to use
// instead of dbURL. It is closed when the test ends.
func NewProxy(t testing.TB, dbURL string) (*Proxy, string) {
	t.Helper()
	u, err := url.Parse(dbURL)
	if err != nil {
		t.Fatalf("storetest proxy: %v", err)
	}
	p := &Proxy{t: t, target: u.Host, conns: map[net.Conn]struct{}{}}
	if u.Port() == "" {
		p.target = net.JoinHostPort(u.Hostname(), "5432")
	}
	p.listen("127.0.0.1:0")
	t.Cleanup(p.Cut)
	u.Host = p.addr
	return p, u.String()
}

func (p *Proxy) listen(addr string) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		p.t.Fatalf("storetest proxy: listen: %v", err)
	}
	p.mu.Lock()
	p.ln, p.addr = ln, ln.Addr().String()
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.pipe(c)
		}
	}()
}

func (p *Proxy) pipe(client net.Conn) {
	server, err := net.Dial("tcp", p.target)
	if err != nil {
		client.Close()
		return
	}
	p.mu.Lock()
	if p.ln == nil { // cut while dialling
		p.mu.Unlock()
		client.Close()
		server.Close()
		return
	}
	p.conns[client], p.conns[server] = struct{}{}, struct{}{}
	p.mu.Unlock()
	go func() { io.Copy(server, client); server.Close() }() //nolint:errcheck // ends when either side closes
	io.Copy(client, server)                                 //nolint:errcheck // ends when either side closes
	client.Close()
}

// Cut closes the listener and every open connection: from now on the
// database is unreachable.
func (p *Proxy) Cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
		delete(p.conns, c)
	}
}

// Restore listens again on the same address.
func (p *Proxy) Restore() {
	p.listen(p.addr)
}
