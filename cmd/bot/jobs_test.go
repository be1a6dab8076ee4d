package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/pipelinetest"
)

// flakySender fails every delivery permanently until fixed, then records
// what it sends.
type flakySender struct {
	mu    sync.Mutex
	fixed bool
	sent  []string
}

func (f *flakySender) Send(_ context.Context, d hearth.Delivery) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.fixed {
		return "", fmt.Errorf("%w: chat not found", hearth.ErrPermanent)
	}
	f.sent = append(f.sent, d.Text)
	return "tg:" + strconv.Itoa(len(f.sent)), nil
}

func (f *flakySender) fix() { f.mu.Lock(); f.fixed = true; f.mu.Unlock() }

func (f *flakySender) count() int { f.mu.Lock(); defer f.mu.Unlock(); return len(f.sent) }

// TestDeadLetters: a delivery the platform refuses for good becomes a
// dead letter; `bot jobs failed` shows it with its error and whose turn it
// was, the metrics count it, and `bot jobs retry` sends it once the
// platform takes it.
func TestDeadLetters(t *testing.T) {
	t.Parallel()
	base, app, _ := startApp(t)
	ctx := context.Background()
	tg := &flakySender{}
	app.Senders[hearth.ChannelTelegram] = tg
	if _, err := app.Inbox.Accept(ctx, hearth.Inbound{
		Channel: hearth.ChannelTelegram, ExternalID: "update:1", ConversationKey: "777", UserKey: "777",
		UserName: "Tess", Timezone: "Europe/Berlin", Kind: hearth.KindMessage, Text: "remember that the boiler code is 1234",
	}); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	pipelinetest.WaitForJobs(t, app.River, "the delivery to fail", func() bool {
		out.Reset()
		if err := JobsFailed(ctx, app.Config, 20, &out); err != nil {
			t.Fatal(err)
		}
		return strings.Contains(out.String(), "deliver")
	})
	report := out.String()
	for _, want := range []string{"cancelled", "Tess", "chat not found", "bot jobs retry"} {
		if !strings.Contains(report, want) {
			t.Fatalf("jobs failed report lacks %q:\n%s", want, report)
		}
	}
	res, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	metrics, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !regexp.MustCompile(`hearth_jobs\{queue="deliveries",state="cancelled"\} 1`).Match(metrics) {
		t.Errorf("metrics do not count the dead letter:\n%s", grepLines(string(metrics), "hearth_jobs"))
	}
	if !strings.Contains(string(metrics), `hearth_stage_duration_seconds_count{stage="intent"}`) {
		t.Errorf("metrics have no stage latencies:\n%s", grepLines(string(metrics), "hearth_stage"))
	}

	id := regexp.MustCompile(`(?m)^(\d+)\s+deliver`).FindStringSubmatch(report)
	if id == nil {
		t.Fatalf("no job id in:\n%s", report)
	}
	n, _ := strconv.ParseInt(id[1], 10, 64)
	if err := JobsRetry(ctx, app.Config, 999999, io.Discard); err == nil {
		t.Fatal("retrying a job that does not exist")
	}
	tg.fix()
	if err := JobsRetry(ctx, app.Config, n, io.Discard); err != nil {
		t.Fatal(err)
	}
	pipelinetest.WaitForJobs(t, app.River, "the retried delivery", func() bool { return tg.count() == 1 })
	if err := JobsRetry(ctx, app.Config, n, io.Discard); err == nil {
		t.Fatal("a delivered job retried again")
	}
	out.Reset()
	if err := JobsFailed(ctx, app.Config, 20, &out); err != nil || !strings.Contains(out.String(), "no failed jobs") {
		t.Fatalf("after the retry: %q %v", out.String(), err)
	}
}

func grepLines(s, sub string) string {
	var keep []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}
