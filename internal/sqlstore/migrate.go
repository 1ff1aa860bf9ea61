package sqlstore

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Migrations applies the migrations of an engine: the files migrations/*.sql
// of its embedded FS, each named NNNN_what.sql, in name order.
type Migrations struct {
	FS fs.FS
	// AppliedAtType is the SQL type of schema_migrations.applied_at, the
	// engine's time column type.
	AppliedAtType string
	// Exec runs the text of one migration file (several statements) in the
	// transaction.
	Exec func(ctx context.Context, body string) error
	// UpTo, when above 0, applies only the migrations numbered up to it
	// (a restore loads an older archive's rows at its level, then migrates).
	UpTo int
}

// Apply applies, in tx, the migrations not yet recorded in
// schema_migrations and records them. The engine runs it in one write
// transaction that holds whatever lock keeps two processes from migrating at
// once.
func (m Migrations) Apply(ctx context.Context, tx Querier, d Dialect, now time.Time, log *slog.Logger) error {
	name := d.Name()
	files, err := fs.Glob(m.FS, "migrations/*.sql")
	if err != nil {
		return err
	}
	sort.Strings(files)
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at `+m.AppliedAtType+` NOT NULL)`); err != nil {
		return fmt.Errorf("%s: migrations table: %w", name, err)
	}
	applied := map[int]bool{}
	rows, err := tx.Query(ctx, `SELECT version FROM schema_migrations`)
	if err != nil {
		return fmt.Errorf("%s: read migrations: %w", name, err)
	}
	for rows.Next() {
		var v int
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return err
		}
		applied[v] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, file := range files {
		base := strings.TrimPrefix(file, "migrations/")
		num, _, ok := strings.Cut(base, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil {
			return fmt.Errorf("%s: migration %s: name must start with a number and '_'", name, base)
		}
		if applied[v] || (m.UpTo > 0 && v > m.UpTo) {
			continue
		}
		body, err := fs.ReadFile(m.FS, file)
		if err != nil {
			return err
		}
		if err := m.Exec(ctx, string(body)); err != nil {
			return fmt.Errorf("%s: migration %s: %w", name, base, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)`,
			v, base, d.Time(norm(now))); err != nil {
			return fmt.Errorf("%s: record migration %s: %w", name, base, err)
		}
		log.Info("applied migration", "engine", name, "migration", base)
	}
	return nil
}
