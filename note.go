package hearth

import (
	"strings"
	"time"
)

// Note is a Keep-like note: free text, labels and an optional checklist
// (a shopping list is a note with items).
type Note struct {
	ID     int64 `json:"id"`
	UserID int64 `json:"user_id"`
	// Family is true for a note owned by the user's family (a shared
	// shopping list): every member reads and changes it. UserID is then
	// who created it.
	Family    bool            `json:"family,omitempty"`
	Title     string          `json:"title"`
	Body      string          `json:"body,omitempty"`
	Labels    []string        `json:"labels,omitempty"`
	Items     []ChecklistItem `json:"items,omitempty"`
	CreatedAt time.Time       `json:"created_at,omitzero"`
	UpdatedAt time.Time       `json:"updated_at,omitzero"`
	// Where says, for the reply, where a provider other than the
	// built-in notes put the note ("in Google Keep"), or why it did not;
	// empty for the built-in notes. Not stored.
	Where string `json:"where,omitempty"`
}

// Name is what a reply calls the note: its title, or, for a note without
// one, the first words of its body ("The plumber is coming…").
func (n Note) Name() string {
	if n.Title != "" {
		return n.Title
	}
	body := n.Body
	if i := strings.IndexAny(body, "\n"); i > 0 {
		body = body[:i] // the first line: "The plumber comes Friday."
	}
	if i := strings.Index(body, ". "); i > 0 {
		body = body[:i]
	}
	f := strings.Fields(strings.TrimRight(body, ".!? \n"))
	if len(f) > noteNameWords {
		return strings.Join(f[:noteNameWords], " ") + "…"
	}
	return strings.Join(f, " ")
}

// noteNameWords is how many words of its body name an untitled note.
const noteNameWords = 6

// ChecklistItem is one line of a note's checklist.
type ChecklistItem struct {
	Text string `json:"text"`
	Done bool   `json:"done,omitempty"`
}

// AddItems adds items to a checklist the way a person keeps a list: an
// item already on it (the same text, ignoring case and the space around
// it) is not written twice, and one ticked off is put back on, since
// asked for again it is needed again. It returns the checklist after,
// and which of the items asked for were added, put back or already
// there; list is not changed.
func AddItems(list, items []ChecklistItem) (after, added, reopened, already []ChecklistItem) {
	after = append([]ChecklistItem(nil), list...)
	for _, it := range items {
		it.Text = strings.TrimSpace(it.Text)
		i := itemIndex(after, it.Text)
		switch {
		case i < 0:
			after = append(after, it)
			added = append(added, it)
		case i >= len(list):
			// Asked for twice in one go: once is enough.
		case after[i].Done && !it.Done:
			after[i].Done = false
			reopened = append(reopened, after[i])
		default:
			already = append(already, after[i])
		}
	}
	return after, added, reopened, already
}

func itemIndex(list []ChecklistItem, text string) int {
	for i, it := range list {
		if strings.EqualFold(strings.TrimSpace(it.Text), text) {
			return i
		}
	}
	return -1
}

// NoteFilter selects the notes a user sees: their own and their
// family's.
type NoteFilter struct {
	UserID int64
	// Title matches a note's title loosely ("shopping" finds "Shopping list").
	Title string
	Query string
	Limit int
}

// ForShopping reports whether the note is where things to buy go, by its
// title: "Shopping list", "Groceries", "Weekly grocery run".
func (n Note) ForShopping() bool {
	for _, w := range strings.FieldsFunc(strings.ToLower(n.Title), func(r rune) bool { return r == ' ' || r == '-' || r == '\'' }) {
		switch w {
		case "shopping", "groceries", "grocery":
			return true
		}
	}
	return false
}
