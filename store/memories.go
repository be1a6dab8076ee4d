package store

import (
	"context"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// The built-in memories: facts a user told Hearth, each scoped to that
// user. The family-aware memory graph (tiers, entities, embeddings) is a
// separate, richer store; these are the offline default behind
// action.Memories.

const memoryColumns = `id, user_id, content, about, category, created_at, updated_at`

func scanMemory(row pgx.Row) (hearth.Memory, error) {
	var m hearth.Memory
	var category string
	err := row.Scan(&m.ID, &m.UserID, &m.Content, &m.About, &category, &m.CreatedAt, &m.UpdatedAt)
	m.Category = hearth.MemoryCategory(category)
	m.CreatedAt, m.UpdatedAt = m.CreatedAt.UTC(), m.UpdatedAt.UTC()
	return m, err
}

// StoreMemory remembers m for m.UserID. An empty category is personal. A
// second call with the same key returns the memory the first one stored
// and changes nothing.
func (s *Store) StoreMemory(ctx context.Context, key string, m hearth.Memory) (hearth.Memory, error) {
	m.Content, m.About = strings.TrimSpace(m.Content), strings.TrimSpace(m.About)
	if m.Category == "" {
		m.Category = hearth.MemoryPersonal
	}
	var err error
	switch {
	case m.UserID <= 0:
		err = hearth.Invalidf("a memory needs a user")
	case m.Content == "":
		err = hearth.Invalidf("there is nothing to remember")
	case m.Category != hearth.MemoryPersonal && m.Category != hearth.MemoryWork && m.Category != hearth.MemoryKnowledge:
		err = hearth.Invalidf("memory category must be %q, %q or %q, not %q",
			hearth.MemoryPersonal, hearth.MemoryWork, hearth.MemoryKnowledge, m.Category)
	}
	if err != nil {
		return hearth.Memory{}, fmt.Errorf("store store memory: %w", err)
	}
	created, err := createOnce(ctx, s, "memories", memoryColumns, scanMemory, key, m.UserID, `
		INSERT INTO memories (source_key, user_id, content, about, category)
		VALUES ($1, $2, $3, $4, $5)
		ON CONFLICT (source_key) DO NOTHING
		RETURNING `+memoryColumns,
		keyArg(key), m.UserID, m.Content, m.About, string(m.Category))
	if err != nil {
		return hearth.Memory{}, fmt.Errorf("store store memory: %w", err)
	}
	return created, nil
}

// UpdateMemory replaces what a memory says and returns it before and
// after, read and written in one transaction.
func (s *Store) UpdateMemory(ctx context.Context, userID, id int64, content string) (before, after hearth.Memory, err error) {
	content = strings.TrimSpace(content)
	if content == "" {
		return hearth.Memory{}, hearth.Memory{}, fmt.Errorf("store update memory %d: %w", id, hearth.Invalidf("there is nothing to remember"))
	}
	err = s.inTx(ctx, func(tx pgx.Tx) error {
		before, err = scanMemory(tx.QueryRow(ctx, `SELECT `+memoryColumns+` FROM memories
			WHERE id = $1 AND user_id = $2 AND deleted_at IS NULL FOR UPDATE`, id, userID))
		if err != nil {
			return notFound(err, "memory", id)
		}
		if content == before.Content {
			after = before
			return nil
		}
		after, err = scanMemory(tx.QueryRow(ctx, `
			UPDATE memories SET content = $2, updated_at = now()
			WHERE id = $1
			RETURNING `+memoryColumns, id, content))
		return err
	})
	if err != nil {
		return hearth.Memory{}, hearth.Memory{}, fmt.Errorf("store update memory %d: %w", id, err)
	}
	return before, after, nil
}

// ForgetMemory deletes a memory softly and returns it; RestoreMemory
// undoes it.
func (s *Store) ForgetMemory(ctx context.Context, userID, id int64) (hearth.Memory, error) {
	m, err := softDelete(ctx, s, "memories", memoryColumns, scanMemory, userID, id)
	if err != nil {
		return hearth.Memory{}, fmt.Errorf("store forget memory %d: %w", id, err)
	}
	return m, nil
}

// RestoreMemory brings back a forgotten memory. Restoring a memory that is
// not forgotten does nothing, so a retried undo succeeds.
func (s *Store) RestoreMemory(ctx context.Context, userID, id int64) error {
	if err := restore(ctx, s, "memories", userID, id); err != nil {
		return fmt.Errorf("store restore memory %d: %w", id, err)
	}
	return nil
}

// FindMemories returns a user's memories matching f, best first.
//
// Query is full-text search over content and about (websearch syntax:
// "John birthday", "\"March 15\"", "-work"), without stemming, so names
// match as written. A memory whose about is found, by trigram similarity,
// inside the query also matches: "When is John's birthday?" finds what
// Hearth knows about John even though no memory contains "when" (and a
// memory about a subject the query names matches even when the query
// excludes one of its words: "john -birthday" still finds memories about
// John). About
// matches the subject loosely ("john" finds "John"). Without either, the
// newest come first. Limit defaults to DefaultLimit and is capped at
// MaxLimit.
func (s *Store) FindMemories(ctx context.Context, f hearth.MemoryFilter) ([]hearth.Memory, error) {
	if f.UserID <= 0 {
		return nil, fmt.Errorf("store find memories: %w", hearth.Invalidf("a memory search needs a user"))
	}
	var w where
	w.add("user_id = " + w.arg(f.UserID))
	w.add("deleted_at IS NULL")
	var rank []string
	if q := strings.TrimSpace(f.Query); q != "" {
		p := w.arg(q)
		tsq := "websearch_to_tsquery('simple', " + p + ")"
		// about <% query: about is similar to some run of words in the
		// query. An empty about has no trigrams and never matches.
		w.add("(search @@ " + tsq + " OR about <% " + p + ")")
		rank = append(rank, "ts_rank(search, "+tsq+")", "word_similarity(about, "+p+")")
	}
	if a := strings.TrimSpace(f.About); a != "" {
		p := w.arg(a)
		w.add("(about ILIKE " + w.arg("%"+likeEscaper.Replace(a)+"%") + " OR about % " + p + ")")
		rank = append(rank, "similarity(about, "+p+")")
	}
	order := "created_at DESC, id DESC"
	if len(rank) > 0 {
		order = "(" + strings.Join(rank, " + ") + ") DESC, " + order
	}
	rows, err := s.pool.Query(ctx, `SELECT `+memoryColumns+` FROM memories WHERE `+w.String()+`
		ORDER BY `+order+`
		LIMIT `+w.arg(limitOf(f.Limit)), w.args...)
	if err != nil {
		return nil, fmt.Errorf("store find memories: %w", translate(err))
	}
	memories, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (hearth.Memory, error) { return scanMemory(r) })
	if err != nil {
		return nil, fmt.Errorf("store find memories: %w", translate(err))
	}
	return memories, nil
}
