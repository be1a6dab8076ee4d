// Package pipelinetest is the test kit for channel adapters: a real store
// on a private database, an Inbox on it (persist + enqueue, with a River
// client that only inserts), and the check that a refused request stored
// nothing.
package pipelinetest

import (
	"context"
	"testing"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"

	"github.com/hearthbot/hearth/pipeline"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

// NewInbox opens a store on dbURL (a fresh migrated database when empty)
// and returns it with an Inbox whose River client inserts jobs but works
// none, so a test sees exactly what an adapter accepted.
func NewInbox(t testing.TB, dbURL string) (*store.Store, *pipeline.Inbox) {
	t.Helper()
	if dbURL == "" {
		dbURL = storetest.NewDatabase(t)
	}
	st, err := store.Open(context.Background(), dbURL, store.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	client, err := river.NewClient(riverpgxv5.New(st.Pool()), &river.Config{SkipUnknownJobCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	return st, pipeline.NewInbox(st, client, nil)
}

// AssertNothingStored fails the test unless the database at dbURL holds
// no inbound event and no job: what a request answered with 503 (or any
// refusal) must leave behind.
func AssertNothingStored(t testing.TB, dbURL string) {
	t.Helper()
	direct, err := store.Open(context.Background(), dbURL, store.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer direct.Close()
	var events, jobs int
	err = direct.Pool().QueryRow(context.Background(),
		"SELECT (SELECT count(*) FROM inbound_events), (SELECT count(*) FROM river_job)").Scan(&events, &jobs)
	if err != nil {
		t.Fatal(err)
	}
	if events != 0 || jobs != 0 {
		t.Fatalf("%d events and %d jobs stored; want none", events, jobs)
	}
}
