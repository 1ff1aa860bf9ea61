package postgres

import "testing"

// TestRebind: '?' placeholders are numbered in order; those inside quoted
// strings and identifiers, and text without any, are left alone.
func TestRebind(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{`SELECT 1`, `SELECT 1`},
		{`SELECT a FROM t WHERE b = ? AND c = ?`, `SELECT a FROM t WHERE b = $1 AND c = $2`},
		{`UPDATE t SET a = ? WHERE (b, id) < (?, ?) LIMIT ?`, `UPDATE t SET a = $1 WHERE (b, id) < ($2, $3) LIMIT $4`},
		{`SELECT '?' , "a?b", ? FROM t`, `SELECT '?' , "a?b", $1 FROM t`},
		{`SELECT 'it''s ?', ? FROM t WHERE x LIKE '%"a":?%'`, `SELECT 'it''s ?', $1 FROM t WHERE x LIKE '%"a":?%'`},
		{`SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?`, `SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11`},
	} {
		if got := rebind(c.in); got != c.want {
			t.Errorf("rebind(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
