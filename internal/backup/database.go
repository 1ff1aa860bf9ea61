package backup

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/jackc/pgx/v5"
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
)

// SQLiteMember is the member holding a SQLite database's snapshot.
const SQLiteMember = "database/edgeflow.db"

// pgMember is the member holding one PostgreSQL table's rows (COPY's text format).
func pgMember(table string) string { return "database/" + table + ".copy" }

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// snapshotSQLite writes a consistent copy of the database at src to dst
// through VACUUM INTO (one read transaction: writers go on meanwhile) and
// answers its tables' row counts and migration level.
func snapshotSQLite(ctx context.Context, src, dst string) (map[string]int64, int, error) {
	db, err := sql.Open("sqlite", "file:"+src+"?_pragma=busy_timeout(10000)")
	if err != nil {
		return nil, 0, err
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, dst); err != nil {
		return nil, 0, fmt.Errorf("sqlite: VACUUM INTO: %w", err)
	}
	return sqliteCounts(ctx, dst)
}

// sqliteCounts counts the rows of every table of the database file p.
func sqliteCounts(ctx context.Context, p string) (map[string]int64, int, error) {
	db, err := sql.Open("sqlite", "file:"+p+"?mode=ro")
	if err != nil {
		return nil, 0, err
	}
	defer db.Close()
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return nil, 0, fmt.Errorf("sqlite: list tables: %w", err)
	}
	var tables []string
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return nil, 0, err
		}
		tables = append(tables, t)
	}
	rows.Close()
	counts := map[string]int64{}
	for _, t := range tables {
		var n int64
		if err := db.QueryRowContext(ctx, `SELECT count(*) FROM `+quoteIdent(t)).Scan(&n); err != nil {
			return nil, 0, fmt.Errorf("sqlite: count %s: %w", t, err)
		}
		counts[t] = n
	}
	var level sql.NullInt64
	if _, ok := counts["schema_migrations"]; ok {
		if err := db.QueryRowContext(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&level); err != nil {
			return nil, 0, err
		}
	}
	return counts, int(level.Int64), nil
}

// pgTables lists the tables of the connection's schema, each after the
// tables it references (so that a restore loads them in that order).
func pgTables(ctx context.Context, q interface {
	Query(context.Context, string, ...any) (pgx.Rows, error)
}) ([]string, error) {
	rows, err := q.Query(ctx, `SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename`)
	if err != nil {
		return nil, fmt.Errorf("postgres: list tables: %w", err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, err
	}
	rows, err = q.Query(ctx, `SELECT a.relname::text, b.relname::text FROM pg_constraint c
		JOIN pg_class a ON a.oid = c.conrelid JOIN pg_class b ON b.oid = c.confrelid
		JOIN pg_namespace n ON n.oid = a.relnamespace
		WHERE c.contype = 'f' AND n.nspname = current_schema() AND a.oid <> b.oid`)
	if err != nil {
		return nil, fmt.Errorf("postgres: list references: %w", err)
	}
	deps := map[string][]string{}
	for rows.Next() {
		var from, to string
		if err := rows.Scan(&from, &to); err != nil {
			rows.Close()
			return nil, err
		}
		deps[from] = append(deps[from], to)
	}
	rows.Close()
	var order []string
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(t string)
	visit = func(t string) {
		if state[t] != 0 {
			return
		}
		state[t] = 1
		for _, d := range deps[t] {
			visit(d)
		}
		state[t] = 2
		order = append(order, t)
	}
	for _, t := range tables {
		visit(t)
	}
	return order, nil
}

// snapshotPostgres exports every table of the database's schema in one
// REPEATABLE READ, READ ONLY transaction (one snapshot: a write committed
// meanwhile is in none of it or all of it) to files under dir, and answers
// the order, the counts and the migration level.
func snapshotPostgres(ctx context.Context, url, dir string) ([]string, map[string]int64, int, error) {
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("postgres: connect: %w", err)
	}
	defer conn.Close(context.Background())
	tx, err := conn.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, nil, 0, fmt.Errorf("postgres: begin: %w", err)
	}
	defer tx.Rollback(context.Background())
	order, err := pgTables(ctx, tx)
	if err != nil {
		return nil, nil, 0, err
	}
	counts := map[string]int64{}
	for _, t := range order {
		f, err := os.Create(filepath.Join(dir, t+".copy"))
		if err != nil {
			return nil, nil, 0, err
		}
		bw := bufio.NewWriterSize(f, 1<<20)
		tag, err := tx.Conn().PgConn().CopyTo(ctx, bw, `COPY `+quoteIdent(t)+` TO STDOUT`)
		if err == nil {
			err = bw.Flush()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, nil, 0, fmt.Errorf("postgres: export %s: %w", t, err)
		}
		counts[t] = tag.RowsAffected()
	}
	var level *int
	if _, ok := counts["schema_migrations"]; ok {
		if err := tx.QueryRow(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&level); err != nil {
			return nil, nil, 0, err
		}
	}
	lv := 0
	if level != nil {
		lv = *level
	}
	return order, counts, lv, nil
}

