package imports

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/fileimport"
	"github.com/hearthbot/hearth/pipeline"
)

// Buttons returns the handler of import buttons (ids starting with
// ButtonPrefix), for the commands registry: answers to questions,
// Approve and Cancel. Each click is one turn on the durable path; the
// import's state moves by conditional updates in that turn's
// transaction, so a second click of the same button changes nothing.
func (im *Importer) Buttons() commands.Handler {
	return commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
		rest, ok := strings.CutPrefix(r.Event.ButtonID, ButtonPrefix)
		if !ok {
			return pipeline.Answer{}, false, nil
		}
		idPart, verb, _ := strings.Cut(rest, ":")
		id, err := strconv.ParseInt(idPart, 10, 64)
		if err != nil {
			return pipeline.Reply("I don't recognise that button."), true, nil
		}
		s, reply, err := im.open(ctx, r.Turn, id)
		if err != nil || reply != "" {
			return s.replyOnly(reply), true, err
		}
		ans, err := s.click(ctx, verb)
		return ans, true, err
	})
}

// open loads an import for a turn: its record, plan and file. reply is
// set when the import is over (or not the user's) instead.
func (im *Importer) open(ctx context.Context, t pipeline.Turn, id int64) (*session, string, error) {
	rec, err := im.cfg.Store.Import(ctx, t.User.ID, id)
	if errors.Is(err, hearth.ErrNotFound) {
		return nil, "I can't find that import any more.", nil
	}
	if err != nil {
		return nil, "", err
	}
	if rec.State != hearth.ImportAsking && rec.State != hearth.ImportReady {
		return nil, ended(rec), nil
	}
	loc, err := pipeline.LoadTimezone(t.User.Timezone)
	if err != nil {
		return nil, "", fmt.Errorf("import %d: %w", id, err)
	}
	now := im.cfg.Now()
	s := &session{im: im, t: t, rec: rec, loc: loc, now: now, steps: rec.Steps}
	if !now.Before(rec.ExpiresAt) {
		st := im.cfg.Store
		s.writes = append(s.writes, func(ctx context.Context, tx pgx.Tx) error {
			_, err := st.EndImportTx(ctx, tx, rec.UserID, rec.ID, hearth.ImportExpired)
			return err
		})
		rec.State = hearth.ImportExpired
		return s, ended(rec), nil
	}
	if err := json.Unmarshal(rec.Plan, &s.p); err != nil {
		return nil, "", fmt.Errorf("import %d: plan: %w", id, err)
	}
	ref, err := im.cfg.Store.ImportFile(ctx, rec.EventID)
	if err != nil {
		return nil, "", fmt.Errorf("import %d: %w", id, err)
	}
	// The same bytes read the same way as when the import started.
	if s.tab, err = fileimport.Read(ref.Name, ref.Data, rec.CreatedAt); err != nil {
		return nil, "", fmt.Errorf("import %d: read again: %w", id, err)
	}
	return s, "", nil
}

// click applies one button.
func (s *session) click(ctx context.Context, verb string) (pipeline.Answer, error) {
	what, arg, _ := strings.Cut(verb, ":")
	asking := s.rec.State == hearth.ImportAsking
	stale := pipeline.Reply("That question was already answered.")
	switch what {
	case "kind":
		k := fileimport.Kind(arg)
		if !asking || s.p.KindSure || !slices.Contains([]fileimport.Kind{fileimport.People, fileimport.Tasks, fileimport.Events, fileimport.Facts}, k) {
			return stale, nil
		}
		s.p.Mapping = fileimport.UnderstandAs(s.tab, k)
		s.p.KindSure = true
		s.edit("→ " + kindLabel(k))
	case "col":
		idx, f, _ := strings.Cut(arg, ":")
		col, err := strconv.Atoi(idx)
		if err != nil || !asking || col < 0 || col >= len(s.p.Mapping.Columns) || s.p.Mapping.Columns[col].Sure() || !known(fileimport.Field(f)) {
			return stale, nil
		}
		s.setField(col, fileimport.Field(f))
		s.edit("→ " + fileimport.Field(f).Label())
	case "order":
		idx, order, _ := strings.Cut(arg, ":")
		col, err := strconv.Atoi(idx)
		if err != nil || !asking || col < 0 || col >= len(s.p.Mapping.Columns) || s.p.Mapping.Columns[col].DateOrder != fileimport.Unsure ||
			(order != fileimport.DayFirst && order != fileimport.MonthFirst) {
			return stale, nil
		}
		s.p.Mapping.Columns[col].DateOrder = order
		s.edit(map[string]string{fileimport.DayFirst: "→ day first", fileimport.MonthFirst: "→ month first"}[order])
	case "rest":
		if !asking || len(s.p.Mapping.Questions()) == 0 {
			return stale, nil
		}
		for _, c := range s.p.Mapping.Questions() {
			s.setField(c.Index, fileimport.Ignore)
		}
		s.edit("→ ignored, with the rest")
	case "match":
		if !asking || s.p.Matches != "" || (arg != "merge" && arg != "skip") {
			return stale, nil
		}
		s.p.Matches = arg
		s.edit(map[string]string{"merge": "→ update them", "skip": "→ skip them"}[arg])
	case "tier":
		n, err := strconv.Atoi(arg)
		if err != nil || !asking || s.p.Tier != 0 || n < 1 || n > 3 {
			return stale, nil
		}
		s.p.Tier = hearth.Tier(n)
		s.edit("→ chosen")
	case "approve":
		if s.rec.State != hearth.ImportReady {
			return stale, nil
		}
		return s.approve(ctx)
	case "cancel":
		s.edit("✖ Cancelled.")
		return s.clickCancel(), nil
	default:
		return pipeline.Reply("I don't recognise that button."), nil
	}
	s.rec.Steps++
	return s.step(ctx, "")
}

