package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/hearthbot/hearth"
)

// browserTZ is the zone the headless browser reports; the host's zone is
// usually UTC, so a different one proves the page sends the browser's.
const browserTZ = "Europe/Berlin"

// waitTimeout bounds one wait for the page, under the test's overall
// deadline, so a stuck step still leaves a live page to report on.
const waitTimeout = 20 * time.Second

// trackStreams runs before the page's own scripts and keeps every
// EventSource the page opens in window.__hearthStreams.
const trackStreams = `(() => {
	const Native = window.EventSource;
	window.__hearthStreams = [];
	window.EventSource = class extends Native {
		constructor(...args) { super(...args); window.__hearthStreams.push(this); }
	};
})();`

// signinHidden holds when the sign-in form takes no room on the page.
const signinHidden = `getComputedStyle(document.getElementById("signin")).display === "none"`

// streamOpen holds when the page's newest event stream is connected.
const streamOpen = `(window.__hearthStreams || []).length > 0 && window.__hearthStreams.at(-1).readyState === EventSource.OPEN`

// TestBrowserWebchat drives the web chat page in headless Chromium against
// the App exactly as `bot serve` wires it (real Postgres, River workers,
// LISTEN/NOTIFY, the embedded page). It proves, end to end and through the
// browser's own JavaScript:
//
//   - the sign-in form shows the development-grade (name-only) notice;
//   - signing in sends the browser's time zone, which is stored on the user,
//     so the bot does not have to ask for one;
//   - asking to email someone shows the user's bubble, then the draft with
//     Approve, Cancel and Edit buttons, over the event stream;
//   - clicking Approve sends the email exactly once, redraws the prompt with
//     its outcome and without buttons, and the confirmation arrives;
//   - a reload remembers the user (localStorage) and shows the whole history
//     once, with no duplicates from the history load and the stream.
//
// It needs Chromium (deploy/install-browser.sh) and skips without one. Set
// HEARTH_SCREENSHOT=/path.png to keep a screenshot of the final page.
func TestBrowserWebchat(t *testing.T) {
	t.Parallel()
	browser := findChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	base, app, _ := startApp(t)
	tab := startBrowser(t, ctx, browser)
	w := &pageWaiter{t: t, ctx: tab, app: app}

	// The browser reports browserTZ, whatever the host's zone, and every
	// page remembers its event streams so the test can tell when one is open.
	w.do("prepare the tab", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: browserTZ}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: trackStreams})
		return err
	}))

	// Sign in.
	w.do("open the page", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.ID("signin")))
	notice := w.text(chromedp.CSS("#signin .notice"))
	if !strings.Contains(notice, "Sign-in is by name only") || !strings.Contains(notice, "anyone who can reach this page can use any name") {
		t.Errorf("sign-in notice = %q, want the development-grade warning", notice)
	}
	const name = "Ada Browser"
	w.do("sign in",
		chromedp.SendKeys(chromedp.ID("name"), name),
		chromedp.Click(chromedp.CSS(`#signin button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.ID("chat")),
	)
	w.until("the sign-in form to go away", signinHidden)
	w.until("the header names the user and zone", `document.getElementById("who").textContent === `+jsString(name+" · "+browserTZ))
	if got := w.text(chromedp.CSS("#signin-error")); got != "" {
		t.Errorf("sign-in error shown: %q", got)
	}
	key := strings.ToLower(name)
	c, err := app.Store.FindContact(ctx, hearth.ChannelWebchat, key, key)
	if err != nil {
		t.Fatalf("find the signed-in contact: %v", err)
	}
	if c.User.DisplayName != name || c.User.Timezone != browserTZ {
		t.Errorf("stored user = %q in %q, want %q in %q", c.User.DisplayName, c.User.Timezone, name, browserTZ)
	}

	// Ask for something risky: the user's bubble, then the draft with
	// Approve, Cancel and Edit.
	const text = "Email sarah@example.com that I'll be late"
	w.do("send a message",
		chromedp.SendKeys(chromedp.ID("text"), text),
		chromedp.Click(chromedp.CSS(`#composer button[type="submit"]`)),
	)
	w.until("the user's bubble", `document.querySelectorAll("#log li.user").length === 1`)
	w.until("the bot's reply", `document.querySelectorAll("#log li.bot").length === 1`)
	approve := w.eval(`document.querySelector('#log li.bot button').dataset.buttonId`)
	if !strings.HasPrefix(approve, "approve:") {
		t.Fatalf("first button of the reply is %q; want an approval", approve)
	}
	id := strings.TrimPrefix(approve, "approve:")
	want := []bubble{
		{From: "user", Text: text},
		{From: "bot", Text: "", Buttons: []button{{ID: approve, Label: "Approve"}, {ID: "cancel:" + id, Label: "Cancel"}, {ID: "edit:" + id, Label: "Edit"}}},
	}
	w.checkLog("after sending", want)
	if prompt := w.text(chromedp.CSS("#log li.bot")); !strings.Contains(prompt, "sarah@example.com") {
		t.Errorf("the approval prompt %q does not show the recipient", prompt)
	}
	if got := w.eval(`document.getElementById("text").value`); got != "" {
		t.Errorf("composer still holds %q after sending", got)
	}

	// Approve: the prompt is redrawn with its outcome and no buttons, and
	// the confirmation arrives.
	w.do("click Approve", chromedp.Click(chromedp.CSS(`#log li.bot button[data-button-id="`+approve+`"]`)))
	w.until("the confirmation", `document.querySelectorAll("#log li.bot").length === 2`)
	w.until("the prompt shows its outcome", `document.querySelector("#log li.bot").textContent.includes("Approved and done")`)
	want[1].Buttons = nil
	want = append(want, bubble{From: "bot", Text: ""})
	w.checkLog("after the click", want)
	if got := w.text(chromedp.CSS("#chat-error")); got != "" {
		t.Errorf("chat error shown: %q", got)
	}
	sent, err := app.Store.FindEmails(ctx, c.User.ID, hearth.EmailSent, 10)
	if err != nil || len(sent) != 1 {
		t.Fatalf("sent emails after Approve: %d, %v; want exactly 1", len(sent), err)
	}

	// Reload: the user is remembered and the history is shown once, the
	// answered prompt without its buttons.
	w.do("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.ID("chat")))
	w.until("no sign-in form after reload", signinHidden)
	w.until("the header after reload", `document.getElementById("who").textContent === `+jsString(name+" · "+browserTZ))
	// The stream opens after the history is rendered, and its first answer
	// carries anything after the history's cursor: once it is open, a
	// duplicate from it would already be on the page.
	w.until("the event stream after reload", streamOpen)
	w.checkLog("after reload", want)
	if got := w.text(chromedp.CSS("#signin-error")); got != "" {
		t.Errorf("error shown after reload: %q", got)
	}

	shot, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	path := filepath.Join(t.TempDir(), "webchat.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	if dst := os.Getenv("HEARTH_SCREENSHOT"); dst != "" {
		if err := os.WriteFile(dst, shot, 0o644); err != nil {
			t.Errorf("HEARTH_SCREENSHOT: %v", err)
		} else {
			t.Logf("screenshot saved to %s", dst)
		}
	}
	w.checkExceptions()
}

// findChromium returns the browser to drive, or skips the test.
func findChromium(t *testing.T) string {
	t.Helper()
	path := os.Getenv("HEARTH_CHROMIUM")
	if path == "" {
		path = "/usr/bin/chromium"
	}
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no Chromium at %s (set HEARTH_CHROMIUM, or run deploy/install-browser.sh): %v", path, err)
	}
	return path
}

// startBrowser launches headless Chromium with a fresh profile and returns
// the context of its first tab; the browser is closed when the test ends.
func startBrowser(t *testing.T, ctx context.Context, path string) context.Context {
	t.Helper()
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Headless,
		chromedp.NoSandbox, // tests run as root in containers
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		// No connection of the browser's own: this machine's network is
		// closed and refused connections slow or break the page.
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("disable-default-apps", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("password-store", "basic"),
		chromedp.WindowSize(900, 720),
	}
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	tab, cancelTab := chromedp.NewContext(allocCtx, chromedp.WithErrorf(t.Logf))
	// Cleanups run last-in first-out: the browser exits before its
	// profile directory is removed and before the App stops.
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
	})
	return tab
}

