package nlu

import (
	"strings"
	"time"

	"github.com/hearthbot/hearth/pipeline/nlu/timex"
)

// FreeFor reports a question for free time of a length, and the length:
// "find me an hour on Friday", "when do I have 2 hours free tomorrow?",
// "am I free for 90 minutes this afternoon?", "find time for a 30 minute
// call". "Am I free in 2 hours?" asks of a time, not a length.
func FreeFor(text string) (time.Duration, bool) {
	f := strings.Fields(strings.ToLower(text))
	for i, w := range f {
		f[i] = strings.Trim(w, "?!.,;:")
	}
	if len(f) < 2 || len(f) > 16 {
		return 0, false
	}
	find := f[0] == "find" || len(f) > 2 && (f[0] == "please" || f[0] == "can" || f[0] == "could") && (f[1] == "find" || f[2] == "find")
	free := false
	for _, w := range f {
		free = free || w == "free" || w == "available"
	}
	if !find && !free {
		return 0, false
	}
	// The longest length said, not one that says when ("in 2 hours").
	var best time.Duration
	words := 0
	for i := range f {
		if i > 0 && (f[i-1] == "in" || f[i-1] == "within") {
			continue
		}
		for n := min(5, len(f)-i); n >= 1 && n > words; n-- {
			if d, ok := timex.ParseDuration(strings.Join(f[i:i+n], " ")); ok && d <= 24*time.Hour {
				if k := i + n; k < len(f) && (f[k] == "ago" || f[k] == "later" || f[k] == "from") {
					continue
				}
				best, words = d, n
				break
			}
		}
	}
	return best, best > 0
}
