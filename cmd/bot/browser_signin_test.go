package main

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"
)

// TestBrowserSignin drives real sign-in in headless Chromium, with
// Chromium's virtual authenticator standing in for a phone or a security
// key: a sign-in link opened from a chat signs the browser in ("Signed in
// as …"), a passkey is added, sign out ends the session, the passkey
// signs the browser back in with the user never named, the session's
// CSRF token lets the page talk, and a spent link is refused on the page.
func TestBrowserSignin(t *testing.T) {
	t.Parallel()
	browser := findChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	loopback, app, _ := startAppWith(t, func(c *Config) { c.DevSignin = false })
	u, err := url.Parse(loopback)
	if err != nil {
		t.Fatal(err)
	}
	// Passkeys without HEARTH_PUBLIC_URL belong to localhost.
	base := "http://localhost:" + u.Port()
	ann, err := app.Store.AddWebUser(ctx, "Ann")
	if err != nil {
		t.Fatal(err)
	}
	link, err := app.SignIn.NewLink(ctx, ann.User.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, token, _ := strings.Cut(link, "#signin=")

	tab := startBrowser(t, ctx, browser)
	w := &pageWaiter{t: t, ctx: tab, app: app}
	w.do("prepare the tab", chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: browserTZ}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, tg, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: trackStreams}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, tg, webauthn.Enable, webauthn.EnableParams{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, webauthn.AddVirtualAuthenticator, webauthn.AddVirtualAuthenticatorParams{Options: &webauthn.VirtualAuthenticatorOptions{
			Protocol: webauthn.AuthenticatorProtocolCtap2, Transport: webauthn.AuthenticatorTransportInternal,
			HasResidentKey: true, HasUserVerification: true, IsUserVerified: true, AutomaticPresenceSimulation: true,
		}})
		return err
	}))
	signedIn := `document.getElementById("who").textContent === ` + jsString("Signed in as Ann · "+browserTZ)

	// Signed out, the page offers a passkey and explains links; no name form.
	w.do("open the page", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.ID("passkey-signin")))
	w.until("no name-only form", signinHidden)

	// The link from a chat signs in, and leaves the address bar. (A new
	// query makes each visit a page load, not a jump within the page.)
	w.do("open the sign-in link", chromedp.Navigate(base+"/?from=chat#signin="+token), chromedp.WaitVisible(chromedp.ID("chat")))
	w.until("signed in as Ann", signedIn)
	if got := w.eval(`location.hash`); got != "" {
		t.Errorf("the token stays in the address bar: %q", got)
	}

	// Add a passkey, sign out, sign back in with it.
	w.do("add a passkey", chromedp.Click(chromedp.ID("add-passkey")))
	w.until("the passkey is added", `document.getElementById("account-note").textContent.startsWith("Passkey added")`)
	w.do("sign out", chromedp.Click(chromedp.ID("signout")), chromedp.WaitVisible(chromedp.ID("passkey-signin")))
	w.do("sign in with the passkey", chromedp.Click(chromedp.ID("passkey-signin")), chromedp.WaitVisible(chromedp.ID("chat")))
	w.until("signed in as Ann again", signedIn)

	// The page talks with its CSRF token: a message gets a reply.
	w.until("the event stream", streamOpen)
	w.do("send a message",
		chromedp.SendKeys(chromedp.ID("text"), "hello"),
		chromedp.Click(chromedp.CSS(`#composer button[type="submit"]`)),
	)
	w.until("the bot's reply", `document.querySelectorAll("#log li.bot").length >= 1`)
	if got := w.text(chromedp.CSS("#chat-error")); got != "" {
		t.Errorf("chat error: %q", got)
	}

	// Sign out everywhere, then open the spent link again: refused, said so.
	w.do("sign out everywhere", chromedp.Click(chromedp.ID("signout-all")), chromedp.WaitVisible(chromedp.ID("passkey-signin")))
	w.do("open the spent link", chromedp.Navigate(base+"/?again=1#signin="+token), chromedp.WaitVisible(chromedp.ID("passkey-signin")))
	w.until("the refusal", `document.getElementById("account-error").textContent.includes("not valid any more")`)
	w.checkExceptions()
}
