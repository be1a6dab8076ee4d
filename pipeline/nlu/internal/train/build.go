package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hearthbot/hearth/pipeline/nlu/internal/features"
	"github.com/hearthbot/hearth/pipeline/nlu/internal/linear"
)

// The label sets, in the order of the model's outputs. The model has one
// output more than package nlu has intents: out_of_scope, the abstain
// class, trained on generated requests Hearth cannot carry out; package
// nlu reports it as chat with the out-of-scope flag.
var (
	intents    = []string{"chat", "ask_info", "request_action", "discuss_work", "followup", "out_of_scope"}
	allDomains = []string{"memory", "task", "calendar", "email", "keep"}
)

// Training settings. They were chosen by hand on the project's own
// held-out examples; change them only together with a retrain.
const (
	seed       = 20240611
	epochs     = 12
	rate       = 0.2
	l2         = 1e-5
	minCount   = 2   // a feature must occur in this many examples to be kept
	compounds  = 900 // generated multi-clause examples
	domainMass = 1.0 // weight of the domain loss next to the intent loss
	// oosWeight scales the abstain class's share of the loss: enough that
	// requests Hearth cannot do are refused, not so much that short
	// requests it can do are taken for them.
	oosWeight = 0.6
)

// build reads the templates, trains, fits the temperature on the hand
// written examples in testdata/intents.jsonl, and writes the model to w.
func build(dir string, w io.Writer) (string, error) {
	rng := rand.New(rand.NewPCG(seed, seed))
	lf, err := os.Open(filepath.Join(dir, "data", "lists.txt"))
	if err != nil {
		return "", fmt.Errorf("read lists: %w", err)
	}
	defer lf.Close()
	g, err := readLists(lf)
	if err != nil {
		return "", err
	}
	tf, err := os.Open(filepath.Join(dir, "data", "intents.txt"))
	if err != nil {
		return "", fmt.Errorf("read templates: %w", err)
	}
	defer tf.Close()
	exs, err := readTemplates(tf, g, rng)
	if err != nil {
		return "", err
	}
	exs = append(exs, compound(rng, exs, compounds)...)
	// Voice transcripts of all of the above (issue 16, §6).
	exs = append(exs, spoken(rng, exs, spokenCount)...)
	held, err := readHeldOut(filepath.Join(dir, "testdata", "intents.jsonl"))
	if err != nil {
		return "", err
	}
	m, stats := train(rng, exs)
	m.Temperature = fitTemperature(m, held)
	stats += fmt.Sprintf("temperature %.2f fitted on %d held-out rows\n", m.Temperature, len(held))
	return stats, m.Write(w)
}

// compound joins clauses the way people chain them in one message:
// thanks or a greeting before a request, news before a request ("I just
// closed on my house! Add a celebration dinner Saturday"), and two
// requests joined by "and". The labels are the union of the parts.
func compound(rng *rand.Rand, exs []example, n int) []example {
	var actions, facts []example
	for _, e := range exs {
		if e.intent != "request_action" {
			continue
		}
		if slices.Contains(e.domains, "memory") {
			facts = append(facts, e)
		} else {
			actions = append(actions, e)
		}
	}
	openers := []string{"thanks", "thank you", "thanks so much", "hi", "hey", "hello", "ok", "okay", "great", "perfect", "cool", "good morning", "awesome thanks", "oh and", "also", "one more thing", "by the way", "yes", "no"}
	joins := []string{", and ", ". ", "! ", ", ", " and ", " and also ", ". also "}
	var out []example
	// Out-of-scope requests get the same openers and politeness as the
	// rest, so that length and "thanks, …" do not decide the class.
	var oos []example
	for _, e := range exs {
		if e.intent == "out_of_scope" {
			oos = append(oos, e)
		}
	}
	tails := []string{" please", " for me", " right now", " thanks", " asap", " when you get a chance", " if you can"}
	for i := 0; i < n/3 && len(oos) > 0; i++ {
		o := oos[rng.IntN(len(oos))]
		text := openers[rng.IntN(len(openers))] + joins[rng.IntN(len(joins))] + o.text
		if i%2 == 1 {
			text = o.text + tails[rng.IntN(len(tails))]
		}
		out = append(out, example{text: text, intent: o.intent})
	}
	for i := 0; i < n; i++ {
		a := actions[rng.IntN(len(actions))]
		switch i % 3 {
		case 0:
			o := openers[rng.IntN(len(openers))]
			out = append(out, example{text: o + joins[rng.IntN(len(joins))] + a.text, intent: a.intent, domains: a.domains})
		case 1:
			f := facts[rng.IntN(len(facts))]
			out = append(out, example{text: f.text + joins[rng.IntN(len(joins))] + a.text, intent: "request_action", domains: union(f.domains, a.domains)})
		default:
			b := actions[rng.IntN(len(actions))]
			out = append(out, example{text: a.text + joins[rng.IntN(len(joins))] + b.text, intent: "request_action", domains: union(a.domains, b.domains)})
		}
	}
	return out
}

