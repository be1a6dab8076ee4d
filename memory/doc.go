// Package memory holds the rules of Hearth's second brain that are not
// SQL: which tier a new fact belongs to (medical and money are private,
// birthdays and contact details personal, events and milestones, names
// and relations basic); how a fact speaks of a person or thing (an
// entity, its relation to the user, one attribute's value, and when it
// held, read by timex); how a question asks about them ("who works at
// Acme?", "which of Emma's friends live within walking distance of her
// school?") or about everything Hearth knows of someone; corrections by
// pronoun ("actually it's the 16th"); coordinates given in chat and the
// walking distance by age; the birthdays and anniversaries facts tell
// (which the scheduler reminds of and errands "before Mum's birthday" are
// dated by); and the chat commands that share a fact with one family
// member or the whole family. The facts and entities
// themselves, and who may see them, live in Postgres (store: the rule of
// fact_visible, written into every read's statement).
package memory
