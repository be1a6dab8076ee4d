package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// benchWindow is what a bench measures besides time over its window: the
// statements the server's pool makes, and the profiles asked for.
type benchWindow struct {
	f       benchFlags
	counter *statementCounter
	from    statementSnapshot
	cpu     *os.File
	// procCPU and machineCPU are the CPU time used so far by this process
	// and by the whole machine (every process, Postgres's included).
	procCPU, machineCPU time.Duration
}

// benchCPU is the CPU time a window used per operation: this process's
// (Hearth and the bench's own clients) and the machine's (Postgres's and
// every other process's too). On a quiet machine the machine's is what a
// turn or an acknowledgement costs, and unlike latency it barely varies
// from run to run.
type benchCPU struct {
	ProcessMSPerOp float64 `json:"process_ms_per_op"`
	MachineMSPerOp float64 `json:"machine_ms_per_op,omitempty"`
	// Cores is the machine's busy cores over the window, of Cores.
	BusyCores float64 `json:"busy_cores,omitempty"`
	Cores     int     `json:"cores"`
}

// processCPU is this process's user and system time so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// machineCPU is the busy time of all the machine's CPUs so far, from
// /proc/stat (0 where there is none): everything but idle and iowait.
func machineCPU() time.Duration {
	f, err := os.Open("/proc/stat")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		return 0
	}
	fields := strings.Fields(sc.Text())
	if len(fields) < 6 || fields[0] != "cpu" {
		return 0
	}
	var busy int64
	for i, v := range fields[1:] {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0
		}
		if i != 3 && i != 4 && i < 8 { // idle, iowait; guest time is in user already
			busy += n
		}
	}
	const ticksPerSecond = 100 // USER_HZ, fixed at 100 on Linux
	return time.Duration(busy) * time.Second / ticksPerSecond
}

// startWindow opens the window: counts from here, and starts the CPU
// profile and writes the allocation profile's base when asked.
func startWindow(f benchFlags, counter *statementCounter) (*benchWindow, error) {
	w := &benchWindow{f: f, counter: counter, from: counter.snapshot(), procCPU: processCPU(), machineCPU: machineCPU()}
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
	if ops > 0 {
		c := &benchCPU{Cores: runtime.NumCPU()}
		c.ProcessMSPerOp = float64(processCPU()-w.procCPU) / 1e6 / float64(ops)
		if m := machineCPU(); m > 0 && w.machineCPU > 0 {
			c.MachineMSPerOp = float64(m-w.machineCPU) / 1e6 / float64(ops)
			if res.Seconds > 0 {
				c.BusyCores = (m - w.machineCPU).Seconds() / res.Seconds
			}
		}
		res.CPU = c
	}
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
