package main

// The Hearths a bench runs against: in this process, as `bot serve`
// would run, or as `bot serve` processes of their own.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"time"
)

// benchApp starts Hearth as `bot serve` does, on a loopback listener,
// and returns its base URL and a stop function.
func benchApp(ctx context.Context, cfg Config, counter *statementCounter, stderr io.Writer) (*App, string, func() error, error) {
	cfg = benchAppConfig(cfg)
	cfg.statements = counter
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", nil, err
	}
	cfg.HTTPAddr = ln.Addr().String()
	if err := cfg.validate(); err != nil {
		ln.Close()
		return nil, "", nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	app, err := Open(ctx, cfg, stderr)
	if err != nil {
		cancel()
		ln.Close()
		return nil, "", nil, err
	}
	app.Handler = counter.handler(app.Handler)
	done := make(chan error, 1)
	go func() { done <- app.RunListener(ctx, ln) }()
	base := "http://" + ln.Addr().String()
	stop := func() error { cancel(); return <-done }
	if err := waitReady(base); err != nil {
		stop() //nolint:errcheck // already failing
		return nil, "", nil, err
	}
	return app, base, stop, nil
}

// waitReady waits until the server at base says it is ready (/readyz).
func waitReady(base string) error {
	for deadline := time.Now().Add(30 * time.Second); ; {
		res, err := http.Get(base + "/readyz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("bench: the server at %s did not become ready in 30s", base)
		}
		time.Sleep(20 * time.Millisecond) // waiting on an outside server to come up
	}
}

// benchProcesses starts f.replicas `bot serve` processes (this binary) on
// cfg's database, configured as benchAppConfig configures the in-process
// ones, and returns their base URLs, an App opened on the same database
// but not run (the bench's handle: its store and queue client read
// replies and jobs and pause queues; it works nothing), and one function
// stopping them all.
func benchProcesses(ctx context.Context, cfg Config, f benchFlags, stderr io.Writer) (*App, []string, func() error, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, nil, nil, fmt.Errorf("bench: -processes: %w", err)
	}
	hcfg := benchAppConfig(cfg)
	hcfg.HTTPAddr = "127.0.0.1:0"
	app, err := Open(ctx, hcfg, stderr)
	if err != nil {
		return nil, nil, nil, err
	}
	var cmds []*exec.Cmd
	var bases []string
	stop := func() error {
		var errs []error
		for _, c := range cmds {
			if err := c.Process.Signal(os.Interrupt); err != nil {
				errs = append(errs, err)
			}
		}
		for _, c := range cmds {
			if err := c.Wait(); err != nil {
				errs = append(errs, fmt.Errorf("bench: bot serve (pid %d): %w", c.Process.Pid, err))
			}
		}
		app.Store.Close()
		return errors.Join(errs...)
	}
	for range f.replicas {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			stop() //nolint:errcheck // already failing
			return nil, nil, nil, err
		}
		addr := ln.Addr().String()
		ln.Close()
		c := exec.Command(exe, "serve")
		// The settings benchAppConfig makes, as the environment says them.
		c.Env = append(os.Environ(),
			"DATABASE_URL="+cfg.DatabaseURL, "HEARTH_HTTP_ADDR="+addr,
			"HEARTH_WEBCHAT=true", "HEARTH_DEV_SIGNIN=true", "HEARTH_LOG_LEVEL=ERROR+4",
			"HEARTH_PUBLIC_URL=", "HEARTH_TLS_CERT=", "HEARTH_TLS_KEY=", "OTEL_EXPORTER_OTLP_ENDPOINT=",
			"TELEGRAM_BOT_TOKEN=", "SLACK_BOT_TOKEN=", "SLACK_APP_TOKEN=",
			"HEARTH_LLM=none", "HEARTH_LLM_FALLBACK=", "HEARTH_EMBEDDINGS=none", "HEARTH_TRANSCRIBE=none", "HEARTH_GEOCODER=none",
			"HEARTH_GOOGLE_CLIENT_ID=", "HEARTH_GOOGLE_CLIENT_SECRET=", "HEARTH_SMTP_URL=", "HEARTH_SCHEDULER=false", "HEARTH_REPLICA_ID=")
		c.Stdout, c.Stderr = stderr, stderr
		if err := c.Start(); err != nil {
			stop() //nolint:errcheck // already failing
			return nil, nil, nil, fmt.Errorf("bench: start bot serve: %w", err)
		}
		cmds = append(cmds, c)
		base := "http://" + addr
		if err := waitReady(base); err != nil {
			stop() //nolint:errcheck // already failing
			return nil, nil, nil, err
		}
		bases = append(bases, base)
	}
	return app, bases, stop, nil
}

// benchApps starts f.replicas Hearths on the one database (see benchApp)
// and returns them with their base URLs and one function stopping all.
func benchApps(ctx context.Context, cfg Config, f benchFlags, counter *statementCounter, stderr io.Writer) ([]*App, []string, func() error, error) {
	if f.processes {
		app, bases, stop, err := benchProcesses(ctx, cfg, f, stderr)
		return []*App{app}, bases, stop, err
	}
	var apps []*App
	var bases []string
	var stops []func() error
	stop := func() error {
		var errs []error
		for _, s := range stops {
			errs = append(errs, s())
		}
		return errors.Join(errs...)
	}
	for range max(f.replicas, 1) {
		app, base, s, err := benchApp(ctx, cfg, counter, stderr)
		if err != nil {
			stop() //nolint:errcheck // already failing
			return nil, nil, nil, err
		}
		apps, bases, stops = append(apps, app), append(bases, base), append(stops, s)
	}
	return apps, bases, stop, nil
}

// benchAppConfig is cfg as shipped (workers, pool, fetch settings from
// the environment), offline and with every outside service turned off,
// web chat on with name-only sign-in, quiet logs.
func benchAppConfig(cfg Config) Config {
	cfg.Webchat, cfg.DevSignin = true, true
	// Logs off: turns cut short when the bench stops would log their
	// cancellation; the bench counts its own errors.
	cfg.LogLevel, cfg.LogFormat = 12, "text"
	cfg.PublicURL, cfg.TLSCert, cfg.TLSKey, cfg.OTLPEndpoint = "", "", "", ""
	cfg.TelegramToken, cfg.SlackBotToken, cfg.SlackAppToken = "", "", ""
	cfg.LLM, cfg.LLMFallback, cfg.Embeddings, cfg.Transcribe, cfg.Geocoder = "none", nil, "none", "none", "none"
	cfg.GoogleClientID, cfg.GoogleClientSecret, cfg.SMTPURL = "", "", ""
	cfg.Scheduler = false
	return cfg
}

func appSettings(cfg Config, f benchFlags) map[string]any {
	return map[string]any{
		"clients": f.clients, "count": f.count, "duration": f.duration.String(), "users": f.users,
		"turn_workers": cfg.TurnWorkers, "deliver_workers": cfg.DeliverWorkers, "action_workers": cfg.ActionWorkers,
		"db_max_conns": cfg.DBMaxConns, "fetch_cooldown": cfg.FetchCooldown.String(),
		"fetch_poll_interval": cfg.FetchPollInterval.String(), "llm": "none", "scheduler": false,
	}
}
