package google

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"errors"
	"fmt"
	"net/http"
	"net/mail"
	"regexp"
	"strings"
	"time"

	calendar "google.golang.org/api/calendar/v3"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/action"
)

// Calendar is the calendar provider that routes by user: users with a
// working Google account act in Google (and the synced copy in Hearth's
// events table follows), everyone else in the built-in calendar. Reads
// come from the local copy, so they are fast and work while Google is
// away.
type Calendar struct {
	g *Google
}

var _ action.Calendar = Calendar{}

// Calendar returns the routing calendar provider.
func (g *Google) Calendar() Calendar { return Calendar{g: g} }

// eventIDs are Google event ids: base32hex, lower case.
var eventIDs = base32.HexEncoding.WithPadding(base32.NoPadding)

// eventID derives the Google event id from an action's idempotency key,
// so a retried create finds its event (409) instead of making a second
// one; without a key it is random.
func eventID(key string) string {
	var b []byte
	if key == "" {
		b = make([]byte, 20)
		rand.Read(b)
	} else {
		sum := sha256.Sum256([]byte("hearth event " + key))
		b = sum[:20]
	}
	return strings.ToLower(eventIDs.EncodeToString(b))
}

// calendarFor is where a new event goes: the family calendar for family
// things when the user chose one, else the default calendar.
func (g *Google) calendarFor(ctx context.Context, e hearth.CalendarEvent) (string, error) {
	cals, err := g.cfg.Store.GoogleCalendars(ctx, e.UserID)
	if err != nil {
		return "", err
	}
	def := "primary"
	for _, c := range cals {
		if c.Family && familyThing(e.Title) {
			return c.CalendarID, nil
		}
		if c.Default {
			def = c.CalendarID
		}
	}
	return def, nil
}

// familyWords mark an event as a family thing ("Emma's school play",
// "dinner at mom's").
var familyWords = map[string]bool{
	"family": true, "kids": true, "kid": true, "children": true, "school": true, "parents": true,
	"mom": true, "mum": true, "dad": true, "mother": true, "father": true, "grandma": true, "grandpa": true,
	"son": true, "daughter": true, "sister": true, "brother": true, "wife": true, "husband": true,
	"aunt": true, "uncle": true, "cousin": true, "nephew": true, "niece": true, "birthday": true,
}

func familyThing(title string) bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(title), func(r rune) bool {
		return !('a' <= r && r <= 'z') && r != '\''
	}) {
		if familyWords[strings.TrimSuffix(w, "'s")] {
			return true
		}
	}
	return false
}

// sendUpdates: invitations go out when there are attendees (the action
// was approved for exactly that, invariant 3).
func sendUpdates(attendees []string) string {
	if len(emails(attendees)) > 0 {
		return "all"
	}
	return "none"
}

// CreateEvent creates the event in the user's default Google calendar,
// or in the built-in one. The local copy is written first, under the
// Google id the key derives, so a sync that sees the event before this
// returns updates that row instead of adding a second.
func (c Calendar) CreateEvent(ctx context.Context, key string, e hearth.CalendarEvent) (hearth.CalendarEvent, error) {
	a, err := c.g.active(ctx, e.UserID)
	if errors.Is(err, errNotConnected) {
		return c.g.cfg.Store.CreateEvent(ctx, key, e)
	}
	if err != nil {
		return hearth.CalendarEvent{}, err
	}
	cal, err := c.g.calendarFor(ctx, e)
	if err != nil {
		return hearth.CalendarEvent{}, err
	}
	e.CalendarID, e.ExternalID = cal, eventID(key)
	row, err := c.g.cfg.Store.CreateEvent(ctx, key, e)
	if err != nil || row.ExternalID == "" {
		return row, err
	}
	svc, err := c.g.calendarService(ctx, a)
	if err != nil {
		return hearth.CalendarEvent{}, err
	}
	linked := c.g.linkPeople(ctx, e)
	ge := toGoogle(linked, zoneOf(a))
	ge.Id = row.ExternalID
	_, err = svc.Events.Insert(row.CalendarID, ge).SendUpdates(sendUpdates(linked.Attendees)).Context(ctx).Do()
	switch {
	case statusOf(err) == http.StatusConflict: // created by an earlier try
	case errors.Is(err, ErrRevoked):
		// The built-in calendar takes over: the row becomes its own.
		return row, c.g.cfg.Store.RelinkEvent(ctx, row.UserID, row.ID, "", "")
	case statusOf(err) >= 400 && statusOf(err) < 500:
		// Google refused the event itself: its local copy goes too (a
		// retry that succeeds brings it back through sync).
		if _, derr := c.g.cfg.Store.DeleteEvent(ctx, row.UserID, row.ID); derr != nil {
			c.g.cfg.Log.Warn("local copy of a refused event not deleted", "error", derr)
		}
		return hearth.CalendarEvent{}, fmt.Errorf("google create event: %w", hearth.Invalidf("Google refused the event: %s", googleMessage(err)))
	case err != nil:
		// Google did not answer (5xx, a timeout, no network): the local
		// copy goes, so nothing shows that Google never got, and the
		// user is told it was not added (the reply says to try again).
		if _, derr := c.g.cfg.Store.DeleteEvent(context.WithoutCancel(ctx), row.UserID, row.ID); derr != nil {
			c.g.cfg.Log.Warn("local copy of an event Google did not take not deleted", "error", derr)
		}
		return hearth.CalendarEvent{}, fmt.Errorf("google create event: %v: %w", err,
			hearth.Errorf(hearth.EUnavailable, "Google Calendar isn't answering right now; try again in a few minutes"))
	}
	return row, nil
}

