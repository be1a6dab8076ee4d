// Package memory holds the rules of Hearth's second brain that are not
// SQL: which tier a new fact belongs to (medical and money are private,
// birthdays and contact details personal, events and milestones, names
// and relations basic), how a question asks for everything Hearth knows
// about someone, and the chat commands that share a fact with one family
// member or the whole family. The facts themselves, and who may see
// them, live in Postgres (store, the fact_visible predicate).
package memory
