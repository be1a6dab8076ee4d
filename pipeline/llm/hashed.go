package llm

import (
	"context"
	"hash/fnv"
	"math"
	"strings"
	"unicode"
)

// HashedModel names the offline embedder's vectors, so rows embedded by a
// model are embedded again when the offline embedder takes over (and back).
const HashedModel = "hashed-v1"

// Hashed is the offline embedder (HEARTH_EMBEDDINGS=offline): no model, no
// network. Each text becomes the feature-hashed bag of its lower-cased
// words and their letter trigrams, L2-normalised, so cosine similarity
// measures shared words and word pieces ("birthday" is near "birthdays",
// "dentist" near "dentist's"). It knows no synonyms: it makes search by
// meaning work offline at the level of words, which is what hybrid
// retrieval can have without a model. The zero Dims is 1024.
type Hashed struct {
	Dims int
}

var _ Embedder = Hashed{}

// Embed returns one vector per text. It never fails and reports no usage.
func (h Hashed) Embed(_ context.Context, texts []string) ([][]float32, Usage, error) {
	dims := h.Dims
	if dims <= 0 {
		dims = 1024
	}
	out := make([][]float32, len(texts))
	for i, t := range texts {
		out[i] = hashedVector(t, dims)
	}
	return out, Usage{}, nil
}

func hashedVector(text string, dims int) []float32 {
	v := make([]float32, dims)
	add := func(feature string, weight float32) {
		f := fnv.New64a()
		f.Write([]byte(feature)) //nolint:errcheck // hashing never fails
		sum := f.Sum64()
		// The top bit picks the sign, so unrelated features cancel out
		// on average instead of piling up.
		sign := float32(1)
		if sum>>63 == 1 {
			sign = -1
		}
		v[sum%uint64(dims)] += sign * weight
	}
	words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	for _, w := range words {
		add("w:"+w, 1)
		padded := []rune("^" + w + "$")
		for j := 0; j+3 <= len(padded); j++ {
			add("t:"+string(padded[j:j+3]), 0.5)
		}
	}
	var norm float64
	for _, x := range v {
		norm += float64(x) * float64(x)
	}
	if norm == 0 {
		// An empty text still gets a unit vector (cosine distance needs
		// one), the same for every empty text.
		v[0] = 1
		return v
	}
	n := float32(math.Sqrt(norm))
	for j := range v {
		v[j] /= n
	}
	return v
}