func known(f fileimport.Field) bool {
	if f == fileimport.Note || f == fileimport.Ignore {
		return true
	}
	for _, fs := range fileimport.KindFields {
		if slices.Contains(fs, f) {
			return true
		}
	}
	return f == fileimport.Description
}

// approve writes the import in the turn's transaction: its rows, its
// learned mapping and the edited prompt commit with the reply, or none
// of them do.
func (s *session) approve(ctx context.Context) (pipeline.Answer, error) {
	a, err := s.analyse(ctx)
	if err != nil {
		return pipeline.Answer{}, err
	}
	st, mirror, rec, batch, learned := s.im.cfg.Store, s.im.cfg.Mirror, s.rec, a.batch, s.learned()
	s.edit("✔ Approved.")
	c := hearth.ImportCounts{Tasks: len(batch.Tasks), Events: len(batch.Events), Facts: len(batch.Facts) + len(batch.FactCorrections),
		Merged: len(batch.TaskMerges) + len(batch.EventMerges) + len(batch.FactCorrections)}
	text := fmt.Sprintf("Imported from %s: %s. Say “undo the import” to take it all back.", fileName(rec.FileName), countWords(c))
	ans := pipeline.Answer{Replies: []hearth.Outbound{{Text: text}}, Writes: s.writes}
	ans.Add(func(ctx context.Context, tx pgx.Tx) error {
		if _, err := st.CommitImportTx(ctx, tx, rec.UserID, rec.ID, s.now, batch); err != nil {
			return err
		}
		if mirror != nil && len(batch.Events) > 0 {
			if err := mirror.ImportedTx(ctx, tx, rec.UserID, rec.ID); err != nil {
				return err
			}
		}
		return st.SaveMappingTx(ctx, tx, rec.UserID, rec.Signature, learned)
	})
	return ans, nil
}

// replyOnly answers with text and the writes gathered so far (an expiry);
// s may be nil.
func (s *session) replyOnly(text string) pipeline.Answer {
	ans := pipeline.Reply(text)
	if s != nil {
		ans.Writes = s.writes
	}
	return ans
}

// clickCancel ends the import, cancelled.
func (s *session) clickCancel() pipeline.Answer {
	st, rec := s.im.cfg.Store, s.rec
	ans := pipeline.Answer{Replies: []hearth.Outbound{{Text: fmt.Sprintf("Okay, I cancelled the import of %s. Nothing was written.", fileName(rec.FileName))}}, Writes: s.writes}
	ans.Add(func(ctx context.Context, tx pgx.Tx) error {
		_, err := st.EndImportTx(ctx, tx, rec.UserID, rec.ID, hearth.ImportCancelled)
		return err
	})
	return ans
}

// edit closes the clicked prompt's buttons, showing the outcome, in the
// turn's transaction.
func (s *session) edit(outcome string) {
	st, conv, button, version := s.im.cfg.Store, s.t.Event.ConversationID, s.t.Event.ButtonID, s.t.Event.ID
	s.writes = append(s.writes, func(ctx context.Context, tx pgx.Tx) error {
		ids, err := st.EditMessageWithButtonTx(ctx, tx, conv, button, outcome)
		if err != nil {
			return err
		}
		return pipeline.EnqueueEdits(ctx, tx, ids, version)
	})
}
