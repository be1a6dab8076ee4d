package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"os"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/fileimport"
)

// BenchmarkImport measures an import of a 50,000-row contact list (name,
// birthday, phone, email: 150,000 facts) through the web chat, from the
// upload until the approved import is committed: the upload, the file
// turn (read, understand, match, summary), the Approve click and its
// turn (read again, the commit by COPY, the audit rows). It reports the
// seconds to the summary and to the commit, the peak Go heap (sampled
// every 5 ms) and the peak RSS of the process (VmHWM, reset before the
// upload), which includes the server, River and the Postgres client.
//
//	go test -run NONE -bench Import -benchtime 1x -timeout 20m ./cmd/bot
func BenchmarkImport(b *testing.B) {
	rows := fileimport.MaxRows
	if s := os.Getenv("HEARTH_BENCH_IMPORT_ROWS"); s != "" {
		rows, _ = strconv.Atoi(s)
	}
	var csv bytes.Buffer
	csv.WriteString("Name,Birthday,Phone,Email\n")
	for i := range rows {
		fmt.Fprintf(&csv, "Person%05d Example,%04d-%02d-%02d,+49 30 %07d,person%05d@example.com\n", i, 1950+i%60, 1+i%12, 1+i%28, i, i)
	}
	b.Logf("file: %d rows, %.1f MB", rows, float64(csv.Len())/(1<<20))
	for n := range b.N {
		base, app, stop := startAppWith(b, func(c *Config) { c.Scheduler = false })
		user := fmt.Sprintf("bench%d", n)
		signIn(b, base, user)
		ct, err := app.Store.FindContact(context.Background(), hearth.ChannelWebchat, user, user)
		if err != nil {
			b.Fatal(err)
		}
		events, cancel := app.River.Subscribe(river.EventKindJobCompleted, river.EventKindJobFailed, river.EventKindJobSnoozed)
		var peakHeap atomic.Uint64
		sampled := make(chan struct{})
		done := make(chan struct{})
		go sampleHeap(&peakHeap, done, sampled)
		os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) //nolint:errcheck // Linux only; the RSS figure is then the process's peak
		b.ResetTimer()
		start := time.Now()
		uploadFile(b, base, user, "contacts.csv", csv.Bytes())
		var msgID int64
		var approve string
		awaitJobs(b, events, "the summary", func() bool {
			var buttons []hearth.Button
			err := app.Store.Pool().QueryRow(context.Background(), `
				SELECT id, buttons FROM messages WHERE conversation_id = $1 AND sender = 'bot' ORDER BY id DESC LIMIT 1`, ct.ConversationID).Scan(&msgID, &buttons)
			for _, bt := range buttons {
				if bt.Label == "Approve" {
					approve = bt.ID
				}
			}
			return err == nil && approve != ""
		})
		summary := time.Since(start)
		postJSON(b, base+"/api/webchat/buttons", map[string]any{"user": user, "message_id": msgID, "button_id": approve})
		var facts int
		awaitJobs(b, events, "the commit", func() bool {
			var state string
			app.Store.Pool().QueryRow(context.Background(), `SELECT state, (counts->>'facts')::int FROM imports WHERE user_id = $1`, ct.User.ID).Scan(&state, &facts) //nolint:errcheck // polled
			return state == "committed"
		})
		total := time.Since(start)
		b.StopTimer()
		close(done)
		<-sampled
		cancel()
		b.ReportMetric(summary.Seconds(), "s-to-summary")
		b.ReportMetric(total.Seconds(), "s-to-commit")
		b.ReportMetric(float64(peakHeap.Load())/(1<<20), "MB-peak-heap")
		b.ReportMetric(vmHWM()/1024, "MB-peak-RSS")
		b.ReportMetric(float64(facts), "facts")
		stop()
	}
}

func sampleHeap(peak *atomic.Uint64, done, sampled chan struct{}) {
	defer close(sampled)
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	t := time.NewTicker(5 * time.Millisecond)
	defer t.Stop()
	for {
		metrics.Read(s)
		if v := s[0].Value.Uint64(); v > peak.Load() {
			peak.Store(v)
		}
		select {
		case <-done:
			return
		case <-t.C:
		}
	}
}

// vmHWM is the process's peak resident set in KiB (Linux), 0 elsewhere.
func vmHWM() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			n, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 64)
			return n
		}
	}
	return 0
}

// awaitJobs waits until cond holds, checking after every finished job,
// for up to ten minutes: a large import takes longer than the tests'
// twenty seconds.
func awaitJobs(b *testing.B, events <-chan *river.Event, what string, cond func() bool) {
	b.Helper()
	deadline := time.After(10 * time.Minute)
	for !cond() {
		select {
		case <-events:
		case <-deadline:
			b.Fatalf("waited 10 minutes in vain for %s", what)
		}
	}
}

func signIn(b *testing.B, base, user string) {
	b.Helper()
	postJSON(b, base+"/api/webchat/users", map[string]any{"user": user, "tz": "Europe/Berlin"})
}

func postJSON(b *testing.B, url string, body any) {
	b.Helper()
	data, _ := json.Marshal(body)
	res, err := http.Post(url, "application/json", bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode >= 300 {
		b.Fatalf("POST %s: %d", url, res.StatusCode)
	}
}

func uploadFile(b *testing.B, base, user, name string, data []byte) {
	b.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	w.WriteField("user", user) //nolint:errcheck // a bytes.Buffer does not fail
	part, _ := w.CreateFormFile("file", name)
	part.Write(data) //nolint:errcheck // a bytes.Buffer does not fail
	w.Close()
	res, err := http.Post(base+"/api/webchat/files", w.FormDataContentType(), &body)
	if err != nil {
		b.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusAccepted {
		b.Fatalf("upload: %d", res.StatusCode)
	}
}
