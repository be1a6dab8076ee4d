package main

import (
	"bufio"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// A node is one piece of a template: literal text, a choice between
// sequences, or a reference to a word list.
type node struct {
	lit  string
	alts [][]node // a group: one of these sequences
	ref  string   // a {list}
}

// grammar holds the word lists a template may reference.
type grammar struct {
	lists map[string][][]node
}

// parseSeq parses a template into a sequence of nodes. Groups nest;
// a group followed by "?" may also be empty.
func parseSeq(s string) ([]node, error) {
	seq, rest, err := parseUntil(s, false)
	if err != nil {
		return nil, err
	}
	if rest != "" {
		return nil, fmt.Errorf("unbalanced %q", rest)
	}
	return seq, nil
}

func parseUntil(s string, inGroup bool) (seq []node, rest string, err error) {
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			seq = append(seq, node{lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '(':
			flush()
			var alts [][]node
			r := s[i+1:]
			for {
				var alt []node
				alt, r, err = parseUntil(r, true)
				if err != nil {
					return nil, "", err
				}
				alts = append(alts, alt)
				if r == "" {
					return nil, "", fmt.Errorf("unclosed group in %q", s)
				}
				sep := r[0]
				r = r[1:]
				if sep == ')' {
					break
				}
			}
			if strings.HasPrefix(r, "?") {
				alts = append(alts, nil)
				r = r[1:]
			}
			seq = append(seq, node{alts: alts})
			s = r
			i = -1
		case c == '{':
			flush()
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				return nil, "", fmt.Errorf("unclosed {list} in %q", s)
			}
			seq = append(seq, node{ref: s[i+1 : i+j]})
			i += j
		case inGroup && (c == '|' || c == ')'):
			flush()
			return seq, s[i:], nil
		case !inGroup && (c == '|' || c == ')'):
			return nil, "", fmt.Errorf("stray %q in %q", c, s)
		default:
			lit.WriteByte(c)
		}
	}
	flush()
	if inGroup {
		return seq, "", nil
	}
	return seq, "", nil
}

// sample draws one expansion of seq.
func (g *grammar) sample(rng *rand.Rand, seq []node, b *strings.Builder) {
	for _, n := range seq {
		switch {
		case n.alts != nil:
			g.sample(rng, n.alts[rng.IntN(len(n.alts))], b)
		case n.ref != "":
			l := g.lists[n.ref]
			g.sample(rng, l[rng.IntN(len(l))], b)
		default:
			b.WriteString(n.lit)
		}
	}
}

// count is the number of expansions of seq, capped to avoid overflow.
func (g *grammar) count(seq []node) int {
	const limit = 1 << 20
	total := 1
	for _, n := range seq {
		k := 1
		switch {
		case n.alts != nil:
			k = 0
			for _, a := range n.alts {
				k += g.count(a)
			}
		case n.ref != "":
			k = 0
			for _, a := range g.lists[n.ref] {
				k += g.count(a)
			}
		}
		total *= max(k, 1)
		if total > limit {
			return limit
		}
	}
	return total
}

// all lists every expansion of seq (only called when count is small).
func (g *grammar) all(seq []node) []string {
	out := []string{""}
	for _, n := range seq {
		var choices [][]node
		switch {
		case n.alts != nil:
			choices = n.alts
		case n.ref != "":
			choices = g.lists[n.ref]
		default:
			for i := range out {
				out[i] += n.lit
			}
			continue
		}
		var next []string
		for _, prefix := range out {
			for _, c := range choices {
				for _, s := range g.all(c) {
					next = append(next, prefix+s)
				}
			}
		}
		out = next
	}
	return out
}

// example is one labelled training sentence.
type example struct {
	text    string
	intent  string
	domains []string
}

// readLists parses lists.txt.
func readLists(r io.Reader) (*grammar, error) {
	g := &grammar{lists: map[string][][]node{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		name, body, ok := strings.Cut(t, "=")
		name = strings.TrimSpace(name)
		if !ok || !strings.HasPrefix(name, "@") {
			return nil, fmt.Errorf("lists line %d: want \"@name = a | b\"", line)
		}
		// Split the top level on "|" by parsing the body as one group.
		seq, err := parseSeq("(" + strings.TrimSpace(body) + ")")
		if err != nil {
			return nil, fmt.Errorf("lists line %d: %w", line, err)
		}
		var alts [][]node
		for _, a := range seq[0].alts {
			alts = append(alts, trimSeq(a))
		}
		g.lists[name[1:]] = alts
	}
	return g, sc.Err()
}

// trimSeq trims the spaces around a list alternative.
func trimSeq(seq []node) []node {
	out := append([]node(nil), seq...)
	if len(out) > 0 && out[0].lit != "" {
		out[0].lit = strings.TrimLeft(out[0].lit, " ")
	}
	if n := len(out); n > 0 && out[n-1].lit != "" {
		out[n-1].lit = strings.TrimRight(out[n-1].lit, " ")
	}
	return out
}

// defaultPerTemplate is how many variants a template yields unless it
// says "*N".
const defaultPerTemplate = 16

// readTemplates parses intents.txt and expands every template.
func readTemplates(r io.Reader, g *grammar, rng *rand.Rand) ([]example, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	var out []example
	intent := ""
	var domains []string
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if strings.HasPrefix(t, "==") {
			f := strings.Fields(strings.TrimPrefix(t, "=="))
			if len(f) == 0 {
				return nil, fmt.Errorf("intents line %d: section needs an intent", line)
			}
			intent, domains = f[0], f[1:]
			if !slices.Contains(intents, intent) {
				return nil, fmt.Errorf("intents line %d: unknown intent %q", line, intent)
			}
			for _, d := range domains {
				if !slices.Contains(allDomains, d) {
					return nil, fmt.Errorf("intents line %d: unknown domain %q", line, d)
				}
			}
			continue
		}
		if intent == "" {
			return nil, fmt.Errorf("intents line %d: template before any section", line)
		}
		n := defaultPerTemplate
		if strings.HasPrefix(t, "*") {
			num, rest, _ := strings.Cut(t[1:], " ")
			k, err := strconv.Atoi(num)
			if err != nil || k <= 0 {
				return nil, fmt.Errorf("intents line %d: bad count %q", line, num)
			}
			n, t = k, strings.TrimSpace(rest)
		}
		seq, err := parseSeq(t)
		if err != nil {
			return nil, fmt.Errorf("intents line %d: %w", line, err)
		}
		for _, ref := range refs(seq) {
			if _, ok := g.lists[ref]; !ok {
				return nil, fmt.Errorf("intents line %d: unknown list {%s}", line, ref)
			}
		}
		for _, s := range g.variants(rng, seq, n) {
			out = append(out, example{text: s, intent: intent, domains: domains})
		}
	}
	return out, sc.Err()
}

// variants returns up to n distinct expansions of seq, in a stable order.
func (g *grammar) variants(rng *rand.Rand, seq []node, n int) []string {
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		s = strings.Join(strings.Fields(s), " ")
		if s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	if g.count(seq) <= n {
		for _, s := range g.all(seq) {
			add(s)
		}
		sort.Strings(out)
		return out
	}
	var b strings.Builder
	for tries := 0; len(out) < n && tries < 20*n; tries++ {
		b.Reset()
		g.sample(rng, seq, &b)
		add(b.String())
	}
	return out
}

func refs(seq []node) []string {
	var out []string
	for _, n := range seq {
		if n.ref != "" {
			out = append(out, n.ref)
		}
		for _, a := range n.alts {
			out = append(out, refs(a)...)
		}
	}
	return out
}
