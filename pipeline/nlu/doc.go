// Package nlu is Hearth's offline understanding: it classifies a message
// into an intent and domains and extracts its slots without any model call.
// It is pure and deterministic: no database, no network.
package nlu
