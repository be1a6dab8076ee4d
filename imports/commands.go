package imports

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/pipeline"
)

// The phrasings of the import commands, after commands.Normalise.
var (
	undoImportWords   = []string{"undo the import", "undo my import", "undo the last import", "undo import", "take back the import", "remove the import"}
	forgetWords       = []string{"forget my import settings", "forget import settings", "forget my import mappings", "reset my import settings"}
	continueWords     = []string{"continue the import", "continue import", "continue my import", "resume the import", "go on with the import"}
	cancelImportWords = []string{"cancel the import", "cancel import", "stop the import"}
)

// Commands returns the import commands for the registry: undo the last
// import, forget the learned mappings, continue or cancel the open one.
func (im *Importer) Commands() []commands.Command {
	match := func(words []string) func(string) bool {
		return func(norm string) bool { return slices.Contains(words, norm) }
	}
	return []commands.Command{{
		Name: "import", NeedsZone: true,
		Help:     "send me a file (CSV, Excel, contacts .vcf, calendar .ics) to import it; continue, cancel or undo an import",
		Examples: append(append([]string{}, continueWords...), append(cancelImportWords, undoImportWords...)...),
		Match:    match(append(append(append([]string{}, continueWords...), cancelImportWords...), undoImportWords...)),
		Handler: commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
			switch {
			case slices.Contains(undoImportWords, r.Norm):
				return im.undo(ctx, r)
			case slices.Contains(cancelImportWords, r.Norm):
				return im.cancelOpen(ctx, r)
			}
			return im.resume(ctx, r)
		}),
	}, {
		Name: "forget_imports", NeedsZone: true,
		Help:     "forget how I mapped the columns of your earlier imports",
		Examples: forgetWords,
		Match:    match(forgetWords),
		Handler: commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
			n, err := im.cfg.Store.ForgetMappings(ctx, r.User.ID)
			if err != nil {
				return pipeline.Answer{}, false, err
			}
			if n == 0 {
				return pipeline.Reply("I had no import settings saved for you."), true, nil
			}
			return pipeline.Reply(fmt.Sprintf("Done: I forgot how to read %d kind%s of file. Next time I'll work the columns out afresh.", n, plural(n, "", "s"))), true, nil
		}),
	}}
}

func (im *Importer) undo(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
	rec, ok, err := im.cfg.Store.LastImport(ctx, r.User.ID)
	if err != nil {
		return pipeline.Answer{}, false, err
	}
	if !ok {
		return pipeline.Reply("There's no import to undo."), true, nil
	}
	c, err := im.cfg.Store.UndoImport(ctx, r.User.ID, rec.ID)
	if errors.Is(err, hearth.ErrConflict) {
		return pipeline.Reply("That import was already undone."), true, nil
	}
	if err != nil {
		return pipeline.Answer{}, false, err
	}
	ans := pipeline.Reply(fmt.Sprintf("Undone: the import of %s is taken back (%s removed or restored).", fileName(rec.FileName), countWords(c)))
	if m := im.cfg.Mirror; m != nil && c.Events > 0 {
		ans.Add(func(ctx context.Context, tx pgx.Tx) error { return m.UndoneTx(ctx, tx, rec.UserID, rec.ID) })
	}
	return ans, true, nil
}

// resume asks the open import's current question again.
func (im *Importer) resume(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
	rec, ok, err := im.cfg.Store.OpenImport(ctx, r.Event.ConversationID, r.User.ID)
	if err != nil {
		return pipeline.Answer{}, false, err
	}
	if !ok {
		return pipeline.Reply("There's no import waiting. Send me a file to start one."), true, nil
	}
	s, reply, err := im.open(ctx, r.Turn, rec.ID)
	if err != nil || reply != "" {
		return s.replyOnly(reply), true, err
	}
	ans, err := s.step(ctx, fmt.Sprintf("Back to %s.", fileName(rec.FileName)))
	return ans, true, err
}

func (im *Importer) cancelOpen(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
	rec, ok, err := im.cfg.Store.OpenImport(ctx, r.Event.ConversationID, r.User.ID)
	if err != nil {
		return pipeline.Answer{}, false, err
	}
	if !ok {
		return pipeline.Reply("There's no import waiting."), true, nil
	}
	s := &session{im: im, t: r.Turn, rec: rec}
	return s.clickCancel(), true, nil
}
