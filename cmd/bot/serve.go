package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/hearthbot/hearth"
	slackadapter "github.com/hearthbot/hearth/adapters/slack"
	"github.com/hearthbot/hearth/adapters/telegram"
	"github.com/hearthbot/hearth/adapters/webchat"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/family"
	"github.com/hearthbot/hearth/imports"
	"github.com/hearthbot/hearth/integrations/builtin"
	"github.com/hearthbot/hearth/integrations/google"
	"github.com/hearthbot/hearth/integrations/smtp"
	"github.com/hearthbot/hearth/link"
	"github.com/hearthbot/hearth/memory"
	"github.com/hearthbot/hearth/memory/storyline"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/action"
	"github.com/hearthbot/hearth/pipeline/embedding"
	"github.com/hearthbot/hearth/pipeline/gather"
	"github.com/hearthbot/hearth/pipeline/hybrid"
	"github.com/hearthbot/hearth/pipeline/llm"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/plan"
	"github.com/hearthbot/hearth/pipeline/respond"
	"github.com/hearthbot/hearth/pipeline/stage"
	"github.com/hearthbot/hearth/pipeline/turn"
	"github.com/hearthbot/hearth/replica"
	"github.com/hearthbot/hearth/scheduler"
	"github.com/hearthbot/hearth/signin"
	"github.com/hearthbot/hearth/store"
)

// Migrate applies all migrations.
func Migrate(ctx context.Context, cfg Config, logOut io.Writer) error {
	return store.Migrate(ctx, cfg.DatabaseURL, newLogger(cfg, logOut))
}

// Serve runs Hearth until ctx ends, then shuts down gracefully.
func Serve(ctx context.Context, cfg Config, logOut io.Writer) error {
	app, err := Open(ctx, cfg, logOut)
	if err != nil {
		return err
	}
	return app.Run(ctx)
}

// App is a wired Hearth: the pieces Serve runs, exposed so end-to-end tests
// drive exactly what production runs.
type App struct {
	Config   Config
	Log      *slog.Logger
	Store    *store.Store
	River    *river.Client[pgx.Tx]
	Inbox    *pipeline.Inbox
	Hub      *webchat.Hub
	Registry *prometheus.Registry
	Handler  http.Handler
	// Senders are the deliverers per channel; tests may replace one
	// before Run.
	Senders map[hearth.Channel]pipeline.Sender
	// Turns is the turn handler; tests may wrap it before Run.
	Turns pipeline.Handler
	// Commands is the registry of chat commands every channel dispatches
	// to.
	Commands *commands.Registry
	// Engine runs, approves and undoes actions.
	Engine *action.Engine
	// Telegram is the Telegram bot, when TELEGRAM_BOT_TOKEN is set.
	Telegram *telegram.Adapter
	// Slack is the Slack app, when SLACK_BOT_TOKEN is set.
	Slack *slackadapter.Adapter
	// Models is the model configuration of the stages; nil offline
	// (HEARTH_LLM=none).
	Models *hybrid.Models
	// Embeddings is the background embedding worker, when
	// HEARTH_EMBEDDINGS is set.
	Embeddings *embedding.Worker
	// Scheduler plans and fires reminders and briefings and answers their
	// chat commands.
	Scheduler *scheduler.Scheduler
	// Google is the Google integration, when its client and the
	// encryption key are set; nil otherwise.
	Google *google.Google
	// Gmail is the mail provider routing users who granted Gmail to it,
	// when Google is on; nil otherwise.
	Gmail *google.Mail
	// SignIn is the web chat's real sign-in; nil under development
	// sign-in (HEARTH_DEV_SIGNIN).
	SignIn *signin.Service
	// Liveness heartbeats this replica, takes over dead ones' jobs and
	// fences this one when it cannot heartbeat.
	Liveness *replica.Liveness

	deliverWorker *pipeline.DeliverWorker
	turnWorker    *pipeline.TurnWorker
	stopTracing   func(context.Context) error
}

// eraseInterval is how often forgets past their undo window are erased.
const eraseInterval = 15 * time.Minute

// seriesInterval is how often repeating events are kept a year ahead: a
// series is extended a month at a time, so once a day is plenty.
const seriesInterval = 24 * time.Hour

