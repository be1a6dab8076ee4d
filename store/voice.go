package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
)

// voiceLine is a voice note's line in the transcript until it is
// transcribed; SetTranscript replaces it with the words.
const voiceLine = "(voice note)"

// transcriptLine is the user's line in the transcript for an inbound
// message or voice note.
func transcriptLine(in hearth.Inbound) string {
	switch in.Kind {
	case hearth.KindVoice:
		return voiceLine
	case hearth.KindCommand:
		return "/" + in.Text
	case hearth.KindFile:
		return fileLine(in)
	}
	return in.Text
}

// insertVoiceNote stores a voice note's audio reference with its event,
// inside the ingress transaction.
func insertVoiceNote(ctx context.Context, tx pgx.Tx, eventID int64, ref *hearth.AudioRef) error {
	if ref == nil {
		return hearth.Invalidf("a voice note needs its audio reference")
	}
	_, err := tx.Exec(ctx, `
		INSERT INTO voice_notes (event_id, file_id, url, size_bytes, mime_type, file_name, duration_secs)
		VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		eventID, ref.FileID, ref.URL, ref.Size, ref.MIME, ref.Name, ref.Duration)
	if err != nil {
		return fmt.Errorf("insert voice note: %w", err)
	}
	return nil
}

// VoiceNote returns a voice note event's audio reference and its
// transcript ("" until one is stored). An event without a voice note is
// hearth.ErrNotFound.
func (s *Store) VoiceNote(ctx context.Context, eventID int64) (hearth.AudioRef, string, error) {
	var ref hearth.AudioRef
	var transcript *string
	err := s.pool.QueryRow(ctx, `
		SELECT file_id, url, size_bytes, mime_type, file_name, duration_secs, transcript
		FROM voice_notes WHERE event_id = $1`, eventID).
		Scan(&ref.FileID, &ref.URL, &ref.Size, &ref.MIME, &ref.Name, &ref.Duration, &transcript)
	if errors.Is(err, pgx.ErrNoRows) {
		return ref, "", fmt.Errorf("store voice note %d: %w", eventID, hearth.ErrNotFound)
	}
	if err != nil {
		return ref, "", fmt.Errorf("store voice note %d: %w", eventID, translate(err))
	}
	if transcript != nil {
		return ref, *transcript, nil
	}
	return ref, "", nil
}

// SetTranscript stores what was heard in a voice note, and makes it the
// text of the event and of the user's line in the transcript, in one
// transaction, so history and context read the words.
func (s *Store) SetTranscript(ctx context.Context, eventID int64, text string) error {
	err := s.inTx(ctx, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `
			UPDATE voice_notes SET transcript = $2, transcribed_at = now() WHERE event_id = $1`, eventID, text)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return hearth.ErrNotFound
		}
		if _, err := tx.Exec(ctx, `UPDATE inbound_events SET text = $2 WHERE id = $1`, eventID, text); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `
			UPDATE messages SET text = $2 WHERE inbound_event_id = $1 AND sender = 'user'`, eventID, text)
		return err
	})
	if err != nil {
		return fmt.Errorf("store set transcript of event %d: %w", eventID, translate(err))
	}
	return nil
}
