package store_test

import (
	"context"
	"strconv"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store/storetest"
)

// BenchmarkEntityNames measures the question every message asks
// (which of the sender's people and things it names) for a sender with
// 500 entities, in a database of HEARTH_BENCH_USERS such senders (default
// 20; 100 is 50,000 entities), each entity with a nickname and a "my ..."
// alias, and an action's lookup of one of them by an alias and its
// saving of one told about again by an alias. Run it with
//
//	HEARTH_BENCH_USERS=100 go test -run NONE -bench EntityNames ./store/
func BenchmarkEntityNames(b *testing.B) {
	users := benchSize("HEARTH_BENCH_USERS", 20)
	ctx := context.Background()
	st, _ := storetest.Open(b)
	if _, err := st.Pool().Exec(ctx, `
		WITH u AS (
			INSERT INTO users (display_name, timezone) SELECT 'user ' || g, 'UTC' FROM generate_series(1, $1) g RETURNING id
		), e AS (
			INSERT INTO entities (user_id, kind, name, tier)
			SELECT u.id, 'person', 'Person ' || u.id || '-' || g, 4 FROM u, generate_series(1, 500) g RETURNING id
		)
		INSERT INTO entity_aliases (entity_id, alias)
		SELECT id, 'nick' || id FROM e UNION ALL SELECT id, 'my friend ' || id FROM e`, users); err != nil {
		b.Fatal(err)
	}
	if _, err := st.Pool().Exec(ctx, `ANALYZE`); err != nil {
		b.Fatal(err)
	}
	var uid, named int64
	if err := st.Pool().QueryRow(ctx, `SELECT user_id, max(id) FROM entities GROUP BY user_id ORDER BY user_id LIMIT 1`).Scan(&uid, &named); err != nil {
		b.Fatal(err)
	}
	text := "Hi! Is my friend " + strconv.FormatInt(named, 10) + " coming to my party on Friday?"
	b.Run("mentions", func(b *testing.B) {
		for b.Loop() {
			ids, err := st.MentionedEntities(ctx, uid, text)
			if err != nil || len(ids) != 1 || ids[0] != named {
				b.Fatalf("mentioned %v, %v; want [%d]", ids, err, named)
			}
		}
	})
	// "my friend N" by an alias: what an action naming a person looks up.
	// Telling about "my friend N" again: saving finds the entity by alias.
	b.Run("save-by-alias", func(b *testing.B) {
		for b.Loop() {
			e, err := st.SaveEntity(ctx, hearth.Entity{UserID: uid, Name: "my friend " + strconv.FormatInt(named, 10)})
			if err != nil || e.ID != named {
				b.Fatalf("saved %v, %v; want %d", e, err, named)
			}
		}
	})
	b.Run("find-by-alias", func(b *testing.B) {
		for b.Loop() {
			es, err := st.FindEntities(ctx, hearth.EntityFilter{UserID: uid, Name: "my friend " + strconv.FormatInt(named, 10)})
			if err != nil || len(es) != 1 || es[0].ID != named {
				b.Fatalf("found %v, %v; want %d", es, err, named)
			}
		}
	})
}
