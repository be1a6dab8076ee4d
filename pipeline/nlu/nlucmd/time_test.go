package nlucmd

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"
)

func timeTestEnv(stdin string) (Env, *bytes.Buffer, *bytes.Buffer) {
	var out, errOut bytes.Buffer
	return Env{
		Stdin:  strings.NewReader(stdin),
		Stdout: &out,
		Stderr: &errOut,
		Now:    func() time.Time { return time.Date(2026, 6, 17, 18, 20, 0, 0, time.UTC) },
	}, &out, &errOut
}

func TestRunTime(t *testing.T) {
	t.Parallel()
	in := strings.Join([]string{
		`{"text": "call mom tomorrow at 5pm", "reference_time": "2026-06-17T14:20:00-04:00"}`,
		`{"text": "call mom tomorrow at 5pm", "reference_time": "2026-06-17T18:20:00Z", "tz": "Europe/Berlin"}`,
		`lunch at noon`,
		``,
		`{"text": "from 9:30 to 11 on thursday", "reference_time": "2026-06-17T14:20:00-04:00"}`,
		`{"text": "until 2pm", "reference_time": "2026-06-17T09:00:00-04:00"}`,
		`{"text": "nothing to see here", "reference_time": "2026-06-17T14:20:00-04:00"}`,
		`{"text": "broken json`,
		`{"text": "tomorrow", "reference_time": "yesterday-ish"}`,
		`{"text": "tomorrow", "tz": "Mars/Olympus_Mons"}`,
		`{"text": "tomorrow", "tz": "Local"}`,
		`{"reference_time": "2026-06-17T14:20:00-04:00"}`,
	}, "\n")
	env, out, _ := timeTestEnv(in)
	if err := Run(context.Background(), env, []string{"time"}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{
		`{"text":"call mom tomorrow at 5pm","type":"value","value":"2026-06-18T17:00:00-04:00","grain":"hour","span":"tomorrow at 5pm"}`,
		`{"text":"call mom tomorrow at 5pm","type":"value","value":"2026-06-18T17:00:00+02:00","grain":"hour","span":"tomorrow at 5pm"}`,
		`{"text":"lunch at noon","type":"value","value":"2026-06-18T12:00:00Z","grain":"hour","span":"at noon"}`,
		`{"text":"from 9:30 to 11 on thursday","type":"interval","from":"2026-06-18T09:30:00-04:00","to":"2026-06-18T11:01:00-04:00","grain":"minute","span":"from 9:30 to 11 on thursday"}`,
		`{"text":"until 2pm","type":"interval","to":"2026-06-17T14:00:00-04:00","grain":"hour","span":"until 2pm"}`,
		`{"text":"nothing to see here","type":"none"}`,
	}
	if len(lines) != len(want)+5 {
		t.Fatalf("got %d lines, want %d:\n%s", len(lines), len(want)+5, out)
	}
	for i, w := range want {
		if lines[i] != w {
			t.Errorf("line %d:\n got %s\nwant %s", i+1, lines[i], w)
		}
	}
	for i, frag := range []string{"not a valid JSON object", "bad reference_time", "unknown tz", "unknown tz", `missing \"text\"`} {
		line := lines[len(want)+i]
		var o timeOutput
		if err := json.Unmarshal([]byte(line), &o); err != nil {
			t.Fatalf("line %q is not JSON: %v", line, err)
		}
		if !strings.Contains(o.Error, strings.ReplaceAll(frag, `\"`, `"`)) || o.Type != "" {
			t.Errorf("error line %q: want an error containing %s", line, frag)
		}
	}
}

func TestRunTimeCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	env, _, _ := timeTestEnv("tomorrow\n")
	if err := Run(ctx, env, []string{"time"}); err == nil || !strings.Contains(err.Error(), "canceled") {
		t.Fatalf("err = %v, want context canceled", err)
	}
}

func TestTestTimes(t *testing.T) {
	t.Parallel()
	env, out, errOut := timeTestEnv("")
	if err := Run(context.Background(), env, []string{"test", "--file", "testdata/time_rows.jsonl"}); err != nil {
		t.Fatal(err)
	}
	report := out.String()
	for _, want := range []string{"time rows: 11", "value", "interval", "open_interval", "none", "minute", "core (non-latent, non-holiday value rows): 4/4 = 100.0%"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	if errOut.Len() != 0 {
		t.Errorf("unexpected failures:\n%s", errOut)
	}
}

func TestTestTimesFailuresAndBadRows(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := dir + "/rows.jsonl"
	rows := `{"text": "next friday", "type": "value", "value": "2030-01-01T00:00:00Z", "grain": "day", "reference_time": "2026-06-17T14:20:00Z"}
{"text": "tomorrow", "type": "value", "value": "2026-06-18T00:00:00Z", "grain": "day", "reference_time": "not a time"}
`
	if err := os.WriteFile(path, []byte(rows), 0o600); err != nil {
		t.Fatal(err)
	}
	env, out, errOut := timeTestEnv("")
	if err := Run(context.Background(), env, []string{"test", "--file", path}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "core (non-latent, non-holiday value rows): 0/2") {
		t.Errorf("report:\n%s", out)
	}
	if s := errOut.String(); !strings.Contains(s, "time failures: 2") || !strings.Contains(s, `"next friday"`) || !strings.Contains(s, "bad reference_time") {
		t.Errorf("failures:\n%s", s)
	}

	bad := dir + "/bad.jsonl"
	if err := os.WriteFile(bad, []byte(`{"text": "x", "type": "sometimes"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env, _, _ = timeTestEnv("")
	if err := Run(context.Background(), env, []string{"test", "--file", bad}); err == nil || !strings.Contains(err.Error(), "unknown type") {
		t.Fatalf("err = %v, want unknown type", err)
	}
}

// TestTestTimesDuckling runs the shared development corpus when present
// and logs the report (go test -run TestTestTimesDuckling -v).
func TestTestTimesDuckling(t *testing.T) {
	t.Parallel()
	const path = "../../../../shared/eval/dates_duckling_dev.jsonl"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("development corpus not present: %v", err)
	}
	env, out, errOut := timeTestEnv("")
	if err := Run(context.Background(), env, []string{"test", "--file", path}); err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s\n%s", out, errOut)
}
