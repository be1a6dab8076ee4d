package google

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	keep "google.golang.org/api/keep/v1"
	"google.golang.org/api/option"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
)

// ScopeKeep lets Hearth create, list and delete the user's Keep notes.
const ScopeKeep = keep.KeepScope

// KeepScopes are the scopes "connect keep" asks for (on top of those
// granted before).
var KeepScopes = []string{ScopeOpenID, ScopeEmail, ScopeCalendar, ScopeKeep}

// keepRecheck is how long a refusal of the Keep API is believed before
// asking again (an administrator may enable it).
const keepRecheck = 24 * time.Hour

// Words the reply uses for where a note went.
const (
	inKeep       = "in Google Keep"
	keepRecreate = "in Google Keep (Keep can't change a note in place, so I replaced it with an updated copy; nothing else changed)"
	notInKeep    = "in Hearth's notes, because your Google account doesn't offer the Keep API (only Google Workspace accounts do)"
)

// NoteStore is what the Keep provider keeps in Hearth's database: the
// built-in notes (the local copy every reader uses) and the links to
// Keep.
type NoteStore interface {
	action.Notes
	SetKeepNote(ctx context.Context, userID, noteID int64, name string) error
	KeepNote(ctx context.Context, userID, noteID int64) (string, error)
	KeepLinks(ctx context.Context, userID int64) (map[string]int64, error)
	KeepAvailable(ctx context.Context, userID int64) (available, known bool, checkedAt time.Time, err error)
	SetKeepAvailable(ctx context.Context, userID int64, available bool) error
}

// Notes is the notes provider that routes by user: where the account has
// the Keep API (Google Workspace) and the user granted Keep, notes and
// lists go to Keep as well as to Hearth's notes (which every reader
// uses); elsewhere, and for family lists always, Hearth's notes alone.
// The result's Where says which.
type Notes struct {
	g  *Google
	st NoteStore
}

var _ action.Notes = (*Notes)(nil)

// Notes returns the routing notes provider over st.
func (g *Google) Notes(st NoteStore) *Notes { return &Notes{g: g, st: st} }

// keepFor returns the Keep API as the user, or nil (with why, for the
// reply) when notes stay in Hearth.
func (k *Notes) keepFor(ctx context.Context, userID int64) (*keep.Service, string, error) {
	a, err := k.g.active(ctx, userID)
	if errors.Is(err, errNotConnected) {
		return nil, "", nil
	}
	if err != nil || !hasScope(a.Scopes, ScopeKeep) {
		return nil, "", err
	}
	ok, known, checked, err := k.st.KeepAvailable(ctx, userID)
	if err != nil {
		return nil, "", err
	}
	if known && !ok && k.g.cfg.Now().Sub(checked) < keepRecheck {
		return nil, notInKeep, nil
	}
	hc, err := k.g.httpClient(a)
	if err != nil {
		return nil, "", err
	}
	opts := []option.ClientOption{option.WithHTTPClient(hc)}
	if k.g.ends.API != "" {
		opts = append(opts, option.WithEndpoint(k.g.ends.API))
	}
	svc, err := keep.NewService(ctx, opts...)
	if err != nil {
		return nil, "", fmt.Errorf("keep client: %w", err)
	}
	return svc, "", nil
}

// refused reports whether Keep's answer means the account has no Keep
// API (a consumer account, or the API disabled), and remembers it.
func (k *Notes) refused(ctx context.Context, userID int64, err error) (bool, error) {
	if s := statusOf(err); s != http.StatusForbidden && s != http.StatusNotFound {
		return false, nil
	}
	k.g.cfg.Log.InfoContext(ctx, "the Keep API refused; notes stay in Hearth", "user", userID, "status", statusOf(err))
	return true, k.st.SetKeepAvailable(ctx, userID, false)
}

func toKeep(n hearth.Note) *keep.Note {
	out := &keep.Note{Title: n.Title, Body: &keep.Section{}}
	if len(n.Items) > 0 {
		list := &keep.ListContent{}
		for _, it := range n.Items {
			list.ListItems = append(list.ListItems, &keep.ListItem{Text: &keep.TextContent{Text: it.Text}, Checked: it.Done})
		}
		out.Body.List = list
	} else {
		out.Body.Text = &keep.TextContent{Text: n.Body}
	}
	return out
}

