package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
)

// benchWindow is what a bench measures besides time over its window: the
// statements the server's pool makes, and the profiles asked for.
type benchWindow struct {
	f       benchFlags
	counter *statementCounter
	from    statementSnapshot
	cpu     *os.File
}

// startWindow opens the window: counts from here, and starts the CPU
// profile and writes the allocation profile's base when asked.
func startWindow(f benchFlags, counter *statementCounter) (*benchWindow, error) {
	w := &benchWindow{f: f, counter: counter, from: counter.snapshot()}
	if f.memProfile != "" {
		if err := writeAllocs(f.memProfile + ".base"); err != nil {
			return nil, err
		}
	}
	if f.cpuProfile != "" {
		out, err := os.Create(f.cpuProfile)
		if err != nil {
			return nil, fmt.Errorf("bench: -cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(out); err != nil {
			out.Close()
			return nil, fmt.Errorf("bench: -cpuprofile: %w", err)
		}
		w.cpu = out
	}
	return w, nil
}

// end closes the window: the profiles are written and res gets the
// statements per operation of ops operations.
func (w *benchWindow) end(ops int, res *benchResult, stderr io.Writer) error {
	res.StatementsPerOp, res.Statements = w.counter.snapshot().since(w.from, ops)
	if w.f.sqlOut {
		w.counter.writeSQL(stderr)
	}
	if w.cpu != nil {
		pprof.StopCPUProfile()
		if err := w.cpu.Close(); err != nil {
			return fmt.Errorf("bench: -cpuprofile: %w", err)
		}
		w.cpu = nil
	}
	if w.f.memProfile != "" {
		return writeAllocs(w.f.memProfile)
	}
	return nil
}

// writeAllocs writes the allocation profile (cumulative since the
// process started) to name.
func writeAllocs(name string) error {
	out, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("bench: -memprofile: %w", err)
	}
	runtime.GC() // the profile is as of the last collection
	if err := pprof.Lookup("allocs").WriteTo(out, 0); err != nil {
		out.Close()
		return fmt.Errorf("bench: -memprofile: %w", err)
	}
	return out.Close()
}
