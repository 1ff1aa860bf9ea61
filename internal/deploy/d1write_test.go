package deploy

import "testing"

// TestD1WriteStatement: every spelling of a statement that changes a
// database is found, with its number and verb (the refusal of a read-only
// query names them); reads, however written, are not.
func TestD1WriteStatement(t *testing.T) {
	t.Parallel()
	writes := []struct {
		sql  string
		n    int
		verb string
	}{
		{"DROP TABLE t", 1, "DROP"},
		{"drop table if exists t", 1, "DROP"},
		{"  \n\t-- a comment\n/* another; */ DROP TABLE t", 1, "DROP"},
		{"/* unterminated comment before nothing", 0, ""},
		{"ALTER TABLE t RENAME TO u", 1, "ALTER"},
		{"UPDATE t SET a = 1", 1, "UPDATE"},
		{"DELETE FROM t", 1, "DELETE"},
		{"REPLACE INTO t VALUES (1)", 1, "REPLACE"},
		{"INSERT OR IGNORE INTO t VALUES (1)", 1, "INSERT"},
		{"CREATE TABLE u (b)", 1, "CREATE"},
		{"CREATE TRIGGER tr AFTER INSERT ON t BEGIN DELETE FROM t; END", 1, "CREATE"},
		{"ATTACH DATABASE 'file:/tmp/x.db' AS x", 1, "ATTACH"},
		{"DETACH x", 1, "DETACH"},
		{"VACUUM", 1, "VACUUM"},
		{"REINDEX", 1, "REINDEX"},
		{"ANALYZE", 1, "ANALYZE"},
		{"PRAGMA user_version = 7", 1, "PRAGMA"},
		{"pragma main.user_version=7", 1, "PRAGMA"},
		{"PRAGMA writable_schema = ON", 1, "PRAGMA"},
		{"PRAGMA foreign_keys(0)", 1, "PRAGMA"},
		{"PRAGMA optimize", 1, "PRAGMA"},
		{"SELECT 1; DELETE FROM t", 2, "DELETE"},
		{"SELECT ';'; SELECT \"x;\"; SELECT [a;b] FROM t; DROP TABLE t", 4, "DROP"},
		{"SELECT 'it''s; DROP TABLE t'; UPDATE t SET a = 2", 2, "UPDATE"},
		{";;  ; DELETE FROM t", 1, "DELETE"},
		{"WITH d AS (SELECT a FROM t) DELETE FROM t WHERE a IN (SELECT a FROM d)", 1, "WITH … DELETE"},
		{"WITH RECURSIVE d(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM d WHERE x < 3), e AS MATERIALIZED (SELECT 2) INSERT INTO t SELECT x FROM d", 1, "WITH … INSERT"},
		{"with d as (select 1) update t set a = (select * from d)", 1, "WITH … UPDATE"},
	}
	for _, w := range writes {
		n, verb := d1WriteStatement(w.sql)
		if n != w.n || verb != w.verb {
			t.Errorf("d1WriteStatement(%q) = %d, %q, want %d, %q", w.sql, n, verb, w.n, w.verb)
		}
	}
	for _, sql := range []string{
		"SELECT * FROM t",
		"select count(*) as n from t; select max(a) from t",
		"SELECT 'DROP TABLE t' AS s -- DELETE FROM t",
		"SELECT \"update\" FROM t /* ; INSERT INTO t VALUES (1) */",
		"WITH c AS (SELECT count(*) AS n FROM t) SELECT n FROM c",
		"WITH c AS (DELETE FROM t RETURNING *) SELECT 1", // not SQLite, and the engine would refuse it
		"VALUES (1), (2)",
		"EXPLAIN QUERY PLAN DELETE FROM t",
		"PRAGMA table_info(t)",
		"PRAGMA main.table_xinfo('t')",
		"PRAGMA table_list",
		"PRAGMA foreign_keys",
		"PRAGMA user_version",
		"SELEC nonsense",
	} {
		if n, verb := d1WriteStatement(sql); n != 0 {
			t.Errorf("d1WriteStatement(%q) = %d, %q, want a read", sql, n, verb)
		}
	}
}
