package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"strings"

	"github.com/hearthbot/hearth/replica"
)

// replicaID is this process's River client id: HEARTH_REPLICA_ID, or the
// host name and a random suffix, which is unique among running replicas
// (a restart is a new replica then, and its old jobs are taken over by
// the heartbeat sweep instead of being reclaimed at start).
func replicaID(cfg Config) string {
	if cfg.ReplicaID != "" {
		return cfg.ReplicaID
	}
	host, err := os.Hostname()
	if err != nil || host == "" {
		host = "hearth"
	}
	b := make([]byte, 6)
	rand.Read(b) //nolint:errcheck // crypto/rand.Read never fails (Go 1.24+)
	return strings.ReplaceAll(host, "_", "-") + "-" + hex.EncodeToString(b)
}

// openLiveness wires the replica's heartbeat, take-over sweep and fence.
func (a *App) openLiveness(id string) {
	a.Liveness = replica.New(replica.Config{
		ID: id, Store: a.Store, StaleAfter: a.Config.ReplicaStaleAfter,
		Log: a.Log.With("component", "replica"),
	})
}

// startLiveness sends the first heartbeat (so the replica's first jobs
// are not snoozed as fenced) and heartbeats until the returned stop is
// called: after River has stopped, so a long soft stop is not taken for
// death.
func (a *App) startLiveness(ctx context.Context) (stop func()) {
	if err := a.Liveness.Beat(ctx); err != nil {
		a.Log.Warn("first heartbeat failed; trying again", "error", err)
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.Liveness.Run(ctx)
	}()
	return func() { cancel(); <-done }
}