// linked returns the event and, when it is a copy of a Google event of a
// working account, the account.
func (c Calendar) linked(ctx context.Context, userID, id int64) (hearth.CalendarEvent, *hearth.GoogleAccount, error) {
	e, err := c.g.cfg.Store.FindEvent(ctx, userID, id)
	if err != nil || e.ExternalID == "" {
		return e, nil, err
	}
	a, err := c.g.active(ctx, userID)
	if errors.Is(err, errNotConnected) {
		return e, nil, nil
	}
	if err != nil {
		return e, nil, err
	}
	return e, &a, nil
}

// UpdateEvent patches the event in Google, then the local copy.
func (c Calendar) UpdateEvent(ctx context.Context, userID, id int64, upd hearth.CalendarEventUpdate) (before, after hearth.CalendarEvent, err error) {
	e, a, err := c.linked(ctx, userID, id)
	if err != nil || a == nil {
		if err != nil && !errors.Is(err, hearth.ErrNotFound) {
			return before, after, err
		}
		return c.g.cfg.Store.UpdateEvent(ctx, userID, id, upd)
	}
	svc, err := c.g.calendarService(ctx, *a)
	if err != nil {
		return before, after, err
	}
	next := e
	setIf(&next.Title, upd.Title)
	setIf(&next.Start, upd.Start)
	setIf(&next.End, upd.End)
	setIf(&next.AllDay, upd.AllDay)
	setIf(&next.Location, upd.Location)
	setIf(&next.Attendees, upd.Attendees)
	setIf(&next.Description, upd.Description)
	next = c.g.linkPeople(ctx, next)
	patch := toGoogle(next, zoneOf(*a))
	if upd.Attendees == nil {
		patch.Attendees = nil // leave Google's attendees (and their answers) alone
	}
	patch.Recurrence = nil
	_, err = svc.Events.Patch(e.CalendarID, e.ExternalID, patch).SendUpdates(sendUpdates(next.Attendees)).Context(ctx).Do()
	if err != nil && !errors.Is(err, ErrRevoked) {
		return before, after, fmt.Errorf("google update event: %w", err)
	}
	return c.g.cfg.Store.UpdateEvent(ctx, userID, id, upd)
}

// DeleteEvent deletes the event (or one instance of a recurring one) in
// Google, then the local copy. An event Google no longer has is deleted
// locally all the same.
func (c Calendar) DeleteEvent(ctx context.Context, userID, id int64) (hearth.CalendarEvent, error) {
	e, a, err := c.linked(ctx, userID, id)
	if err != nil && !errors.Is(err, hearth.ErrNotFound) {
		return e, err
	}
	if a != nil {
		svc, err := c.g.calendarService(ctx, *a)
		if err != nil {
			return e, err
		}
		err = svc.Events.Delete(e.CalendarID, e.ExternalID).SendUpdates(sendUpdates(e.Attendees)).Context(ctx).Do()
		if s := statusOf(err); err != nil && s != http.StatusNotFound && s != http.StatusGone && !errors.Is(err, ErrRevoked) {
			return e, fmt.Errorf("google delete event: %w", err)
		}
	}
	return c.g.cfg.Store.DeleteEvent(ctx, userID, id)
}

