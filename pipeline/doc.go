// Package pipeline turns inbound chat events into replies.
//
// It declares the types every channel shares (an inbound event, an
// outbound message, a button) and the durable path they travel:
//
//	adapter → Inbox.Accept (event row + "turn" job, one transaction) → 2xx
//	TurnWorker: one conversation at a time, in arrival order → Handler → replies
//	DeliverWorker: one "deliver" job per reply → Sender → platform message id
//
// Nothing is processed inside an HTTP handler, and every step is keyed so a
// retry or a second replica never repeats an effect.
package pipeline
