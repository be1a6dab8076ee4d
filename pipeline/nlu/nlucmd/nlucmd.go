// Package nlucmd implements the `bot nlu` subcommands: offline intent
// classification, date/time parsing, and evaluation against labelled JSON
// lines. It reads and writes streams so it is equally usable from a shell
// pipe and from tests.
package nlucmd

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// ErrUsage is returned for a missing or unknown subcommand or flag.
var ErrUsage = errors.New("usage: bot nlu classify | bot nlu time | bot nlu test --file F.jsonl")

// Env is what the commands read and write. The zero value is not usable:
// Stdin and Stdout are required.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	// Now is the clock for "bot nlu time" rows without a reference_time.
	// Defaults to time.Now.
	Now func() time.Time
}

// Run executes one `bot nlu` subcommand with its arguments.
func Run(ctx context.Context, env Env, args []string) error {
	if env.Now == nil {
		env.Now = time.Now
	}
	if env.Stderr == nil {
		env.Stderr = io.Discard
	}
	if len(args) == 0 {
		return ErrUsage
	}
	switch args[0] {
	case "classify":
		return runClassify(ctx, env)
	case "time":
		return runTime(ctx, env)
	case "test":
		file, err := fileFlag(args[1:])
		if err != nil {
			return err
		}
		return runTest(ctx, env, file)
	default:
		return fmt.Errorf("unknown subcommand %q: %w", args[0], ErrUsage)
	}
}

func fileFlag(args []string) (string, error) {
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--file" || a == "-file":
			if i+1 >= len(args) {
				return "", fmt.Errorf("--file needs a path: %w", ErrUsage)
			}
			return args[i+1], nil
		case len(a) > 7 && a[:7] == "--file=":
			return a[7:], nil
		}
	}
	return "", fmt.Errorf("test needs --file F.jsonl: %w", ErrUsage)
}

// runTest splits a labelled file into intent rows and time rows by their
// fields and reports on each kind present.
func runTest(ctx context.Context, env Env, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("nlu test: %w", err)
	}
	defer f.Close()
	var intentRows, timeRows []json.RawMessage
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 4*1024*1024)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var probe struct {
			Intent *string `json:"intent"`
			Type   *string `json:"type"`
		}
		if err := json.Unmarshal(b, &probe); err != nil {
			return fmt.Errorf("nlu test: %s line %d: not a JSON object: %w", path, line, err)
		}
		row := json.RawMessage(append([]byte(nil), b...))
		switch {
		case probe.Intent != nil:
			intentRows = append(intentRows, row)
		case probe.Type != nil:
			timeRows = append(timeRows, row)
		default:
			return fmt.Errorf("nlu test: %s line %d: row has neither \"intent\" nor \"type\"", path, line)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("nlu test: read %s: %w", path, err)
	}
	if len(intentRows) == 0 && len(timeRows) == 0 {
		return fmt.Errorf("nlu test: %s has no labelled rows", path)
	}
	if len(intentRows) > 0 {
		if err := testIntents(ctx, env, intentRows); err != nil {
			return err
		}
	}
	if len(timeRows) > 0 {
		if err := testTimes(ctx, env, timeRows); err != nil {
			return err
		}
	}
	return nil
}

// mapLines writes one JSON line to env.Stdout for every non-empty line of
// env.Stdin, as fn maps it; name prefixes errors ("nlu time").
func mapLines(ctx context.Context, env Env, name string, fn func(line []byte) any) error {
	in := bufio.NewReader(env.Stdin)
	out := bufio.NewWriter(env.Stdout)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		line, readErr := in.ReadBytes('\n')
		if readErr != nil && !errors.Is(readErr, io.EOF) {
			return fmt.Errorf("%s: read input: %w", name, readErr)
		}
		if b := bytes.TrimSpace(line); len(b) > 0 {
			if err := enc.Encode(fn(b)); err != nil {
				return fmt.Errorf("%s: write output: %w", name, err)
			}
		}
		if readErr != nil {
			break
		}
	}
	if err := out.Flush(); err != nil {
		return fmt.Errorf("%s: write output: %w", name, err)
	}
	return nil
}
