package pipeline_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
)

func TestGroupCommit(t *testing.T) {
	ctx := context.Background()
	b := setup(t, newCountingHandler())
	// ana and ben are known; cleo writes for the first time in the group.
	for _, u := range []string{"ana", "ben"} {
		if _, err := b.inbox.Accept(ctx, message(u, u+"-0", "hello")); err != nil {
			t.Fatal(err)
		}
	}
	bad := message("ben", "ben-bad", "broken")
	bad.Payload = json.RawMessage(`{"not json`)

	t.Run("together", func(t *testing.T) {
		rs, errs := b.inbox.CommitGroup(ctx, []hearth.Inbound{
			message("ana", "ana-1", "one"),
			message("ben", "ben-1", "two"),
			message("cleo", "cleo-1", "three"),
			message("ana", "ana-1", "one"), // the client sent it twice
			message("ana", "ana-0", "hello"),
		})
		for i, err := range errs {
			if err != nil {
				t.Fatalf("message %d: %v", i, err)
			}
		}
		if rs[0].Duplicate || rs[1].Duplicate || rs[2].Duplicate {
			t.Fatalf("new messages taken for duplicates: %+v", rs[:3])
		}
		if !rs[3].Duplicate || rs[3].EventID != rs[0].EventID || rs[3].MessageID != rs[0].MessageID {
			t.Fatalf("the second copy = %+v, want the first's receipt (%+v) marked duplicate", rs[3], rs[0])
		}
		if !rs[4].Duplicate {
			t.Fatalf("a message accepted before = %+v, want a duplicate", rs[4])
		}
		if rs[0].ConversationID == rs[1].ConversationID || rs[2].UserID == 0 || rs[2].MessageID == 0 {
			t.Fatalf("receipts %+v", rs)
		}
		if ev, msgs, turns := pipelinetest.Stored(t, b.store); ev != 5 || msgs != 5 || turns != 5 {
			t.Fatalf("stored %d events, %d messages, %d turn jobs; want 5 of each", ev, msgs, turns)
		}
	})

	t.Run("one bad message fails alone", func(t *testing.T) {
		rs, errs := b.inbox.CommitGroup(ctx, []hearth.Inbound{
			message("ana", "ana-2", "four"), bad, message("ben", "ben-2", "five"),
		})
		if errs[0] != nil || errs[2] != nil {
			t.Fatalf("good messages failed: %v, %v", errs[0], errs[2])
		}
		if errs[1] == nil || errors.Is(errs[1], hearth.ErrUnavailable) {
			t.Fatalf("bad message: err = %v, want its own error", errs[1])
		}
		if rs[0].EventID == 0 || rs[2].EventID == 0 {
			t.Fatalf("receipts %+v", rs)
		}
		if ev, msgs, turns := pipelinetest.Stored(t, b.store); ev != 7 || msgs != 7 || turns != 7 {
			t.Fatalf("stored %d events, %d messages, %d turn jobs; want 7 of each (nothing of the bad one)", ev, msgs, turns)
		}
	})

	t.Run("a group of one", func(t *testing.T) {
		// A message arriving alone takes the group's path too (one
		// round trip); failing, it is accepted alone and fails alone,
		// leaving no transaction open.
		_, errs := b.inbox.CommitGroup(ctx, []hearth.Inbound{bad})
		if errs[0] == nil || errors.Is(errs[0], hearth.ErrUnavailable) {
			t.Fatalf("bad message alone: err = %v, want its own error", errs[0])
		}
		rs, errs := b.inbox.CommitGroup(ctx, []hearth.Inbound{message("cleo", "cleo-2", "six")})
		if errs[0] != nil || rs[0].EventID == 0 || rs[0].Duplicate {
			t.Fatalf("good message alone: %+v, %v", rs[0], errs[0])
		}
		if ev, msgs, turns := pipelinetest.Stored(t, b.store); ev != 8 || msgs != 8 || turns != 8 {
			t.Fatalf("stored %d events, %d messages, %d turn jobs; want 8 of each", ev, msgs, turns)
		}
		if n := b.store.Pool().Stat().AcquiredConns(); n != 0 {
			t.Fatalf("%d connections still held after the groups ended", n)
		}
	})
}

