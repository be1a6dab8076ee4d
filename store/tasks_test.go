package store_test

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

// providerBundle is what the provider tests share: one migrated database
// per top-level test, and two users per subtest so parallel subtests never
// see each other's rows.
type providerBundle struct {
	ctx        context.Context
	st         *store.Store
	alice, bob int64
}

var userSeq atomic.Int64

// newUser signs a fresh user in and returns their id.
func newUser(t *testing.T, st *store.Store, name string) int64 {
	t.Helper()
	key := fmt.Sprintf("%s-%d", name, userSeq.Add(1))
	c, err := st.SignIn(context.Background(), hearth.ChannelWebchat, key, name, key, "Europe/Rome")
	if err != nil {
		t.Fatalf("sign in %s: %v", name, err)
	}
	return c.User.ID
}

// users gives a subtest its own two users on st.
func users(t *testing.T, st *store.Store) providerBundle {
	t.Helper()
	return providerBundle{ctx: context.Background(), st: st, alice: newUser(t, st, "Alice"), bob: newUser(t, st, "Bob")}
}

// count returns how many rows of table belong to userID, deleted or not.
func count(t *testing.T, b providerBundle, table string, userID int64) int {
	t.Helper()
	var n int
	if err := b.st.Pool().QueryRow(b.ctx, "SELECT count(*) FROM "+table+" WHERE user_id = $1", userID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// wantInvalid fails unless err is a hearth.ErrInvalid error.
func wantInvalid(t *testing.T, err error) {
	t.Helper()
	if !errors.Is(err, hearth.ErrInvalid) {
		t.Fatalf("err = %v; want a hearth.ErrInvalid error", err)
	}
}

// wantNotFound fails unless err is hearth.ErrNotFound.
func wantNotFound(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, hearth.ErrNotFound) {
		t.Fatalf("%s: err = %v; want hearth.ErrNotFound", what, err)
	}
}

func ptr[T any](v T) *T { return &v }

func titles[T any](items []T, title func(T) string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = title(it)
	}
	return out
}

func taskTitles(ts []hearth.Task) []string {
	return titles(ts, func(t hearth.Task) string { return t.Title })
}

