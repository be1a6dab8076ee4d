package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"time"
)

// Health asks the server on this machine listening on addr (host:port;
// HTTPS when tlsOn) whether it is ready (`bot health`, the container's
// health check: the image has no shell or curl).
func Health(ctx context.Context, addr string, tlsOn bool, stdout io.Writer) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("health: HEARTH_HTTP_ADDR %q is not host:port", addr)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	scheme := "http"
	client := &http.Client{Timeout: 3 * time.Second}
	if tlsOn {
		scheme = "https"
		// The server asked is this machine's own; its name need not match.
		client.Transport = &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}} //nolint:gosec // loopback self-check
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, scheme+"://"+net.JoinHostPort(host, port)+"/readyz", nil)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	res, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("health: %w", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(res.Body, 1024))
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("health: %s", strings.TrimSpace(string(body)))
	}
	fmt.Fprint(stdout, string(body))
	return nil
}

// healthTarget reads only HEARTH_HTTP_ADDR and HEARTH_TLS_CERT, so `bot
// health` works wherever `bot serve` does, even without DATABASE_URL.
func healthTarget() (addr string, tlsOn bool) {
	addr = os.Getenv("HEARTH_HTTP_ADDR")
	if addr == "" {
		addr = ":8080"
	}
	return addr, os.Getenv("HEARTH_TLS_CERT") != ""
}
