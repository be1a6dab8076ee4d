// Command train builds the intent and domain model of package nlu from
// the project's own sentence templates and writes it where the package
// embeds it:
//
//	go run ./pipeline/nlu/internal/train
//
// With -spoken-dev F it instead prints a spoken-style version of each
// labelled row of F, made as the spoken training data is (see spoken.go),
// with a seed of its own:
//
//	go run ./pipeline/nlu/internal/train -spoken-dev pipeline/nlu/internal/train/testdata/spoken_base.jsonl > pipeline/nlu/testdata/spoken_gen.jsonl
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
	spokenDev := flag.String("spoken-dev", "", "instead of training: print a spoken-style version of each labelled row of this JSON lines file (a dev set made the way the spoken training data is)")
	flag.Parse()
	if *spokenDev != "" {
		if err := writeSpokenDev(*spokenDev, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "train:", err)
			os.Exit(1)
		}
		return
	}
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