// Open migrates the database and wires every component, without starting
// anything.
func Open(ctx context.Context, cfg Config, logOut io.Writer) (*App, error) {
	log := newLogger(cfg, logOut)
	if err := store.Migrate(ctx, cfg.DatabaseURL, log); err != nil {
		return nil, err
	}
	// A replica paused mid-transaction loses it (and its locks) once it
	// could be taken for dead: see package replica.
	st, err := store.Open(ctx, cfg.DatabaseURL, store.Config{MaxConns: cfg.DBMaxConns,
		IdleInTransactionTimeout: cmp.Or(cfg.ReplicaStaleAfter, replica.DefaultStaleAfter), Tracer: cfg.statements.tracer(),
		Log: log.With("component", "store")})
	if err != nil {
		return nil, err
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	metrics := pipeline.NewMetrics(reg)
	reg.MustRegister(newJobsCollector(st))
	tracer, stopTracing, err := openTracing(ctx, cfg)
	if err != nil {
		st.Close()
		return nil, err
	}
	spans := newTurnTracer(tracer)

	a := &App{Config: cfg, Log: log, Store: st, Hub: &webchat.Hub{}, Registry: reg, stopTracing: stopTracing}
	a.Senders = map[hearth.Channel]pipeline.Sender{hearth.ChannelWebchat: webchat.Sender{}}
	classifier, err := nlu.New()
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("offline understanding: %w", err)
	}
	providers := builtin.New(st)
	a.Google, err = openGoogle(cfg, st, log, func(ch hearth.Channel) bool {
		_, ok := a.Senders[ch].(pipeline.TranscriptSender)
		return ok
	})
	if err != nil {
		st.Close()
		return nil, err
	}
	if a.Google != nil {
		// Users who connected Google act in it; everyone else keeps the
		// built-in calendar. Reads come from the synced local copy.
		providers.Calendar = a.Google.Calendar()
	}
	if cfg.SMTPURL != "" {
		// Approved mail goes out through the user's mail server; drafts
		// stay in the outbox.
		if providers.Mail, err = smtp.New(cfg.smtpConfig(), st); err != nil {
			st.Close()
			return nil, fmt.Errorf("config: %w", err)
		}
	}
	geocoder, err := newGeocoder(ctx, cfg)
	if err != nil {
		st.Close()
		return nil, err
	}
	if geocoder != nil {
		providers.Geocoder = geocoder
	}
	walking := memory.DefaultWalking
	if cfg.WalkingDistances != "" {
		if walking, err = memory.ParseWalking(cfg.WalkingDistances); err != nil {
			st.Close()
			return nil, fmt.Errorf("HEARTH_WALKING_DISTANCES: %w", err)
		}
	}
	if a.Google != nil {
		// Users who granted Gmail write Gmail drafts and send from Gmail;
		// everyone else keeps the outbox (or SMTP).
		a.Gmail = a.Google.Mail(st, providers.Mail)
		providers.Mail = a.Gmail
		// Notes go to Keep where the account has its API (Workspace);
		// family lists and everyone else's notes stay built-in.
		providers.Notes = a.Google.Notes(st)
	}
	a.Engine = action.NewEngine(st, providers, log.With("component", "actions"))
	a.Engine.UndoWindow = cmp.Or(cfg.UndoWindow, action.DefaultUndoWindow)
	transcriber, err := newTranscriber(ctx, cfg)
	if err != nil {
		st.Close()
		return nil, err
	}
	// Models (HEARTH_LLM): the offline stages, wrapped by the hybrid ones
	// when a provider is configured.
	models, embedder, embedModel, err := openModels(ctx, cfg, llm.NewMetrics(reg), st, log)
	if err != nil {
		st.Close()
		return nil, err
	}
	a.Models = models
	var intent stage.Intent = stage.Classifier{Classifier: classifier}
	planners := plan.Planners()
	var responder stage.Responder = respond.NewTemplateResponder(nil)
	var editor stage.DraftEditor = plan.EmailEditor{}
	if models != nil {
		intent, planners, responder = models.Intent(intent), models.Planners(planners), models.Responder(responder)
		editor = models.DraftEditor(editor)
	}
	var memories gather.MemorySource = providers.Memories
	var notes gather.NoteSource = providers.Notes
	var related gather.RelatedSource
	if embedder != nil {
		recall := gather.Recall{Text: providers.Memories, NoteText: providers.Notes, Similar: st, Relations: st, GraphNotes: st, Embedder: embedder, Model: embedModel}
		memories, notes, related = recall, recall, recall
	}
	a.Scheduler = scheduler.New(scheduler.Config{
		Store: st, Grace: cfg.SchedulerGrace, Interval: cfg.SchedulerInterval,
		Log: log.With("component", "scheduler"),
		Visible: func(ch hearth.Channel) bool {
			_, ok := a.Senders[ch].(pipeline.TranscriptSender)
			return ok
		},
	})
	// Recurring reminders change through the action engine (audited,
	// undone), their next occurrence computed by the scheduler.
	providers.Reminders = a.Scheduler.Reminders(st)
	sources := gather.Sources{
		History: st, Tasks: providers.Tasks, Calendar: providers.Calendar, Notes: notes,
		Mail: providers.Mail, Memories: memories, Styles: st, Entities: st, Inbox: st,
		Geocoding: geocoder != nil, Walking: walking, Family: st, Reminders: st, Graph: st, Related: related,
	}
	if a.Gmail != nil {
		sources.Contacts = a.Gmail // recipients from the user's Google contacts
	}
	runner := turn.NewRunner(turn.Config{
		Intent:    intent,
		Sources:   sources,
		Planners:  planners,
		Responder: responder,
		Engine:    a.Engine,
		State:     traceMetrics{Store: st, m: metrics, spans: spans},
		Log:       log,
		Models:    models,
		Editor:    editor,
	})
	// The commands registry is consulted before intent. The family command
	// comes before link, so a family code typed alone joins the family
	// and any other code goes on to link.
	a.Commands = &commands.Registry{Traces: st}
	// Files sent to import: downloaded in the turn through the channel's
	// downloader, as voice notes are.
	icfg := imports.Config{Store: st, Fetcher: a.voiceConfig(nil).Fetcher}
	if a.Google != nil {
		icfg.Mirror = a.Google // imported events go out to Google after the commit
	}
	importer := imports.New(icfg)
	cmds := []commands.Command{commands.HelpCommand(a.Commands), commands.StartCommand(a.Commands), family.Command(st), link.Command(st), memory.ShareCommand(st), commands.NameCommand(st), commands.ZoneCommand(st)}
	cmds = append(cmds, a.Scheduler.Commands(st, a.Engine)...)
	cmds = append(cmds, importer.Commands()...)
	cmds = append(cmds, append(memory.GraphCommands(st, nil), memory.GraphShareCommand(st))...)
	cmds = append(cmds, runner.Commands()...)
	if a.Google != nil {
		cmds = append(cmds, a.Google.Commands()...)
		cmds = append(cmds, a.Gmail.Commands(st)...)
	} else {
		cmds = append(cmds, google.OffCommand())
	}
	if a.SignIn, err = newSignIn(cfg, st, log); err != nil {
		st.Close()
		return nil, err
	}
	if a.SignIn != nil {
		cmds = append(cmds, a.SignIn.Command())
	}
	if err := a.Commands.Register(cmds...); err != nil {
		st.Close()
		return nil, fmt.Errorf("commands: %w", err)
	}
	a.Commands.RegisterButtons(scheduler.ButtonPrefix, a.Scheduler.Buttons(st, a.Engine))
	a.Commands.RegisterButtons(imports.ButtonPrefix, importer.Buttons())
	a.Commands.RegisterButtons(memory.GraphButtonPrefix, memory.GraphButtons(st))
	a.Turns = a.Commands.Handler(pipeline.RequireTimezone(st, importer.Files(runner)))
	// Every message counts toward the memory graph's mention counters.
	a.Turns = memory.CountMentions(st, log.With("component", "memory_graph"), nil, a.Turns)
	// A channel that knows the user's zone and name (Slack) fills them in
	// before the time-zone question would be asked.
	a.Turns = pipeline.ProfileFromChannel(a.profileConfig(), a.Turns)
	// Voice notes become text turns first, so a spoken link code or time
	// zone works like a typed one.
	a.Turns = pipeline.TranscribeVoice(a.voiceConfig(transcriber), a.Turns)
	// OTEL_EXPORTER_OTLP_ENDPOINT: a span per turn, stages as its children.
	a.Turns = spans.Handler(a.Turns)
	// A trace the turn worker stores with the turn's completion is
	// recorded as metrics and spans here (one a write saves, as the write
	// runs: traceMetrics).
	a.Turns = observeTraces(metrics, spans, a.Turns)

	// The workers look up the sender and handler through the App at work
	// time, so tests can swap them after Open.
	a.deliverWorker = pipeline.NewDeliverWorker(st, sendersOf(a), log, metrics)
	a.turnWorker = pipeline.NewTurnWorker(st, pipeline.HandlerFunc(func(ctx context.Context, t pipeline.Turn) (pipeline.Answer, error) {
		return a.Turns.HandleTurn(ctx, t)
	}), log, metrics)
	a.turnWorker.Sender = func(ch hearth.Channel) (pipeline.Sender, bool) {
		s, ok := a.Senders[ch]
		return s, ok
	}
	workers := river.NewWorkers()
	river.AddWorker(workers, a.turnWorker)
	river.AddWorker(workers, a.deliverWorker)
	river.AddWorker(workers, action.NewWorker(a.Engine))
	// Leader-run periodic work: erasing what forgets kept once their undo
	// window has passed, keeping repeating events a year ahead,
	// embeddings (HEARTH_EMBEDDINGS) and the scheduler's planner
	// (HEARTH_SCHEDULER).
	river.AddWorker(workers, &action.EraseWorker{Store: st, Window: a.Engine.UndoWindow})
	river.AddWorker(workers, &action.SeriesWorker{Store: st, Log: log.With("component", "series")})
	periodic := []*river.PeriodicJob{action.ErasePeriodic(min(a.Engine.UndoWindow, eraseInterval)), action.SeriesPeriodic(seriesInterval)}
	if embedder != nil {
		a.Embeddings = &embedding.Worker{Store: st, Embedder: embedder, Model: embedModel, Log: log.With("component", "embeddings")}
		river.AddWorker(workers, a.Embeddings)
		periodic = append(periodic, embedding.Periodic(cfg.EmbedInterval))
	}
	a.Scheduler.Workers(workers)
	if cfg.Scheduler {
		periodic = append(periodic, a.Scheduler.PeriodicJob())
	}
	if a.Google != nil {
		a.Google.Workers(workers)
		periodic = append(periodic, a.Google.PeriodicJob())
		a.Gmail.Workers(workers)
		periodic = append(periodic, a.Gmail.PeriodicJob())
	}
	// The memory graph's nightly and weekly work: expired notes,
	// storylines, themes (per household time zone, leader only), with
	// the scheduler (HEARTH_SCHEDULER).
	graphCfg := storyline.Config{Log: log.With("component", "memory_graph")}
	if models != nil {
		graphCfg.Describer = models.Describer() // descriptions rewritten from notes nightly
	}
	graphJobs := storyline.New(st, graphCfg)
	graphJobs.Workers(workers)
	if cfg.Scheduler {
		periodic = append(periodic, graphJobs.PeriodicJobs()...)
	}
	id := replicaID(cfg)
	a.openLiveness(id)
	quietPoll := 10 * cfg.FetchPollInterval
	a.deliverWorker.Live = a.Liveness.Live
	a.River, err = river.NewClient(riverpgxv5.New(st.Pool()), &river.Config{
		// A stable id (HEARTH_REPLICA_ID, the pod name) lets a restarted
		// replica reclaim its own unfinished jobs at start.
		ID:                id,
		Middleware:        append([]rivertype.Middleware{a.Liveness.Middleware()}, cfg.statements.middleware()...),
		Logger:            log.With("component", "river"),
		Workers:           workers,
		FetchCooldown:     cfg.FetchCooldown,
		FetchPollInterval: cfg.FetchPollInterval,
		Queues: map[string]river.QueueConfig{
			pipeline.QueueTurns:      {MaxWorkers: cfg.TurnWorkers},
			pipeline.QueueDeliveries: {MaxWorkers: cfg.DeliverWorkers},
			action.QueueActions:      {MaxWorkers: cfg.ActionWorkers},
			// The quieter queues poll ten times less often: their jobs are
			// found by the insert's notification, and each poll of each
			// queue is a query (at the default, 40 a second fewer).
			embedding.Queue:          {MaxWorkers: 1, FetchPollInterval: quietPoll}, // empty unless HEARTH_EMBEDDINGS is set
			scheduler.QueueScheduler: {MaxWorkers: cmp.Or(cfg.SchedulerWorkers, 8), FetchPollInterval: quietPoll},
			google.QueueGoogle:       {MaxWorkers: 4, FetchPollInterval: quietPoll}, // empty unless Google is configured
			storyline.Queue:          {MaxWorkers: 1, FetchPollInterval: quietPoll},
		},
		PeriodicJobs: periodic,
		// A dead replica's running jobs are taken over by the heartbeat
		// sweep (package replica) within HEARTH_REPLICA_STALE_AFTER; this
		// rescue is River's own backstop for anything else stuck.
		JobTimeout:           time.Minute,
		RescueStuckJobsAfter: time.Minute + 15*time.Second,
	})
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("river: %w", err)
	}
	a.Inbox = pipeline.NewInbox(st, a.River, metrics)
	a.Inbox.NotifyCooldown = cfg.FetchCooldown // as River's client limits its own
	a.turnWorker.Slots = a.Inbox               // acknowledging goes before answering
	if a.Google != nil {
		a.Google.SetQueue(a.River)
	}
	if cfg.TelegramToken != "" {
		a.Telegram, err = telegram.New(ctx, telegram.Config{
			Token: cfg.TelegramToken, APIURL: cfg.TelegramAPIURL, WebhookSecret: cfg.TelegramWebhookSecret,
			Inbox: a.Inbox, Commands: a.Commands, Logger: log.With("channel", "telegram"),
		})
		if err != nil {
			st.Close()
			return nil, fmt.Errorf("telegram (check TELEGRAM_BOT_TOKEN and TELEGRAM_API_URL): %w", err)
		}
		// The menu is a convenience: typed commands work without it.
		if err := a.Telegram.SetCommands(ctx); err != nil {
			log.Warn("could not set the Telegram command menu", "error", err)
		}
		a.Senders[hearth.ChannelTelegram] = a.Telegram
	}
	if cfg.SlackBotToken != "" {
		a.Slack, err = slackadapter.New(ctx, slackadapter.Config{
			BotToken: cfg.SlackBotToken, SigningSecret: cfg.SlackSigningSecret, AppToken: cfg.SlackAppToken,
			APIURL: cfg.SlackAPIURL, Inbox: a.Inbox, Commands: a.Commands, Logger: log.With("channel", "slack"),
		})
		if err != nil {
			st.Close()
			return nil, fmt.Errorf("slack (check SLACK_BOT_TOKEN and SLACK_API_URL): %w", err)
		}
		a.Senders[hearth.ChannelSlack] = a.Slack
	}
	a.Handler = a.routes()
	return a, nil
}

