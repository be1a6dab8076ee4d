// Package nlu is Hearth's offline understanding: it classifies a message
// into an intent and domains and extracts its slots without any model call.
// It is pure and deterministic: no database, no network.
//
// # How it decides
//
// A small linear model (multinomial logistic regression over intents,
// one logistic regression per domain) scores word, word-pair, skip-pair
// and prefix features of the message. It is trained from the project's
// own sentence templates in data/intents.txt and word lists in
// data/lists.txt by
//
//	go run ./pipeline/nlu/internal/train
//
// which writes data/model.txt, embedded in the binary. Training is
// deterministic and a test checks that the committed model matches the
// templates. To teach the classifier a new phrasing, add a template to
// the right section and retrain; do not edit model.txt. The confidence
// is the model's softmax with a temperature fitted on the hand-written
// examples in testdata/intents.jsonl, so it is calibrated.
//
// Rules then use the conversation, which the model cannot see:
//
//   - After a bot turn that asks a question or offers options (buttons, or
//     a numbered list in its text), short answers ("yes", "no thanks",
//     "2", "the first one", "family", "tell me more") are Followup, and
//     Slots.Option says which option was picked.
//   - After a bot turn that asked nothing, the same words are Chat.
//   - With no recent turns at all the context is unknown, and an
//     answer-like message is Followup: it only makes sense as a reply.
//
// A message asking for several things gets several domains: each clause
// ("I just closed on my house! Add a celebration dinner Saturday") is
// scored on its own as well.
//
// # Domain conventions
//
//   - Memory is facts about people and life: "remember that …",
//     "note that Emma has a dentist appointment Thursday", "my sister's
//     name is Anna", "I just closed on my house!", and questions about
//     them ("When is John's birthday?"). "Note that <fact>" states a fact,
//     so it is Memory, not Keep.
//   - Keep is the user's free-form notes and lists: "make a note …",
//     "note to self: …", "add milk to my shopping list".
//   - Task is reminders, to-do lists and alarms; Calendar is events and
//     meetings; Email is mail.
//   - Requests outside these domains (music, weather, flights, banking,
//     directions, code) and general knowledge questions are Chat, never
//     actions. The model has an abstain class for them, trained on
//     generated requests Hearth cannot do (the out_of_scope section of
//     data/intents.txt): when it beats Chat, or holds a third of the
//     probability against a request, the result is Chat with OutOfScope
//     set, and the reply says what Hearth can do instead.
//   - The capability gate (capability.go) then checks every request the
//     model and the rules produced: it stays a request only if it names
//     one of Hearth's own things ("remind me", "my list", "the calendar",
//     "a meeting", "email", "remember that", "I need to …"), states a
//     fact about the user's life, or has a weaker cue (a date with a verb
//     phrase, a change verb, "add …") with nothing Hearth cannot do in it
//     and a low abstain score. Otherwise it is Chat with OutOfScope set
//     and Result.Reason saying why, which `bot nlu` prints. Followups
//     are not gated.
//
// # Limits
//
// Only the first features.MaxTokens (64) tokens of a message are scored
// and only its first kilobyte is read for slots: what a message wants is
// said at its start, and a pasted 10 KB text then costs no more than a
// short one.
package nlu
