package timex

import "testing"

func BenchmarkParseRecurrence(b *testing.B) {
	texts := []string{
		"remind me every Monday at 9 to water the plants",
		"please remind me to pay the rent on the 1st of every month, thanks",
		"buy milk tomorrow after work, and don't forget the eggs this time",
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range texts {
			ParseRecurrence(s)
		}
	}
}
