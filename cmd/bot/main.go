// Command bot is Hearth: a self-hosted assistant that lives in chat.
//
//	bot serve              run the server (migrates first)
//	bot migrate            apply database migrations and exit
//	bot nlu classify|time|test --file F.jsonl
//	                       offline understanding tools
//	bot eval [--file F]    run labelled conversations, offline, and score them
//	bot llm check          try each configured model provider
//	bot llm usage          model use per user and day
//	bot user add NAME      add a web chat user and print a sign-in link
//	bot signin-link USER   print a one-time web chat sign-in link
//	bot doctor             check the configuration, database and services
//	bot jobs failed|retry  dead letters, and running one again
//	bot bench river|ingress|turns|roundtrip
//	                       measure River, the web chat ingress and turns
//
// Configuration comes from the environment; see .env.example.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	_ "time/tzdata" // users' zones must resolve even on hosts without a zone database

	"github.com/hearthbot/hearth/pipeline/nlu/nlucmd"
)

const usage = `usage: bot <command>

commands:
  serve                  run Hearth (migrates the database first)
  migrate                apply database migrations and exit
  nlu classify           classify JSON lines or text lines from stdin (offline)
  nlu time               resolve date/time expressions from JSON lines on stdin
  nlu test --file F      score labelled JSON lines (intents or times)
  eval [--file F] [-v]   run labelled conversations (default testdata/eval/conversations.jsonl)
                         offline in a scratch database: intent accuracy, action precision and
                         recall, model calls, tokens and latency per turn
  turns tail [-n N]      print the traces of the last N turns (default 20)
  llm check              list the configured model providers and try each one
  llm usage [-days N]    model calls, tokens and cost per user and day (default 7 days)
  user add NAME          add a web chat user and print a one-time sign-in link
  user export NAME       everything Hearth holds about a user, as JSON on stdout
  user delete NAME       delete a user and everything of theirs (family-owned facts stay)
  signin-link USER       print a one-time web chat sign-in link (15 minutes) for USER
  doctor                 check the configuration, database, pgvector and each configured service
  health                 ask the server on this machine whether it is ready (exit 1 if not)
  jobs failed [-n N]     dead letters: jobs given up on, their last error and the turn they belong to
  jobs retry ID          run a failed job again
  keys rotate            re-seal every stored token under HEARTH_ENCRYPTION_KEY (old keys in HEARTH_ENCRYPTION_OLD_KEYS)
  bench river            River alone: one job inserted per transaction, N clients (-clients 16)
  bench ingress          the web chat HTTP handler over loopback: acknowledgement rate and latency
                         (-clients 16 -users 1000; -pause-turns; -with-river for the ratio;
                         -replicas N Hearths on the one database, -processes as bot serve processes)
  bench turns -rate N    paced offline turns: message stored to first reply stored
  bench roundtrip        trivial statements, -batch N to a round trip: what a round trip costs
                         (each bench: -count, -duration; a scratch database on DATABASE_URL's
                         server, created and dropped; prints one JSON object)
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bot:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return errors.New("no command given")
	}
	switch args[0] {
	case "serve":
		cfg, err := LoadConfig()
		if err != nil {
			return err
		}
		return Serve(ctx, cfg, stderr)
	case "migrate":
		cfg, err := LoadConfig()
		if err != nil {
			return err
		}
		return Migrate(ctx, cfg, stderr)
	case "nlu":
		err := nlucmd.Run(ctx, nlucmd.Env{Stdin: stdin, Stdout: stdout, Stderr: stderr}, args[1:])
		if errors.Is(err, nlucmd.ErrUsage) {
			fmt.Fprint(stderr, usage)
		}
		return err
	case "eval":
		file, verbose, err := evalArgs(args[1:])
		if err != nil {
			fmt.Fprint(stderr, usage)
			return err
		}
		cfg, err := LoadConfig()
		if err != nil {
			return err
		}
		return Eval(ctx, cfg, file, verbose, stdout)
	case "turns":
		if len(args) < 2 || args[1] != "tail" {
			fmt.Fprint(stderr, usage)
			return errors.New("usage: bot turns tail [-n N]")
		}
		n, err := tailCount(args[2:])
		if err != nil {
			return err
		}
		cfg, err := LoadConfig()
		if err != nil {
			return err
		}
		return TurnsTail(ctx, cfg, n, stdout)
	case "llm":
		if len(args) >= 2 && args[1] == "usage" {
			days, err := usageDays(args[2:])
			if err != nil {
				return err
			}
			cfg, err := LoadConfig()
			if err != nil {
				return err
			}
			return LLMUsage(ctx, cfg, days, stdout)
		}
		if len(args) < 2 || args[1] != "check" {
			fmt.Fprint(stderr, usage)
			return errors.New("usage: bot llm check | bot llm usage [-days N]")
		}
		cfg, err := LoadModelConfig()
		if err != nil {
			return err
		}
		return LLMCheck(ctx, cfg, stdout)
	case "user":
		if len(args) != 3 || (args[1] != "add" && args[1] != "export" && args[1] != "delete") {
			fmt.Fprint(stderr, usage)
			return errors.New("usage: bot user add|export|delete NAME (quote a name with spaces)")
		}
		cfg, err := LoadConfig()
		if err != nil {
			return err
		}
		switch args[1] {
		case "export":
			return UserExport(ctx, cfg, args[2], stdout, stderr)
		case "delete":
			return UserDelete(ctx, cfg, args[2], stdout, stderr)
		}
		return UserAdd(ctx, cfg, args[2], stdout, stderr)
	case "signin-link":
		if len(args) != 2 {
			fmt.Fprint(stderr, usage)
			return errors.New("usage: bot signin-link USER")
		}
		cfg, err := LoadConfig()
		if err != nil {
			return err
		}
		return SigninLink(ctx, cfg, args[1], stdout, stderr)
	case "jobs":
		sub, n, err := jobsArgs(args[1:])
		if err != nil {
			fmt.Fprint(stderr, usage)
			return err
		}
		cfg, err := LoadConfig()
		if err != nil {
			return err
		}
		if sub == "retry" {
			return JobsRetry(ctx, cfg, n, stdout)
		}
		return JobsFailed(ctx, cfg, int(n), stdout)
	case "keys":
		if len(args) != 2 || args[1] != "rotate" {
			fmt.Fprint(stderr, usage)
			return errors.New("usage: bot keys rotate")
		}
		cfg, err := LoadConfig()
		if err != nil {
			return err
		}
		return KeysRotate(ctx, cfg, stdout)
	case "bench":
		err := Bench(ctx, args[1:], stdout, stderr)
		if err != nil && len(args) < 2 {
			fmt.Fprint(stderr, usage)
		}
		return err
	case "doctor":
		cfg, err := LoadConfig()
		if err != nil {
			fmt.Fprintf(stdout, "%-13s FIX   %v\n%-13s       → see .env.example for every setting\n", "config", err, "")
			return err
		}
		return Doctor(ctx, cfg, stdout)
	case "health":
		addr, tlsOn := healthTarget()
		return Health(ctx, addr, tlsOn, stdout)
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	default:
		fmt.Fprint(stderr, usage)
		return fmt.Errorf("unknown command %q", args[0])
	}
}

// newLogger writes JSON logs, or text on a terminal (HEARTH_LOG_FORMAT=auto).
func newLogger(cfg Config, out io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	format := cfg.LogFormat
	if format == "auto" {
		format = "json"
		if f, ok := out.(*os.File); ok {
			if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
				format = "text"
			}
		}
	}
	if format == "text" {
		return slog.New(slog.NewTextHandler(out, opts))
	}
	return slog.New(slog.NewJSONHandler(out, opts))
}