// pgIsEmpty reports whether the connection's schema has no table.
func pgIsEmpty(ctx context.Context, conn *pgx.Conn) (bool, error) {
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM pg_tables WHERE schemaname = current_schema()`).Scan(&n); err != nil {
		return false, fmt.Errorf("postgres: %w", err)
	}
	return n == 0, nil
}

// pgDropAll drops every table of the connection's schema (restore --force).
func pgDropAll(ctx context.Context, conn *pgx.Conn) error {
	tables, err := pgTables(ctx, conn)
	if err != nil {
		return err
	}
	for i := len(tables) - 1; i >= 0; i-- {
		if _, err := conn.Exec(ctx, `DROP TABLE IF EXISTS `+quoteIdent(tables[i])+` CASCADE`); err != nil {
			return fmt.Errorf("postgres: drop %s: %w", tables[i], err)
		}
	}
	return nil
}

// loadPostgres loads the staged table files into the connection's schema,
// which has the archive's tables (migrated to its level) and no rows, in one
// transaction; identity sequences continue after the loaded rows.
func loadPostgres(ctx context.Context, conn *pgx.Conn, dir string, order []string) error {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(context.Background())
	if _, err := tx.Exec(ctx, `DELETE FROM schema_migrations`); err != nil {
		return fmt.Errorf("postgres: %w", err)
	}
	for _, t := range order {
		f, err := os.Open(filepath.Join(dir, t+".copy"))
		if err != nil {
			return err
		}
		_, err = tx.Conn().PgConn().CopyFrom(ctx, bufio.NewReaderSize(f, 1<<20), `COPY `+quoteIdent(t)+` FROM STDIN`)
		f.Close()
		if err != nil {
			return fmt.Errorf("postgres: load %s: %w", t, err)
		}
	}
	rows, err := tx.Query(ctx, `SELECT table_name::text, column_name::text FROM information_schema.columns
		WHERE table_schema = current_schema() AND (is_identity = 'YES' OR column_default LIKE 'nextval%')`)
	if err != nil {
		return err
	}
	type col struct{ t, c string }
	var cols []col
	for rows.Next() {
		var c col
		if err := rows.Scan(&c.t, &c.c); err != nil {
			rows.Close()
			return err
		}
		cols = append(cols, c)
	}
	rows.Close()
	for _, c := range cols {
		if _, err := tx.Exec(ctx, `SELECT setval(pg_get_serial_sequence($1, $2), COALESCE((SELECT max(`+quoteIdent(c.c)+`) FROM `+quoteIdent(c.t)+`), 0) + 1, false)`,
			quoteIdent(c.t), c.c); err != nil {
			return fmt.Errorf("postgres: sequence of %s.%s: %w", c.t, c.c, err)
		}
	}
	return tx.Commit(ctx)
}

// countCopyRows counts the rows of a COPY text file: one line each (a
// newline inside a value is written as \n).
func countCopyRows(p string) (int64, error) {
	f, err := os.Open(p)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	var n int64
	buf := make([]byte, 1<<20)
	for {
		k, err := f.Read(buf)
		for _, b := range buf[:k] {
			if b == '\n' {
				n++
			}
		}
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return 0, err
		}
	}
}

// sortedKeys returns m's keys in order.
func sortedKeys(m map[string]int64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Counts counts the rows of every table of a live database: the SQLite
// file in dataDir, or the PostgreSQL schema of databaseURL when it is set
// (for comparisons of a restored database with its archive's manifest).
func Counts(ctx context.Context, dataDir, databaseURL string) (map[string]int64, error) {
	if databaseURL == "" {
		counts, _, err := sqliteCounts(ctx, filepath.Join(dataDir, SQLiteFile))
		return counts, err
	}
	conn, err := pgx.Connect(ctx, databaseURL)
	if err != nil {
		return nil, fmt.Errorf("postgres: connect: %w", err)
	}
	defer conn.Close(context.Background())
	tables, err := pgTables(ctx, conn)
	if err != nil {
		return nil, err
	}
	counts := map[string]int64{}
	for _, t := range tables {
		var n int64
		if err := conn.QueryRow(ctx, `SELECT count(*) FROM `+quoteIdent(t)).Scan(&n); err != nil {
			return nil, fmt.Errorf("postgres: count %s: %w", t, err)
		}
		counts[t] = n
	}
	return counts, nil
}
