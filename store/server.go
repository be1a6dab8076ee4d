package store

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// Extension is a PostgreSQL extension as the server has it: the version
// it could install and the version installed in this database ("" when
// not installed).
type Extension struct {
	Name      string
	Available string
	Installed string
}

// ServerVersion returns the database server's version ("16.4").
func (s *Store) ServerVersion(ctx context.Context) (string, error) {
	var v string
	if err := s.pool.QueryRow(ctx, `SHOW server_version`).Scan(&v); err != nil {
		return "", fmt.Errorf("store server version: %w", translate(err))
	}
	return v, nil
}

// Extensions reports each named extension: whether the server has it
// and whether this database has it installed. A name the server does not
// know is returned with both versions empty.
func (s *Store) Extensions(ctx context.Context, names ...string) ([]Extension, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT n.name, coalesce(a.default_version, ''), coalesce(e.extversion, '')
		FROM unnest($1::text[]) WITH ORDINALITY AS n(name, i)
		LEFT JOIN pg_available_extensions a ON a.name = n.name
		LEFT JOIN pg_extension e ON e.extname = n.name
		ORDER BY n.i`, names)
	if err != nil {
		return nil, fmt.Errorf("store extensions: %w", translate(err))
	}
	exts, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Extension, error) {
		var e Extension
		err := r.Scan(&e.Name, &e.Available, &e.Installed)
		return e, err
	})
	if err != nil {
		return nil, fmt.Errorf("store extensions: %w", translate(err))
	}
	return exts, nil
}