func fromKeep(userID int64, kn *keep.Note) hearth.Note {
	n := hearth.Note{UserID: userID, Title: kn.Title}
	if kn.Body != nil {
		if kn.Body.Text != nil {
			n.Body = kn.Body.Text.Text
		}
		if kn.Body.List != nil {
			for _, it := range kn.Body.List.ListItems {
				if it.Text != nil {
					n.Items = append(n.Items, hearth.ChecklistItem{Text: it.Text.Text, Done: it.Checked})
				}
			}
		}
	}
	if strings.TrimSpace(n.Title) == "" {
		n.Title = strings.TrimSpace(strings.SplitN(n.Body, "\n", 2)[0])
	}
	if n.Title == "" {
		n.Title = "Keep note"
	}
	return n
}

// CreateNote creates the note in Hearth and, for a Keep user, in Keep
// (once per key: a retry finds the link).
func (k *Notes) CreateNote(ctx context.Context, key string, n hearth.Note) (hearth.Note, error) {
	if n.Family {
		return k.st.CreateNote(ctx, key, n)
	}
	svc, why, err := k.keepFor(ctx, n.UserID)
	if err != nil {
		return hearth.Note{}, err
	}
	local, err := k.st.CreateNote(ctx, key, n)
	if err != nil || svc == nil {
		local.Where = why
		return local, err
	}
	if name, err := k.st.KeepNote(ctx, local.UserID, local.ID); err != nil || name != "" {
		local.Where = inKeep
		return local, err
	}
	kn, err := svc.Notes.Create(toKeep(local)).Context(ctx).Do()
	if err != nil {
		if no, rerr := k.refused(ctx, n.UserID, err); no || rerr != nil {
			local.Where = notInKeep
			return local, rerr
		}
		return hearth.Note{}, fmt.Errorf("keep create note: %w", unavailable(err))
	}
	if err := k.st.SetKeepAvailable(ctx, n.UserID, true); err != nil {
		return hearth.Note{}, err
	}
	if err := k.st.SetKeepNote(ctx, local.UserID, local.ID, kn.Name); err != nil {
		return hearth.Note{}, err
	}
	local.Where = inKeep
	return local, nil
}

// recreate replaces a linked note's Keep copy with n (Keep's API has no
// update): a new Keep note, then the old one deleted. Unlinked notes are
// left alone; where says what the reply should tell.
func (k *Notes) recreate(ctx context.Context, n hearth.Note) (where string, err error) {
	if n.Family {
		return "", nil
	}
	old, err := k.st.KeepNote(ctx, n.UserID, n.ID)
	if err != nil || old == "" {
		return "", err
	}
	svc, why, err := k.keepFor(ctx, n.UserID)
	if err != nil || svc == nil {
		return why, err
	}
	kn, err := svc.Notes.Create(toKeep(n)).Context(ctx).Do()
	if err != nil {
		if no, rerr := k.refused(ctx, n.UserID, err); no || rerr != nil {
			return notInKeep, rerr
		}
		return "", fmt.Errorf("keep recreate note: %w", unavailable(err))
	}
	if err := k.st.SetKeepNote(ctx, n.UserID, n.ID, kn.Name); err != nil {
		return "", err
	}
	if _, err := svc.Notes.Delete(old).Context(ctx).Do(); err != nil && statusOf(err) != http.StatusNotFound {
		return "", fmt.Errorf("keep delete replaced note: %w", unavailable(err))
	}
	return keepRecreate, nil
}

// AppendNote adds to the note in Hearth and recreates its Keep copy.
func (k *Notes) AppendNote(ctx context.Context, key string, userID, id int64, text string, items []hearth.ChecklistItem) (before, after hearth.Note, err error) {
	before, after, err = k.st.AppendNote(ctx, key, userID, id, text, items)
	if err != nil || (after.Body == before.Body && slices.Equal(after.Items, before.Items)) {
		return before, after, err // an error, or nothing changed: Keep's copy is as it was
	}
	after.Where, err = k.recreate(ctx, after)
	return before, after, err
}

// CheckItems ticks items in Hearth and recreates the Keep copy.
func (k *Notes) CheckItems(ctx context.Context, key string, userID, id int64, texts []string, done bool) (before, after hearth.Note, err error) {
	before, after, err = k.st.CheckItems(ctx, key, userID, id, texts, done)
	if err != nil {
		return before, after, err
	}
	after.Where, err = k.recreate(ctx, after)
	return before, after, err
}

