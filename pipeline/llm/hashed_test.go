package llm

import (
	"context"
	"math"
	"testing"
)

func cosine(a, b []float32) float64 {
	var dot float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
	}
	return dot
}

func TestHashed(t *testing.T) {
	h := Hashed{Dims: 256}
	texts := []string{
		"John's birthday is March 15th",
		"when is johns birthday",
		"The boiler needs a service in autumn",
		"",
		"John's birthday is March 15th",
	}
	vecs, _, err := h.Embed(context.Background(), texts)
	if err != nil || len(vecs) != len(texts) {
		t.Fatalf("Embed = %d vectors, %v", len(vecs), err)
	}
	for i, v := range vecs {
		if len(v) != 256 {
			t.Fatalf("vector %d has %d dimensions", i, len(v))
		}
		if n := math.Sqrt(cosine(v, v)); math.Abs(n-1) > 1e-5 {
			t.Errorf("vector %d has norm %f; want 1", i, n)
		}
	}
	if got := cosine(vecs[0], vecs[4]); math.Abs(got-1) > 1e-6 {
		t.Errorf("the same text embeds differently: cosine %f", got)
	}
	near, far := cosine(vecs[0], vecs[1]), cosine(vecs[0], vecs[2])
	if near < 0.4 || far > 0.2 || near <= far {
		t.Errorf("cosine to a question about it %.3f, to an unrelated text %.3f; want the question near (≥ 0.4) and the other far (≤ 0.2)", near, far)
	}
	if v, _, _ := (Hashed{}).Embed(context.Background(), []string{"x"}); len(v[0]) != 1024 {
		t.Errorf("zero Dims gives %d dimensions; want 1024", len(v[0]))
	}
}

func FuzzHashed(f *testing.F) {
	for _, s := range []string{"", "a", "John's birthday", "ümlaut ß 日本語", "\x00\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, _, err := Hashed{Dims: 64}.Embed(context.Background(), []string{s})
		if err != nil || len(v) != 1 || len(v[0]) != 64 {
			t.Fatalf("Embed(%q) = %v, %v", s, v, err)
		}
		if n := math.Sqrt(cosine(v[0], v[0])); math.Abs(n-1) > 1e-4 || math.IsNaN(n) {
			t.Fatalf("Embed(%q) has norm %f", s, n)
		}
	})
}
