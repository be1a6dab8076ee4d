package main

import (
	"math"
	"testing"
)

// HEARTH_LLM_PRICES is typed by an operator: parsing never panics, and an
// accepted price is a finite, non-negative number ("NaN" and "Inf" parse
// as floats, so they are checked for).
func FuzzParsePrices(f *testing.F) {
	for _, s := range []string{"gpt-4o-mini=0.15/0.6,anthropic.claude-3-5-haiku-20241022-v1:0=0.8/4", "m=NaN/1", "m=1/+Inf", "=1/2", "m=1", "m=-1/2", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		prices, err := parsePrices(s)
		if err != nil {
			return
		}
		for model, p := range prices {
			for _, v := range []float64{p.Input, p.Output} {
				if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
					t.Fatalf("%q: accepted %v for %q", s, p, model)
				}
			}
		}
	})
}
