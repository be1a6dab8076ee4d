// Command train builds the intent and domain model of package nlu from
// the project's own sentence templates and writes it where the package
// embeds it:
//
//	go run ./pipeline/nlu/internal/train
//
// Training is deterministic (fixed seeds, fixed order), so the committed
// model can be checked against the data; TestModelIsUpToDate does.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	dir := flag.String("dir", "pipeline/nlu", "the nlu package folder (data/ and testdata/ are read from it, data/model.txt is written)")
	verbose := flag.Bool("v", false, "print training statistics")
	flag.Parse()
	var buf bytes.Buffer
	stats, err := build(*dir, &buf)
	if err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
	out := filepath.Join(*dir, "data", "model.txt")
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "train:", err)
		os.Exit(1)
	}
	if *verbose {
		fmt.Fprint(os.Stderr, stats)
	}
	fmt.Fprintf(os.Stderr, "train: wrote %s (%d bytes)\n", out, buf.Len())
}
