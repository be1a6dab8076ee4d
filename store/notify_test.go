package store_test

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

// noticeCounter counts the statements that send notices.
type noticeCounter struct{ n atomic.Int64 }

func (c *noticeCounter) TraceQueryStart(ctx context.Context, _ *pgx.Conn, d pgx.TraceQueryStartData) context.Context {
	if strings.Contains(d.SQL, "pg_notify") {
		c.n.Add(1)
	}
	return ctx
}

func (c *noticeCounter) TraceQueryEnd(context.Context, *pgx.Conn, pgx.TraceQueryEndData) {}

// Notices sent together reach a listener, each conversation's, in fewer
// statements than notices; those waiting when the store closes are sent.
func TestNoticesTravelTogether(t *testing.T) {
	t.Parallel()
	_, url := storetest.Open(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var sent noticeCounter
	st, err := store.Open(ctx, url, store.Config{Tracer: &sent})
	if err != nil {
		t.Fatal(err)
	}
	listener, err := store.Open(ctx, url, store.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer listener.Close()

	var mu sync.Mutex
	told := map[string]bool{}
	ready := make(chan struct{}, 1)
	changed := make(chan struct{}, 1)
	lctx, stop := context.WithCancel(ctx)
	defer stop()
	go listener.Listen(lctx, store.NotifyChannel, nil, func(payload string) { //nolint:errcheck // returns at stop
		if payload == "" {
			select {
			case ready <- struct{}{}:
			default:
			}
			return
		}
		mu.Lock()
		told[payload] = true
		mu.Unlock()
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	select {
	case <-ready:
	case <-ctx.Done():
		t.Fatal("the listener never connected")
	}

	const convs = 40
	var wg sync.WaitGroup
	for i := range convs {
		wg.Go(func() {
			for range 2 { // a conversation told twice is one notice
				if err := st.NotifyConversation(ctx, int64(1000+i)); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	st.Close() // sends what waits
	if err := st.NotifyConversation(ctx, 1); err == nil {
		t.Error("a notice to a closed store was taken")
	}
	if n := sent.n.Load(); n == 0 || n >= convs {
		t.Errorf("%d notices went in %d statements, want fewer statements than notices", convs, n)
	}
	for {
		mu.Lock()
		got := len(told)
		mu.Unlock()
		if got == convs {
			break
		}
		select {
		case <-changed:
		case <-ctx.Done():
			t.Fatalf("%d of %d conversations told", got, convs)
		}
	}
	for i := range convs {
		if !told[strconv.Itoa(1000+i)] {
			t.Errorf("conversation %d not told", 1000+i)
		}
	}
}
