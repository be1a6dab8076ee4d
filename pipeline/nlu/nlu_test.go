package nlu

import "testing"

func newTestClassifier(t testing.TB) *Classifier {
	t.Helper()
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	return c
}