// RestoreEvent undoes a delete: a Google event is created again (with a
// new id, as Google keeps deleted ids, once however often the undo is
// tried) and the local copy relinked.
func (c Calendar) RestoreEvent(ctx context.Context, userID, id int64) error {
	e, a, err := c.linked(ctx, userID, id)
	if err != nil || a == nil {
		if err != nil && !errors.Is(err, hearth.ErrNotFound) {
			return err
		}
		return c.g.cfg.Store.RestoreEvent(ctx, userID, id)
	}
	svc, err := c.g.calendarService(ctx, *a)
	if err != nil {
		return err
	}
	linked := c.g.linkPeople(ctx, e)
	ge := toGoogle(linked, zoneOf(*a))
	// A new id derived from the deleted one: a retried undo finds the
	// event made (409) instead of making a second.
	ge.Id = eventID("restore " + e.ExternalID)
	_, err = svc.Events.Insert(e.CalendarID, ge).SendUpdates(sendUpdates(linked.Attendees)).Context(ctx).Do()
	if err != nil && statusOf(err) != http.StatusConflict {
		return fmt.Errorf("google restore event: %w", err)
	}
	return c.g.cfg.Store.RelinkEvent(ctx, userID, id, e.CalendarID, ge.Id)
}

// FindEvents reads the local copy.
func (c Calendar) FindEvents(ctx context.Context, f hearth.CalendarEventFilter) ([]hearth.CalendarEvent, error) {
	return c.g.cfg.Store.FindEvents(ctx, f)
}