// pageWaiter runs browser steps and fails the test with the page's state
// and the server's log when one does not happen.
type pageWaiter struct {
	t   *testing.T
	ctx context.Context
	app *App

	once       sync.Once
	mu         sync.Mutex
	exceptions []string
}

func (w *pageWaiter) listen() {
	w.once.Do(func() {
		err := chromedp.Listen(w.ctx, func(ev any) {
			if e, ok := ev.(*runtime.EventExceptionThrown); ok {
				w.mu.Lock()
				defer w.mu.Unlock()
				msg := e.ExceptionDetails.Text
				if e.ExceptionDetails.Exception != nil && e.ExceptionDetails.Exception.Description != "" {
					msg = e.ExceptionDetails.Exception.Description
				}
				w.exceptions = append(w.exceptions, msg)
			}
		})
		if err != nil {
			w.t.Fatalf("start the browser: %v", err)
		}
	})
}

func (w *pageWaiter) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	w.t.Helper()
	w.listen()
	if err := chromedp.Do(w.ctx, steps...); err != nil {
		w.fail(what, err)
	}
}

func (w *pageWaiter) text(sel chromedp.CSS) string {
	w.t.Helper()
	w.listen()
	s, err := chromedp.Run(w.ctx, chromedp.TextContent(sel))
	if err != nil {
		w.fail("read "+string(sel), err)
	}
	return strings.TrimSpace(s)
}

