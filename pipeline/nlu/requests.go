package nlu

import "slices"

// The shapes of short requests the model misreads, each a predicate over
// a message's tokens that Classify applies after the model.

// remindOf reports "remind me" asking to be told something ("remind me
// what I have tomorrow", "remind me when the dentist is"), not for a
// reminder.
func remindOf(tokens []string) bool {
	if len(tokens) < 3 || tokens[0] != "remind" {
		return false
	}
	switch tokens[2] {
	case "what", "whats", "when", "where", "who", "whos", "how", "which", "why", "whether", "if":
		return true
	}
	return false
}

// emailSomeone reports a bare request to email someone: "email Sam",
// "email my landlord", not "email is down" or "emails?".
func emailSomeone(tokens []string) bool {
	if len(tokens) < 2 || len(tokens) > 4 || tokens[0] != "email" {
		return false
	}
	switch tokens[1] {
	case "is", "was", "isnt", "wasnt", "has", "had", "not", "me", "it", "this", "that", "sent", "from", "please":
		return false
	}
	return true
}

// startsList reports a request to start a list: "start a packing list",
// "make a new list for the trip".
func startsList(tokens []string) bool {
	if len(tokens) < 2 || len(tokens) > 8 {
		return false
	}
	switch tokens[0] {
	case "start", "make", "create", "begin", "setup", "set":
	default:
		return false
	}
	i := slices.Index(tokens, "list")
	return i > 0 && i <= 4
}
