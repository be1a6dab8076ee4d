package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

// TestDrillSchedulerKill is the failure drill with the scheduler on:
// reminders for many users come due over a few seconds while three `bot
// serve` processes share the work (the leader plans, every replica fires),
// and a replica that is not the leader is killed with SIGKILL mid-way and
// started again. Every reminder is stored and shown exactly once; how late
// they came is measured and logged, not asserted.
func TestDrillSchedulerKill(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three bot processes")
	}
	t.Parallel()
	schedulerDrill(t, 24, 2, 3*time.Second, false)
}

// TestDrillSchedulerKillSoak kills the leader instead, under more
// reminders: planning stops until another replica (or the restarted one)
// is elected when the killed leader's lease expires (River's, about 15 s),
// and the reminders due meanwhile fire late, still once. It runs only with
// HEARTH_DRILL_SOAK=1:
//
//	HEARTH_DRILL_SOAK=1 go test -run TestDrillSchedulerKillSoak -v -timeout 10m ./cmd/bot/
func TestDrillSchedulerKillSoak(t *testing.T) {
	if os.Getenv("HEARTH_DRILL_SOAK") == "" {
		t.Skip("set HEARTH_DRILL_SOAK=1 for the scheduler drill that kills the leader (a minute)")
	}
	t.Parallel()
	schedulerDrill(t, 150, 4, 30*time.Second, true)
}

var reDrillChore = regexp.MustCompile(`(?i)drill chore (\d{4})`)