// RemoveItems takes items off in Hearth and recreates the Keep copy.
func (k *Notes) RemoveItems(ctx context.Context, key string, userID, id int64, texts []string) (before, after hearth.Note, err error) {
	before, after, err = k.st.RemoveItems(ctx, key, userID, id, texts)
	if err != nil {
		return before, after, err
	}
	after.Where, err = k.recreate(ctx, after)
	return before, after, err
}

// RenameNote renames the note in Hearth and recreates its Keep copy with
// the new title (Keep's API cannot change a note).
func (k *Notes) RenameNote(ctx context.Context, key string, userID, id int64, title string) (before, after hearth.Note, err error) {
	before, after, err = k.st.RenameNote(ctx, key, userID, id, title)
	if err != nil {
		return before, after, err
	}
	after.Where, err = k.recreate(ctx, after)
	return before, after, err
}

// SetNote puts a note back (undo) and recreates its Keep copy.
func (k *Notes) SetNote(ctx context.Context, n hearth.Note) error {
	if err := k.st.SetNote(ctx, n); err != nil {
		return err
	}
	_, err := k.recreate(ctx, n)
	return err
}

// DeleteNote deletes the note in Hearth and in Keep.
func (k *Notes) DeleteNote(ctx context.Context, userID, id int64) (hearth.Note, error) {
	n, err := k.st.DeleteNote(ctx, userID, id)
	if err != nil || n.Family {
		return n, err
	}
	name, err := k.st.KeepNote(ctx, userID, id)
	if err != nil || name == "" {
		return n, err
	}
	svc, _, err := k.keepFor(ctx, userID)
	if err != nil || svc == nil {
		return n, err
	}
	if _, err := svc.Notes.Delete(name).Context(ctx).Do(); err != nil && statusOf(err) != http.StatusNotFound {
		return n, fmt.Errorf("keep delete note: %w", unavailable(err))
	}
	n.Where = inKeep
	return n, nil
}

// RestoreNote brings a deleted note back, in Keep too (as a new Keep
// note).
func (k *Notes) RestoreNote(ctx context.Context, userID, id int64) error {
	if err := k.st.RestoreNote(ctx, userID, id); err != nil {
		return err
	}
	name, err := k.st.KeepNote(ctx, userID, id)
	if err != nil || name == "" {
		return err
	}
	notes, err := k.st.FindNotes(ctx, hearth.NoteFilter{UserID: userID, Limit: 500})
	if err != nil {
		return err
	}
	for _, n := range notes {
		if n.ID == id {
			_, err := k.recreate(ctx, n)
			return err
		}
	}
	return nil
}

// FindNotes lists the user's notes. For a Keep user, Keep is listed
// first: notes made in Keep itself become Hearth notes (linked), and
// linked notes deleted in Keep are deleted here.
func (k *Notes) FindNotes(ctx context.Context, f hearth.NoteFilter) ([]hearth.Note, error) {
	if err := k.SyncKeep(ctx, f.UserID); err != nil {
		k.g.cfg.Log.WarnContext(ctx, "listing Keep failed; answering from Hearth's copy", "user", f.UserID, "error", err)
	}
	return k.st.FindNotes(ctx, f)
}

// SyncKeep brings Hearth's copy of a Keep user's notes up to date with
// Keep (notes.list).
func (k *Notes) SyncKeep(ctx context.Context, userID int64) error {
	svc, _, err := k.keepFor(ctx, userID)
	if err != nil || svc == nil {
		return err
	}
	links, err := k.st.KeepLinks(ctx, userID)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	err = svc.Notes.List().Filter("trashed = false").Pages(ctx, func(r *keep.ListNotesResponse) error {
		for _, kn := range r.Notes {
			seen[kn.Name] = true
			if _, ok := links[kn.Name]; ok || kn.Trashed {
				continue
			}
			local, err := k.st.CreateNote(ctx, "keep:"+kn.Name, fromKeep(userID, kn))
			if err != nil {
				return err
			}
			if err := k.st.SetKeepNote(ctx, userID, local.ID, kn.Name); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		if no, rerr := k.refused(ctx, userID, err); no || rerr != nil {
			return rerr
		}
		return fmt.Errorf("keep list: %w", unavailable(err))
	}
	for name, id := range links {
		if !seen[name] {
			if _, err := k.st.DeleteNote(ctx, userID, id); err != nil && !errors.Is(err, hearth.ErrNotFound) {
				return err
			}
		}
	}
	return nil
}
