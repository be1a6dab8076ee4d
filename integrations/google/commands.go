package google

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/commands"
	"github.com/hearthbot/hearth/internal/markdown"
	"github.com/hearthbot/hearth/pipeline"
)

// Commands are the chat commands: connect, disconnect and status.
func (g *Google) Commands() []commands.Command {
	return []commands.Command{
		{
			Name: "connect_google", Private: true,
			Help:     "connect your Google account, so I act in your Google Calendar",
			Examples: []string{"connect google", "connect my google calendar"},
			Match:    phrase("connect google", "connect my google", "connect to google", "link google", "link my google"),
			Handler: commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
				return pipeline.Reply(g.connectReply(ctx, r.User.ID)), true, nil
			}),
		},
		{
			Name: "disconnect_google", Private: true,
			Help:     "disconnect your Google account: I revoke my access and forget its tokens",
			Examples: []string{"disconnect google", "disconnect my google account"},
			Match:    phrase("disconnect google", "disconnect my google", "unlink google", "unlink my google"),
			Handler: commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
				email, err := g.Disconnect(ctx, r.User.ID)
				if errors.Is(err, hearth.ErrNotFound) {
					return pipeline.Reply("Google isn't connected, so there is nothing to disconnect."), true, nil
				}
				if err != nil {
					return pipeline.Answer{}, false, err
				}
				return pipeline.Reply(fmt.Sprintf("Disconnected %s: I revoked my access, stopped listening for calendar changes and deleted the tokens. Your calendar here is Hearth's own again.", markdown.Escape(email))), true, nil
			}),
		},
		{
			Name: "google_calendar", Args: "NAME", Private: true, NeedsZone: true,
			Help:     "sync another of your Google calendars, or put family things on one",
			Examples: []string{"sync my Family calendar", "put family things on the Family calendar"},
			Match:    func(norm string) bool { return reSyncCalendar.MatchString(norm) || reFamilyCalendar.MatchString(norm) },
			Handler: commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
				name, family := strings.TrimSpace(r.Args), false
				if m := reFamilyCalendar.FindStringSubmatch(r.Norm); m != nil && !r.ByName {
					name, family = m[1], true
				} else if m := reSyncCalendar.FindStringSubmatch(r.Norm); m != nil && !r.ByName {
					name = m[1]
				}
				text, err := g.pickCalendar(ctx, r.User.ID, name, family)
				return pipeline.Reply(text), err == nil, err
			}),
		},
		{
			Name: "google_status", Private: true, NeedsZone: true,
			Help:     "which Google account is connected, which calendars sync, and when",
			Examples: []string{"google status", "is google connected?"},
			Match:    phrase("google status", "status of google", "is google connected", "is my google connected"),
			Handler: commands.HandlerFunc(func(ctx context.Context, r commands.Request) (pipeline.Answer, bool, error) {
				text, err := g.status(ctx, r.User)
				return pipeline.Reply(text), err == nil, err
			}),
		},
	}
}

var (
	// Not "add …": "add dentist to my calendar" is an event.
	reSyncCalendar   = regexp.MustCompile(`^(?:also )?(?:sync|follow|watch) (?:my |the |our )?([a-z0-9'@. -]{1,60}?) (?:google )?calendar(?: too| as well)?$`)
	reFamilyCalendar = regexp.MustCompile(`^(?:put|add|keep|save) (?:family|family things|family stuff|family events|the family's things|things for the family) (?:on|in|into|to) (?:my |the |our )?(.+?) calendar$`)
)

// pickCalendar adds one of the account's calendars (by name) to those
// synced, as the family calendar if asked.
func (g *Google) pickCalendar(ctx context.Context, userID int64, name string, family bool) (string, error) {
	a, err := g.active(ctx, userID)
	if errors.Is(err, errNotConnected) {
		return "Google isn't connected. Say “connect google” first.", nil
	}
	if err != nil {
		return "", err
	}
	if name == "" {
		return "Which calendar? Say, for example, “sync my Family calendar”.", nil
	}
	svc, err := g.calendarService(ctx, a)
	if err != nil {
		return "", err
	}
	list, err := svc.CalendarList.List().Context(ctx).Do()
	if errors.Is(err, ErrRevoked) {
		return "Google stopped accepting my access. Say “connect google” to reconnect.", nil
	}
	if err != nil {
		return "", fmt.Errorf("google calendar list: %w", err)
	}
	var names []string
	for _, it := range list.Items {
		label := it.Summary
		if it.Primary {
			label = "primary"
		}
		names = append(names, label)
		if !strings.EqualFold(it.Summary, name) && !strings.EqualFold(it.Id, name) && !(it.Primary && strings.EqualFold(name, "primary")) {
			continue
		}
		id := it.Id
		if it.Primary {
			id = "primary"
		}
		if err := g.cfg.Store.AddGoogleCalendar(ctx, hearth.GoogleCalendar{UserID: userID, CalendarID: id, Summary: it.Summary, Family: family}); err != nil {
			return "", err
		}
		if g.cfg.Queue != nil {
			if _, err := g.cfg.Queue.Insert(ctx, SyncArgs{UserID: userID, CalendarID: id}, nil); err != nil {
				return "", fmt.Errorf("enqueue sync: %w", err)
			}
			if _, err := g.cfg.Queue.Insert(ctx, WatchArgs{UserID: userID}, nil); err != nil {
				return "", fmt.Errorf("enqueue watch: %w", err)
			}
		}
		if family {
			return fmt.Sprintf("Okay — family things (school, birthdays, mom and dad, the kids…) go on your %s calendar from now on, and I keep it in sync. Everything else goes to your primary calendar.", markdown.Escape(it.Summary)), nil
		}
		return fmt.Sprintf("Okay — I'm syncing your %s calendar too: its events show in what's on your calendar and your briefing.", markdown.Escape(it.Summary)), nil
	}
	return fmt.Sprintf("I can't find a calendar called %q in your Google account. Yours are: %s.", name, strings.Join(names, ", ")), nil
}

