// Package migrations holds Hearth's schema as numbered goose SQL files,
// embedded so the binary migrates its own database.
package migrations

import "embed"

// FS is the set of goose migrations, applied in file-name order.
//
//go:embed *.sql
var FS embed.FS
