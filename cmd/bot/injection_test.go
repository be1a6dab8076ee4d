package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/llm/llmtest"
)

// readInjections reads testdata/injections.txt.
func readInjections(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("testdata/injections.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	if len(out) < 10 {
		t.Fatalf("%d injections; want 10 or more", len(out))
	}
	return out
}

var (
	dataElement = regexp.MustCompile(`(?s)<data label="[^"]*">\n.*?\n</data>`)
	eventIDRe   = regexp.MustCompile(`event id=(\d+)`)
)

// TestInjectionNeverSkipsApproval plants each injection in the description
// of an event, asks for a change to that event so the calendar prompt shows
// it, and answers with a model that obeys the injection: deleting the
// event, inviting strangers, or emailing. Whatever it tries, nothing
// high-risk happens without approval, and the text reached the model only
// inside a <data> element.
func TestInjectionNeverSkipsApproval(t *testing.T) {
	t.Parallel()
	injections := readInjections(t)
	b := newBrain(t)
	base, app, fake := startModelApp(t, b, nil)
	ctx := context.Background()

	// What an obeying model does, in turn: each is high risk or not the
	// calendar planner's to do.
	obey := []func(id string) string{
		func(id string) string { return fmt.Sprintf(`{"kind":"calendar.delete","payload":"{\"id\":%s}"}`, id) },
		func(id string) string {
			return fmt.Sprintf(`{"kind":"calendar.update","payload":"{\"id\":%s,\"update\":{\"attendees\":[\"attacker@evil.example\"]}}"}`, id)
		},
		func(string) string {
			return `{"kind":"calendar.create","payload":"{\"title\":\"Meet\",\"start\":\"2030-01-01T10:00:00Z\",\"end\":\"2030-01-01T11:00:00Z\",\"attendees\":[\"attacker@evil.example\"]}"}`
		},
		func(string) string {
			return `{"kind":"email.send","payload":"{\"to\":[\"attacker@evil.example\"],\"subject\":\"hi\",\"body\":\"wire $500\"}"}`
		},
	}
	for i, inj := range injections {
		t.Run(fmt.Sprintf("injection %d", i+1), func(t *testing.T) {
			c := newChatter(t, base, app, fmt.Sprintf("Target%d", i), "Europe/Berlin")
			uid := c.contact().User.ID
			now := time.Now().In(mustZone(t, "Europe/Berlin"))
			start := time.Date(now.Year(), now.Month(), now.Day()+1, 10, 0, 0, 0, now.Location())
			ev, err := app.Store.CreateEvent(ctx, "", hearth.CalendarEvent{UserID: uid, Title: "Dentist appointment", Start: start, End: start.Add(time.Hour), Description: inj})
			if err != nil {
				t.Fatal(err)
			}
			var prompt string
			b.set(func(call llmtest.Call) (llmtest.Answer, bool) {
				if !strings.HasPrefix(call.System, "You plan") || !strings.Contains(call.User, "dentist") {
					return llmtest.Answer{}, false
				}
				prompt = call.User
				id := "0"
				if m := eventIDRe.FindStringSubmatch(call.User); m != nil {
					id = m[1]
				}
				return llmtest.Answer{Text: `{"understood":"as the event says","actions":[` + obey[i%len(obey)](id) + `]}`}, true
			})
			defer b.set(nil)
			before := len(fake.Calls())
			r := c.say("Move my dentist appointment tomorrow to 4pm")
			if len(fake.Calls()) == before || prompt == "" {
				t.Fatalf("the calendar prompt was not sent to the model (reply %q)", r.Text)
			}

			// Quoted, delimited, never outside the data element.
			escaped := html.EscapeString(inj)
			escaped = strings.ReplaceAll(escaped, "&#34;", `"`) // Quote leaves quotes as they are
			escaped = strings.ReplaceAll(escaped, "&#39;", "'")
			found := false
			for _, el := range dataElement.FindAllString(prompt, -1) {
				found = found || strings.Contains(el, escaped)
			}
			if !found {
				t.Fatalf("the injection is not inside a <data> element:\n%s", prompt)
			}
			if outside := dataElement.ReplaceAllString(prompt, ""); strings.Contains(outside, inj[:20]) || strings.Contains(outside, escaped[:20]) {
				t.Fatalf("the injection leaks outside <data>:\n%s", outside)
			}

			// Nothing high-risk ran: the event is there, unchanged; no
			// stranger invited; no email sent.
			evs, err := app.Store.FindEvents(ctx, hearth.CalendarEventFilter{UserID: uid, From: now.Add(-time.Hour), To: now.AddDate(1, 0, 0), Limit: 50})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range evs {
				if len(e.Attendees) > 0 {
					t.Fatalf("an event with attendees exists without approval: %+v", e)
				}
			}
			if !containsEvent(evs, ev.ID) {
				t.Fatalf("the event was deleted without approval (reply %q)", r.Text)
			}
			sent, err := app.Store.FindEmails(ctx, uid, hearth.EmailSent, 10)
			if err != nil || len(sent) != 0 {
				t.Fatalf("sent emails %+v, %v", sent, err)
			}
			tr := c.lastTrace()
			for _, a := range tr.Actions {
				// A plain move (the user's own request) may run; deletes
				// and sends may only wait. Attendees were checked above.
				if (a.Kind == "calendar.delete" || a.Kind == "email.send") && a.Status != "awaiting_approval" {
					t.Fatalf("high-risk %s is %s; want awaiting_approval", a.Kind, a.Status)
				}
			}
			raw, _ := json.Marshal(tr.Actions)
			t.Logf("reply %q; actions %s", r.Text, raw)
		})
	}
}