func sendersOf(a *App) map[hearth.Channel]pipeline.Sender {
	m := map[hearth.Channel]pipeline.Sender{}
	for _, ch := range []hearth.Channel{hearth.ChannelWebchat, hearth.ChannelSlack, hearth.ChannelTelegram} {
		m[ch] = lateSender{a: a, ch: ch}
	}
	return m
}

// lateSender looks the channel's sender up when it is used, so tests can
// replace App.Senders after Open; it passes editing on when the sender
// can edit.
type lateSender struct {
	a  *App
	ch hearth.Channel
}

func (l lateSender) Send(ctx context.Context, d hearth.Delivery) (string, error) {
	s, ok := l.a.Senders[l.ch]
	if !ok {
		return "", fmt.Errorf("%w: channel %s is not configured", hearth.ErrPermanent, l.ch)
	}
	return s.Send(ctx, d)
}

func (l lateSender) Edit(ctx context.Context, d hearth.Delivery) error {
	if e, ok := l.a.Senders[l.ch].(pipeline.Editor); ok {
		return e.Edit(ctx, d)
	}
	return nil
}

// Run starts the workers, the notification listener and the HTTP server,
// and stops them in order when ctx ends: no new requests, running jobs
// finish (or are cancelled at the shutdown timeout), then the pool closes.
func (a *App) Run(ctx context.Context) error {
	ln, err := net.Listen("tcp", a.Config.HTTPAddr)
	if err != nil {
		a.Store.Close()
		return fmt.Errorf("listen on HEARTH_HTTP_ADDR %s: %w", a.Config.HTTPAddr, err)
	}
	return a.RunListener(ctx, ln)
}