func (w *pageWaiter) eval(expr string) string {
	w.t.Helper()
	s, err := chromedp.Run(w.ctx, chromedp.Evaluate[string](expr))
	if err != nil {
		w.fail("evaluate "+expr, err)
	}
	return s
}

// until waits, without sleeping, for a JavaScript condition to hold. The
// page checks it every 20 ms (not only on DOM changes: a stream opening
// changes no DOM).
func (w *pageWaiter) until(what, cond string) {
	w.t.Helper()
	w.listen()
	_, err := chromedp.Run(w.ctx, chromedp.Poll[chromedp.Void](cond, chromedp.WithPollingInterval(20*time.Millisecond), chromedp.WithPollingTimeout(waitTimeout)))
	if err != nil {
		w.fail("wait for "+what, err)
	}
}

func (w *pageWaiter) fail(what string, err error) {
	w.t.Helper()
	state := "(the browser is gone)"
	if w.ctx.Err() == nil {
		if html, herr := chromedp.Run(w.ctx, chromedp.Evaluate[string](`document.querySelector("main").outerHTML`)); herr == nil {
			state = html
		}
	}
	w.t.Fatalf("%s: %v\npage:\n%s\nexceptions: %q", what, err, state, w.snapshotExceptions())
}

func (w *pageWaiter) snapshotExceptions() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.exceptions...)
}

func (w *pageWaiter) checkExceptions() {
	w.t.Helper()
	if ex := w.snapshotExceptions(); len(ex) > 0 {
		w.t.Errorf("the page threw: %q", ex)
	}
}

// bubble is one rendered transcript line; Text is matched as a prefix.
type bubble struct {
	From    string   `json:"from"`
	Text    string   `json:"text"`
	Buttons []button `json:"buttons"`
}

type button struct {
	ID       string `json:"id"`
	Label    string `json:"label"`
	Disabled bool   `json:"disabled"`
}

const readLog = `[...document.querySelectorAll("#log > li")].map(li => ({
	from: li.className,
	text: li.firstChild && li.firstChild.nodeType === Node.TEXT_NODE ? li.firstChild.nodeValue : "",
	buttons: [...li.querySelectorAll(".buttons button")].map(b => ({id: b.dataset.buttonId, label: b.textContent, disabled: b.disabled})),
}))`

// checkLog compares the rendered transcript with want, in order, and fails
// on anything missing, extra or duplicated.
func (w *pageWaiter) checkLog(when string, want []bubble) {
	w.t.Helper()
	got, err := chromedp.Run(w.ctx, chromedp.Evaluate[[]bubble](readLog))
	if err != nil {
		w.fail("read the transcript "+when, err)
	}
	ok := len(got) == len(want)
	for i := 0; ok && i < len(got); i++ {
		g, x := got[i], want[i]
		ok = g.From == x.From && strings.HasPrefix(g.Text, x.Text) && len(g.Buttons) == len(x.Buttons)
		for j := 0; ok && j < len(g.Buttons); j++ {
			ok = g.Buttons[j] == x.Buttons[j]
		}
	}
	if !ok {
		w.t.Fatalf("transcript %s:\n got  %+v\n want %+v", when, got, want)
	}
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s) // a string always marshals
	return string(b)
}

// syncBuffer is a bytes.Buffer safe for the App's concurrent loggers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