// phrase matches a normalised message starting with one of the phrases.
func phrase(ps ...string) func(string) bool {
	return func(norm string) bool {
		norm = strings.TrimRight(norm, "?!. ")
		for _, p := range ps {
			if norm == p || strings.HasPrefix(norm, p+" ") {
				return true
			}
		}
		return false
	}
}

func (g *Google) connectReply(ctx context.Context, userID int64) string {
	link := g.ConnectURL(userID, CalendarScopes...)
	if a, err := g.cfg.Store.GoogleAccount(ctx, userID); err == nil && a.RevokedAt.IsZero() {
		return fmt.Sprintf("Google is already connected as %s. To connect again (another account, or after changing permissions), open this link within 10 minutes: %s", markdown.Escape(a.Email), link)
	}
	return "Open this link within 10 minutes to connect your Google Calendar: " + link +
		"\nI'll add, move and delete events there for you (asking first before inviting anyone) and hear about changes as they happen."
}

func (g *Google) status(ctx context.Context, u hearth.User) (string, error) {
	a, err := g.cfg.Store.GoogleAccount(ctx, u.ID)
	if errors.Is(err, hearth.ErrNotFound) {
		return "Google isn't connected: I use Hearth's own calendar. Say “connect google” to use your Google Calendar.", nil
	}
	if err != nil {
		return "", err
	}
	if !a.RevokedAt.IsZero() {
		return fmt.Sprintf("Google (%s) stopped accepting my access on %s, so I'm using Hearth's own calendar. Say “connect google” to reconnect.", markdown.Escape(a.Email), a.RevokedAt.Format("Jan 2")), nil
	}
	cals, err := g.cfg.Store.GoogleCalendars(ctx, u.ID)
	if err != nil {
		return "", err
	}
	loc := zoneOf(a)
	when := func(t time.Time) string {
		if t.IsZero() {
			return "not yet"
		}
		return t.In(loc).Format("Jan 2 at 3:04 PM")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Google is connected as %s.", markdown.Escape(a.Email))
	for _, c := range cals {
		name := c.Summary
		if c.CalendarID != "primary" || name == "" {
			name = c.CalendarID
		} else {
			name = "primary (" + c.Summary + ")"
		}
		fmt.Fprintf(&b, "\n• %s: last synced %s; ", markdown.Escape(name), when(c.SyncedAt))
		switch {
		case c.ChannelID != "":
			fmt.Fprintf(&b, "push notifications until %s", when(c.ChannelExpiresAt))
		case g.cfg.PublicURL == "":
			fmt.Fprintf(&b, "no push notifications (no public URL), checked every %s", g.cfg.PollInterval)
		default:
			b.WriteString("push notifications being set up")
		}
		if c.Default {
			b.WriteString("; new events go here")
		}
		if c.Family {
			b.WriteString("; family things go here")
		}
	}
	if hasScope(a.Scopes, ScopeGmail) {
		box, err := g.cfg.Store.GmailMailbox(ctx, u.ID)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(&b, "\n• Gmail: last checked %s, every %s", when(box.PolledAt), g.cfg.PollInterval)
		switch {
		case box.WatchExpiresAt.After(g.cfg.Now()):
			fmt.Fprintf(&b, "; new mail pushed at once (watch until %s)", when(box.WatchExpiresAt))
		case g.gmailPush():
			b.WriteString("; push being set up")
		}
	}
	if hasScope(a.Scopes, ScopeContacts) || hasScope(a.Scopes, ScopeOtherContacts) {
		b.WriteString("\n• Contacts: I look up the addresses of people you email (read-only)")
	}
	return b.String(), nil
}
