package nlucmd

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/hearthbot/hearth/pipeline/nlu"
)

// classified is one output line of `bot nlu classify`.
type classified struct {
	Text       string       `json:"text"`
	Intent     nlu.Intent   `json:"intent,omitempty"`
	Domain     *nlu.Domain  `json:"domain"`
	Domains    []nlu.Domain `json:"domains"`
	Confidence float64      `json:"confidence"`
	// OutOfScope is printed when the message asks for something Hearth
	// cannot do (its intent is then chat).
	OutOfScope bool `json:"out_of_scope,omitempty"`
	// Reason says why a request was judged out of scope by the
	// capability gate.
	Reason string `json:"reason,omitempty"`
	Error  string `json:"error,omitempty"`
}

// runClassify implements `bot nlu classify`: one JSON line out for every
// non-empty line in, offline. An input line is a JSON object with a
// "text" field (other fields are ignored) or plain text. A line that
// starts with "{" but is not a valid object with a text gets an "error"
// field and the run goes on, so one bad row does not lose the rest.
func runClassify(ctx context.Context, env Env) error {
	c, err := nlu.New()
	if err != nil {
		return fmt.Errorf("nlu classify: %w", err)
	}
	return mapLines(ctx, env, "nlu classify", func(b []byte) any { return classifyLine(c, b, env) })
}

// classifyLine classifies one trimmed, non-empty input line.
func classifyLine(c *nlu.Classifier, b []byte, env Env) classified {
	text := string(b)
	if b[0] == '{' {
		var row struct {
			Text *string `json:"text"`
		}
		switch err := json.Unmarshal(b, &row); {
		case err != nil:
			return classified{Text: text, Domains: []nlu.Domain{}, Error: "not a JSON object: " + err.Error()}
		case row.Text == nil:
			return classified{Text: text, Domains: []nlu.Domain{}, Error: `JSON object has no "text" field`}
		}
		text = *row.Text
	}
	res := c.Classify(text, nil, env.Now())
	out := classified{Text: text, Intent: res.Intent, Domains: res.Domains, Confidence: res.Confidence, OutOfScope: res.OutOfScope, Reason: res.Reason}
	if len(res.Domains) > 0 {
		out.Domain = &res.Domains[0]
	}
	return out
}

// intentRow is a labelled row of `bot nlu test`: the fields of the
// evaluation files plus the optional previous bot turn of the project's
// own followup examples.
type intentRow struct {
	Text      string   `json:"text"`
	Intent    string   `json:"intent"`
	Domain    *string  `json:"domain"`
	DomainAlt []string `json:"domain_alt"`
	PrevBot   string   `json:"prev_bot"`
	Options   []string `json:"options"`
}

// outOfScope is the label of rows whose right answer is chat and which
// are also reported as the share wrongly taken for an action.
const outOfScope = "out_of_scope"

