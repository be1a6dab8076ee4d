package gather

import (
	"context"
	"regexp"
	"strings"
	"time"

	"github.com/hearthbot/hearth"
	"github.com/hearthbot/hearth/pipeline/nlu"
	"github.com/hearthbot/hearth/pipeline/nlu/timex"
)

// Reword rewrites a message that points back at what the last reply
// spoke of into one that names it (WhenIsIt, CorrectsItem, OnIt,
// DraftSpokenOf, SetsIt), or that says plainly what it asks of a
// repeating event (StopsSeries), of a fact (ChangesFact) or of a list
// (NoteIn), or a timer as the reminder Hearth makes of it (Timer), before
// the intent stage reads it.
func (s Sources) Reword(ctx context.Context, text string, userID int64, recent []hearth.Message, now time.Time) (string, error) {
	for _, reword := range []func(context.Context, string, int64, []hearth.Message, time.Time) (string, error){s.WhenIsIt, s.CorrectsItem, s.OnIt, s.StopsSeries, s.ChangesFact, s.DraftSpokenOf, s.SetsIt, s.NoteIn, s.Timer} {
		t, err := reword(ctx, text, userID, recent, now)
		if err != nil || t != text {
			return t, err
		}
	}
	return text, nil
}

// reSetIt reads a time given to the thing just spoken of: "set it for
// next Friday", "schedule it for 3pm", "make it due Monday".
var reSetIt = regexp.MustCompile(`(?i)^\s*(?:(?:please|ok|okay|actually|just)\s*,?\s+)*(?:set|schedule|make)\s+(it|that|this)\s+(?:due\s+|for\s+|to\s+|on\s+)+(.+?)\s*[.!]*\s*$`)

// SetsIt rewrites a time given to the thing just spoken of ("set it for
// next Friday", "make it due Monday") into the move it asks for ("move it
// to next Friday"), which the planners read; not into something new
// called "Set it".
func (s Sources) SetsIt(_ context.Context, text string, _ int64, _ []hearth.Message, now time.Time) (string, error) {
	g := reSetIt.FindStringSubmatch(text)
	if g == nil || now.IsZero() || !nlu.OnlyTime(g[2], now) {
		return text, nil
	}
	return "move " + g[1] + " to " + g[2], nil
}

// reDraftIt reads "delete it", "scrap that", "send it off" of the thing
// just spoken of.
var reDraftIt = regexp.MustCompile(`(?i)^\s*(?:(?:please|ok|okay|actually|just)\s*,?\s+)*(delete|discard|scrap|bin|trash|ditch|cancel|drop|send)\s+(?:it|that|this)(?:\s+(?:off|now|please|for\s+me))*\s*[.!]*\s*$`)

// DraftSpokenOf rewrites "delete it" or "send it", right after Hearth
// saved a draft ("I saved a draft to sam@example.com: …"), into what it
// asks of that draft ("delete that draft", "send that draft"), not of a
// task. (A draft waiting for approval answers to its own words: the
// runner reads them first.)
func (s Sources) DraftSpokenOf(_ context.Context, text string, _ int64, recent []hearth.Message, _ time.Time) (string, error) {
	g := reDraftIt.FindStringSubmatch(text)
	if g == nil {
		return text, nil
	}
	i := len(recent) - 1
	for i >= 0 && recent[i].From != hearth.FromBot {
		i--
	}
	if i < 0 || !strings.Contains(recent[i].Text, "saved a draft to") {
		return text, nil
	}
	if strings.EqualFold(g[1], "send") {
		return "send that draft", nil
	}
	return "delete that draft", nil
}

// NoteIn rewrites a note put in a list or a note by its name ("add a
// note to my packing list: check the visa") into the addition it asks
// for ("add check the visa to my packing list"), which the list planner
// reads; a note on a person or a thing ("note on Bob: …") is the memory
// graph's.
func (s Sources) NoteIn(_ context.Context, text string, _ int64, _ []hearth.Message, _ time.Time) (string, error) {
	ref, note, ok := nlu.ListNote(text)
	if !ok {
		return text, nil
	}
	if f := strings.Fields(strings.ToLower(ref)); f[0] != "my" && f[0] != "our" && f[0] != "the" {
		ref = "my " + ref
	}
	return "add " + note + " to " + ref, nil
}

// reTimer reads a timer set for a length of time: "set a timer for 10
// minutes", "start a 20 minute timer for the pasta".
var reTimer = regexp.MustCompile(`(?i)^\s*(?:(?:please|ok|okay|hey|can\s+you)\s*,?\s+)*(?:set|start)\s+(?:a|an|the\s+)?\s*(?:timer\s+(?:for\s+)?(.+?)|(.+?)\s+timer)(?:\s+for\s+(?:the\s+|my\s+)?(.+?))?\s*[.!?]*\s*$`)

// Timer rewrites a timer ("set a timer for 10 minutes for the pasta")
// into the reminder Hearth makes of it ("remind me in 10 minutes that the
// pasta timer is up"): it has no clock of its own to ring. An alarm at a
// time ("set an alarm for 7am") is left as said.
func (s Sources) Timer(_ context.Context, text string, _ int64, _ []hearth.Message, now time.Time) (string, error) {
	g := reTimer.FindStringSubmatch(text)
	if g == nil || now.IsZero() {
		return text, nil
	}
	f := strings.Fields(strings.ReplaceAll(g[1]+g[2], "-", " "))
	if len(f) == 2 && f[0] != "a" && f[0] != "an" && f[0] != "one" && !strings.HasSuffix(f[1], "s") {
		f[1] += "s" // "a 20 minute timer": 20 minutes
	}
	length := strings.Join(f, " ")
	ms := timex.Find("in "+length, now, timex.Options{})
	if len(ms) != 1 || ms[0].Start != 0 || ms[0].End != len("in "+length) || ms[0].Grain >= timex.Day {
		return text, nil
	}
	what := "the timer"
	if g[3] != "" {
		what = "the " + g[3] + " timer"
	}
	return "remind me in " + length + " that " + what + " is up", nil
}