// TestGroupCommitConcurrent accepts many messages at once, from users old
// and new: each is stored once with one turn job, however the arrivals
// fell into groups.
func TestGroupCommitConcurrent(t *testing.T) {
	ctx := context.Background()
	b := setup(t, newCountingHandler())
	const users, each = 12, 8
	for u := range users / 2 { // half known, half new
		if _, err := b.inbox.Accept(ctx, message(fmt.Sprint("u", u), fmt.Sprint("u", u, "-hello"), "hello")); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[int64]bool{}
	for u := range users {
		for i := range each {
			wg.Go(func() {
				id := fmt.Sprint("u", u, "-", i%(each-1)) // one message of each user arrives twice
				r, err := b.inbox.Accept(ctx, message(fmt.Sprint("u", u), id, "text "+id))
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				defer mu.Unlock()
				if !r.Duplicate {
					if seen[r.EventID] {
						t.Errorf("event %d accepted twice", r.EventID)
					}
					seen[r.EventID] = true
				}
			})
		}
	}
	wg.Wait()
	want := users/2 + users*(each-1)
	if ev, msgs, turns := pipelinetest.Stored(t, b.store); ev != want || msgs != want || turns != want {
		t.Fatalf("stored %d events, %d messages, %d turn jobs; want %d of each", ev, msgs, turns, want)
	}
	if len(seen) != users*(each-1) {
		t.Fatalf("%d new receipts, want %d", len(seen), users*(each-1))
	}
}

// TestGroupTurnJobIsRiversOwn: the turn job a group's statement writes
// is the row River's client writes for the same TurnArgs (a first
// contact's, enqueued by the client), and its notification wakes River's
// producers: with polls an hour apart, the group's turn is still answered.
func TestGroupTurnJobIsRiversOwn(t *testing.T) {
	ctx := context.Background()
	h := newCountingHandler()
	b := setup(t, h)
	b.inbox.NotifyCooldown = 0 // every group notifies
	first, err := b.inbox.Accept(ctx, message("ana", "ana-0", "hello"))
	if err != nil {
		t.Fatal(err)
	}
	rs, errs := b.inbox.CommitGroup(ctx, []hearth.Inbound{message("ana", "ana-1", "again")})
	if errs[0] != nil {
		t.Fatal(errs[0])
	}
	// Every column a new job has, args read as the worker reads them.
	row := func(eventID int64) (cols string, args pipeline.TurnArgs) {
		t.Helper()
		var raw []byte
		err := b.store.Pool().QueryRow(ctx, `
			SELECT concat_ws(' | ', state, attempt, max_attempts, priority, kind, queue, metadata, tags,
				attempted_at IS NULL, attempted_by IS NULL, errors IS NULL, finalized_at IS NULL,
				unique_key IS NULL, unique_states IS NULL, scheduled_at <= now(), created_at <= now()), args
			FROM river_job WHERE kind = 'turn' AND (args->>'event_id')::bigint = $1`, eventID).Scan(&cols, &raw)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &args); err != nil {
			t.Fatal(err)
		}
		return cols, args
	}
	riverCols, riverArgs := row(first.EventID)
	groupCols, groupArgs := row(rs[0].EventID)
	if groupCols != riverCols {
		t.Errorf("group's job:\n%s\nRiver's:\n%s", groupCols, riverCols)
	}
	if riverArgs != (pipeline.TurnArgs{ConversationID: first.ConversationID, EventID: first.EventID}) ||
		groupArgs != (pipeline.TurnArgs{ConversationID: rs[0].ConversationID, EventID: rs[0].EventID}) {
		t.Errorf("args %+v and %+v; want the messages' events", riverArgs, groupArgs)
	}

	// The jobs there are now are fetched as the client starts; the next
	// is found by its notification alone.
	newPollingClient(t, b, true, time.Hour)
	b.waitFor(t, "the first turns", func() bool { return len(h.handled(first.ConversationID)) == 2 })
	if _, errs := b.inbox.CommitGroup(ctx, []hearth.Inbound{message("ana", "ana-2", "and again")}); errs[0] != nil {
		t.Fatal(errs[0])
	}
	b.waitFor(t, "the group's turn", func() bool { return len(h.handled(first.ConversationID)) == 3 })
}

// Groups notify River's producers at most once per NotifyCooldown, as
// River's client notifies of its own inserts.
func TestGroupNotifiesOncePerCooldown(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b := setup(t, newCountingHandler())
	if _, err := b.inbox.Accept(ctx, message("ana", "ana-0", "hello")); err != nil {
		t.Fatal(err)
	}
	now := time.Now().Add(time.Hour) // past the first message's notification
	b.inbox.SetClock(func() time.Time { return now })
	listener, err := b.store.Pool().Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Release()
	if _, err := listener.Exec(ctx, `LISTEN "public.river_insert"`); err != nil {
		t.Fatal(err)
	}
	// notified counts the notifications delivered so far: a round trip
	// on the listening connection collects those committed before it.
	notified := func() int {
		t.Helper()
		if _, err := listener.Exec(ctx, `SELECT 1`); err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			short, cancel := context.WithTimeout(ctx, time.Millisecond)
			_, err := listener.Conn().WaitForNotification(short)
			cancel()
			if err != nil {
				return n
			}
			n++
		}
	}
	for i, tt := range []struct {
		after time.Duration
		want  int
	}{
		{0, 1},                          // the first group notifies
		{b.inbox.NotifyCooldown / 2, 0}, // within the cooldown: not again
		{b.inbox.NotifyCooldown/2 + time.Millisecond, 1}, // past it
	} {
		now = now.Add(tt.after)
		if _, errs := b.inbox.CommitGroup(ctx, []hearth.Inbound{message("ana", fmt.Sprint("ana-n", i), "hi")}); errs[0] != nil {
			t.Fatal(errs[0])
		}
		if got := notified(); got != tt.want {
			t.Errorf("group %d, %s on: %d notifications, want %d", i, tt.after, got, tt.want)
		}
	}
}

