package main

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hearthbot/hearth/store/storetest"
)

func TestLoadConfig(t *testing.T) {
	tests := []struct {
		name    string
		env     map[string]string
		wantErr string // a substring naming the variable; "" for success
	}{
		{"defaults", map[string]string{"DATABASE_URL": "postgres://localhost/hearth"}, ""},
		{"missing database", map[string]string{}, "DATABASE_URL"},
		{"bad database url", map[string]string{"DATABASE_URL": "mysql://x y"}, "DATABASE_URL"},
		{"bad address", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_HTTP_ADDR": "8080"}, "HEARTH_HTTP_ADDR"},
		{"bad bool", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_WEBCHAT": "maybe"}, "HEARTH_WEBCHAT"},
		{"bad duration", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_SHUTDOWN_TIMEOUT": "soon"}, "HEARTH_SHUTDOWN_TIMEOUT"},
		{"bad public url", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_PUBLIC_URL": "example.com"}, "HEARTH_PUBLIC_URL"},
		{"bad log level", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_LOG_LEVEL": "loud"}, "HEARTH_LOG_LEVEL"},
		{"zero workers", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_TURN_WORKERS": "0"}, "HEARTH_TURN_WORKERS"},
		{"short encryption key", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_ENCRYPTION_KEY": "c2hvcnQ="}, "HEARTH_ENCRYPTION_KEY"},
		{"old keys", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_ENCRYPTION_KEY": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=", "HEARTH_ENCRYPTION_OLD_KEYS": "ZmVkY2JhOTg3NjU0MzIxMGZlZGNiYTk4NzY1NDMyMTA=,MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="}, ""},
		{"bad old key", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_ENCRYPTION_KEY": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=", "HEARTH_ENCRYPTION_OLD_KEYS": "c2hvcnQ="}, "HEARTH_ENCRYPTION_OLD_KEYS"},
		{"old keys without a key", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_ENCRYPTION_OLD_KEYS": "MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY="}, "HEARTH_ENCRYPTION_OLD_KEYS"},
		{"bad google endpoint", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_GOOGLE_ENDPOINT": "fake:99"}, "HEARTH_GOOGLE_ENDPOINT"},
		{"bad poll interval", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_GOOGLE_POLL_INTERVAL": "often"}, "HEARTH_GOOGLE_POLL_INTERVAL"},
		{"gmail topic", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_GMAIL_PUBSUB_TOPIC": "projects/my-project/topics/hearth-gmail"}, ""},
		{"bad gmail topic", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_GMAIL_PUBSUB_TOPIC": "hearth-gmail"}, "HEARTH_GMAIL_PUBSUB_TOPIC"},
		{"gmail push auth", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_GMAIL_PUSH_AUDIENCE": "https://hearth.example/gmail", "HEARTH_GMAIL_PUSH_SERVICE_ACCOUNT": "push@p.iam.gserviceaccount.com"}, ""},
		{"gmail push audience alone", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_GMAIL_PUSH_AUDIENCE": "https://hearth.example/gmail"}, "HEARTH_GMAIL_PUSH_SERVICE_ACCOUNT"},
		{"gmail push bad account", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_GMAIL_PUSH_AUDIENCE": "a", "HEARTH_GMAIL_PUSH_SERVICE_ACCOUNT": "push"}, "HEARTH_GMAIL_PUSH_SERVICE_ACCOUNT"},
		{"smtp", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_SMTP_URL": "smtps://u:p@mail.example.com", "HEARTH_SMTP_FROM": "Ann <ann@example.com>"}, ""},
		{"smtp without from", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_SMTP_URL": "smtps://u:p@mail.example.com"}, "HEARTH_SMTP_FROM"},
		{"smtp from without url", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_SMTP_FROM": "ann@example.com"}, "HEARTH_SMTP_URL"},
		{"smtp bad scheme", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_SMTP_URL": "http://mail.example.com", "HEARTH_SMTP_FROM": "ann@example.com"}, "HEARTH_SMTP_URL"},
		{"smtp bad from", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_SMTP_URL": "smtp://mail.example.com", "HEARTH_SMTP_FROM": "Ann"}, "HEARTH_SMTP_FROM"},
		{"dev sign-in on every interface", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_DEV_SIGNIN": "true"}, "HEARTH_DEV_SIGNIN"},
		{"dev sign-in on a LAN address", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_DEV_SIGNIN": "true", "HEARTH_HTTP_ADDR": "192.168.1.5:8080"}, "HEARTH_DEV_SIGNIN"},
		{"a certificate without its key", map[string]string{"DATABASE_URL": "postgres://localhost/h", "HEARTH_TLS_CERT": "/etc/cert.pem"}, "HEARTH_TLS_KEY"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clearConfigEnv(t)
			for k, v := range tt.env {
				t.Setenv(k, v)
			}
			cfg, err := LoadConfig()
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if cfg.HTTPAddr != ":8080" || !cfg.Webchat || cfg.TurnWorkers != 32 || cfg.DevSignin {
					t.Fatalf("defaults not applied: %+v", cfg)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("error %q: want one line naming %s", err, tt.wantErr)
			}
		})
	}
}

// clearConfigEnv empties, for this test, every variable LoadConfig reads,
// so that a table row sees only what it sets.
func clearConfigEnv(t *testing.T) {
	t.Helper()
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		for _, prefix := range []string{"HEARTH_", "DATABASE_URL", "SLACK_", "TELEGRAM_", "OPENAI_", "BEDROCK_"} {
			if strings.HasPrefix(k, prefix) {
				t.Setenv(k, "")
			}
		}
	}
}

// startApp opens and runs the App as `bot serve` does, on a fresh
// database and a free port. stop (also run at cleanup) cancels it and
// fails the test unless Run returns nil within twice the shutdown
// timeout. The log is shown only if the test fails.
func startApp(t testing.TB) (base string, app *App, stop func()) {
	t.Helper()
	return startAppWith(t, nil)
}

// startAppWith is startApp with a chance to change the configuration.
func startAppWith(t testing.TB, configure func(*Config)) (base string, app *App, stop func()) {
	t.Helper()
	cfg := Config{
		DatabaseURL:       storetest.NewDatabase(t),
		HTTPAddr:          "127.0.0.1:0",
		Webchat:           true,
		DevSignin:         true,
		LogFormat:         "text",
		TurnWorkers:       4,
		DeliverWorkers:    4,
		ActionWorkers:     4,
		FetchCooldown:     5 * time.Millisecond,
		FetchPollInterval: 50 * time.Millisecond,
		ShutdownTimeout:   5 * time.Second,
	}
	// The listener comes first, so configure sees the real address (a
	// public URL pointing back at the server, for Google's pushes).
	ln, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		t.Fatal(err)
	}
	cfg.HTTPAddr = ln.Addr().String()
	if configure != nil {
		configure(&cfg)
	}
	if err := cfg.validate(); err != nil {
		ln.Close()
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	ctx, cancel := context.WithCancel(context.Background())
	app, err = Open(ctx, cfg, logs)
	if err != nil {
		cancel()
		ln.Close()
		t.Fatalf("open: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- app.RunListener(ctx, ln) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("RunListener returned %v, want nil", err)
				}
			case <-time.After(2 * cfg.ShutdownTimeout):
				t.Errorf("RunListener did not return within %s of cancellation", 2*cfg.ShutdownTimeout)
			}
			if t.Failed() {
				t.Logf("hearth log:\n%s", logs.String())
			}
		})
	}
	t.Cleanup(stop)
	return "http://" + ln.Addr().String(), app, stop
}

func TestServeProbesAndShutdown(t *testing.T) {
	t.Parallel()
	base, _, stop := startApp(t)
	for path, want := range map[string]int{"/healthz": 200, "/readyz": 200, "/metrics": 200, "/": 200, "/nope": 404} {
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != want {
			t.Fatalf("GET %s = %d; want %d", path, res.StatusCode, want)
		}
		if path == "/metrics" && !strings.Contains(string(body), "go_goroutines") {
			t.Fatal("metrics do not look like Prometheus output")
		}
	}
	// An open event stream must not hold up shutdown.
	res, err := http.Post(base+"/api/webchat/users", "application/json", strings.NewReader(`{"user":"Zoe","tz":"UTC"}`))
	if err != nil || res.StatusCode != 200 {
		t.Fatalf("sign in: %v %v", res, err)
	}
	res.Body.Close()
	streamRes, err := http.Get(base + "/api/webchat/events?user=Zoe")
	if err != nil {
		t.Fatal(err)
	}
	defer streamRes.Body.Close()
	start := time.Now()
	stop()
	if d := time.Since(start); d > 6*time.Second {
		t.Fatalf("shutdown with an open stream took %v", d)
	}
}

func TestUnknownCommand(t *testing.T) {
	t.Parallel()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), []string{"frobnicate"}, nil, &out, &errOut); err == nil || !strings.Contains(errOut.String(), "usage") {
		t.Fatalf("err %v, stderr %q: want an error and the usage", err, errOut.String())
	}
}
