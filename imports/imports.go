// Package imports is the conversation that brings a file in: a file sent
// in any channel is read and understood (package fileimport), the
// columns it is unsure of become questions with buttons, a summary says
// what will be created, merged and skipped, and only Approve writes it,
// in one transaction, every row tagged with the import so "undo the
// import" removes exactly that. The confirmed mapping is learned per
// person and file layout and proposed next time.
//
// An import waits between its steps: anything else the user says in the
// meantime is an ordinary message, and the import goes on when one of
// its buttons is pressed or the user says "continue the import". It
// expires after TTL, and asks at most MaxSteps questions.
package imports

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/fileimport"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/pipeline"
)

// ButtonPrefix starts the id of every import button; the commands
// registry routes clicks on them here.
const ButtonPrefix = "import:"

// Store is what imports keep in the database.
type Store interface {
	ImportFile(ctx context.Context, eventID int64) (hearth.FileRef, error)
	SetImportFileContent(ctx context.Context, eventID int64, data []byte) error
	CreateImport(ctx context.Context, im hearth.Import) (hearth.Import, error)
	Import(ctx context.Context, userID, id int64) (hearth.Import, error)
	OpenImport(ctx context.Context, conversationID, userID int64) (hearth.Import, bool, error)
	LastImport(ctx context.Context, userID int64) (hearth.Import, bool, error)
	SaveImportTx(ctx context.Context, tx pgx.Tx, im hearth.Import, steps int) (bool, error)
	EndImportTx(ctx context.Context, tx pgx.Tx, userID, id int64, state hearth.ImportState) (bool, error)
	ImportExisting(ctx context.Context, userID int64, titles, abouts []string) (hearth.ImportExisting, error)
	CommitImportTx(ctx context.Context, tx pgx.Tx, userID, importID int64, now time.Time, b hearth.ImportBatch) (hearth.ImportCounts, error)
	UndoImport(ctx context.Context, userID, importID int64) (hearth.ImportCounts, error)
	LearnedMapping(ctx context.Context, userID int64, signature string) (json.RawMessage, bool, error)
	SaveMappingTx(ctx context.Context, tx pgx.Tx, userID int64, signature string, mapping json.RawMessage) error
	ForgetMappings(ctx context.Context, userID int64) (int, error)
	EditMessageWithButtonTx(ctx context.Context, tx pgx.Tx, conversationID int64, buttonID, text string) ([]int64, error)
	// SaveTraceTx leaves a file turn's trace, as other turns leave
	// theirs, so `bot turns tail` shows imports too.
	SaveTraceTx(ctx context.Context, tx pgx.Tx, t hearth.Trace) error
}

// Mirror copies imported events to an outside calendar (Google) after
// the commit: each method enqueues, in the import's or the undo's own
// transaction, the jobs that do it.
type Mirror interface {
	ImportedTx(ctx context.Context, tx pgx.Tx, userID, importID int64) error
	UndoneTx(ctx context.Context, tx pgx.Tx, userID, importID int64) error
}

// Config is what an Importer needs. Store is required.
type Config struct {
	Store Store
	// Mirror, when set, sends the events of each import to the user's
	// outside calendar and takes them back on undo.
	Mirror Mirror
	// Fetcher returns the downloader of a channel whose files arrive as
	// references (Telegram, Slack); voice notes download the same way.
	Fetcher func(hearth.Channel) (pipeline.AudioFetcher, bool)
	// Now is the clock. Defaults to time.Now.
	Now func() time.Time
	// TTL is how long an import waits for its answers and approval.
	// Defaults to 24 hours.
	TTL time.Duration
	// MaxSteps is how many questions one import asks at most; the
	// columns still unsure after that are left out. Defaults to 25.
	MaxSteps int
}

// Importer runs imports. Its Files step answers file turns, Buttons its
// clicks, and Commands its chat commands.
type Importer struct{ cfg Config }

// New returns an Importer.
func New(cfg Config) *Importer {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.TTL <= 0 {
		cfg.TTL = 24 * time.Hour
	}
	if cfg.MaxSteps <= 0 {
		cfg.MaxSteps = 25
	}
	return &Importer{cfg: cfg}
}

// Files returns the pipeline step that starts an import for every file
// event and passes every other turn to next. The file is downloaded in
// the turn (ingress stored only where it is) and kept with the event, so
// a retried turn reads the same bytes.
func (im *Importer) Files(next pipeline.Handler) pipeline.Handler {
	return pipeline.HandlerFunc(func(ctx context.Context, t pipeline.Turn) (pipeline.Answer, error) {
		if t.Event.Kind != hearth.KindFile {
			return next.HandleTurn(ctx, t)
		}
		began := time.Now()
		ans, err := im.start(ctx, t)
		if err == nil {
			im.trace(&ans, t, began)
		}
		return ans, err
	})
}

// trace adds a file turn's trace to its unit of work.
func (im *Importer) trace(a *pipeline.Answer, t pipeline.Turn, start time.Time) {
	st := im.cfg.Store
	tr := hearth.Trace{
		EventID: t.Event.ID, ConversationID: t.Event.ConversationID, UserID: t.User.ID,
		Intent: "import", Domains: []string{"import"}, Confidence: 1,
		Timings: map[string]int64{"total": time.Since(start).Microseconds()}, Actions: []hearth.TraceAction{},
	}
	a.Add(func(ctx context.Context, tx pgx.Tx) error { return st.SaveTraceTx(ctx, tx, tr) })
}