// TestTurnSlot: while a burst waits to be acknowledged, a turn starts
// only when none is running and none started in the last BehindFor (so
// turns still drain, slowly); otherwise every turn gets a slot at once.
func TestTurnSlot(t *testing.T) {
	_, inbox := pipelinetest.NewInbox(t, "")
	var mu sync.Mutex
	now := time.Date(2026, 11, 27, 9, 0, 0, 0, time.UTC)
	inbox.SetClock(func() time.Time { mu.Lock(); defer mu.Unlock(); return now })
	advance := func(d time.Duration) { mu.Lock(); defer mu.Unlock(); now = now.Add(d) }
	const gap = 3 * time.Millisecond // between groups, as under load
	group := func(depth int) {
		inbox.GroupBegan(depth)
		advance(gap)
	}
	deep := 2 * pipeline.BehindDepth
	// groupsFor is how many groups begin in d.
	groupsFor := func(d time.Duration) int { return int(d / gap) }
	gone, cancel := context.WithCancel(context.Background())
	cancel() // a turn that would have to wait gives up at once
	free := func(what string) {
		t.Helper()
		r, err := inbox.TurnSlot(gone)
		if err != nil {
			t.Fatalf("slot %s: %v", what, err)
		}
		r()
	}
	held := func(what string) {
		t.Helper()
		if _, err := inbox.TurnSlot(gone); !errors.Is(err, context.Canceled) {
			t.Fatalf("slot %s: err = %v, want it to wait", what, err)
		}
	}

	var releases []func()
	for range 5 { // nobody waiting to be acknowledged: no limit
		r, err := inbox.TurnSlot(gone)
		if err != nil {
			t.Fatalf("slot without a burst: %v", err)
		}
		releases = append(releases, r)
	}
	for _, r := range releases[1:] {
		r()
	}
	// A steady load has its stalls, each filling some groups in a row
	// (here one group in seven, and then every group for half of
	// BehindAfter); they are no burst.
	for i := range groupsFor(time.Second) {
		depth := 1 + i%2
		if i%7 == 0 {
			depth = deep
		}
		group(depth)
		free("in a steady load")
	}
	for range groupsFor(pipeline.BehindAfter / 2) {
		group(deep)
		free("in a stall")
	}

	// Groups beginning deep for BehindAfter are: with a turn running, no
	// other starts.
	for range groupsFor(pipeline.BehindAfter) + 1 {
		group(deep)
	}
	held("while another runs, in a burst")
	// With none running, one starts, and the next only BehindFor later.
	releases[0]()
	free("with none running, in a burst")
	held("just after another started, in a burst")
	got := make(chan func(), 1)
	go func() {
		r, err := inbox.TurnSlot(context.Background())
		if err != nil {
			t.Error(err)
		}
		got <- r
	}()
	for range groupsFor(pipeline.BehindFor) + 1 {
		group(deep)
	}
	var running func()
	select {
	case running = <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting turn never started")
	}
	held("while another runs, later in the burst")

	// A dip (shallow groups bringing the average depth a little under
	// BehindDepth) does not end the burst.
	for range 17 {
		inbox.GroupBegan(1)
		advance(20 * time.Millisecond)
	}
	held("in a dip in the burst")
	running()

	// Once the burst has passed, the limit is off, and the groups after
	// a pause begin a new average: the burst's, slowly falling, would
	// still be over BehindDepth after these ten, which take longer than
	// BehindAfter (each under BehindFor after the last: no new pause).
	for range groupsFor(pipeline.BehindAfter) + 1 {
		group(deep)
	}
	advance(time.Second)
	spacing := pipeline.BehindFor * 4 / 5
	if 9*spacing < pipeline.BehindAfter {
		t.Fatalf("ten groups %v apart take under BehindAfter (%v)", spacing, pipeline.BehindAfter)
	}
	for range 10 {
		inbox.GroupBegan(1)
		advance(spacing)
	}
	r1, err1 := inbox.TurnSlot(gone)
	r2, err2 := inbox.TurnSlot(gone)
	if err1 != nil || err2 != nil {
		t.Fatalf("after the burst: %v, %v", err1, err2)
	}
	r1()
	r2()
}
