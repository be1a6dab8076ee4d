package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth/adapters/telegram"
	"github.com/hearthbot/hearth/adapters/telegram/telegramtest"
	"github.com/hearthbot/hearth/pipeline/llm/llmtest"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

// botProcess is one `bot serve` process of a drill.
type botProcess struct {
	id, base string
	env      []string
	cmd      *exec.Cmd
	log      *bytes.Buffer
	mu       *sync.Mutex
	ready    chan struct{}
	exited   chan struct{}
}

// startReplica runs `bot serve` as a process and waits until it serves.
func startReplica(t *testing.T, bin string, env []string, id string, port int) *botProcess {
	t.Helper()
	r := &botProcess{id: id, base: fmt.Sprintf("http://127.0.0.1:%d", port), log: &bytes.Buffer{}, mu: &sync.Mutex{},
		env: slices.Concat(env, []string{"HEARTH_REPLICA_ID=" + id, fmt.Sprintf("HEARTH_HTTP_ADDR=127.0.0.1:%d", port)})}
	r.start(t, bin)
	return r
}

func (r *botProcess) start(t *testing.T, bin string) {
	t.Helper()
	r.cmd = exec.Command(bin, "serve")
	r.cmd.Env = r.env
	out, err := r.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.ready, r.exited = make(chan struct{}), make(chan struct{})
	go func() {
		sc := bufio.NewScanner(out)
		once := sync.Once{}
		for sc.Scan() {
			r.mu.Lock()
			r.log.WriteString(sc.Text() + "\n")
			r.mu.Unlock()
			if strings.Contains(sc.Text(), "hearth is serving") {
				once.Do(func() { close(r.ready) })
			}
		}
		r.cmd.Wait() //nolint:errcheck // a killed process exits with an error
		close(r.exited)
	}()
	select {
	case <-r.ready:
	case <-r.exited:
		t.Fatalf("replica %s exited at start:\n%s", r.id, r.logs())
	case <-time.After(30 * time.Second):
		t.Fatalf("replica %s did not start:\n%s", r.id, r.logs())
	}
}

func (r *botProcess) logs() string { r.mu.Lock(); defer r.mu.Unlock(); return r.log.String() }

// kill ends the process with SIGKILL, as a crash or the OOM killer would.
func (r *botProcess) kill() {
	r.cmd.Process.Kill() //nolint:errcheck // it may have exited
	<-r.exited
}

func (r *botProcess) stop() {
	r.cmd.Process.Signal(syscall.SIGTERM) //nolint:errcheck // it may have exited
	select {
	case <-r.exited:
	case <-time.After(20 * time.Second):
		r.kill()
	}
}

// buildBot builds the bot binary for a drill's processes.
func buildBot(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "bot")
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build bot: %v\n%s", err, out)
	}
	return bin
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// TestDrillKillReplica is the failure drill of three `bot serve` processes
// on one database under steady web chat load: one is killed with SIGKILL
// mid-load while it is running turns (each small-talk turn waits on a
// model that never answers, until the turn's model deadline), and is
// started again with the same HEARTH_REPLICA_ID. Every acknowledged
// message gets exactly one reply, every requested reminder is made once,
// and the turns the killed process was running are answered soon after
// it comes back (measured and reported, not asserted).
func TestDrillKillReplica(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three bot processes")
	}
	t.Parallel()
	killDrill(t, drillRestart, "")
}

// TestDrillKillReplicaGone is the same drill without the restart, in
// make test: the killed replica's turns are taken over by the others'
// heartbeat sweep once it has been silent for HEARTH_REPLICA_STALE_AFTER
// (3 s here, to stay short). Every message is still answered exactly once.
func TestDrillKillReplicaGone(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three bot processes")
	}
	t.Parallel()
	killDrill(t, drillGone, "3s")
}

// TestDrillPauseReplica stops a replica with SIGSTOP (a replica that is
// only slow: a long pause, a frozen VM) for longer than
// HEARTH_REPLICA_STALE_AFTER (3 s here) while it runs turns, lets the
// others take its work over, then lets it go on (SIGCONT): what it was
// doing must not produce a second reply, reminder or send.
func TestDrillPauseReplica(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three bot processes")
	}
	t.Parallel()
	killDrill(t, drillPause, "3s")
}

