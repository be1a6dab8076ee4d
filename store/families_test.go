package store_test

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/store"
	"github.com/hearthbot/hearth/store/storetest"
)

type familyBundle struct {
	st  *store.Store
	ctx context.Context
}

func setupFamily(t *testing.T) *familyBundle {
	t.Helper()
	st, _ := storetest.Open(t)
	return &familyBundle{st: st, ctx: context.Background()}
}

// user signs a web chat user in by name.
func (b *familyBundle) user(t *testing.T, name string) int64 {
	t.Helper()
	c, err := b.st.SignIn(b.ctx, hearth.ChannelWebchat, name, name, name, "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	return c.User.ID
}

// invite asks for an invitation of inviter's and returns it as stored.
func (b *familyBundle) invite(t *testing.T, inviter int64) string {
	t.Helper()
	inv, err := b.st.CreateFamilyInvite(b.ctx, inviter, 10*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	return hearth.NormaliseCode(inv.Code)
}

func (b *familyBundle) join(t *testing.T, inviter, joiner int64) {
	t.Helper()
	if _, err := b.st.JoinFamily(b.ctx, b.invite(t, inviter), joiner); err != nil {
		t.Fatal(err)
	}
}

func (b *familyBundle) members(t *testing.T, uid int64) []hearth.FamilyMember {
	t.Helper()
	f, err := b.st.FindFamily(b.ctx, uid)
	if err != nil {
		t.Fatal(err)
	}
	return f.Members
}

func TestFamilyInviteCodes(t *testing.T) {
	t.Parallel()
	b := setupFamily(t)
	ann, bob, cat := b.user(t, "Ann"), b.user(t, "Bob"), b.user(t, "Cat")

	inv, err := b.st.CreateFamilyInvite(b.ctx, ann, 10*time.Minute)
	if err != nil || !inv.Started || inv.Family.Name != "Ann's family" || len(inv.Family.Members) != 0 {
		t.Fatalf("first invite: %+v, %v", inv, err)
	}
	code := hearth.NormaliseCode(inv.Code)
	if code == "" {
		t.Fatalf("code %q is not in the link code format", inv.Code)
	}
	again, err := b.st.CreateFamilyInvite(b.ctx, ann, 10*time.Minute)
	if err != nil || again.Started || again.Family.ID != inv.Family.ID {
		t.Fatalf("second invite: %+v, %v", again, err)
	}

	expired := b.invite(t, ann)
	if _, err := b.st.Pool().Exec(b.ctx, "UPDATE link_codes SET expires_at = now() - interval '1 second' WHERE code = $1", expired); err != nil {
		t.Fatal(err)
	}
	link, err := b.st.CreateLinkCode(b.ctx, ann, time.Minute)
	if err != nil {
		t.Fatal(err)
	}

	// Refusals leave the code unused.
	refused := []struct {
		name string
		code string
		who  int64
		want error
	}{
		{"wrong", "ABCDEFGH", bob, hearth.ErrNotFound},
		{"expired", expired, bob, hearth.ErrNotFound},
		{"a /link code", hearth.NormaliseCode(link), bob, hearth.ErrNotFound},
		{"the inviter's own", code, ann, hearth.ErrInvalid},
	}
	for _, tt := range refused {
		if _, err := b.st.JoinFamily(b.ctx, tt.code, tt.who); !errors.Is(err, tt.want) {
			t.Errorf("%s code: %v; want %v", tt.name, err, tt.want)
		}
	}
	// A family code is no /link code either: it cannot merge accounts.
	if _, err := b.st.RedeemLinkCode(b.ctx, code, bob); !errors.Is(err, hearth.ErrNotFound) {
		t.Fatalf("family code as a link code: %v; want not found", err)
	}

	f, err := b.st.JoinFamily(b.ctx, code, bob)
	if err != nil || f.ID != inv.Family.ID || len(f.Members) != 1 || f.Members[0].Name != "Ann" {
		t.Fatalf("join: %+v, %v", f, err)
	}
	if _, err := b.st.JoinFamily(b.ctx, code, cat); !errors.Is(err, hearth.ErrNotFound) {
		t.Fatalf("reused code: %v; want not found", err)
	}
	// A member with a fresh code of the same family is told so, and the
	// code stays good for someone else.
	fresh := b.invite(t, ann)
	if _, err := b.st.JoinFamily(b.ctx, fresh, bob); !errors.Is(err, hearth.ErrInvalid) {
		t.Fatalf("joining twice: %v; want invalid", err)
	}
	if _, err := b.st.JoinFamily(b.ctx, fresh, cat); err != nil {
		t.Fatalf("the refused code for someone else: %v", err)
	}
	// An inviter who has left admits no one with their old codes.
	dan := b.user(t, "Dan")
	stale := b.invite(t, bob)
	if _, err := b.st.LeaveFamily(b.ctx, bob); err != nil {
		t.Fatal(err)
	}
	if _, err := b.st.JoinFamily(b.ctx, stale, dan); !errors.Is(err, hearth.ErrNotFound) {
		t.Fatalf("code of a member who left: %v; want not found", err)
	}
}

func TestJoinAndLeaveFamily(t *testing.T) {
	t.Parallel()
	b := setupFamily(t)
	ann, bob, cat, eve := b.user(t, "Ann"), b.user(t, "Bob"), b.user(t, "Cat"), b.user(t, "Eve")
	b.join(t, ann, bob)
	b.join(t, bob, cat)

	// Joining grants events and milestones both ways with every member.
	got := b.members(t, cat)
	if len(got) != 2 || got[0].Name != "Ann" || got[1].Name != "Bob" {
		t.Fatalf("Cat's family: %+v", got)
	}
	for _, m := range got {
		if m.Sees != hearth.TierEvents || m.Shows != hearth.TierEvents {
			t.Fatalf("default grants with %s: %+v", m.Name, m)
		}
	}
	// Someone in a family cannot join another.
	if _, err := b.st.JoinFamily(b.ctx, b.invite(t, eve), cat); !errors.Is(err, hearth.ErrInvalid) {
		t.Fatalf("joining a second family: %v; want invalid", err)
	}

	left, err := b.st.LeaveFamily(b.ctx, cat)
	if err != nil || len(left.Members) != 2 {
		t.Fatalf("leave: %+v, %v", left, err)
	}
	if _, err := b.st.FindFamily(b.ctx, cat); !errors.Is(err, hearth.ErrNotFound) {
		t.Fatalf("family after leaving: %v; want not found", err)
	}
	if _, err := b.st.LeaveFamily(b.ctx, cat); !errors.Is(err, hearth.ErrNotFound) {
		t.Fatalf("leaving twice: %v; want not found", err)
	}
	var grants int
	if err := b.st.Pool().QueryRow(b.ctx, "SELECT count(*) FROM access_grants WHERE $1 IN (target_id, viewer_id)", cat).Scan(&grants); err != nil || grants != 0 {
		t.Fatalf("grants left behind: %d, %v", grants, err)
	}
	if got := b.members(t, ann); len(got) != 1 || got[0].Name != "Bob" {
		t.Fatalf("Ann's family after Cat left: %+v", got)
	}
	// The last one out deletes the family.
	for _, u := range []int64{ann, bob} {
		if _, err := b.st.LeaveFamily(b.ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	var families int
	if err := b.st.Pool().QueryRow(b.ctx, "SELECT count(*) FROM families f WHERE NOT EXISTS (SELECT 1 FROM family_members m WHERE m.family_id = f.id) AND f.name = 'Ann''s family'").Scan(&families); err != nil || families != 0 {
		t.Fatalf("empty families left: %d, %v", families, err)
	}
}

func TestFamilyEventsVisibility(t *testing.T) {
	t.Parallel()
	b := setupFamily(t)
	ann, bob, cat, dan := b.user(t, "Ann"), b.user(t, "Bob"), b.user(t, "Cat"), b.user(t, "Dan")
	b.join(t, ann, bob)
	b.join(t, ann, cat)
	day := time.Now().UTC().Truncate(24 * time.Hour).Add(24 * time.Hour)
	event := func(uid int64, title string, start time.Time) {
		t.Helper()
		if _, err := b.st.CreateEvent(b.ctx, "", hearth.CalendarEvent{UserID: uid, Title: title, Start: start, End: start.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	event(bob, "School play", day.Add(18*time.Hour))
	event(bob, "Next month", day.AddDate(0, 1, 0))
	event(cat, "Dentist", day.Add(9*time.Hour))
	event(dan, "Dan's party", day.Add(20*time.Hour))
	event(ann, "Ann's own", day.Add(10*time.Hour))
	from, to := day, day.AddDate(0, 0, 7)

	titles := func(viewer int64) []string {
		t.Helper()
		evs, err := b.st.FamilyEvents(b.ctx, viewer, from, to, 0)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range evs {
			out = append(out, e.Member+": "+e.Title)
		}
		return out
	}
	grant := func(target, viewer int64, tier hearth.Tier) {
		t.Helper()
		if err := b.st.SetAccessGrant(b.ctx, target, viewer, tier); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name   string
		change func()
		viewer int64
		want   []string
	}{
		{"default tier 3: members' events in the window, by member, not their own", nil, ann,
			[]string{"Bob: School play", "Cat: Dentist"}},
		{"tier 4 (basics) hides events", func() { grant(bob, ann, hearth.TierBasic) }, ann,
			[]string{"Cat: Dentist"}},
		{"only the viewer it was given to", nil, cat,
			[]string{"Ann: Ann's own", "Bob: School play"}},
		{"tier 3 shows them again", func() { grant(bob, ann, hearth.TierEvents) }, ann,
			[]string{"Bob: School play", "Cat: Dentist"}},
		{"tier 2 (more private) shows events too", func() { grant(cat, ann, hearth.TierPersonal) }, ann,
			[]string{"Bob: School play", "Cat: Dentist"}},
		{"a non-member sees nothing", nil, dan, nil},
		{"a member who left sees nothing and shows nothing", func() {
			if _, err := b.st.LeaveFamily(b.ctx, cat); err != nil {
				t.Fatal(err)
			}
		}, cat, nil},
		{"and the others no longer see the leaver", nil, ann, []string{"Bob: School play"}},
	}
	for _, s := range steps {
		if s.change != nil {
			s.change()
		}
		if got := titles(s.viewer); !slices.Equal(got, s.want) {
			t.Errorf("%s: %q; want %q", s.name, got, s.want)
		}
	}

	// A grant needs both in one family and a real tier.
	bad := []struct {
		name           string
		target, viewer int64
		tier           hearth.Tier
		want           error
	}{
		{"to a non-member", ann, dan, hearth.TierEvents, hearth.ErrNotFound},
		{"by a non-member", dan, ann, hearth.TierEvents, hearth.ErrNotFound},
		{"to someone who left", ann, cat, hearth.TierEvents, hearth.ErrNotFound},
		{"tier 5", ann, bob, 5, hearth.ErrInvalid},
		{"tier 0", ann, bob, 0, hearth.ErrInvalid},
		{"to oneself", ann, ann, hearth.TierEvents, hearth.ErrInvalid},
	}
	for _, tt := range bad {
		if err := b.st.SetAccessGrant(b.ctx, tt.target, tt.viewer, tt.tier); !errors.Is(err, tt.want) {
			t.Errorf("grant %s: %v; want %v", tt.name, err, tt.want)
		}
	}
	if got := titles(dan); got != nil {
		t.Fatalf("after refused grants Dan sees %q", got)
	}
}

func TestLinkingMovesFamily(t *testing.T) {
	t.Parallel()
	b := setupFamily(t)
	ann, bob := b.user(t, "Ann"), b.user(t, "Bob")
	b.join(t, ann, bob)
	// Bob's Telegram identity, not in a family, links into Bob: nothing
	// changes. Ann's web account links into her Telegram one (no family):
	// the membership and grants follow her.
	annTG, err := b.st.SignIn(b.ctx, hearth.ChannelTelegram, "71", "Ann T", "71", "")
	if err != nil {
		t.Fatal(err)
	}
	code, err := b.st.CreateLinkCode(b.ctx, annTG.User.ID, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.st.RedeemLinkCode(b.ctx, hearth.NormaliseCode(code), ann); err != nil {
		t.Fatal(err)
	}
	got := b.members(t, annTG.User.ID)
	if len(got) != 1 || got[0].UserID != bob || got[0].Sees != hearth.TierEvents || got[0].Shows != hearth.TierEvents {
		t.Fatalf("Ann's family after linking: %+v", got)
	}
	if got := b.members(t, bob); len(got) != 1 || got[0].UserID != annTG.User.ID || got[0].Sees != hearth.TierEvents {
		t.Fatalf("Bob's family after Ann linked: %+v", got)
	}

	// Both in families: the account linked into keeps its own; the other
	// identity's membership goes, and its family with it when it was alone.
	cat, dan := b.user(t, "Cat"), b.user(t, "Dan")
	if _, err := b.st.CreateFamilyInvite(b.ctx, dan, time.Minute); err != nil {
		t.Fatal(err)
	}
	b.join(t, annTG.User.ID, cat)
	code, err = b.st.CreateLinkCode(b.ctx, cat, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.st.RedeemLinkCode(b.ctx, hearth.NormaliseCode(code), dan); err != nil {
		t.Fatal(err)
	}
	if got := b.members(t, cat); len(got) != 2 {
		t.Fatalf("Cat's family after Dan linked into Cat: %+v", got)
	}
	var families int
	if err := b.st.Pool().QueryRow(b.ctx, "SELECT count(*) FROM families").Scan(&families); err != nil || families != 1 {
		t.Fatalf("%d families, %v; want Dan's empty one gone", families, err)
	}
}

func TestConcurrentJoinsSeeEachOther(t *testing.T) {
	t.Parallel()
	b := setupFamily(t)
	ann := b.user(t, "Ann")
	const n = 6
	var joiners, codes []string
	ids := map[string]int64{}
	for i := range n {
		name := string(rune('A'+i)) + "joiner"
		ids[name] = b.user(t, name)
		joiners = append(joiners, name)
		codes = append(codes, b.invite(t, ann))
	}
	errs := make(chan error, n)
	for i, name := range joiners {
		go func() {
			_, err := b.st.JoinFamily(b.ctx, codes[i], ids[name])
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	// Everyone got events and milestones both ways with everyone.
	for _, name := range joiners {
		got := b.members(t, ids[name])
		if len(got) != n {
			t.Fatalf("%s's family: %+v", name, got)
		}
		for _, m := range got {
			if m.Sees != hearth.TierEvents || m.Shows != hearth.TierEvents {
				t.Fatalf("%s and %s after joining at once: %+v", name, m.Name, m)
			}
		}
	}
}

// A user with no family is asked about it in many turns; the answer must
// not cost the statements' preparation every time (pgx forgets the
// prepared statements of a batch that fails).
func TestNoFamilyKeepsStatementsPrepared(t *testing.T) {
	t.Parallel()
	st, url := storetest.Open(t)
	ctx := context.Background()
	c, err := st.SignIn(ctx, hearth.ChannelWebchat, "solo", "solo", "Solo", "Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	one, err := store.Open(ctx, url, store.Config{MaxConns: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	const reads = 4
	for i := range reads {
		if _, err := one.FindFamily(ctx, c.User.ID); !errors.Is(err, hearth.ErrNotFound) {
			t.Fatalf("read %d: %v, want not found", i, err)
		}
	}
	// The one session's statement has run every time since it was
	// prepared; prepared again, it would count only the last read.
	var runs int64
	if err := one.Pool().QueryRow(ctx, `
		SELECT COALESCE(sum(generic_plans + custom_plans), 0) FROM pg_prepared_statements
		WHERE statement LIKE '%FROM families f JOIN family_members m%'`).Scan(&runs); err != nil {
		t.Fatal(err)
	}
	if runs < reads {
		t.Errorf("the family statement ran %d times since it was prepared, want %d or more", runs, reads)
	}
}