// start reads a file event's file and starts (or, for a retried turn,
// resumes) its import.
func (im *Importer) start(ctx context.Context, t pipeline.Turn) (pipeline.Answer, error) {
	loc, err := pipeline.LoadTimezone(t.User.Timezone)
	if err != nil {
		return pipeline.Answer{}, fmt.Errorf("import: %w", err)
	}
	ref, data, reply, err := im.file(ctx, t)
	if err != nil || reply != "" {
		return pipeline.Reply(reply), err
	}
	now := im.cfg.Now()
	tab, err := fileimport.Read(ref.Name, data, now)
	if errors.Is(err, hearth.ErrInvalid) {
		return pipeline.Reply(fmt.Sprintf("I couldn't import %s: %s. Nothing was changed.", fileName(ref.Name), hearth.ErrorMessage(err))), nil
	}
	if err != nil {
		return pipeline.Answer{}, fmt.Errorf("import: read: %w", err)
	}
	var learned *fileimport.Learned
	raw, ok, err := im.cfg.Store.LearnedMapping(ctx, t.User.ID, fileimport.Signature(tab))
	if err != nil {
		return pipeline.Answer{}, err
	}
	if ok {
		learned = &fileimport.Learned{}
		if json.Unmarshal(raw, learned) != nil {
			learned = nil
		}
	}
	m := fileimport.Understand(tab, learned)
	p := plan{Mapping: m, KindSure: m.KindConfidence >= 0.6 || learned != nil, Learned: learned != nil}
	body, err := json.Marshal(p)
	if err != nil {
		return pipeline.Answer{}, err
	}
	rec, err := im.cfg.Store.CreateImport(ctx, hearth.Import{
		UserID: t.User.ID, ConversationID: t.Event.ConversationID, EventID: t.Event.ID,
		FileName: ref.Name, Signature: m.Signature, Plan: body, State: hearth.ImportAsking,
		ExpiresAt: now.Add(im.cfg.TTL),
	})
	if err != nil {
		return pipeline.Answer{}, err
	}
	if rec.State != hearth.ImportAsking && rec.State != hearth.ImportReady {
		return pipeline.Reply(ended(rec)), nil
	}
	s := &session{im: im, t: t, rec: rec, loc: loc, now: now, tab: tab, steps: rec.Steps}
	if err := json.Unmarshal(rec.Plan, &s.p); err != nil {
		return pipeline.Answer{}, fmt.Errorf("import %d: plan: %w", rec.ID, err)
	}
	return s.step(ctx, intro(tab, s.p))
}

// file returns the event's file, downloading and keeping it when only
// its reference came with the event; reply is set (and err nil) when the
// user must be told why it can't be read.
func (im *Importer) file(ctx context.Context, t pipeline.Turn) (hearth.FileRef, []byte, string, error) {
	ref, err := im.cfg.Store.ImportFile(ctx, t.Event.ID)
	if err != nil {
		return ref, nil, "", fmt.Errorf("import: %w", err)
	}
	if ref.Data != nil {
		return ref, ref.Data, "", nil
	}
	tooBig := fmt.Sprintf("%s is larger than %d MB, more than I can import at once. Could you split it into smaller files?", fileName(ref.Name), fileimport.MaxBytes>>20)
	if ref.Size > fileimport.MaxBytes {
		return ref, nil, tooBig, nil
	}
	var f pipeline.AudioFetcher
	if im.cfg.Fetcher != nil {
		f, _ = im.cfg.Fetcher(t.Event.Channel)
	}
	if f == nil {
		return ref, nil, "I can't download files from this chat. Could you upload it in the web chat?", nil
	}
	got, err := f.FetchAudio(ctx, hearth.AudioRef{FileID: ref.FileID, URL: ref.URL, Size: ref.Size, MIME: ref.MIME, Name: ref.Name}, fileimport.MaxBytes)
	switch {
	case errors.Is(err, pipeline.ErrAudioTooLarge):
		return ref, nil, tooBig, nil
	case errors.Is(err, hearth.ErrPermanent), errors.Is(err, hearth.ErrNotFound):
		return ref, nil, fmt.Sprintf("I couldn't download %s (it may have been deleted, or I may not be allowed to read it). Could you send it again?", fileName(ref.Name)), nil
	case err != nil:
		return ref, nil, "", fmt.Errorf("import: download: %w", err)
	}
	if err := im.cfg.Store.SetImportFileContent(ctx, t.Event.ID, got.Data); err != nil {
		return ref, nil, "", err
	}
	return ref, got.Data, "", nil
}

func fileName(name string) string {
	if name == "" {
		return "that file"
	}
	return "“" + markdown.Escape(name) + "”"
}

// ended is the answer about an import that is over.
func ended(rec hearth.Import) string {
	switch rec.State {
	case hearth.ImportCommitted:
		return fmt.Sprintf("%s is already imported: %s. Say “undo the import” to take it back.", fileName(rec.FileName), countWords(rec.Counts))
	case hearth.ImportCancelled:
		return fmt.Sprintf("The import of %s was cancelled; nothing was written. Send the file again to start over.", fileName(rec.FileName))
	case hearth.ImportExpired:
		return fmt.Sprintf("The import of %s expired before it was approved; nothing was written. Send the file again to start over.", fileName(rec.FileName))
	case hearth.ImportUndone:
		return fmt.Sprintf("The import of %s was undone. Send the file again to import it anew.", fileName(rec.FileName))
	}
	return "That import is over."
}
