package main

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/adapters/webchat"
)

// upload sends a file as the web chat page does and returns the status.
func (c *chatter) upload(name string, data []byte) (int, map[string]any) {
	c.t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	w.WriteField("user", c.user) //nolint:errcheck // a bytes.Buffer does not fail
	part, err := w.CreateFormFile("file", name)
	if err != nil {
		c.t.Fatal(err)
	}
	part.Write(data) //nolint:errcheck // a bytes.Buffer does not fail
	w.Close()
	res, err := http.Post(c.base+"/api/webchat/files", w.FormDataContentType(), &body)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	json.NewDecoder(res.Body).Decode(&out) //nolint:errcheck // checked through the status
	return res.StatusCode, out
}

func (c *chatter) send(name string, data []byte) webchat.Message {
	c.t.Helper()
	if code, body := c.upload(name, data); code != http.StatusAccepted {
		c.t.Fatalf("upload %s: %d %v", name, code, body)
	}
	return c.reply("reply to the file " + name)
}

func (c *chatter) count(query string, args ...any) int {
	c.t.Helper()
	var n int
	if err := c.app.Store.Pool().QueryRow(context.Background(), query, args...).Scan(&n); err != nil {
		c.t.Fatal(err)
	}
	return n
}

// TestImportScenario brings a Latin-1, semicolon-separated contact list
// in through the web chat: a question about an unknown column, a match
// with a fact Hearth had, the tier question, the summary, Approve, undo,
// and the learned mapping the second time.
func TestImportScenario(t *testing.T) {
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Ines", "Europe/Berlin")
	ctx := context.Background()
	uid := c.contact().User.ID
	old, err := app.Store.StoreMemory(ctx, "", hearth.Memory{UserID: uid, Content: "Jürgen Weiß's phone number is +49 30 999", About: "Jürgen Weiß"})
	if err != nil {
		t.Fatal(err)
	}
	file, err := charmap.ISO8859_1.NewEncoder().Bytes([]byte("Name;Geburtstag;Telefon;Schuhgröße\nJürgen Weiß;15.03.1980;+49 30 1234567;43\nAnna Berg;02.11.1990;;38\n;01.01.2000;;\n"))
	if err != nil {
		t.Fatal(err)
	}

	q := c.send("freunde.csv", file)
	mustContain(t, q, "3 rows", "a list of people", "Schuhgröße", "43")
	q = c.click(q, "Keep as a note")
	mustContain(t, q, "1 row of these match", "+49 30 999", "update")
	q = c.click(q, "Update them")
	mustContain(t, q, "2 facts don't say how private")
	sum := c.click(q, "Only me")
	mustContain(t, sum, "2 people", "1 that match", "will be updated", "1 row skipped: no name (row 4)", "Geburtstag → birthday", "Nothing is written until you approve")
	if n := c.count(`SELECT count(*) FROM facts WHERE user_id = $1`, uid); n != 1 {
		t.Fatalf("%d facts before approval; want the 1 there was", n)
	}
	done := c.click(sum, "Approve")
	mustContain(t, done, "Imported from “freunde.csv”", "5 facts", "1 updated", "undo the import")

	if n := c.count(`SELECT count(*) FROM facts WHERE user_id = $1 AND import_id IS NOT NULL AND deleted_at IS NULL`, uid); n != 5 {
		t.Errorf("%d imported facts; want 5", n)
	}
	if n := c.count(`SELECT count(*) FROM facts WHERE content = 'Jürgen Weiß''s birthday is March 15, 1980' AND tier = 2 AND source = 'import'`); n != 1 {
		t.Error("the birthday fact is missing or not personal")
	}
	if n := c.count(`SELECT count(*) FROM facts WHERE content LIKE '%Schuhgröße: 43' AND tier = 1`); n != 1 {
		t.Error("the note fact did not get the tier asked for")
	}
	if n := c.count(`SELECT count(*) FROM facts WHERE id = $1 AND invalidated_at IS NOT NULL AND superseded_by IS NOT NULL`, old.ID); n != 1 {
		t.Error("the old phone number was not corrected")
	}
	if n := c.count(`SELECT count(*) FROM audit_log WHERE user_id = $1 AND kind LIKE 'import.%'`, uid); n != 6 {
		t.Errorf("%d audit entries; want 5 created and 1 merged", n)
	}
	if n := c.count(`SELECT count(*) FROM schedules WHERE kind = 'birthday'`); n > 2 {
		t.Errorf("%d birthday schedules", n)
	}

	undone := c.say("undo the import")
	mustContain(t, undone, "Undone", "freunde.csv")
	if n := c.count(`SELECT count(*) FROM facts WHERE user_id = $1 AND deleted_at IS NULL AND invalidated_at IS NULL`, uid); n != 1 {
		t.Errorf("%d current facts after undo; want the 1 there was", n)
	}
	if n := c.count(`SELECT count(*) FROM facts WHERE id = $1 AND invalidated_at IS NULL AND valid_to IS NULL AND superseded_by IS NULL`, old.ID); n != 1 {
		t.Error("undo did not restore the old phone number")
	}
	mustContain(t, c.say("undo the import"), "no import to undo")

	// The same layout again: the confirmed mapping is proposed, no
	// column question.
	again := c.send("freunde-2.csv", file)
	mustContain(t, again, "the way you confirmed last time")
	if strings.Contains(again.Text, "What is the column") {
		t.Errorf("asked about a column again: %q", again.Text)
	}
	mustContain(t, c.say("forget my import settings"), "forgot how to read 1 kind of file")
	mustContain(t, c.say("cancel the import"), "cancelled the import")
}