// TestDrillKillReplicaSoak is the drill without the restart on the
// production setting (HEARTH_REPLICA_STALE_AFTER 15 s), reporting how
// long after the kill the killed replica's turns were answered. It runs
// only with HEARTH_DRILL_SOAK=1:
//
//	HEARTH_DRILL_SOAK=1 go test -run TestDrillKillReplicaSoak -v -timeout 10m ./cmd/bot/
func TestDrillKillReplicaSoak(t *testing.T) {
	if os.Getenv("HEARTH_DRILL_SOAK") == "" {
		t.Skip("set HEARTH_DRILL_SOAK=1 for the drill whose killed replica does not come back, on production settings")
	}
	t.Parallel()
	killDrill(t, drillGone, "")
}

// drillMode is what happens to the replica a drill stops.
type drillMode int

const (
	drillRestart drillMode = iota // killed, then started again with its id
	drillGone                     // killed, never back
	drillPause                    // paused (SIGSTOP) past its stale time, then resumed
)

// processDrills lets one three-process drill run at a time: each
// holds about 36 database connections (three replicas, a pool of 10, a
// heartbeat and a listener each), and several at once beside the rest of
// the parallel suite would pass the server's 100 and read as 503s.
var processDrills = make(chan struct{}, 1)

// oneProcessDrillAtATime waits for the other three-process drills to end
// and holds the turn until this test ends.
func oneProcessDrillAtATime(t *testing.T) {
	t.Helper()
	processDrills <- struct{}{}
	t.Cleanup(func() { <-processDrills })
}

