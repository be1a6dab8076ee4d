package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowserImport sends a file from the page's paperclip (upload.js):
// the summary arrives with its buttons, and Approve imports it.
func TestBrowserImport(t *testing.T) {
	t.Parallel()
	browser := findChromium(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	base, app, _ := startApp(t)
	tab := startBrowser(t, ctx, browser)
	w := &pageWaiter{t: t, ctx: tab, app: app}
	file := filepath.Join(t.TempDir(), "todo.csv")
	if err := os.WriteFile(file, []byte("Task,Due\nPay rent,2026-12-01\nCall the plumber,\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w.do("open the page", chromedp.Navigate(base+"/"), chromedp.WaitVisible(chromedp.ID("signin")))
	w.do("sign in",
		chromedp.SendKeys(chromedp.ID("name"), "Ivo"),
		chromedp.Click(chromedp.CSS(`#signin button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.ID("chat")),
	)
	w.until("the header names the user", `document.getElementById("who").textContent.startsWith("Ivo")`)
	w.do("choose the file", chromedp.SetUploadFiles(chromedp.ID("file"), []string{file}))
	w.until("the summary", `[...document.querySelectorAll("#log li.bot")].some(li => li.textContent.includes("2 new to-dos"))`)
	w.do("click Approve", chromedp.Click(chromedp.CSS(`#log li.bot button[data-button-id$=":approve"]`)))
	w.until("the confirmation", `[...document.querySelectorAll("#log li.bot")].some(li => li.textContent.includes("Imported from"))`)
	if got := w.text(chromedp.CSS("#chat-error")); got != "" {
		t.Errorf("chat error shown: %q", got)
	}
	w.checkExceptions()
}
