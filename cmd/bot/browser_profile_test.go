package main

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserProfile drives the header's profile in headless Chromium on
// a Hearth with Google configured (the fake Google): the name drafts are
// signed with is shown and changed apart from the sign-in name, and
// "Connect Google" opens the consent link in a new tab; once the fake has
// consented there, the page shows the connected account by itself.
func TestBrowserProfile(t *testing.T) {
	t.Parallel()
	browser := findChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	base, app, fake := startGoogleApp(t)
	fake.SetConsent("rita@example.com")
	tab := startBrowser(t, ctx, browser)
	w := &pageWaiter{t: t, ctx: tab, app: app}
	w.do("open the page", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.ID("signin")))
	w.do("sign in",
		chromedp.SendKeys(chromedp.ID("name"), "rita77"),
		chromedp.Click(chromedp.CSS(`#signin button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.ID("profile")),
	)
	w.until("the sign-in name as the drafts' name", `document.getElementById("display-name").textContent === "rita77"`)
	w.until("the Connect Google button", `!document.getElementById("google-connect").hidden`)

	w.do("change the name",
		chromedp.Click(chromedp.ID("name-change")),
		chromedp.WaitVisible(chromedp.ID("name-form")),
	)
	w.eval(`(() => { document.getElementById("name-input").value = "Rita Moreno"; return ""; })()`)
	w.do("save it", chromedp.Click(chromedp.CSS(`#name-form button[type="submit"]`)))
	w.until("the new name in the header", `document.getElementById("display-name").textContent === "Rita Moreno" && document.getElementById("name-form").hidden`)
	u, err := app.Store.FindUserByName(ctx, "rita77")
	if err != nil || u.DisplayName != "Rita Moreno" {
		t.Fatalf("stored name %q (%v); want Rita Moreno, found by the sign-in name", u.DisplayName, err)
	}

	w.do("connect Google", chromedp.Click(chromedp.ID("google-connect")))
	w.until("the connected account", `document.getElementById("google-status").textContent === "Google: rita@example.com"`)
	if got := w.text(chromedp.CSS("#google-connect")); got != "Reconnect Google" {
		t.Errorf("button after connecting %q; want Reconnect Google", got)
	}
	w.checkExceptions()
}