// killDrill runs the load, stops replica 1 while it runs turns as mode
// says; staleAfter, when set, is HEARTH_REPLICA_STALE_AFTER.
func killDrill(t *testing.T, mode drillMode, staleAfter string) {
	restart := mode == drillRestart
	bin := buildBot(t)
	oneProcessDrillAtATime(t)
	model := llmtest.New(t, func(c llmtest.Call) llmtest.Answer { return llmtest.Answer{Hang: true} })
	dbURL := storetest.NewDatabase(t)
	api := telegramtest.NewServer(t)
	const tgSecret = "drill-secret"
	env := append(os.Environ(), "DATABASE_URL="+dbURL, "HEARTH_DEV_SIGNIN=true", "HEARTH_LOG_FORMAT=json",
		"TELEGRAM_BOT_TOKEN="+telegramtest.Token, "TELEGRAM_API_URL="+api.URL, "TELEGRAM_WEBHOOK_SECRET="+tgSecret,
		"HEARTH_PUBLIC_URL=https://hearth.drill.test",
		"HEARTH_SCHEDULER=false", "HEARTH_DB_MAX_CONNS=10", "HEARTH_FETCH_POLL_INTERVAL=50ms",
		"HEARTH_LLM=openai", "OPENAI_BASE_URL="+model.OpenAIBaseURL(), "OPENAI_API_KEY=test", "OPENAI_MODEL=slow",
		"HEARTH_LLM_TURN_DEADLINE=1s", "HEARTH_LLM_TIMEOUT=1s", "HEARTH_SHUTDOWN_TIMEOUT=2s")
	if staleAfter != "" {
		env = append(env, "HEARTH_REPLICA_STALE_AFTER="+staleAfter)
	}
	replicas := make([]*botProcess, 3)
	for i := range replicas {
		replicas[i] = startReplica(t, bin, env, fmt.Sprintf("drill-%d", i), freePort(t))
	}
	t.Cleanup(func() {
		for _, r := range replicas {
			r.stop()
		}
		if t.Failed() {
			for _, r := range replicas {
				t.Logf("replica %s log (tail):\n%s", r.id, tail(r.logs(), 30))
			}
		}
	})
	st, err := store.Open(context.Background(), dbURL, store.Config{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	defer func() {
		if t.Failed() {
			logUnanswered(t, st)
		}
	}()

	// A paused replica takes connections and never answers: a client
	// gives up on it and tries another.
	client := &http.Client{Timeout: 10 * time.Second}
	// post sends a message to replica i, and to the next ones while a
	// replica is down: the same id makes a retry the same message.
	post := func(i int, body map[string]string) {
		b, _ := json.Marshal(body)
		for k := range 3 {
			r := replicas[(i+k)%3]
			res, err := client.Post(r.base+"/api/webchat/messages", "application/json", bytes.NewReader(b))
			if err != nil {
				continue // killed: the client tries another replica
			}
			io.Copy(io.Discard, res.Body) //nolint:errcheck // only the status matters
			res.Body.Close()
			if res.StatusCode == http.StatusAccepted {
				return
			}
			t.Errorf("post %v: %d", body, res.StatusCode)
			return
		}
		t.Errorf("no replica took %v", body)
	}
	const users, rounds, chats = 12, 4, 4
	// Telegram's updates come to any replica's webhook; a refused or
	// broken delivery is sent again by Telegram, to another replica.
	var updateMu sync.Mutex
	updateID := 0
	hook := func(i, chat int, text string) {
		updateMu.Lock()
		updateID++
		id := updateID
		updateMu.Unlock()
		body := fmt.Sprintf(`{"update_id":%d,"message":{"message_id":%d,"date":1700000000,"chat":{"id":%d,"type":"private"},"from":{"id":%d,"is_bot":false,"first_name":"Chat %d"},"text":%q}}`,
			id, id, 9000+chat, 9000+chat, chat, text)
		for k := range 3 {
			req, _ := http.NewRequest("POST", replicas[(i+k)%3].base+telegram.WebhookPath, strings.NewReader(body))
			req.Header.Set(telegram.SecretHeader, tgSecret)
			res, err := client.Do(req)
			if err != nil {
				continue
			}
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		t.Errorf("no replica took Telegram update %d", id)
	}
	for c := range chats {
		hook(c, c, "hello")
		hook(c+1, c, "Europe/Berlin")
	}
	for u := range users {
		b, _ := json.Marshal(map[string]string{"user": fmt.Sprintf("drill user %d", u), "tz": "Europe/London"})
		res, err := http.Post(replicas[u%3].base+"/api/webchat/users", "application/json", bytes.NewReader(b))
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("sign in: %v %v", res, err)
		}
		res.Body.Close()
	}
	send := func(round int) {
		var wg sync.WaitGroup
		for u := range users {
			wg.Go(func() {
				user := fmt.Sprintf("drill user %d", u)
				post(u+round, map[string]string{"user": user, "id": fmt.Sprintf("chat-%d-%d", u, round), "text": "how are you doing today?"})
				post(u+round+1, map[string]string{"user": user, "id": fmt.Sprintf("task-%d-%d", u, round), "text": fmt.Sprintf("remind me to water plant %d tomorrow at 5pm", round)})
			})
		}
		for c := range chats {
			wg.Go(func() { hook(c+round, c, fmt.Sprintf("remind me to feed cat %d tomorrow at 6pm", round)) })
		}
		wg.Wait()
	}
	send(0)
	send(1)
	// Kill replica 1 once it is running turns.
	victim := replicas[1]
	var running int
	wake := make(chan struct{}, 1)
	listenCtx, stopListen := context.WithCancel(context.Background())
	defer stopListen()
	go st.Listen(listenCtx, store.NotifyChannel, nil, func(string) { //nolint:errcheck // ends with the test
		select {
		case wake <- struct{}{}:
		default:
		}
	})
	// runningOn returns the jobs a replica is running (turns only, or all).
	runningOn := func(id string, turns bool) []int64 {
		rows, err := st.Pool().Query(context.Background(), `SELECT id FROM river_job WHERE state = 'running'
			AND attempted_by[array_upper(attempted_by, 1)] = $1 AND (kind = 'turn' OR NOT $2)`, id, turns)
		if err != nil {
			t.Fatal(err)
		}
		ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
		if err != nil {
			t.Fatal(err)
		}
		return ids
	}
	pipelinetest.Wait(t, wake, "replica 1 to be running turns", func() bool { running = len(runningOn(victim.id, true)); return running > 0 })
	if mode == drillPause {
		victim.cmd.Process.Signal(syscall.SIGSTOP) //nolint:errcheck // it runs
	} else {
		victim.kill()
	}
	killedAt := time.Now()
	orphanIDs := runningOn(victim.id, false)
	orphaned := len(orphanIDs)
	// The messages the killed replica's turns held: unanswered, in the
	// conversations whose lease its jobs had.
	owners := make([]string, len(orphanIDs))
	for i, id := range orphanIDs {
		owners[i] = fmt.Sprintf("job:%d", id)
	}
	rows, err := st.Pool().Query(context.Background(), `SELECT e.id FROM inbound_events e JOIN conversations c ON c.id = e.conversation_id
		WHERE e.processed_at IS NULL AND c.turn_owner = ANY($1)`, owners)
	if err != nil {
		t.Fatal(err)
	}
	held, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		t.Fatal(err)
	}
	send(2) // load goes on while it is down
	restartAt := time.Now()
	switch mode {
	case drillRestart:
		victim.start(t, bin)
	case drillPause:
		// Resumed only once the others have answered what it held.
		waitAnswered(t, st, wake, held)
		victim.cmd.Process.Signal(syscall.SIGCONT) //nolint:errcheck // it runs
	}
	send(3)

	// Every acknowledged message is answered, once.
	var lastReply time.Time
	answered := func() bool {
		var pending int
		if err := st.Pool().QueryRow(context.Background(), `SELECT (SELECT count(*) FROM inbound_events WHERE processed_at IS NULL) +
			(SELECT count(*) FROM river_job WHERE kind = 'deliver' AND state NOT IN ('completed', 'cancelled', 'discarded'))`).Scan(&pending); err != nil {
			t.Fatal(err)
		}
		return pending == 0
	}
	// Look again at every commit (each one notifies) and every second: a
	// job's completion does not notify, and the last thing to happen may
	// be a delivery completing. The take-over may take minutes: up to
	// five. The jobs the killed replica was running are waited for too:
	// when they held nothing unanswered, the others answer every message
	// before the sweep has taken them over, and the drill would end
	// without seeing it.
	orphansLeft := func() bool {
		return len(orphanIDs) > 0 && slices.ContainsFunc(runningOn(victim.id, false), func(id int64) bool { return slices.Contains(orphanIDs, id) })
	}
	deadline := time.After(5 * time.Minute)
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for !answered() || (mode == drillGone && orphansLeft()) {
		select {
		case <-wake:
		case <-tick.C:
		case <-deadline:
			t.Fatal("not every message was answered within 5 minutes")
		}
	}
	if mode == drillPause {
		// What the resumed replica was doing ends with its shutdown:
		// count after every replica has stopped.
		for _, r := range replicas {
			r.stop()
		}
	}
	var events, replies, multi, tasks int
	err = st.Pool().QueryRow(context.Background(), `
		SELECT (SELECT count(*) FROM inbound_events),
		       (SELECT count(*) FROM messages WHERE sender = 'bot'),
		       (SELECT count(*) FROM (SELECT inbound_event_id FROM messages WHERE sender = 'bot' GROUP BY 1 HAVING count(*) > 1) x),
		       (SELECT count(*) FROM tasks)`).Scan(&events, &replies, &multi, &tasks)
	if err != nil {
		t.Fatal(err)
	}
	if want := users*rounds*2 + chats*(rounds+2); events != want || replies != want || multi != 0 {
		t.Errorf("%d events, %d replies, %d events answered more than once; want %d, %d, 0", events, replies, multi, want, want)
		logRepliedTwice(t, st)
	}
	if want := (users + chats) * rounds; tasks != want {
		t.Errorf("%d reminders made; want %d (one per request)", tasks, want)
	}
	// Telegram got every reply; a reply sent by the killed replica just
	// before it recorded the send would be sent again (at least once to
	// the platform): counted and reported.
	perChat := map[string]int{}
	for _, c := range api.Calls("sendMessage") {
		perChat[c.Form["chat_id"]]++
	}
	resent := 0
	for c := range chats {
		got := perChat[fmt.Sprint(9000+c)]
		if got < rounds+2 {
			t.Errorf("chat %d got %d replies on Telegram; want %d", c, got, rounds+2)
		}
		resent += max(0, got-(rounds+2))
	}
	t.Logf("drill: %d Telegram replies sent twice (a send the killed replica made but had not recorded)", resent)
	if err := st.Pool().QueryRow(context.Background(), `
		SELECT max(m.created_at) FROM messages m JOIN inbound_events e ON e.id = m.inbound_event_id
		WHERE m.sender = 'bot' AND e.received_at < $1`, killedAt).Scan(&lastReply); err != nil {
		t.Fatal(err)
	}
	// When the jobs the killed replica was running were finished by the
	// others (or by itself once restarted), and when the messages they
	// held were answered.
	var orphansDone, heldDone time.Time
	if err := st.Pool().QueryRow(context.Background(), `SELECT coalesce((SELECT max(finalized_at) FROM river_job WHERE id = ANY($1)), now()),
		coalesce((SELECT max(created_at) FROM messages WHERE sender = 'bot' AND inbound_event_id = ANY($2)), $3)`, orphanIDs, held, killedAt).Scan(&orphansDone, &heldDone); err != nil {
		t.Fatal(err)
	}
	if mode == drillPause {
		paused := strings.Contains(victim.logs(), "replica fenced")
		t.Logf("drill with a paused replica: %d jobs running on it (%d turns seen just before); the %d unanswered messages its turns held were answered %s after the pause; "+
			"it fenced itself on waking: %v; %d Telegram replies sent twice", orphaned, running, len(held), heldDone.Sub(killedAt).Round(time.Millisecond), paused, resent)
		return
	}
	if !restart {
		tookOver := 0
		for _, r := range replicas[:1:1] {
			tookOver += strings.Count(r.logs(), "took over the running jobs")
		}
		tookOver += strings.Count(replicas[2].logs(), "took over the running jobs")
		t.Logf("drill without restart: %d jobs running on the killed replica (%d turns seen just before); take-over sweeps that found some: %d; "+
			"its jobs were finished %s after the kill; the %d unanswered messages its turns held were answered %s after the kill; "+
			"the last message sent before the kill was answered %s after the kill",
			orphaned, running, tookOver, orphansDone.Sub(killedAt).Round(time.Millisecond), len(held), heldDone.Sub(killedAt).Round(time.Millisecond),
			lastReply.Sub(killedAt).Round(time.Millisecond))
		if orphaned > 0 && tookOver == 0 {
			t.Error("no live replica took the killed one's jobs over")
		}
		return
	}
	reclaimed := strings.Contains(victim.logs(), "reclaimed unfinished jobs")
	t.Logf("drill: %d jobs running on the killed replica (%d turns seen just before); replica down %s; reclaimed at restart: %v; "+
		"its jobs were finished %s after the restart; the %d unanswered messages its turns held were answered %s after the restart; "+
		"the last message sent before the kill was answered %s after the restart",
		orphaned, running, restartAt.Sub(killedAt).Round(time.Millisecond), reclaimed, orphansDone.Sub(restartAt).Round(time.Millisecond),
		len(held), heldDone.Sub(restartAt).Round(time.Millisecond), lastReply.Sub(restartAt).Round(time.Millisecond))
	if orphaned > 0 && !reclaimed {
		t.Error("the restarted replica did not reclaim its jobs")
	}
}

// waitAnswered waits until every one of the events has a reply.
func waitAnswered(t *testing.T, st *store.Store, wake <-chan struct{}, events []int64) {
	t.Helper()
	deadline := time.After(2 * time.Minute)
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		var left int
		if err := st.Pool().QueryRow(context.Background(), `SELECT count(*) FROM inbound_events WHERE id = ANY($1) AND processed_at IS NULL`, events).Scan(&left); err != nil {
			t.Fatal(err)
		}
		if left == 0 {
			return
		}
		select {
		case <-wake:
		case <-tick.C:
		case <-deadline:
			t.Fatalf("%d messages the stopped replica held were not answered within 2 minutes", left)
		}
	}
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// TestDrillModelDown: the model provider fails (503) and then comes
// back. Meanwhile every message gets a clear offline answer and a
// reminder is still made; once it is back, replies are the model's again
// with nothing to restart.
func TestDrillModelDown(t *testing.T) {
	t.Parallel()
	b := newBrain(t)
	base, app, _ := startModelApp(t, b, func(c *Config) { c.LLMDeadline = 800 * time.Millisecond })
	c := newChatter(t, base, app, "Maya", "Europe/Rome")
	b.set(func(llmtest.Call) (llmtest.Answer, bool) {
		return llmtest.Answer{Status: http.StatusServiceUnavailable}, true
	})
	down := c.say("ugh mondays")
	if down.Text == "" || strings.HasPrefix(down.Text, "Happy to help!") {
		t.Fatalf("reply with the model down %q; want the offline one", down.Text)
	}
	mustContain(t, c.say("Remind me to book the dentist tomorrow at 11am"), "dentist")
	if n := len(c.tasks()); n != 1 {
		t.Fatalf("%d reminders made with the model down; want 1", n)
	}
	b.set(nil) // the provider is back
	if up := c.say("ugh tuesdays"); !strings.HasPrefix(up.Text, "Happy to help!") {
		t.Fatalf("reply after the model came back %q; want the model's", up.Text)
	}
}

// logRepliedTwice logs each event with more than one bot reply, with the
// replies, their keys and times: what a failed drill needs to be read.
func logRepliedTwice(t *testing.T, st *store.Store) {
	t.Helper()
	rows, err := st.Pool().Query(context.Background(), `
		SELECT e.id, e.channel, e.text, e.attempts, m.idempotency_key, m.text, m.created_at
		FROM messages m JOIN inbound_events e ON e.id = m.inbound_event_id
		WHERE m.sender = 'bot' AND m.inbound_event_id IN (
			SELECT inbound_event_id FROM messages WHERE sender = 'bot' GROUP BY 1 HAVING count(*) > 1)
		ORDER BY e.id, m.id`)
	if err != nil {
		t.Logf("replied twice: %v", err)
		return
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var attempts int
		var channel, text, key, reply string
		var at time.Time
		if err := rows.Scan(&id, &channel, &text, &attempts, &key, &reply, &at); err != nil {
			t.Logf("replied twice: %v", err)
			return
		}
		t.Logf("event %d (%s, %q, %d failed attempts): reply %s at %s: %q", id, channel, text, attempts, key, at.Format(time.RFC3339Nano), reply)
	}
}

// logUnanswered logs what a failed drill was still waiting for: the
// events not processed and the deliveries not finished, with their job's
// state, attempts, schedule and errors (a retry's backoff, a lease).
func logUnanswered(t *testing.T, st *store.Store) {
	t.Helper()
	rows, err := st.Pool().Query(context.Background(), `
		SELECT 'event ' || e.id || ' of conversation ' || e.conversation_id || ' (owner ' || COALESCE(c.turn_owner, '-') || '), received ' || e.received_at ||
			', attempts ' || e.attempts || ', last error ' || e.last_error
		FROM inbound_events e JOIN conversations c ON c.id = e.conversation_id WHERE e.processed_at IS NULL
		UNION ALL
		SELECT 'deliver job ' || id || ' ' || state || ', attempt ' || attempt || ', scheduled ' || scheduled_at || ', errors ' || COALESCE(errors::text, '[]')
		FROM river_job WHERE kind = 'deliver' AND state NOT IN ('completed', 'cancelled', 'discarded')`)
	if err != nil {
		t.Logf("unanswered: %v", err)
		return
	}
	lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		t.Logf("unanswered: %v", err)
		return
	}
	t.Logf("still waiting for %d:\n%s", len(lines), strings.Join(lines, "\n"))
}