func setIf[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// addressRe finds an email address in what a memory says.
var addressRe = regexp.MustCompile(`[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}`)

// linkPeople replaces attendees named without an address by the address
// memory holds for them: first the current email attribute of the people
// (entities) the name stands for, as the user may see them; when no such
// person has one, an address a memory about the name states ("Sam's
// email is sam@example.com", told before people were kept as entities).
// A name memory knows no address for, or that stands for several people
// with different addresses, stays a name (and Google does not invite it).
func (g *Google) linkPeople(ctx context.Context, e hearth.CalendarEvent) hearth.CalendarEvent {
	if g.cfg.People == nil || len(e.Attendees) == 0 {
		return e
	}
	out := make([]string, 0, len(e.Attendees))
	for _, a := range e.Attendees {
		if !strings.Contains(a, "@") {
			addr, ok, err := g.entityAddress(ctx, e.UserID, a)
			if err != nil {
				g.cfg.Log.Warn("attendee lookup failed", "error", err)
			}
			if !ok && err == nil {
				addr, err = g.memoryAddress(ctx, e.UserID, a)
				if err != nil {
					g.cfg.Log.Warn("attendee lookup failed", "error", err)
				}
			}
			if addr != "" {
				a = addr
			}
		}
		out = append(out, a)
	}
	e.Attendees = out
	return e
}

// entityAddress is the one current email address of the people name
// stands for; found reports whether any of them has one (an ambiguous
// name is found with no address).
func (g *Google) entityAddress(ctx context.Context, userID int64, name string) (addr string, found bool, err error) {
	people, err := g.cfg.People.FindEntities(ctx, hearth.EntityFilter{UserID: userID, Name: name, Limit: 5})
	if err != nil {
		return "", false, err
	}
	seen := map[string]bool{}
	for _, p := range people {
		if p.Kind != hearth.EntityPerson {
			continue
		}
		mems, err := g.cfg.People.FindMemories(ctx, hearth.MemoryFilter{UserID: userID, EntityID: p.ID, Attribute: hearth.AttrEmail, Limit: 5})
		if err != nil {
			return "", false, err
		}
		for _, m := range mems {
			if m.SupersededBy != 0 {
				continue
			}
			if parsed, perr := mail.ParseAddress(m.Value); perr == nil {
				seen[strings.ToLower(parsed.Address)] = true
				break // the newest current value
			}
		}
	}
	if len(seen) != 1 {
		return "", len(seen) > 0, nil
	}
	for a := range seen {
		addr = a
	}
	return addr, true, nil
}

// memoryAddress is an address a memory about name states in its words.
func (g *Google) memoryAddress(ctx context.Context, userID int64, name string) (string, error) {
	mems, err := g.cfg.People.FindMemories(ctx, hearth.MemoryFilter{UserID: userID, About: name, Limit: 20})
	for _, m := range mems {
		if addr := addressRe.FindString(m.Content); addr != "" {
			if _, perr := mail.ParseAddress(addr); perr == nil {
				return addr, err
			}
		}
	}
	return "", err
}

// emails are the attendees Google can invite: those with an address.
// A name alone ("Marco") is not sent to Google.
func emails(attendees []string) []string {
	var out []string
	for _, a := range attendees {
		if strings.Contains(a, "@") {
			out = append(out, strings.TrimSpace(a))
		}
	}
	return out
}

// toGoogle is an event as Google takes it: an all-day event as dates
// (its local days in the user's zone), a timed one as instants with the
// user's zone, so a recurrence keeps its wall time across DST.
func toGoogle(e hearth.CalendarEvent, loc *time.Location) *calendar.Event {
	ge := &calendar.Event{Summary: e.Title, Location: e.Location, Description: e.Description, Recurrence: e.Recurrence}
	if e.AllDay {
		start := e.Start.In(loc)
		end := e.End.In(loc)
		if !end.After(start) {
			end = start.AddDate(0, 0, 1)
		}
		ge.Start = &calendar.EventDateTime{Date: start.Format(time.DateOnly)}
		ge.End = &calendar.EventDateTime{Date: end.Format(time.DateOnly)}
		if ge.End.Date == ge.Start.Date {
			ge.End.Date = start.AddDate(0, 0, 1).Format(time.DateOnly)
		}
	} else {
		ge.Start = &calendar.EventDateTime{DateTime: e.Start.In(loc).Format(time.RFC3339), TimeZone: loc.String()}
		ge.End = &calendar.EventDateTime{DateTime: e.End.In(loc).Format(time.RFC3339), TimeZone: loc.String()}
	}
	for _, m := range emails(e.Attendees) {
		// "Sam Lee <sam@example.com>" (as the chat invites people) is an
		// address and a name to Google; its Email must be the address.
		at := &calendar.EventAttendee{Email: m}
		if a, err := mail.ParseAddress(m); err == nil {
			at.Email, at.DisplayName = a.Address, a.Name
		}
		ge.Attendees = append(ge.Attendees, at)
	}
	return ge
}

// fromGoogle is Google's event as Hearth keeps it: an all-day event's
// dates become midnights in the user's zone.
func fromGoogle(ge *calendar.Event, calendarID string, loc *time.Location) (hearth.CalendarEvent, error) {
	e := hearth.CalendarEvent{Title: ge.Summary, Location: ge.Location, Description: ge.Description,
		CalendarID: calendarID, ExternalID: ge.Id, Series: ge.RecurringEventId}
	if e.Title == "" {
		e.Title = "(no title)"
	}
	if ge.Start == nil || ge.End == nil {
		return e, fmt.Errorf("event %s has no start or end", ge.Id)
	}
	var err error
	if ge.Start.Date != "" {
		e.AllDay = true
		if e.Start, err = time.ParseInLocation(time.DateOnly, ge.Start.Date, loc); err != nil {
			return e, err
		}
		if e.End, err = time.ParseInLocation(time.DateOnly, ge.End.Date, loc); err != nil {
			return e, err
		}
	} else {
		if e.Start, err = time.Parse(time.RFC3339, ge.Start.DateTime); err != nil {
			return e, err
		}
		if e.End, err = time.Parse(time.RFC3339, ge.End.DateTime); err != nil {
			return e, err
		}
	}
	e.Start, e.End = e.Start.UTC(), e.End.UTC()
	for _, at := range ge.Attendees {
		if at.Self || at.Resource {
			continue
		}
		e.Attendees = append(e.Attendees, at.Email)
	}
	return e, nil
}
