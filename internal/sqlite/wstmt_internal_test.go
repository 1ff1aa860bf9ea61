package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/edgeflow/edgeflow/internal/sqlstore"
)

// TestWriteStatementsPrepared: a statement a write transaction ran is
// prepared on the writer connection afterwards, and the next transactions
// run it prepared with the same results; a text of several statements, one
// that does not prepare, and texts past the bound are not kept.
func TestWriteStatementsPrepared(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "edgeflow.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d := driver{s}
	write := func(fn func(tx sqlstore.Querier) error) {
		t.Helper()
		if err := d.Write(ctx, sqlstore.ScopeNone, fn); err != nil {
			t.Fatal(err)
		}
	}
	kept := func(q string) bool {
		v, ok := s.wstmts.Load(q)
		return ok && v != nil
	}

	const create = `CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL); CREATE INDEX notes_body ON notes (body)`
	write(func(tx sqlstore.Querier) error {
		_, err := tx.Exec(ctx, create)
		return err
	})
	if _, ok := s.wstmts.Load(create); ok {
		t.Error("a text of two statements was kept prepared")
	}

	const insert = `INSERT INTO notes (body) VALUES (?) RETURNING id`
	for i := 1; i <= 3; i++ {
		var id int64
		write(func(tx sqlstore.Querier) error {
			return tx.QueryRow(ctx, insert, fmt.Sprintf("note %d", i)).Scan(&id)
		})
		if id != int64(i) {
			t.Fatalf("insert %d returned id %d", i, id)
		}
		if !kept(insert) {
			t.Fatalf("after write %d the insert is not prepared", i)
		}
	}
	const update = `UPDATE notes SET body = body || '!' WHERE id <= ?`
	for i := 0; i < 2; i++ {
		var n int64
		write(func(tx sqlstore.Querier) (err error) {
			n, err = tx.Exec(ctx, update, 2)
			return err
		})
		if n != 2 {
			t.Fatalf("update %d changed %d rows, want 2", i, n)
		}
	}
	const list = `SELECT body FROM notes ORDER BY id`
	for i := 0; i < 2; i++ {
		var got []string
		write(func(tx sqlstore.Querier) error {
			rows, err := tx.Query(ctx, list)
			if err != nil {
				return err
			}
			defer rows.Close()
			got = got[:0]
			for rows.Next() {
				var b string
				if err := rows.Scan(&b); err != nil {
					return err
				}
				got = append(got, b)
			}
			return rows.Err()
		})
		if fmt.Sprint(got) != "[note 1!! note 2!! note 3]" {
			t.Fatalf("read %d: %q", i, got)
		}
	}
	if !kept(update) || !kept(list) {
		t.Error("the update or the select is not prepared")
	}

	// A statement that fails to prepare fails in its transaction, and is
	// remembered as not preparable.
	const bad = `UPDATE nowhere SET x = 1`
	for i := 0; i < 2; i++ {
		err := d.Write(ctx, sqlstore.ScopeNone, func(tx sqlstore.Querier) error {
			_, err := tx.Exec(ctx, bad)
			return err
		})
		if err == nil {
			t.Fatal("a statement on a missing table succeeded")
		}
	}
	if v, ok := s.wstmts.Load(bad); !ok || v != nil {
		t.Errorf("the failing statement: kept %v, %v; want remembered as not preparable", v, ok)
	}

	// Past the bound, texts run unprepared and are not kept.
	s.nwstmt.Store(maxWstmts)
	const other = `DELETE FROM notes WHERE id = ?`
	write(func(tx sqlstore.Querier) error {
		_, err := tx.Exec(ctx, other, 3)
		return err
	})
	if _, ok := s.wstmts.Load(other); ok {
		t.Error("a statement past the bound was kept")
	}
	var n int
	if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM notes`).Scan(&n); err != nil || n != 2 {
		t.Fatalf("notes left: %d, %v", n, err)
	}
}