// RunListener is Run on a listener the caller opened (tests use port 0).
func (a *App) RunListener(ctx context.Context, ln net.Listener) error {
	defer a.Store.Close()
	if a.Config.DevSignin && !loopbackAddr(ln.Addr().String()) {
		ln.Close()
		return fmt.Errorf("HEARTH_DEV_SIGNIN=true on %s: name-only sign-in needs a loopback listener", ln.Addr())
	}
	if a.Config.ReplicaID != "" {
		n, err := a.Store.ReclaimJobs(ctx, a.Config.ReplicaID)
		if err != nil {
			ln.Close()
			return fmt.Errorf("reclaim the jobs of replica %s: %w", a.Config.ReplicaID, err)
		}
		if n > 0 {
			a.Log.Info("reclaimed unfinished jobs of this replica's previous run", "replica", a.Config.ReplicaID, "jobs", n)
		}
	}
	// The heartbeat outlives the HTTP server and River's soft stop.
	defer a.startLiveness(ctx)()
	if err := a.River.Start(ctx); err != nil {
		ln.Close()
		return fmt.Errorf("start river: %w", err)
	}
	listenCtx, stopListen := context.WithCancel(context.WithoutCancel(ctx))
	var wg sync.WaitGroup
	wg.Go(func() {
		a.Store.Listen(listenCtx, store.NotifyChannel, a.Log, a.Hub.Notify) //nolint:errcheck // returns only when stopped
	})
	if a.Slack != nil && a.Config.SlackAppToken != "" {
		wg.Go(func() {
			if err := a.Slack.RunSocketMode(listenCtx); err != nil && listenCtx.Err() == nil {
				a.Log.Error("slack socket mode stopped", "error", err)
			}
		})
	}
	if a.Telegram != nil {
		if a.Config.PublicURL != "" {
			if err := a.Telegram.SetWebhook(ctx, a.Config.PublicURL, a.Config.TelegramWebhookSecret); err != nil {
				stopListen()
				wg.Wait()
				ln.Close()
				a.River.Stop(context.Background()) //nolint:errcheck // failing start-up anyway
				return fmt.Errorf("telegram: register the webhook at %s: %w", a.Config.PublicURL, err)
			}
		} else {
			// No public URL: long polling, for one instance on a laptop.
			wg.Go(func() {
				if err := a.Telegram.Poll(listenCtx); err != nil && listenCtx.Err() == nil {
					a.Log.Error("telegram polling stopped", "error", err)
				}
			})
		}
	}
	srv := &http.Server{
		Handler:           a.Handler,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return listenCtx },
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- serve(srv, ln, a.Config) }()
	a.Log.Info("hearth is serving", "addr", ln.Addr().String(), "webchat", a.Config.Webchat, "dev_signin", a.Config.DevSignin, "tls", a.Config.TLSCert != "")

	var err error
	select {
	case <-ctx.Done():
	case err = <-serveErr:
		a.Log.Error("http server stopped", "error", err)
	}
	a.Log.Info("shutting down")
	deadline, cancel := context.WithTimeout(context.Background(), a.Config.ShutdownTimeout)
	defer cancel()
	// Streams never end on their own: cancelling their base context ends
	// them so Shutdown need not wait for the deadline.
	stopListen()
	if serr := srv.Shutdown(deadline); serr != nil && !errors.Is(serr, context.DeadlineExceeded) {
		a.Log.Warn("http shutdown", "error", serr)
	}
	// Soft stop lets running turns finish; at the deadline they are
	// cancelled and River retries them on the next start.
	if rerr := a.River.Stop(deadline); rerr != nil {
		hard, cancelHard := context.WithTimeout(context.Background(), time.Second)
		a.River.StopAndCancel(hard) //nolint:errcheck // best effort at exit
		cancelHard()
	}
	wg.Wait()
	if terr := a.stopTracing(deadline); terr != nil {
		a.Log.Warn("flush traces", "error", terr)
	}
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	a.Log.Info("stopped")
	return nil
}