func TestTasks(t *testing.T) {
	t.Parallel()
	st, _ := storetest.Open(t)

	t.Run("create is idempotent per key", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		first, err := b.st.CreateTask(b.ctx, "turn:1:0", hearth.Task{UserID: b.alice, Title: "Call mom", Priority: 2})
		if err != nil {
			t.Fatal(err)
		}
		if first.ID == 0 || first.Status != hearth.TaskOpen || first.CreatedAt.IsZero() {
			t.Fatalf("created %+v; want an id, status open and a creation time", first)
		}
		// The retry carries the same key; even with other content it finds
		// the first task and changes nothing.
		again, err := b.st.CreateTask(b.ctx, "turn:1:0", hearth.Task{UserID: b.alice, Title: "Something else"})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(again, first) {
			t.Fatalf("second create = %+v; want the first %+v", again, first)
		}
		if n := count(t, b, "tasks", b.alice); n != 1 {
			t.Fatalf("%d tasks; want 1", n)
		}
		// Another user's create with a used key is refused, and neither
		// sees nor changes the first user's task.
		if got, err := b.st.CreateTask(b.ctx, "turn:1:0", hearth.Task{UserID: b.bob, Title: "Call mom"}); err == nil {
			t.Fatalf("bob reused alice's key and got %+v", got)
		}
		if n := count(t, b, "tasks", b.bob); n != 0 {
			t.Fatalf("bob has %d tasks; want 0", n)
		}
	})

	t.Run("concurrent creates with one key make one task", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		ids := make([]int64, 8)
		errs := make([]error, len(ids))
		var wg sync.WaitGroup
		for i := range ids {
			wg.Go(func() {
				task, err := b.st.CreateTask(b.ctx, "turn:race:0", hearth.Task{UserID: b.alice, Title: "Race"})
				ids[i], errs[i] = task.ID, err
			})
		}
		wg.Wait()
		for i := range ids {
			if errs[i] != nil || ids[i] != ids[0] {
				t.Fatalf("create %d = %d, %v; want %d, nil", i, ids[i], errs[i], ids[0])
			}
		}
		if n := count(t, b, "tasks", b.alice); n != 1 {
			t.Fatalf("%d tasks; want 1", n)
		}
	})

	t.Run("bad input is refused and nothing is written", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		for _, tc := range []struct {
			name string
			task hearth.Task
		}{
			{"empty title", hearth.Task{UserID: b.alice, Title: "  "}},
			{"priority too high", hearth.Task{UserID: b.alice, Title: "x", Priority: 4}},
			{"negative priority", hearth.Task{UserID: b.alice, Title: "x", Priority: -1}},
			{"unknown status", hearth.Task{UserID: b.alice, Title: "x", Status: "later"}},
			{"no user", hearth.Task{Title: "x"}},
		} {
			_, err := b.st.CreateTask(b.ctx, "bad:"+tc.name, tc.task)
			wantInvalid(t, err)
		}
		if n := count(t, b, "tasks", b.alice); n != 0 {
			t.Fatalf("%d tasks written; want 0", n)
		}
		// A user that does not exist is not found, not a crash.
		_, err := b.st.CreateTask(b.ctx, "", hearth.Task{UserID: 1 << 60, Title: "ghost"})
		wantNotFound(t, "create for a missing user", err)
	})

	t.Run("update returns before and after", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		due := time.Date(2026, 3, 15, 9, 0, 0, 0, time.UTC)
		created, err := b.st.CreateTask(b.ctx, "", hearth.Task{UserID: b.alice, Title: "Pay rent", Due: due})
		if err != nil {
			t.Fatal(err)
		}
		before, after, err := b.st.UpdateTask(b.ctx, b.alice, created.ID, hearth.TaskUpdate{
			Priority: ptr(3), Status: ptr(hearth.TaskDone),
		})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(before, created) {
			t.Fatalf("before = %+v; want %+v", before, created)
		}
		if after.Priority != 3 || after.Status != hearth.TaskDone || after.CompletedAt.IsZero() || after.Title != "Pay rent" || !after.Due.Equal(due) {
			t.Fatalf("after = %+v; want priority 3, done with a completion time, title and due kept", after)
		}
		// Reopening forgets the completion; a zero Due clears the due time.
		_, reopened, err := b.st.UpdateTask(b.ctx, b.alice, created.ID, hearth.TaskUpdate{Status: ptr(hearth.TaskOpen), Due: ptr(time.Time{})})
		if err != nil {
			t.Fatal(err)
		}
		if !reopened.CompletedAt.IsZero() || !reopened.Due.IsZero() {
			t.Fatalf("reopened = %+v; want no completion and no due time", reopened)
		}
		// An empty update writes nothing.
		b1, a1, err := b.st.UpdateTask(b.ctx, b.alice, created.ID, hearth.TaskUpdate{})
		if err != nil || !reflect.DeepEqual(b1, a1) || !a1.UpdatedAt.Equal(reopened.UpdatedAt) {
			t.Fatalf("empty update = %+v, %+v, %v; want the task unchanged", b1, a1, err)
		}
		// A bad update is refused and leaves the task as it was.
		_, _, err = b.st.UpdateTask(b.ctx, b.alice, created.ID, hearth.TaskUpdate{Title: ptr(""), Priority: ptr(1)})
		wantInvalid(t, err)
		if got, _ := b.st.FindTasks(b.ctx, hearth.TaskFilter{UserID: b.alice}); len(got) != 1 || !reflect.DeepEqual(got[0], reopened) {
			t.Fatalf("after a refused update the task is %+v; want %+v", got, reopened)
		}
	})

	t.Run("completed since", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		var ids []int64
		for _, title := range []string{"Buy stamps", "Call the bank", "Pay rent"} {
			task, err := b.st.CreateTask(b.ctx, "", hearth.Task{UserID: b.alice, Title: title})
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, task.ID)
		}
		_, done, err := b.st.UpdateTask(b.ctx, b.alice, ids[0], hearth.TaskUpdate{Status: ptr(hearth.TaskDone)})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := b.st.Pool().Exec(b.ctx, `UPDATE tasks SET completed_at = now() - interval '2 days', status = 'done' WHERE id = $1`, ids[1]); err != nil {
			t.Fatal(err)
		}
		got, err := b.st.FindTasks(b.ctx, hearth.TaskFilter{UserID: b.alice, Status: hearth.TaskDone, CompletedSince: done.CompletedAt.Add(-time.Hour)})
		if err != nil || len(got) != 1 || got[0].ID != ids[0] {
			t.Fatalf("done in the last hour = %+v, %v; want only %q", got, err, "Buy stamps")
		}
		if got, _ := b.st.FindTasks(b.ctx, hearth.TaskFilter{UserID: b.alice, CompletedSince: done.CompletedAt.AddDate(0, 0, -3)}); len(got) != 2 {
			t.Fatalf("done in three days = %+v; want two, and never the open one", got)
		}
	})

	t.Run("another user's task is not found", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		bobs, err := b.st.CreateTask(b.ctx, "", hearth.Task{UserID: b.bob, Title: "Bob's secret"})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = b.st.UpdateTask(b.ctx, b.alice, bobs.ID, hearth.TaskUpdate{Title: ptr("mine now")})
		wantNotFound(t, "update", err)
		_, err = b.st.DeleteTask(b.ctx, b.alice, bobs.ID)
		wantNotFound(t, "delete", err)
		wantNotFound(t, "restore", b.st.RestoreTask(b.ctx, b.alice, bobs.ID))
		wantNotFound(t, "restore missing", b.st.RestoreTask(b.ctx, b.alice, 1<<60))
		if got, _ := b.st.FindTasks(b.ctx, hearth.TaskFilter{UserID: b.alice}); len(got) != 0 {
			t.Fatalf("alice finds %v; want nothing", taskTitles(got))
		}
		if got, _ := b.st.FindTasks(b.ctx, hearth.TaskFilter{UserID: b.bob}); len(got) != 1 || !reflect.DeepEqual(got[0], bobs) {
			t.Fatalf("bob's task is now %+v; want %+v unchanged", got, bobs)
		}
	})

	t.Run("delete is soft and restore undoes it", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		created, err := b.st.CreateTask(b.ctx, "k:del", hearth.Task{UserID: b.alice, Title: "Water plants"})
		if err != nil {
			t.Fatal(err)
		}
		deleted, err := b.st.DeleteTask(b.ctx, b.alice, created.ID)
		if err != nil || !reflect.DeepEqual(deleted, created) {
			t.Fatalf("delete = %+v, %v; want %+v", deleted, err, created)
		}
		if got, _ := b.st.FindTasks(b.ctx, hearth.TaskFilter{UserID: b.alice}); len(got) != 0 {
			t.Fatalf("deleted task still found: %v", taskTitles(got))
		}
		_, err = b.st.DeleteTask(b.ctx, b.alice, created.ID)
		wantNotFound(t, "delete twice", err)
		_, _, err = b.st.UpdateTask(b.ctx, b.alice, created.ID, hearth.TaskUpdate{Title: ptr("x")})
		wantNotFound(t, "update deleted", err)
		for range 2 { // a retried undo succeeds
			if err := b.st.RestoreTask(b.ctx, b.alice, created.ID); err != nil {
				t.Fatal(err)
			}
		}
		if got, _ := b.st.FindTasks(b.ctx, hearth.TaskFilter{UserID: b.alice}); len(got) != 1 || !reflect.DeepEqual(got[0], created) {
			t.Fatalf("restored = %+v; want %+v", got, created)
		}
	})

	t.Run("find filters and orders", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		day := func(d int) time.Time { return time.Date(2026, 3, d, 12, 0, 0, 0, time.UTC) }
		for _, task := range []hearth.Task{
			{Title: "Undated high", Priority: 3},
			{Title: "Call Mom", Due: day(10), Priority: 1},
			{Title: "Buy oat milk", Due: day(10), Priority: 3, Notes: "the barista one"},
			{Title: "Go shopping", Due: day(5)},
			{Title: "File taxes", Due: day(20), Status: hearth.TaskDone},
			{Title: "Undated low"},
		} {
			task.UserID = b.alice
			if _, err := b.st.CreateTask(b.ctx, "", task); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := b.st.CreateTask(b.ctx, "", hearth.Task{UserID: b.bob, Title: "Call mom too", Due: day(1)}); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name string
			f    hearth.TaskFilter
			want []string
		}{
			{"all, due first then priority", hearth.TaskFilter{},
				[]string{"Go shopping", "Buy oat milk", "Call Mom", "File taxes", "Undated high", "Undated low"}},
			{"open", hearth.TaskFilter{Status: hearth.TaskOpen},
				[]string{"Go shopping", "Buy oat milk", "Call Mom", "Undated high", "Undated low"}},
			{"done", hearth.TaskFilter{Status: hearth.TaskDone}, []string{"File taxes"}},
			{"due before", hearth.TaskFilter{DueBefore: day(10)}, []string{"Go shopping"}},
			{"due before with undated", hearth.TaskFilter{DueBefore: day(10), IncludeUndated: true},
				[]string{"Go shopping", "Undated high", "Undated low"}},
			{"a word of the title, any case", hearth.TaskFilter{Query: "mom"}, []string{"Call Mom"}},
			{"every word, title or notes", hearth.TaskFilter{Query: "MILK barista"}, []string{"Buy oat milk"}},
			{"not every word", hearth.TaskFilter{Query: "milk mom"}, nil},
			{"a typo, by trigrams", hearth.TaskFilter{Query: "shoping"}, []string{"Go shopping"}},
			{"LIKE characters are literal", hearth.TaskFilter{Query: "%"}, nil},
			{"limit", hearth.TaskFilter{Limit: 2}, []string{"Go shopping", "Buy oat milk"}},
		} {
			tc.f.UserID = b.alice
			got, err := b.st.FindTasks(b.ctx, tc.f)
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if names := taskTitles(got); !reflect.DeepEqual(names, tc.want) && (len(names) != 0 || len(tc.want) != 0) {
				t.Errorf("%s: got %q; want %q", tc.name, names, tc.want)
			}
		}
		_, err := b.st.FindTasks(b.ctx, hearth.TaskFilter{UserID: b.alice, Status: "someday"})
		wantInvalid(t, err)
	})

	t.Run("times come back in UTC", func(t *testing.T) {
		t.Parallel()
		b := users(t, st)
		ny, err := time.LoadLocation("America/New_York")
		if err != nil {
			t.Skip("no tzdata:", err)
		}
		due := time.Date(2026, 11, 1, 1, 30, 0, 0, ny) // in the repeated hour of the DST change
		created, err := b.st.CreateTask(b.ctx, "", hearth.Task{UserID: b.alice, Title: "Clocks", Due: due, AllDay: false})
		if err != nil {
			t.Fatal(err)
		}
		if created.Due.Location() != time.UTC || !created.Due.Equal(due) || created.CreatedAt.Location() != time.UTC {
			t.Fatalf("due = %v (created %v); want %v in UTC", created.Due, created.CreatedAt, due.UTC())
		}
	})
}