func union(a, b []string) []string {
	out := append([]string(nil), a...)
	for _, d := range b {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// featureNames lists the features of a text, deduplicated.
func featureNames(text string) []string {
	toks, q := features.Tokens(nil, text)
	var out []string
	features.Each(toks, q, func(f []byte) { out = append(out, string(f)) })
	slices.Sort(out)
	return slices.Compact(out)
}

type encoded struct {
	feats  []int32
	intent int
	domain []float64 // 0/1 targets
	weight float64
}

// train fits the model with stochastic gradient descent on the logistic
// losses. Classes are weighted by the inverse of their size so that the
// large chat section does not swamp the small ones.
func train(rng *rand.Rand, exs []example) (*linear.Model, string) {
	counts := map[string]int{}
	names := make([][]string, len(exs))
	for i, e := range exs {
		names[i] = featureNames(e.text)
		for _, f := range names[i] {
			counts[f]++
		}
	}
	var vocab []string
	for f, c := range counts {
		if c >= minCount {
			vocab = append(vocab, f)
		}
	}
	slices.Sort(vocab)
	index := make(map[string]int32, len(vocab))
	for i, f := range vocab {
		index[f] = int32(i)
	}
	perIntent := map[string]int{}
	for _, e := range exs {
		perIntent[e.intent]++
	}
	data := make([]encoded, len(exs))
	for i, e := range exs {
		d := encoded{intent: slices.Index(intents, e.intent), domain: make([]float64, len(allDomains))}
		for _, f := range names[i] {
			if j, ok := index[f]; ok {
				d.feats = append(d.feats, j)
			}
		}
		for _, dom := range e.domains {
			d.domain[slices.Index(allDomains, dom)] = 1
		}
		d.weight = float64(len(exs)) / float64(len(intents)*perIntent[e.intent])
		if e.intent == "out_of_scope" {
			d.weight *= oosWeight
		}
		data[i] = d
	}
	k := len(intents) + len(allDomains)
	m := &linear.Model{Intents: intents, Domains: allDomains, Temperature: 1, Bias: make([]float64, k), Features: vocab}
	w := make([]float64, len(vocab)*k)
	order := make([]int, len(data))
	for i := range order {
		order[i] = i
	}
	logits := make([]float64, k)
	grad := make([]float64, k)
	for ep := 0; ep < epochs; ep++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		lr := rate / (1 + 0.5*float64(ep))
		for _, idx := range order {
			d := &data[idx]
			copy(logits, m.Bias)
			for _, f := range d.feats {
				row := w[int(f)*k : int(f)*k+k]
				for j := range logits {
					logits[j] += row[j]
				}
			}
			p := append([]float64(nil), logits[:len(intents)]...)
			linear.Softmax(p, 1)
			for j := range intents {
				t := 0.0
				if j == d.intent {
					t = 1
				}
				grad[j] = d.weight * (p[j] - t)
			}
			for j := range allDomains {
				grad[len(intents)+j] = domainMass * d.weight * (linear.Sigmoid(logits[len(intents)+j]) - d.domain[j])
			}
			for j := range grad {
				m.Bias[j] -= lr * grad[j] * 0.1
			}
			for _, f := range d.feats {
				row := w[int(f)*k : int(f)*k+k]
				for j := range row {
					row[j] -= lr * (grad[j] + l2*row[j])
				}
			}
		}
	}
	m.W = make([]float32, len(w))
	for i, x := range w {
		m.W[i] = float32(math.Round(x*1e4) / 1e4)
	}
	for i, b := range m.Bias {
		m.Bias[i] = math.Round(b*1e4) / 1e4
	}
	// vocab is deduplicated above, so Index cannot fail.
	_ = m.Index()
	var s strings.Builder
	fmt.Fprintf(&s, "examples %d, features %d\n", len(exs), len(vocab))
	for _, in := range intents {
		fmt.Fprintf(&s, "  %-15s %5d\n", in, perIntent[in])
	}
	return m, s.String()
}

// heldOut is one hand-written labelled row used to fit the temperature.
type heldOut struct {
	Text    string `json:"text"`
	Intent  string `json:"intent"`
	PrevBot string `json:"prev_bot"`
}

func readHeldOut(path string) ([]heldOut, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read held-out rows: %w", err)
	}
	defer f.Close()
	var out []heldOut
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var r heldOut
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		// Rows that depend on the previous bot turn are decided by rules,
		// not by the model's softmax, so they do not calibrate it.
		if r.PrevBot == "" && slices.Contains(intents, r.Intent) && r.Intent != "out_of_scope" {
			out = append(out, r)
		}
	}
	return out, sc.Err()
}

// fitTemperature picks the softmax temperature that minimises the
// negative log-likelihood of the held-out rows (temperature scaling,
// Guo et al. 2017): it changes how sure the model says it is, never
// which intent wins.
func fitTemperature(m *linear.Model, rows []heldOut) float64 {
	if len(rows) == 0 {
		return 1
	}
	k := m.Outputs()
	type scored struct {
		logits []float64
		gold   int
	}
	var xs []scored
	chat, oos := slices.Index(intents, "chat"), slices.Index(intents, "out_of_scope")
	for _, r := range rows {
		logits := append([]float64(nil), m.Bias...)
		toks, q := features.Tokens(nil, r.Text)
		features.Each(toks, q, func(f []byte) { m.Add(logits, f) })
		xs = append(xs, scored{logits[:len(intents)], slices.Index(intents, r.Intent)})
	}
	_ = k
	best, bestNLL := 1.0, math.Inf(1)
	for t := 0.3; t <= 6; t += 0.05 {
		nll := 0.0
		for _, x := range xs {
			p := append([]float64(nil), x.logits...)
			linear.Softmax(p, t)
			q := p[x.gold]
			if x.gold == chat {
				// Package nlu reports out_of_scope as chat.
				q += p[oos]
			}
			nll -= math.Log(max(q, 1e-12))
		}
		if nll < bestNLL-1e-9 {
			best, bestNLL = t, nll
		}
	}
	return math.Round(best*100) / 100
}
