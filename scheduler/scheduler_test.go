package scheduler_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/rivertype"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
	"github.com/hearthbot/hearth/scheduler"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

// clock is the injected time: tests move it, nothing sleeps.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time  { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Set(t time.Time) { c.mu.Lock(); c.t = t; c.mu.Unlock() }

// syncBuffer is a log sink safe for River's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

type testBundle struct {
	st    *store.Store
	clock *clock
	sched *scheduler.Scheduler
	log   *syncBuffer
	// client inserts (not started unless a test starts its own).
	client *river.Client[pgx.Tx]
	user   hearth.Contact
}

// setup gives each test its own database, a scheduler on an injected
// clock whose web chat messages are delivered by the transcript, and a
// user in tz who has written once (so reminders have a conversation).
func setup(t *testing.T, tz string) *testBundle {
	t.Helper()
	st, _ := storetest.Open(t)
	b := &testBundle{st: st, clock: &clock{t: time.Now()}, log: &syncBuffer{}}
	b.sched = scheduler.New(scheduler.Config{
		Store: st, Now: b.clock.Now,
		Visible: func(ch hearth.Channel) bool { return ch == hearth.ChannelWebchat },
		Log:     slog.New(slog.NewTextHandler(b.log, nil)),
	})
	b.client = b.newClient(t, false)
	ctx := context.Background()
	var err error
	b.user, err = st.SignIn(ctx, hearth.ChannelWebchat, "ann", "Ann", "ann", tz)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// newClient returns a River client with the scheduler's workers; a
// started one works the scheduler's queue until the test ends. configure,
// if given, changes its configuration first.
func (b *testBundle) newClient(t *testing.T, start bool, configure ...func(*river.Config)) *river.Client[pgx.Tx] {
	t.Helper()
	workers := river.NewWorkers()
	b.sched.Workers(workers)
	cfg := &river.Config{Workers: workers, TestOnly: true, FetchCooldown: 2 * time.Millisecond, FetchPollInterval: 20 * time.Millisecond,
		Logger: slog.New(slog.DiscardHandler)}
	if start {
		cfg.Queues = map[string]river.QueueConfig{scheduler.QueueScheduler: {MaxWorkers: 4}}
	}
	for _, f := range configure {
		f(cfg)
	}
	c, err := river.NewClient(riverpgxv5.New(b.st.Pool()), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if start {
		if err := c.Start(context.Background()); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := c.Stop(ctx); err != nil {
				t.Errorf("stop river: %v", err)
			}
		})
	}
	return c
}