// testIntents reports accuracy for rows with "intent": intent accuracy,
// domain accuracy (rows with a domain; the first predicted domain must be
// the domain or a domain_alt), the share of out_of_scope rows predicted
// as an action, per-intent precision/recall/F1, a confusion matrix and a
// reliability table on env.Stdout, and up to 30 misclassified rows on
// env.Stderr.
func testIntents(ctx context.Context, env Env, rows []json.RawMessage) error {
	c, err := nlu.New()
	if err != nil {
		return fmt.Errorf("nlu test: %w", err)
	}
	labels := make([]string, len(nlu.Intents))
	for i, in := range nlu.Intents {
		labels[i] = string(in)
	}
	confusion := map[[2]string]int{}
	var n, correct, domN, domOK, oos, oosAction, oosFlagged, inN, inOK int
	var bins [10]struct {
		n, ok int
		conf  float64
	}
	var misses []string
	for i, raw := range rows {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("nlu test: %w", err)
		}
		var r intentRow
		if err := json.Unmarshal(raw, &r); err != nil {
			return fmt.Errorf("nlu test: intent row %d: %w", i+1, err)
		}
		gold := r.Intent
		if gold == outOfScope {
			gold = string(nlu.Chat)
		}
		if !slices.Contains(labels, gold) {
			return fmt.Errorf("nlu test: intent row %d: unknown intent %q", i+1, r.Intent)
		}
		var recent []nlu.Turn
		if r.PrevBot != "" || len(r.Options) > 0 {
			recent = []nlu.Turn{{FromBot: true, Text: r.PrevBot, Options: r.Options}}
		}
		res := c.Classify(r.Text, recent, env.Now())
		got := string(res.Intent)
		n++
		confusion[[2]string{gold, got}]++
		ok := got == gold
		if ok {
			correct++
		}
		b := min(int(res.Confidence*10), 9)
		bins[b].n++
		bins[b].conf += res.Confidence
		if ok {
			bins[b].ok++
		}
		if r.Intent == outOfScope {
			oos++
			if res.Intent == nlu.RequestAction {
				oosAction++
			}
			if res.OutOfScope {
				oosFlagged++
			}
		} else {
			inN++
			if ok {
				inOK++
			}
		}
		domainOK := true
		if r.Domain != nil {
			domN++
			want := append([]string{*r.Domain}, r.DomainAlt...)
			domainOK = len(res.Domains) > 0 && slices.Contains(want, string(res.Domains[0]))
			if domainOK {
				domOK++
			}
		}
		if !ok || !domainOK {
			flag := ""
			if res.OutOfScope {
				flag = " out of scope"
			}
			if res.Reason != "" {
				flag += " (" + res.Reason + ")"
			}
			misses = append(misses, fmt.Sprintf("want %s/%s got %s/%v%s (%.2f): %q", r.Intent, strOrDash(r.Domain), got, res.Domains, flag, res.Confidence, r.Text))
		}
	}

	w := tabwriter.NewWriter(env.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "intent rows\t%d\t\n", n)
	fmt.Fprintf(w, "intent accuracy\t%s\t\n", percent(correct, n))
	fmt.Fprintf(w, "domain accuracy\t%s\t(%d rows with a domain)\t\n", percent(domOK, domN), domN)
	if oos > 0 {
		fmt.Fprintf(w, "out_of_scope as action\t%s\t(%d of %d)\t\n", percent(oosAction, oos), oosAction, oos)
		fmt.Fprintf(w, "out_of_scope flagged\t%s\t(%d of %d)\t\n", percent(oosFlagged, oos), oosFlagged, oos)
		fmt.Fprintf(w, "in-scope intent accuracy\t%s\t(%d rows)\t\n", percent(inOK, inN), inN)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "intent\tprecision\trecall\tF1\tsupport\t")
	for _, l := range labels {
		tp, fp, fn := confusion[[2]string{l, l}], 0, 0
		for _, o := range labels {
			if o != l {
				fp += confusion[[2]string{o, l}]
				fn += confusion[[2]string{l, o}]
			}
		}
		p, r := ratio(tp, tp+fp), ratio(tp, tp+fn)
		f1 := 0.0
		if p+r > 0 {
			f1 = 2 * p * r / (p + r)
		}
		fmt.Fprintf(w, "%s\t%.3f\t%.3f\t%.3f\t%d\t\n", l, p, r, f1, tp+fn)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "gold \\ predicted\t%s\t\n", strings.Join(labels, "\t"))
	for _, g := range labels {
		fmt.Fprint(w, g)
		for _, p := range labels {
			fmt.Fprintf(w, "\t%d", confusion[[2]string{g, p}])
		}
		fmt.Fprintln(w, "\t")
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "confidence\trows\tmean confidence\taccuracy\t")
	for i, b := range bins {
		if b.n > 0 {
			fmt.Fprintf(w, "%.1f–%.1f\t%d\t%.3f\t%.3f\t\n", float64(i)/10, float64(i+1)/10, b.n, b.conf/float64(b.n), ratio(b.ok, b.n))
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("nlu test: write report: %w", err)
	}
	if len(misses) > 0 {
		fmt.Fprintf(env.Stderr, "misclassified (%d, first %d):\n", len(misses), min(len(misses), 30))
		for _, m := range misses[:min(len(misses), 30)] {
			fmt.Fprintln(env.Stderr, "  "+m)
		}
	}
	return nil
}

func strOrDash(s *string) string {
	if s == nil {
		return "-"
	}
	return *s
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func percent(a, b int) string {
	return fmt.Sprintf("%.1f%%", 100*ratio(a, b))
}
