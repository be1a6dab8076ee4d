package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"

	"github.com/hearthbot/hearth/adapters/webchat"
	"github.com/hearthbot/hearth/internal/httpreply"
	"github.com/hearthbot/hearth/signin"
	"github.com/hearthbot/hearth/store"
)

// newSignIn wires real sign-in, or returns nil under development sign-in.
func newSignIn(cfg Config, st *store.Store, log *slog.Logger) (*signin.Service, error) {
	if cfg.DevSignin {
		return nil, nil
	}
	svc, err := signin.New(signin.Config{
		Store:     st,
		PublicURL: cfg.PublicURL,
		LocalURL:  localURL(cfg),
		Secure:    strings.HasPrefix(cfg.PublicURL, "https://") || cfg.TLSCert != "",
		Logger:    log.With("component", "signin"),
	})
	if err != nil {
		return nil, fmt.Errorf("sign-in (check HEARTH_PUBLIC_URL): %w", err)
	}
	return svc, nil
}

// localURL is where this machine reaches Hearth: the base of sign-in
// links when there is no public URL.
func localURL(cfg Config) string {
	scheme := "http"
	if cfg.TLSCert != "" {
		scheme = "https"
	}
	_, port, err := net.SplitHostPort(cfg.HTTPAddr)
	if err != nil || port == "" || port == "0" {
		port = "8080"
	}
	return scheme + "://localhost:" + port
}

// signInRoutes serves the sign-in API and makes the web chat ask it who
// is calling; under development sign-in the page learns it is in
// development mode.
func (a *App) signInRoutes(mux *http.ServeMux, wcfg *webchat.Config) {
	if a.SignIn == nil {
		mux.HandleFunc("GET /api/signin/me", func(w http.ResponseWriter, r *http.Request) {
			httpreply.JSON(w, http.StatusOK, map[string]bool{"dev": true})
		})
		return
	}
	mux.Handle("/api/signin/", a.SignIn)
	wcfg.Sessions = a.SignIn
}

// serve serves HTTP on ln, or HTTPS when HEARTH_TLS_CERT is set.
func serve(srv *http.Server, ln net.Listener, cfg Config) error {
	if cfg.TLSCert != "" {
		return srv.ServeTLS(ln, cfg.TLSCert, cfg.TLSKey)
	}
	return srv.Serve(ln)
}

// UserAdd makes a user who signs in to the web chat as name and prints a
// sign-in link for them (`bot user add NAME`).
func UserAdd(ctx context.Context, cfg Config, name string, stdout, logOut io.Writer) error {
	return withSignIn(ctx, cfg, logOut, func(st *store.Store, svc *signin.Service) error {
		clean, reason := signin.CheckName(name)
		if reason != "" {
			return fmt.Errorf("user add: %s", reason)
		}
		c, err := st.AddWebUser(ctx, clean)
		if err != nil {
			return fmt.Errorf("user add: %w", err)
		}
		link, err := svc.NewLink(ctx, c.User.ID)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "added %s (user %d)\nsign-in link (15 minutes, once): %s\n", c.User.DisplayName, c.User.ID, link)
		return nil
	})
}

// SigninLink prints a one-time sign-in link for the user called name
// (`bot signin-link USER`).
func SigninLink(ctx context.Context, cfg Config, name string, stdout, logOut io.Writer) error {
	return withSignIn(ctx, cfg, logOut, func(st *store.Store, svc *signin.Service) error {
		u, err := st.FindUserByName(ctx, name)
		if err != nil {
			return fmt.Errorf("signin-link: %w", err)
		}
		link, err := svc.NewLink(ctx, u.ID)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "sign-in link for %s (15 minutes, once): %s\n", u.DisplayName, link)
		return nil
	})
}

// withSignIn migrates the database and runs fn with the store and a
// sign-in service as `bot serve` would make them.
func withSignIn(ctx context.Context, cfg Config, logOut io.Writer, fn func(*store.Store, *signin.Service) error) error {
	log := newLogger(cfg, logOut)
	if err := store.Migrate(ctx, cfg.DatabaseURL, log); err != nil {
		return err
	}
	st, err := store.Open(ctx, cfg.DatabaseURL, store.Config{MaxConns: 2})
	if err != nil {
		return err
	}
	defer st.Close()
	cfg.DevSignin = false
	svc, err := newSignIn(cfg, st, log)
	if err != nil {
		return err
	}
	return fn(st, svc)
}

// UserExport writes everything Hearth holds about the user called name
// to stdout as JSON (`bot user export NAME`).
func UserExport(ctx context.Context, cfg Config, name string, stdout, logOut io.Writer) error {
	return withSignIn(ctx, cfg, logOut, func(st *store.Store, _ *signin.Service) error {
		u, err := st.FindUserByName(ctx, name)
		if err != nil {
			return fmt.Errorf("user export: %w", err)
		}
		data, err := st.ExportUser(ctx, u.ID)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", data)
		return err
	})
}

// UserDelete deletes the user called name and everything of theirs,
// except what belongs to their family (`bot user delete NAME`).
func UserDelete(ctx context.Context, cfg Config, name string, stdout, logOut io.Writer) error {
	return withSignIn(ctx, cfg, logOut, func(st *store.Store, _ *signin.Service) error {
		u, err := st.FindUserByName(ctx, name)
		if err != nil {
			return fmt.Errorf("user delete: %w", err)
		}
		if err := st.DeleteUser(ctx, u.ID); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "deleted %s (user %d) and everything of theirs; their family keeps what it owns\n", u.DisplayName, u.ID)
		return nil
	})
}
