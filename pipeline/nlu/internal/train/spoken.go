package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// spokenCount is how many spoken-style examples training adds (issue 16,
// §6): voice transcripts of the typed templates.
const spokenCount = 1500

// spoken returns n spoken-style copies of examples drawn from exs, each
// labelled as its source: what a voice transcript makes of a request.
func spoken(rng *rand.Rand, exs []example, n int) []example {
	out := make([]example, 0, n)
	for range n {
		e := exs[rng.IntN(len(exs))]
		out = append(out, example{text: speak(rng, e.text), intent: e.intent, domains: e.domains})
	}
	return out
}

// Transcription slips, as speech-to-text makes them.
var (
	// fillers are what a transcript keeps in front of the request: a
	// hesitation, a wake word (or what the recogniser heard for one).
	fillers = []string{"um", "uh", "so", "okay", "ok so", "hey", "hey hearth", "hearth", "alright", "hmm", "yeah", "oh", "and", "olly", "hi hearth"}
	// homophones are words a recogniser confuses, both ways.
	homophones = [][2]string{
		{"to", "two"}, {"to", "too"}, {"for", "four"}, {"write", "right"}, {"there", "their"},
		{"our", "hour"}, {"by", "buy"}, {"week", "weak"}, {"meet", "meat"}, {"know", "no"},
		{"add", "at"}, {"ate", "eight"}, {"one", "won"}, {"i'll", "all"}, {"we're", "were"},
		{"be", "bee"}, {"see", "sea"}, {"new", "knew"}, {"here", "hear"}, {"mail", "male"},
	}
	// droppable are short words a transcript loses.
	droppable = []string{"the", "a", "my", "to", "at", "on", "for", "is", "me", "an", "of"}
	// contractions are said in full or run together.
	contractions = [][2]string{
		{"what's", "what is"}, {"i'm", "i am"}, {"don't", "do not"}, {"it's", "it is"},
		{"i'll", "i will"}, {"can't", "cannot"}, {"let's", "lets"}, {"what do i", "what i"},
		{"going to", "gonna"}, {"want to", "wanna"}, {"got to", "gotta"},
	}
	numberWords = map[string]string{
		"1": "one", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
		"9": "nine", "10": "ten", "11": "eleven", "12": "twelve", "15": "fifteen", "20": "twenty", "30": "thirty",
		"45": "forty five", "00": "", "05": "oh five",
	}
	clockRule = regexp.MustCompile(`\b(\d{1,2})(?::(\d{2}))?(?:\s*(am|pm|a\.m\.|p\.m\.))?\b`)
)

// speak rewrites text as a voice transcript would give it: lower case,
// no punctuation, numbers often as words, and usually one or two slips
// (a filler in front, a homophone, a dropped short word, a contraction
// said in full or run together).
func speak(rng *rand.Rand, text string) string {
	s := strings.ToLower(text)
	if rng.IntN(2) == 0 {
		s = clockRule.ReplaceAllStringFunc(s, func(m string) string {
			p := clockRule.FindStringSubmatch(m)
			h, ok := numberWords[p[1]]
			if !ok {
				return m
			}
			out := h
			if p[2] != "" {
				mins, ok := numberWords[p[2]]
				if !ok {
					return m
				}
				if mins != "" {
					out += " " + mins
				}
			}
			if p[3] != "" {
				out += " " + strings.ReplaceAll(p[3], ".", "")
			}
			return out
		})
	}
	// Punctuation goes; apostrophes stay for the contraction slips below
	// (the features drop them anyway).
	s = strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '\u2019' {
			return r
		}
		return ' '
	}, s)
	words := strings.Fields(strings.ReplaceAll(s, "\u2019", "'"))
	for i, w := range words {
		// Quotes are not said; only an apostrophe inside a word stays.
		words[i] = strings.Trim(w, "'")
	}
	words = slices.DeleteFunc(words, func(w string) bool { return w == "" })
	if len(words) == 0 {
		return text
	}
	for slips := 1 + rng.IntN(2); slips > 0; slips-- {
		switch rng.IntN(5) {
		case 0:
			words = append(strings.Fields(fillers[rng.IntN(len(fillers))]), words...)
		case 1:
			h := homophones[rng.IntN(len(homophones))]
			if rng.IntN(2) == 0 {
				h[0], h[1] = h[1], h[0]
			}
			words = replaceWord(rng, words, h[0], h[1])
		case 2:
			if len(words) > 4 {
				words = dropWord(rng, words)
			}
		case 3:
			c := contractions[rng.IntN(len(contractions))]
			joined := " " + strings.Join(words, " ") + " "
			if rng.IntN(2) == 0 {
				c[0], c[1] = c[1], c[0]
			}
			joined = strings.Replace(joined, " "+c[0]+" ", " "+c[1]+" ", 1)
			words = strings.Fields(joined)
		default:
			// A clean transcript: lower case and unpunctuated only.
		}
	}
	return strings.Join(words, " ")
}

// replaceWord swaps one occurrence of from, chosen at random, for to.
func replaceWord(rng *rand.Rand, words []string, from, to string) []string {
	var at []int
	for i, w := range words {
		if w == from {
			at = append(at, i)
		}
	}
	if len(at) == 0 {
		return words
	}
	out := append([]string(nil), words...)
	out[at[rng.IntN(len(at))]] = to
	return out
}

// dropWord loses one short function word, if the text has one.
func dropWord(rng *rand.Rand, words []string) []string {
	var at []int
	for i, w := range words {
		for _, d := range droppable {
			if w == d {
				at = append(at, i)
			}
		}
	}
	if len(at) == 0 {
		return words
	}
	i := at[rng.IntN(len(at))]
	return append(append([]string(nil), words[:i]...), words[i+1:]...)
}

// spokenDevSeed seeds the dev set's slips, apart from training's.
const spokenDevSeed = 20261125

// writeSpokenDev prints a spoken-style version of each labelled row of
// the JSON lines file at path (fields text, intent, domain), the rest of
// each row kept as it is.
func writeSpokenDev(path string, w io.Writer) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(spokenDevSeed, spokenDevSeed))
	enc := json.NewEncoder(w)
	for n, line := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		var row map[string]any
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			return fmt.Errorf("%s:%d: %w", path, n+1, err)
		}
		text, _ := row["text"].(string)
		if text == "" {
			return fmt.Errorf("%s:%d: no text", path, n+1)
		}
		row["text"] = speak(rng, text)
		if err := enc.Encode(row); err != nil {
			return err
		}
	}
	return nil
}