// schedulerDrill gives each of users perUser reminders due over spread,
// kills one replica (the leader, or one that is not) once a third have
// fired, restarts it, and checks that each fired exactly once.
func schedulerDrill(t *testing.T, users, perUser int, spread time.Duration, killLeader bool) {
	bin := buildBot(t)
	oneProcessDrillAtATime(t)
	dbURL := storetest.NewDatabase(t)
	env := append(os.Environ(), "DATABASE_URL="+dbURL, "HEARTH_LOG_FORMAT=json",
		"HEARTH_SCHEDULER=true", "HEARTH_SCHEDULER_INTERVAL=1s", "HEARTH_DB_MAX_CONNS=10",
		"HEARTH_FETCH_POLL_INTERVAL=50ms", "HEARTH_SHUTDOWN_TIMEOUT=2s")
	ctx := context.Background()
	st, err := store.Open(ctx, dbURL, store.Config{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()

	// The users and their conversations exist before the replicas start;
	// the reminders are made once they serve, due from a second on.
	userIDs := make([]int64, users)
	for u := range users {
		c, err := st.AddWebUser(ctx, fmt.Sprintf("sched drill %d", u))
		if err != nil {
			t.Fatal(err)
		}
		userIDs[u] = c.User.ID
		if err := st.SetTimezone(ctx, c.User.ID, "Europe/London"); err != nil {
			t.Fatal(err)
		}
	}
	replicas := make([]*botProcess, 3)
	for i := range replicas {
		replicas[i] = startReplica(t, bin, env, fmt.Sprintf("sched-%d", i), freePort(t))
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
	n := users * perUser
	due := make([]time.Time, n)
	start := time.Now().Add(time.Second).Truncate(time.Second).Add(time.Second)
	for i := range n {
		due[i] = start.Add(spread * time.Duration(i) / time.Duration(n)).Truncate(time.Second)
		if _, err := st.CreateTask(ctx, "", hearth.Task{UserID: userIDs[i%users], Title: fmt.Sprintf("Drill chore %04d", i), Due: due[i]}); err != nil {
			t.Fatal(err)
		}
	}

	listenCtx, stopListen := context.WithCancel(ctx)
	defer stopListen()
	wake := make(chan struct{}, 1)
	go st.Listen(listenCtx, store.NotifyChannel, nil, func(string) { //nolint:errcheck // ends with the test
		select {
		case wake <- struct{}{}:
		default:
		}
	})
	// fired counts the reminder messages stored per chore, and when the
	// first of each was.
	type firing struct {
		count int
		at    time.Time
	}
	fired := func() map[int]firing {
		rows, err := st.Pool().Query(ctx, `SELECT text, created_at FROM messages WHERE sender = 'bot'`)
		if err != nil {
			t.Fatal(err)
		}
		m := map[int]firing{}
		for rows.Next() {
			var text string
			var at time.Time
			if err := rows.Scan(&text, &at); err != nil {
				t.Fatal(err)
			}
			if sub := reDrillChore.FindStringSubmatch(text); sub != nil {
				i, _ := strconv.Atoi(sub[1])
				f := m[i]
				f.count++
				if f.at.IsZero() || at.Before(f.at) {
					f.at = at
				}
				m[i] = f
			}
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		return m
	}
	// await waits on stored messages (each commit notifies) for up to
	// limit: the soak's failover outlasts pipelinetest.Wait's bound.
	await := func(what string, limit time.Duration, cond func() bool) {
		t.Helper()
		deadline := time.After(limit)
		for !cond() {
			select {
			case <-wake:
			case <-deadline:
				var msgs, schedules, fires int
				st.Pool().QueryRow(ctx, `SELECT (SELECT count(*) FROM messages WHERE sender = 'bot'), (SELECT count(*) FROM schedules),
					(SELECT count(*) FROM river_job WHERE kind <> 'deliver')`).Scan(&msgs, &schedules, &fires) //nolint:errcheck // for the failure message
				t.Fatalf("waited %s in vain for %s (%d reminders stored of %d; %d bot messages, %d schedules, %d scheduler jobs)",
					limit, what, len(fired()), n, msgs, schedules, fires)
			}
		}
	}
	await("a third of the reminders", spread+30*time.Second, func() bool { return len(fired()) >= n/3 })

	var leader string
	if err := st.Pool().QueryRow(ctx, `SELECT leader_id FROM river_leader`).Scan(&leader); err != nil && !errors.Is(err, pgx.ErrNoRows) {
		t.Fatal(err)
	}
	victim := replicas[slices.IndexFunc(replicas, func(r *botProcess) bool { return (r.id == leader) == killLeader })]
	var running int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM river_job WHERE state = 'running' AND attempted_by[array_upper(attempted_by, 1)] = $1`,
		victim.id).Scan(&running); err != nil {
		t.Fatal(err)
	}
	before := len(fired())
	victim.kill()
	killedAt := time.Now()
	victim.start(t, bin)
	restartedAt := time.Now()

	await("every reminder", spread+2*time.Minute, func() bool { return len(fired()) == n })
	final := fired()
	var twice []string
	var lateness []time.Duration
	for i := range n {
		f := final[i]
		if f.count != 1 {
			twice = append(twice, fmt.Sprintf("chore %d ×%d", i, f.count))
		}
		lateness = append(lateness, f.at.Sub(due[i]))
	}
	if len(twice) > 0 {
		t.Errorf("reminders not stored exactly once: %s", strings.Join(twice, ", "))
	}
	// Web chat delivery is the commit that makes a message visible (seq).
	var hidden int
	if err := st.Pool().QueryRow(ctx, `SELECT count(*) FROM messages WHERE sender = 'bot' AND text ILIKE '%drill chore%' AND seq IS NULL`).Scan(&hidden); err != nil {
		t.Fatal(err)
	}
	if hidden != 0 {
		t.Errorf("%d reminders stored but never shown", hidden)
	}
	slices.Sort(lateness)
	var leaderAfter string
	if err := st.Pool().QueryRow(ctx, `SELECT leader_id FROM river_leader`).Scan(&leaderAfter); err != nil && !errors.Is(err, pgx.ErrNoRows) {
		t.Fatal(err)
	}
	role := "a replica that is not the leader"
	if victim.id == leader {
		role = "the leader"
	}
	t.Logf("scheduler drill: %d reminders for %d users over %s; killed %s (%s) with %d jobs running after %d had fired; down %s; "+
		"reminder lateness median %s, p95 %s, max %s; reclaimed at restart: %v; leader now %s",
		n, users, spread, role, victim.id, running, before, restartedAt.Sub(killedAt).Round(time.Millisecond),
		lateness[len(lateness)/2].Round(time.Millisecond), lateness[len(lateness)*95/100].Round(time.Millisecond),
		lateness[len(lateness)-1].Round(time.Millisecond), strings.Contains(victim.logs(), "reclaimed unfinished jobs"), leaderAfter)
}