func (b *testBundle) plan(t *testing.T) scheduler.PlanStats {
	t.Helper()
	st, err := b.sched.Plan(context.Background(), b.client)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// fireJobs are the fire jobs waiting in River.
func (b *testBundle) fireJobs(t *testing.T) []scheduler.FireArgs {
	t.Helper()
	res, err := b.client.JobList(context.Background(), river.NewJobListParams().Kinds(scheduler.FireArgs{}.Kind()).First(1000).
		States(rivertypeWaiting()...))
	if err != nil {
		t.Fatal(err)
	}
	var out []scheduler.FireArgs
	for _, j := range res.Jobs {
		var a scheduler.FireArgs
		if err := unmarshal(j.EncodedArgs, &a); err != nil {
			t.Fatal(err)
		}
		out = append(out, a)
	}
	return out
}

// fireAll runs every waiting fire job's Work directly (at the injected
// time), then takes the job out of the queue.
func (b *testBundle) fireAll(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	res, err := b.client.JobList(ctx, river.NewJobListParams().Kinds(scheduler.FireArgs{}.Kind()).First(1000).States(rivertypeWaiting()...))
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range res.Jobs {
		var a scheduler.FireArgs
		if err := unmarshal(j.EncodedArgs, &a); err != nil {
			t.Fatal(err)
		}
		if err := b.sched.Fire(ctx, a); err != nil {
			t.Fatal(err)
		}
		if _, err := b.client.JobCancel(ctx, j.ID); err != nil {
			t.Fatal(err)
		}
	}
}

// botMessages are the bot's visible messages to the user.
func (b *testBundle) botMessages(t *testing.T) []hearth.Message {
	t.Helper()
	ms, err := b.st.Messages(context.Background(), b.user.ConversationID, 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	var out []hearth.Message
	for _, m := range ms {
		if m.From == hearth.FromBot {
			out = append(out, m)
		}
	}
	return out
}

func (b *testBundle) task(t *testing.T, title string, due time.Time, allDay bool) hearth.Task {
	t.Helper()
	tk, err := b.st.CreateTask(context.Background(), "", hearth.Task{UserID: b.user.User.ID, Title: title, Due: due, AllDay: allDay})
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// stopBriefings keeps briefings out of tests about reminders.
func (b *testBundle) stopBriefings(t *testing.T) {
	t.Helper()
	off := false
	if _, err := b.st.UpdateScheduleSettings(context.Background(), b.user.User.ID, hearth.ScheduleSettingsUpdate{BriefingEnabled: &off}); err != nil {
		t.Fatal(err)
	}
}

func TestTaskReminderFiresAtItsDueTime(t *testing.T) {
	t.Parallel()
	b := setup(t, "Europe/Berlin")
	b.stopBriefings(t)
	due := time.Now().Add(30 * time.Minute).Truncate(time.Second)
	b.task(t, "Call mom", due, false)

	b.plan(t)
	b.clock.Set(due.Add(-time.Second))
	b.plan(t)
	if jobs := b.fireJobs(t); len(jobs) != 0 {
		t.Fatalf("planned %v before it was due", jobs)
	}
	b.clock.Set(due)
	b.plan(t)
	b.plan(t) // a second run (another replica, a retry) plans nothing new
	jobs := b.fireJobs(t)
	if len(jobs) != 1 || jobs[0].At != due.Unix() {
		t.Fatalf("jobs %+v; want one at %v", jobs, due)
	}
	b.fireAll(t)
	ms := b.botMessages(t)
	if len(ms) != 1 || !strings.Contains(ms[0].Text, "Call mom") || len(ms[0].Buttons) != 3 {
		t.Fatalf("messages %+v", ms)
	}
	for i, label := range []string{scheduler.LabelDone, scheduler.LabelSnooze, scheduler.LabelTomorrow} {
		if ms[0].Buttons[i].Label != label {
			t.Fatalf("buttons %+v", ms[0].Buttons)
		}
	}
	// Fired again (a retried job): still one message.
	if err := b.sched.Fire(context.Background(), jobs[0]); err != nil {
		t.Fatal(err)
	}
	if n := len(b.botMessages(t)); n != 1 {
		t.Fatalf("%d messages after a second fire", n)
	}
}

// Occurrences due at one instant are one job, whose messages are stored
// together; one whose schedule has gone is left out, and the job fired
// again stores nothing twice.
func TestOccurrencesDueTogetherFireInOneJob(t *testing.T) {
	t.Parallel()
	b := setup(t, "Europe/Berlin")
	b.stopBriefings(t)
	ctx := context.Background()
	due := time.Now().Add(time.Minute).Truncate(time.Second)
	b.task(t, "Water the plants", due, false)
	b.task(t, "Feed the cat", due, false)
	gone := b.task(t, "Call the plumber", due, false)
	b.clock.Set(due)
	b.plan(t)
	jobs := b.fireJobs(t)
	if len(jobs) != 1 || len(jobs[0].More) != 2 || jobs[0].At != due.Unix() {
		t.Fatalf("jobs %+v; want one at %v for the three occurrences", jobs, due)
	}
	if _, err := b.st.Pool().Exec(ctx, `DELETE FROM schedules WHERE kind = 'task' AND item_id = $1`, gone.ID); err != nil {
		t.Fatal(err)
	}
	for range 2 { // fired twice: a retried job
		if err := b.sched.Fire(ctx, jobs[0]); err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, m := range b.botMessages(t) {
			texts = append(texts, m.Text)
		}
		if len(texts) != 2 || !strings.Contains(strings.Join(texts, "\n"), "Water the plants") || !strings.Contains(strings.Join(texts, "\n"), "Feed the cat") {
			t.Fatalf("messages %q; want the two reminders once each", texts)
		}
	}
	if strings.Contains(b.log.String(), "one by one") {
		t.Fatalf("the occurrences were not stored together:\n%s", b.log.String())
	}
	// A job whose only schedule has gone is cancelled, not retried.
	var cancelled *rivertype.JobCancelError
	if err := b.sched.Fire(ctx, scheduler.FireArgs{ScheduleID: -1, At: due.Unix()}); !errors.As(err, &cancelled) || !errors.Is(err, hearth.ErrNotFound) {
		t.Fatalf("fire a gone schedule: err = %v; want the job cancelled, not found", err)
	}
}

// The messages one fire job pushes to users of a platform go out in one
// deliver job (claimed with one statement, one job to run), not a job
// each.
func TestPushesOfOneFireAreOneDelivery(t *testing.T) {
	t.Parallel()
	b := setup(t, "Europe/Berlin")
	b.stopBriefings(t)
	ctx := context.Background()
	due := time.Now().Add(time.Minute).Truncate(time.Second)
	for _, who := range []string{"tg-1", "tg-2"} {
		c, err := b.st.SignIn(ctx, hearth.ChannelTelegram, who, who, who, "Europe/Berlin")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.st.CreateTask(ctx, "", hearth.Task{UserID: c.User.ID, Title: "Water the plants", Due: due}); err != nil {
			t.Fatal(err)
		}
	}
	b.clock.Set(due)
	// A client that fires and leaves the deliveries it enqueues in the queue.
	c := b.newClient(t, true, func(cfg *river.Config) { cfg.SkipUnknownJobCheck = true })
	if _, err := b.sched.Plan(ctx, c); err != nil {
		t.Fatal(err)
	}
	var deliveries []pipeline.DeliverArgs
	pipelinetest.WaitForJobsOf(t, []pipelinetest.Subscriber{c}, "the fire job's deliveries", func() bool {
		res, err := c.JobList(ctx, river.NewJobListParams().Kinds(pipeline.DeliverArgs{}.Kind()))
		if err != nil {
			t.Fatal(err)
		}
		deliveries = deliveries[:0]
		for _, j := range res.Jobs {
			var a pipeline.DeliverArgs
			if err := json.Unmarshal(j.EncodedArgs, &a); err != nil {
				t.Fatal(err)
			}
			deliveries = append(deliveries, a)
		}
		return len(deliveries) > 0
	})
	var msgs int
	if err := b.st.Pool().QueryRow(ctx, `SELECT count(*) FROM messages WHERE sender = 'bot' AND text LIKE '%Water the plants%'`).Scan(&msgs); err != nil {
		t.Fatal(err)
	}
	if len(deliveries) != 1 || len(deliveries[0].More) != 1 || msgs != 2 {
		t.Fatalf("deliver jobs %+v for %d reminders; want one for both", deliveries, msgs)
	}
}

func TestTwoRiverClientsFireOneReminderOnce(t *testing.T) {
	t.Parallel()
	b := setup(t, "America/New_York")
	b.stopBriefings(t)
	due := time.Now().Truncate(time.Second).Add(time.Minute)
	b.task(t, "Water the plants", due, false)
	b.clock.Set(due)
	c1, c2 := b.newClient(t, true), b.newClient(t, true)
	// Both replicas plan (as after a leader change), concurrently.
	var wg sync.WaitGroup
	for _, c := range []*river.Client[pgx.Tx]{c1, c2} {
		wg.Go(func() {
			if _, err := b.sched.Plan(context.Background(), c); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	// Both clients work the queue; wait for the one job to finish.
	pipelinetest.WaitForJobsOf(t, []pipelinetest.Subscriber{c1, c2}, "the fire job", func() bool {
		var done, total int
		err := b.st.Pool().QueryRow(context.Background(), `SELECT count(*) FILTER (WHERE state = 'completed'), count(*) FROM river_job WHERE kind = $1`,
			scheduler.FireArgs{}.Kind()).Scan(&done, &total)
		if err != nil {
			t.Fatal(err)
		}
		if total != 1 {
			t.Fatalf("%d fire jobs; want 1", total)
		}
		return done == 1
	})
	if ms := b.botMessages(t); len(ms) != 1 || !strings.Contains(ms[0].Text, "Water the plants") {
		t.Fatalf("messages %+v", ms)
	}
}

func TestRestartCatchUp(t *testing.T) {
	t.Parallel()
	b := setup(t, "Europe/Berlin")
	b.stopBriefings(t)
	now0 := time.Now().Truncate(time.Second)
	b.task(t, "Inside the grace window", now0.Add(2*time.Hour), false)
	b.task(t, "Outside the grace window", now0.Add(10*time.Minute), false)
	b.plan(t) // the planner ran, then the process was down

	// Back 7h12m later: the first task is 5h12m late and fires with a
	// note, the second is 7h02m late, skipped and logged.
	b.clock.Set(now0.Add(7*time.Hour + 12*time.Minute))
	st := b.plan(t)
	if st.Skipped != 1 || st.Jobs != 1 {
		t.Fatalf("plan %+v; want one job and one skipped", st)
	}
	b.fireAll(t)
	ms := b.botMessages(t)
	if len(ms) != 1 || !strings.Contains(ms[0].Text, "Inside the grace window") || !strings.Contains(ms[0].Text, "late") {
		t.Fatalf("messages %+v", ms)
	}
	if !strings.Contains(b.log.String(), "missed occurrence skipped") {
		t.Fatalf("the skip was not logged:\n%s", b.log.String())
	}
}

func TestCompletingOrDeletingATaskCancelsItsReminder(t *testing.T) {
	t.Parallel()
	b := setup(t, "Europe/Berlin")
	b.stopBriefings(t)
	ctx := context.Background()
	due := time.Now().Add(time.Minute).Truncate(time.Second)
	done := b.task(t, "Done before it was due", due, false)
	gone := b.task(t, "Deleted before it was due", due, false)
	b.clock.Set(due)
	b.plan(t)
	if jobs := b.fireJobs(t); len(jobs) != 1 || len(jobs[0].More) != 1 {
		t.Fatalf("jobs %+v; want one for the two occurrences due at one instant", jobs)
	}
	st := hearth.TaskDone
	if _, _, err := b.st.UpdateTask(ctx, b.user.User.ID, done.ID, hearth.TaskUpdate{Status: &st}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.st.DeleteTask(ctx, b.user.User.ID, gone.ID); err != nil {
		t.Fatal(err)
	}
	b.fireAll(t)
	if ms := b.botMessages(t); len(ms) != 0 {
		t.Fatalf("messages %+v; want none", ms)
	}
}

func TestTimezoneChangeMovesPendingOccurrences(t *testing.T) {
	t.Parallel()
	b := setup(t, "America/New_York")
	b.stopBriefings(t)
	ctx := context.Background()
	ny, _ := time.LoadLocation("America/New_York")
	berlin, _ := time.LoadLocation("Europe/Berlin")
	// Due in five days (New York): the next reminder is 3 days before, at
	// 09:00 New York time.
	d := time.Now().In(ny).AddDate(0, 0, 5)
	due := time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, ny)
	b.task(t, "File the taxes", due, true)
	b.plan(t)
	next := func() time.Time {
		up, err := b.st.UpcomingSchedules(ctx, b.user.User.ID, 10)
		if err != nil || len(up) != 1 {
			t.Fatalf("upcoming %+v, %v", up, err)
		}
		return up[0].NextAt
	}
	old := next()
	if want := time.Date(d.Year(), d.Month(), d.Day()-3, 9, 0, 0, 0, ny); !old.Equal(want) {
		t.Fatalf("next reminder %v; want %v", old.In(ny), want)
	}
	// The user moves to Berlin: the same wall time, in Berlin.
	if err := b.st.SetTimezone(ctx, b.user.User.ID, "Europe/Berlin"); err != nil {
		t.Fatal(err)
	}
	b.plan(t)
	if got, want := next(), time.Date(d.Year(), d.Month(), d.Day()-3, 9, 0, 0, 0, berlin); !got.Equal(want) {
		t.Fatalf("after the move the next reminder is %v; want %v", got.In(berlin), want)
	}
	// A job already enqueued for the old instant sends nothing.
	up, _ := b.st.UpcomingSchedules(ctx, b.user.User.ID, 10)
	b.clock.Set(old)
	if err := b.sched.Fire(ctx, scheduler.FireArgs{ScheduleID: up[0].ID, At: old.Unix()}); err != nil {
		t.Fatal(err)
	}
	if ms := b.botMessages(t); len(ms) != 0 {
		t.Fatalf("the New York occurrence was sent after the move: %+v", ms)
	}
}

func TestRecurringReminderAndSnooze(t *testing.T) {
	t.Parallel()
	b := setup(t, "Europe/Berlin")
	b.stopBriefings(t)
	ctx := context.Background()
	berlin, _ := time.LoadLocation("Europe/Berlin")
	start := time.Now().In(berlin).AddDate(0, 0, 7)
	b.clock.Set(start)
	rule := []byte(`{"freq":"weekly","weekdays":["mon"],"at":"09:00"}`)
	first := time.Date(start.Year(), start.Month(), start.Day()+(8-int(start.Weekday()))%7, 9, 0, 0, 0, berlin) // the Monday after
	if !first.After(start) {
		first = first.AddDate(0, 0, 7)
	}
	if _, err := b.st.CreateReminder(ctx, "k1", b.user.User.ID, "Water the plants", rule, first); err != nil {
		t.Fatal(err)
	}
	// Three Mondays, the planner running just before each.
	for week := range 3 {
		at := first.AddDate(0, 0, 7*week)
		b.clock.Set(at.Add(-time.Minute))
		b.plan(t) // not due yet
		b.clock.Set(at)
		b.plan(t)
		b.fireAll(t)
	}
	ms := b.botMessages(t)
	if len(ms) != 3 {
		t.Fatalf("%d messages; want 3 (one per Monday)", len(ms))
	}
	// Snooze the last one for an hour: it comes back once.
	snoozeAt := b.clock.Now().Add(time.Hour)
	for range 2 { // a double click
		if _, err := b.st.Snooze(ctx, b.user.User.ID, ms[2].ID, snoozeAt, hearth.ScheduleDetail{Text: "Water the plants", OfKind: hearth.ScheduleReminder}); err != nil {
			t.Fatal(err)
		}
	}
	b.clock.Set(snoozeAt)
	b.plan(t)
	b.fireAll(t)
	b.clock.Set(snoozeAt.Add(time.Hour))
	b.plan(t)
	b.fireAll(t)
	ms = b.botMessages(t)
	if len(ms) != 4 || !strings.Contains(ms[3].Text, "Water the plants") || len(ms[3].Buttons) != 3 {
		t.Fatalf("after the snooze: %d messages, last %+v", len(ms), ms[len(ms)-1])
	}
}

func TestBirthdayFromAMemory(t *testing.T) {
	t.Parallel()
	b := setup(t, "Europe/Berlin")
	b.stopBriefings(t)
	ctx := context.Background()
	berlin, _ := time.LoadLocation("Europe/Berlin")
	if _, err := b.st.StoreMemory(ctx, "", hearth.Memory{UserID: b.user.User.ID, Content: "John's birthday is March 15th", About: "John"}); err != nil {
		t.Fatal(err)
	}
	lead := time.Date(time.Now().Year(), 3, 12, 9, 0, 0, 0, berlin)
	if lead.Before(time.Now()) {
		lead = lead.AddDate(1, 0, 0)
	}
	b.plan(t)
	b.clock.Set(lead)
	b.plan(t)
	b.fireAll(t)
	ms := b.botMessages(t)
	if len(ms) != 1 || !strings.Contains(ms[0].Text, "John's birthday is in 3 days") {
		t.Fatalf("messages %+v", ms)
	}
}

func TestBriefing(t *testing.T) {
	t.Parallel()
	b := setup(t, "America/New_York")
	ctx := context.Background()
	ny, _ := time.LoadLocation("America/New_York")
	// The next 07:30 in New York.
	now := time.Now().In(ny)
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, ny)
	at := time.Date(now.Year(), now.Month(), now.Day(), 7, 30, 0, 0, ny)
	if !at.After(now) {
		day, at = day.AddDate(0, 0, 1), at.AddDate(0, 0, 1)
	}

	empty, err := b.sched.Briefing(ctx, b.user.User.ID, ny, at, nil)
	if err != nil || empty != "Good morning! "+scheduler.EmptyDay {
		t.Fatalf("empty day: %q, %v", empty, err)
	}

	uid := b.user.User.ID
	if _, err := b.st.CreateEvent(ctx, "", hearth.CalendarEvent{UserID: uid, Title: "Design review", Start: day.Add(10 * time.Hour), End: day.Add(11 * time.Hour), Location: "Room 4", Attendees: []string{"Sarah"}}); err != nil {
		t.Fatal(err)
	}
	b.task(t, "Send Sarah the slides", day.Add(24*time.Hour), true)
	b.task(t, "Renew passport", day.Add(-48*time.Hour), true)
	b.task(t, "Far away", day.Add(30*24*time.Hour), true)
	for _, m := range []hearth.Memory{
		{UserID: uid, Content: "Sarah prefers written agendas", About: "Sarah"},
		{UserID: uid, Content: "Ana's birthday is " + day.AddDate(0, 0, 2).Format("January 2"), About: "Ana"},
	} {
		if _, err := b.st.StoreMemory(ctx, "", m); err != nil {
			t.Fatal(err)
		}
	}
	b.plan(t) // recognises the birthday
	text, err := b.sched.Briefing(ctx, uid, ny, at, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Calendar today", "10:00 AM Design review (Room 4; with Sarah)",
		"Birthdays & anniversaries", "Ana's birthday (in 2 days)",
		"Deadlines", "Send Sarah the slides — due ", "Renew passport — overdue",
		"Meeting prep", "Sarah prefers written agendas", "open task: Send Sarah the slides"} {
		if !strings.Contains(text, want) {
			t.Errorf("briefing lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "Far away") || strings.Contains(text, "Family") {
		t.Errorf("briefing has what it should not:\n%s", text)
	}
	skipped, err := b.sched.Briefing(ctx, uid, ny, at, []string{scheduler.SectionCalendar, scheduler.SectionPrep})
	if err != nil || strings.Contains(skipped, "Calendar today") || strings.Contains(skipped, "Meeting prep") || !strings.Contains(skipped, "Deadlines") {
		t.Fatalf("skipping sections: %q, %v", skipped, err)
	}

	// Fired by the schedule: once per local day.
	b.clock.Set(at)
	b.plan(t)
	b.fireAll(t)
	if _, err := b.sched.Plan(ctx, b.client); err != nil {
		t.Fatal(err)
	}
	b.fireAll(t)
	ms := b.botMessages(t)
	if len(ms) != 1 || !strings.Contains(ms[0].Text, "Design review") {
		t.Fatalf("messages %+v", ms)
	}
}

func TestBriefingFamilySection(t *testing.T) {
	t.Parallel()
	b := setup(t, "America/New_York")
	ctx := context.Background()
	ny, _ := time.LoadLocation("America/New_York")
	berlin, _ := time.LoadLocation("Europe/Berlin")
	at := time.Date(2030, 3, 4, 7, 30, 0, 0, ny) // a Monday
	day := time.Date(2030, 3, 4, 0, 0, 0, 0, ny)
	ann := b.user.User.ID
	member := func(name, tz string) int64 {
		t.Helper()
		c, err := b.st.SignIn(ctx, hearth.ChannelWebchat, name, name, name, tz)
		if err != nil {
			t.Fatal(err)
		}
		inv, err := b.st.CreateFamilyInvite(ctx, ann, 10*time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.st.JoinFamily(ctx, hearth.NormaliseCode(inv.Code), c.User.ID); err != nil {
			t.Fatal(err)
		}
		return c.User.ID
	}
	emma, opa := member("Emma", "America/New_York"), member("Opa", "Europe/Berlin")
	outsider, err := b.st.SignIn(ctx, hearth.ChannelWebchat, "zed", "Zed", "zed", "America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []hearth.CalendarEvent{
		{UserID: emma, Title: "School play", Start: day.Add(24*time.Hour + 18*time.Hour), End: day.Add(24*time.Hour + 20*time.Hour), Location: "Town hall"},
		{UserID: emma, Title: "Swimming", Start: day.Add(16 * time.Hour), End: day.Add(17 * time.Hour)},
		{UserID: emma, Title: "Grandma's visit", Start: day.Add(-24 * time.Hour), End: day.Add(48 * time.Hour), Location: "Home"},
		{UserID: emma, Title: "Too far ahead", Start: day.AddDate(0, 0, 9), End: day.AddDate(0, 0, 9).Add(time.Hour)},
		// All day on Wednesday in Berlin, which begins on Tuesday evening in New York.
		{UserID: opa, Title: "Garden club", AllDay: true, Start: time.Date(2030, 3, 6, 0, 0, 0, 0, berlin), End: time.Date(2030, 3, 7, 0, 0, 0, 0, berlin)},
		{UserID: outsider.User.ID, Title: "Zed's secret", Start: day.Add(12 * time.Hour), End: day.Add(13 * time.Hour)},
	} {
		if _, err := b.st.CreateEvent(ctx, "", e); err != nil {
			t.Fatal(err)
		}
	}

	text, err := b.sched.Briefing(ctx, ann, ny, at, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := "**Family updates**\nEmma:\n• Ongoing — Grandma's visit (Home)\n• Today at 4:00 PM — Swimming\n• Tomorrow at 6:00 PM — School play (Town hall)\nOpa:\n• Wednesday, March 6 (all day) — Garden club"
	if !strings.HasSuffix(text, want) {
		t.Fatalf("briefing:\n%s\nwant it to end with:\n%s", text, want)
	}
	if strings.Contains(text, "Zed") || strings.Contains(text, "Too far ahead") {
		t.Fatalf("briefing shows what it should not:\n%s", text)
	}

	// Opa shows Ann only basics: his events leave her briefing.
	if err := b.st.SetAccessGrant(ctx, opa, ann, hearth.TierBasic); err != nil {
		t.Fatal(err)
	}
	text, err = b.sched.Briefing(ctx, ann, ny, at, nil)
	if err != nil || strings.Contains(text, "Opa") || !strings.Contains(text, "School play") {
		t.Fatalf("after Opa's grant to basics: %q, %v", text, err)
	}
	// Skipped, or nobody left to show: no section at all.
	if text, err := b.sched.Briefing(ctx, ann, ny, at, []string{scheduler.SectionFamily}); err != nil || text != "Good morning! "+scheduler.EmptyDay {
		t.Fatalf("family section skipped: %q, %v", text, err)
	}
	if _, err := b.st.LeaveFamily(ctx, emma); err != nil {
		t.Fatal(err)
	}
	if text, err := b.sched.Briefing(ctx, ann, ny, at, nil); err != nil || text != "Good morning! "+scheduler.EmptyDay {
		t.Fatalf("no family events to show: %q, %v", text, err)
	}
}

func TestSnoozedTaskReminderEndsWithTheTask(t *testing.T) {
	t.Parallel()
	b := setup(t, "Europe/Berlin")
	b.stopBriefings(t)
	ctx := context.Background()
	due := time.Now().Add(time.Minute).Truncate(time.Second)
	tk := b.task(t, "Pay the invoice", due, false)
	b.clock.Set(due)
	b.plan(t)
	b.fireAll(t)
	ms := b.botMessages(t)
	if len(ms) != 1 {
		t.Fatalf("messages %+v", ms)
	}
	at := due.Add(time.Hour)
	if _, err := b.st.Snooze(ctx, b.user.User.ID, ms[0].ID, at, hearth.ScheduleDetail{Text: tk.Title, OfKind: hearth.ScheduleTask, OfItem: tk.ID}); err != nil {
		t.Fatal(err)
	}
	st := hearth.TaskDone
	if _, _, err := b.st.UpdateTask(ctx, b.user.User.ID, tk.ID, hearth.TaskUpdate{Status: &st}); err != nil {
		t.Fatal(err)
	}
	b.clock.Set(at)
	b.plan(t)
	b.fireAll(t)
	if ms := b.botMessages(t); len(ms) != 1 {
		t.Fatalf("the snooze of a done task fired: %+v", ms)
	}
}

// "Cancel" on a task's reminders holds for its due date: moving the task
// to another date brings them back, for the new date; editing something
// else does not.
func TestCancelledTaskRemindsAgainWhenMoved(t *testing.T) {
	t.Parallel()
	b := setup(t, "America/New_York")
	b.stopBriefings(t)
	ctx := context.Background()
	ny, _ := time.LoadLocation("America/New_York")
	d := time.Now().In(ny).AddDate(0, 0, 5)
	due := time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, ny)
	task := b.task(t, "Renew the passport", due, true)
	b.plan(t)
	upcoming := func() []hearth.Schedule {
		t.Helper()
		up, err := b.st.UpcomingSchedules(ctx, b.user.User.ID, 10)
		if err != nil {
			t.Fatal(err)
		}
		return up
	}
	up := upcoming()
	if len(up) != 1 {
		t.Fatalf("upcoming %+v; want the task's", up)
	}
	if err := b.st.MuteSchedule(ctx, b.user.User.ID, up[0].ID); err != nil {
		t.Fatal(err)
	}
	title := "Renew both passports"
	if _, _, err := b.st.UpdateTask(ctx, b.user.User.ID, task.ID, hearth.TaskUpdate{Title: &title}); err != nil {
		t.Fatal(err)
	}
	b.plan(t)
	if up := upcoming(); len(up) != 0 {
		t.Fatalf("after a rename, upcoming %+v; want none (cancelled)", up)
	}
	moved := due.AddDate(0, 0, 7)
	if _, _, err := b.st.UpdateTask(ctx, b.user.User.ID, task.ID, hearth.TaskUpdate{Due: &moved}); err != nil {
		t.Fatal(err)
	}
	b.plan(t)
	up = upcoming()
	if len(up) != 1 {
		t.Fatalf("after the move, upcoming %+v; want the task's again", up)
	}
	// 7 days before the new date, at 09:00: later than anything the old
	// date would have reminded on.
	if want := time.Date(moved.Year(), moved.Month(), moved.Day()-7, 9, 0, 0, 0, ny); !up[0].NextAt.Equal(want) {
		t.Fatalf("next reminder %v; want %v", up[0].NextAt.In(ny), want)
	}
}

// TestFiredReminderTellsLiveViews: a reminder shown in the web chat's
// transcript is announced to live views (after its commit), once.
func TestFiredReminderTellsLiveViews(t *testing.T) {
	t.Parallel()
	b := setup(t, "Europe/Berlin")
	b.stopBriefings(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	told := make(chan string, 16)
	go b.st.Listen(ctx, store.NotifyChannel, nil, func(payload string) { told <- payload }) //nolint:errcheck // returns when ctx ends
	select {
	case p := <-told:
		if p != "" {
			t.Fatalf("first call %q, want the connected call", p)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the listener never connected")
	}
	due := time.Now().Add(30 * time.Minute).Truncate(time.Second)
	b.task(t, "Call mom", due, false)
	b.plan(t)
	b.clock.Set(due)
	b.plan(t)
	b.fireAll(t)
	want := strconv.FormatInt(b.user.ConversationID, 10)
	select {
	case p := <-told:
		if p != want {
			t.Fatalf("told %q, want conversation %s", p, want)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("live views were never told of the reminder")
	}
}

// TestSyncUser checks that one user's sync lists what they just dated,
// leaves everyone else's to the planner, and that the planner's next run
// over the same changes fires the reminder once, at its time.
func TestSyncUser(t *testing.T) {
	t.Parallel()
	b := setup(t, "Europe/Berlin")
	b.stopBriefings(t)
	ctx := context.Background()
	other, err := b.st.SignIn(ctx, hearth.ChannelWebchat, "bo", "Bo", "bo", "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	due := time.Now().Add(time.Hour).Truncate(time.Second)
	b.task(t, "Call the plumber", due, false)
	if _, err := b.st.CreateTask(ctx, "", hearth.Task{UserID: other.User.ID, Title: "Bo's errand", Due: due}); err != nil {
		t.Fatal(err)
	}
	titles := func(uid int64) []string {
		t.Helper()
		up, err := b.st.UpcomingSchedules(ctx, uid, 10)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, sc := range up {
			if sc.Kind != hearth.ScheduleBriefing {
				out = append(out, sc.Title)
			}
		}
		return out
	}
	if err := b.sched.SyncUser(ctx, b.user.User.ID); err != nil {
		t.Fatal(err)
	}
	if got := titles(b.user.User.ID); !slices.Equal(got, []string{"Call the plumber"}) {
		t.Fatalf("Ann's reminders after her sync: %q", got)
	}
	if got := titles(other.User.ID); len(got) != 0 {
		t.Fatalf("Bo's reminders after Ann's sync: %q; want none until the planner runs", got)
	}
	b.plan(t)
	if got := titles(other.User.ID); !slices.Equal(got, []string{"Bo's errand"}) {
		t.Fatalf("Bo's reminders after the planner ran: %q", got)
	}
	b.clock.Set(due)
	b.plan(t)
	b.plan(t)
	if jobs := b.fireJobs(t); len(jobs) != 1 || len(jobs[0].More) != 1 {
		t.Fatalf("fire jobs %+v; want one for the two tasks due at one instant", jobs)
	}
}
