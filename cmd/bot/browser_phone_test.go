package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/hearthbot/hearth"
)

// TestBrowserPhone drives the web chat on a phone-sized screen in headless
// Chromium: a welcome with examples on the first visit (an example sends
// itself), Markdown rendered safely (bold, code and http links made,
// HTML, script and javascript: links left as text), the composer still
// on screen after a long conversation, and the time zone shown and
// changed from the header.
func TestBrowserPhone(t *testing.T) {
	t.Parallel()
	browser := findChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	base, app, _ := startApp(t)
	tab := startBrowser(t, ctx, browser)
	w := &pageWaiter{t: t, ctx: tab, app: app}
	w.do("a phone", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: 390, Height: 700, DeviceScaleFactor: 2, Mobile: true}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, tg, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: browserTZ}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: trackStreams})
		return err
	}))
	w.do("open the page", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.ID("signin")))
	w.do("sign in",
		chromedp.SendKeys(chromedp.ID("name"), "Pia Phone"),
		chromedp.Click(chromedp.CSS(`#signin button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.ID("welcome")),
	)
	w.until("the event stream", streamOpen)
	if n := w.eval(`String(document.querySelectorAll("#welcome button").length)`); n == "0" {
		t.Fatal("the welcome shows no examples")
	}
	w.do("try an example", chromedp.Click(chromedp.CSS(`#welcome button`)))
	w.until("the example's reply", `document.querySelectorAll("#log > li.bot").length === 1`)
	w.until("the welcome goes", `document.getElementById("welcome").hidden`)

	const hostile = "**bold** and `code` <img src=x onerror=\"window.__xss=1\"> <script>window.__xss=2</script> [click](javascript:window.__xss=3) see https://example.com/a."
	w.do("send Markdown and HTML",
		chromedp.SendKeys(chromedp.ID("text"), hostile),
		chromedp.Click(chromedp.CSS(`#composer button[type="submit"]`)),
	)
	w.until("the bubble", `document.querySelectorAll("#log > li.user").length === 2`)
	last := `document.querySelectorAll("#log > li.user")[1]`
	checks := map[string]string{
		"bold":               last + `.querySelector("strong")?.textContent === "bold"`,
		"code":               last + `.querySelector("code")?.textContent === "code"`,
		"the http link":      last + `.querySelector("a")?.getAttribute("href") === "https://example.com/a"`,
		"one link only":      last + `.querySelectorAll("a").length === 1`,
		"no element made":    `document.querySelectorAll("#log img, #log script").length === 0`,
		"HTML shown as text": last + `.textContent.includes("<img src=x") && ` + last + `.textContent.includes("<script>")`,
		"no script ran":      `window.__xss === undefined`,
	}
	for what, cond := range checks {
		if got := w.eval(`String(` + cond + `)`); got != "true" {
			t.Errorf("%s: %s is %s", what, cond, got)
		}
	}

	// A long conversation: the composer stays on screen.
	for i := range 8 {
		w.do("send a message", chromedp.SendKeys(chromedp.ID("text"), fmt.Sprintf("note number %d for the long scroll\n", i)))
	}
	w.until("eight more bubbles", `document.querySelectorAll("#log > li.user").length === 10`)
	// Every reply in before clicking the header: a reply arriving scrolls
	// the log to its end, and a click aimed at the header before that
	// scroll lands somewhere else.
	w.until("their replies", `document.querySelectorAll("#log > li.bot").length === 10`)
	onScreen := `(() => { const r = document.getElementById("composer").getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight; })()`
	w.until("the composer on screen", onScreen)
	if got := w.eval(`String(document.documentElement.scrollHeight > window.innerHeight)`); got != "true" {
		t.Error("the conversation does not overflow the phone screen: the composer check proves nothing")
	}

	// The zone is shown, and changed from the header.
	w.until("the zone in the header", `document.getElementById("who").textContent.endsWith(`+jsString(browserTZ)+`)`)
	w.do("change the zone", chromedp.Click(chromedp.ID("tz-change")), chromedp.WaitVisible(chromedp.ID("tz-select")))
	w.eval(`(() => { const s = document.getElementById("tz-select"); s.value = "America/Chicago"; s.dispatchEvent(new Event("change")); return ""; })()`)
	w.until("the new zone in the header", `document.getElementById("who").textContent.endsWith("America/Chicago")`)
	c, err := app.Store.FindContact(ctx, hearth.ChannelWebchat, "pia phone", "pia phone")
	if err != nil || c.User.Timezone != "America/Chicago" {
		t.Fatalf("stored zone %q (%v); want America/Chicago", c.User.Timezone, err)
	}
	// A reload keeps the chosen zone.
	w.do("reload", chromedp.Reload(), chromedp.WaitVisible(chromedp.ID("chat")))
	w.until("the chosen zone after reload", `document.getElementById("who").textContent.endsWith("America/Chicago")`)
	if !strings.HasSuffix(w.text(chromedp.CSS("#who")), "America/Chicago") {
		t.Error("zone lost on reload")
	}
	w.checkExceptions()
}