// TestImportConversation: an unrelated message in the middle of an
// import is answered as itself and the import waits; "continue the
// import" asks again; broken and oversized files are refused with their
// reason and write nothing.
func TestImportConversation(t *testing.T) {
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Tom", "America/New_York")
	uid := c.contact().User.ID
	q := c.send("todo.csv", []byte("Task,Due,Effort\nPay rent,2026-12-01,2h\nCall plumber,,30m\n"))
	mustContain(t, q, "a to-do list", "Effort")
	other := c.say("remind me to water the plants tomorrow at 9am")
	if strings.Contains(other.Text, "Effort") {
		t.Fatalf("the import swallowed an unrelated message: %q", other.Text)
	}
	back := c.say("continue the import")
	mustContain(t, back, "Back to “todo.csv”", "Effort")
	sum := c.click(back, "Ignore it")
	mustContain(t, sum, "2 new to-dos", "Effort → ignored")
	// An old button of an answered question changes nothing.
	if code, _ := c.clickStatus(back, "Keep as a note"); code == http.StatusAccepted {
		mustContain(t, c.reply("stale click"), "already answered")
	}
	mustContain(t, c.click(sum, "Approve"), "2 to-dos")
	if n := c.count(`SELECT count(*) FROM tasks WHERE user_id = $1 AND import_id IS NOT NULL`, uid); n != 2 {
		t.Errorf("%d imported tasks; want 2", n)
	}

	broken := c.send("cal.ics", []byte("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:x\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n"))
	mustContain(t, broken, "I couldn't import “cal.ics”", "has no start", "Nothing was changed")
	if code, _ := c.upload("big.csv", bytes.Repeat([]byte("a,b\n"), webchat.MaxUploadBytes/4+1)); code != http.StatusRequestEntityTooLarge {
		t.Errorf("an 11 MB upload got %d; want 413", code)
	}
	if n := c.count(`SELECT count(*) FROM imports WHERE user_id = $1`, uid); n != 1 {
		t.Errorf("%d imports; want only the approved one", n)
	}
}

// TestImportedPeopleAreKnown: the people a contacts file brings in are
// people memory knows, so "email Sarah" finds the address the file held;
// undoing the import removes them again.
func TestImportedPeopleAreKnown(t *testing.T) {
	base, app, _ := startApp(t)
	c := newChatter(t, base, app, "Iris", "UTC")
	uid := c.contact().User.ID
	q := c.send("contacts.csv", []byte("Name,Email,Phone\nSarah Kim,sarah.kim@example.com,+1 555 0100\nTom Berg,tom@example.com,\n"))
	for i := 0; i < 5 && len(q.Buttons) > 0 && !strings.Contains(q.Text, "Nothing is written until you approve"); i++ {
		q = c.click(q, q.Buttons[0].Label)
	}
	mustContain(t, c.click(q, "Approve"), "Imported from “contacts.csv”")
	if n := c.count(`SELECT count(*) FROM entities WHERE user_id = $1 AND import_id IS NOT NULL`, uid); n != 2 {
		t.Fatalf("%d people made by the import; want 2", n)
	}
	if n := c.count(`SELECT count(*) FROM facts f JOIN entities e ON e.id = f.entity_id
		WHERE f.user_id = $1 AND f.attribute = 'email' AND f.value = 'sarah.kim@example.com' AND e.name = 'Sarah Kim'`, uid); n != 1 {
		t.Fatalf("Sarah's address is not her email attribute (%d)", n)
	}
	draft := c.say("Email Sarah that I'll be late")
	mustContain(t, draft, "sarah.kim@example.com", "I'll be late")

	mustContain(t, c.say("undo the import"), "Undone")
	if n := c.count(`SELECT count(*) FROM entities WHERE user_id = $1`, uid); n != 0 {
		t.Fatalf("%d people left after undo; want none", n)
	}
}