func containsEvent(evs []hearth.CalendarEvent, id int64) bool {
	for _, e := range evs {
		if e.ID == id {
			return true
		}
	}
	return false
}

// TestInjectionInEmailBody: an injection in an email body reaches only the
// reply prompt, quoted; a reply cannot act, and an obeying model's false
// claim ("I've sent it") is replaced by the template.
func TestInjectionInEmailBody(t *testing.T) {
	t.Parallel()
	injections := readInjections(t)
	b := newBrain(t)
	// Every intent goes to the model, which reads this as a question about email.
	base, app, _ := startModelApp(t, b, func(c *Config) { c.LLMConfident = 1 })
	ctx := context.Background()
	for i, inj := range injections {
		t.Run(fmt.Sprintf("injection %d", i+1), func(t *testing.T) {
			c := newChatter(t, base, app, fmt.Sprintf("Reader%d", i), "UTC")
			uid := c.contact().User.ID
			if _, err := app.Store.CreateDraft(ctx, "", hearth.Email{UserID: uid, To: []string{"ann@example.com"}, Subject: "Saturday", Body: inj}); err != nil {
				t.Fatal(err)
			}
			var prompt string
			b.set(func(call llmtest.Call) (llmtest.Answer, bool) {
				switch {
				case strings.HasPrefix(call.System, "You classify"):
					return llmtest.Answer{Text: `{"intent":"ask_info","domains":["email"],"confidence":0.9}`}, true
				case strings.HasPrefix(call.System, "You are Hearth"):
					prompt = call.User
					return llmtest.Answer{Text: "Done! I've sent the email to all your contacts."}, true
				}
				return llmtest.Answer{}, false
			})
			defer b.set(nil)
			r := c.say("Any email drafts?")
			if prompt == "" {
				t.Fatalf("no reply prompt (reply %q)", r.Text)
			}
			escaped := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(inj)
			found := false
			for _, el := range dataElement.FindAllString(prompt, -1) {
				found = found || strings.Contains(el, escaped)
			}
			if !found || strings.Contains(dataElement.ReplaceAllString(prompt, ""), escaped[:20]) {
				t.Fatalf("the email body is not (only) inside <data>:\n%s", prompt)
			}
			if strings.Contains(r.Text, "I've sent") {
				t.Fatalf("reply %q repeats the model's false claim", r.Text)
			}
			sent, err := app.Store.FindEmails(ctx, uid, hearth.EmailSent, 10)
			if err != nil || len(sent) != 0 {
				t.Fatalf("sent %+v, %v", sent, err)
			}
			if tr := c.lastTrace(); len(tr.Actions) != 0 {
				t.Fatalf("actions %+v; a question acts on nothing", tr.Actions)
			}
		})
	}
}
