package commands

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hearthbot/hearth/pipeline"
)

// NameStore sets what a user is called.
type NameStore interface {
	SetDisplayName(ctx context.Context, userID int64, name string) error
}

// maxDisplayName bounds a display name, as the web chat does.
const maxDisplayName = 64

// NameCommand is the name command: "call me Sam", "change my name to Sam"
// (or "/name Sam") sets the
// name Hearth calls the user and signs their drafts with, apart from the
// name they sign in with; "/name" alone says the current one. Only a name
// written with a capital after "call me" is one ("call me back", "call me
// tomorrow" go on to be understood as requests).
func NameCommand(st NameStore) Command {
	return Command{
		Name: "name", Args: "[NAME]",
		Help:     "what I call you and sign your drafts with",
		Examples: []string{"call me Sam"},
		Match: func(norm string) bool {
			for _, p := range nameCues {
				if rest, ok := strings.CutPrefix(norm, p); ok {
					return len(strings.Fields(rest)) <= 3
				}
			}
			return false
		},
		Handler: HandlerFunc(func(ctx context.Context, r Request) (pipeline.Answer, bool, error) {
			name := strings.TrimSpace(r.Args)
			if !r.ByName {
				var ok bool
				if name, ok = newName(r.Text); !ok {
					return pipeline.Answer{}, false, nil
				}
			}
			if name == "" {
				return pipeline.Reply(fmt.Sprintf("I call you %s. Say “call me …” to change it.", r.User.DisplayName)), true, nil
			}
			name = strings.Join(strings.Fields(name), " ")
			if utf8.RuneCountInString(name) > maxDisplayName || strings.IndexFunc(name, unicode.IsControl) >= 0 {
				return pipeline.Reply("That name is too long for me (64 characters at most)."), true, nil
			}
			if err := st.SetDisplayName(ctx, r.User.ID, name); err != nil {
				return pipeline.Answer{}, false, fmt.Errorf("name command: %w", err)
			}
			return pipeline.Reply(fmt.Sprintf("Got it, I'll call you %s, and sign your drafts that way.", name)), true, nil
		}),
	}
}

// nameCues begin a new name for the user: "call me Sam", "change my
// name to Sam".
var nameCues = []string{"call me ", "change my name to ", "rename me to ", "set my name to "}

// newName is the name a message gives the user ("call me Sam Reyes"):
// false when what follows the cue is no name ("call me back").
func newName(text string) (string, bool) {
	for _, p := range nameCues {
		if rest, ok := cutPrefixFold(Tidy(text), p); ok {
			return rest, isName(rest)
		}
	}
	return "", false
}

// cutPrefixFold is strings.CutPrefix, ignoring case.
func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return s, false
	}
	return s[len(prefix):], true
}

// isName reports whether words look like a name: one to three words,
// each starting with a capital letter.
func isName(words string) bool {
	f := strings.Fields(words)
	if len(f) == 0 || len(f) > 3 {
		return false
	}
	for _, w := range f {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}
