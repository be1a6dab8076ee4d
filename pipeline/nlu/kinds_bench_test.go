package nlu

import "testing"

// BenchmarkClassifyKinds is the classifier's cost per kind of message,
// alone and with the ten recent turns a turn passes it (issue 18: a
// greeting should cost well under a millisecond).
//
//	go test -run NONE -bench ClassifyKinds -benchmem ./pipeline/nlu
func BenchmarkClassifyKinds(b *testing.B) {
	c := newTestClassifier(b)
	var recent []Turn
	for range 5 {
		recent = append(recent, Turn{Text: "Add oat milk to my shopping list"},
			Turn{FromBot: true, Text: "Added oat milk to your shopping list.", Options: []string{"Undo"}})
	}
	for _, m := range []struct{ name, text string }{
		{"greeting", "hi"},
		{"smalltalk", "Hey, how's it going?"},
		{"reminder", "Remind me to water the plants tomorrow at 6pm"},
		{"agenda", "What's on my calendar tomorrow?"},
		{"memory", "Remember that Priya's favourite tea is jasmine"},
	} {
		for _, r := range []struct {
			name   string
			recent []Turn
		}{{"alone", nil}, {"recent10", recent}} {
			b.Run(m.name+"/"+r.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					c.Classify(m.text, r.recent, testRef)
				}
			})
		}
	}
}
