package deploy

import "strings"

// The classification of SQL statements that change a database, for the
// refusal of a read-only D1 query (docs/decisions.md 81 and 341). It only
// chooses the error a caller without the write scope gets: the database's
// read-only execution on the local edge stays what refuses the change, so a
// statement this reading misses is still rolled back there.

// writeVerbs are the statements that change a database (or attach another).
var writeVerbs = map[string]bool{
	"INSERT": true, "UPDATE": true, "DELETE": true, "REPLACE": true,
	"CREATE": true, "DROP": true, "ALTER": true,
	"ATTACH": true, "DETACH": true, "VACUUM": true, "REINDEX": true, "ANALYZE": true,
}

// pragmaActions are the PRAGMAs that change something when they are only
// named; pragmaReads are those that only read when given an argument in
// parentheses. Any other PRAGMA given a value (`= v` or `(v)`) sets it.
var (
	pragmaActions = map[string]bool{"OPTIMIZE": true, "INCREMENTAL_VACUUM": true, "WAL_CHECKPOINT": true, "SHRINK_MEMORY": true}
	pragmaReads   = map[string]bool{
		"TABLE_INFO": true, "TABLE_XINFO": true, "TABLE_LIST": true, "INDEX_INFO": true, "INDEX_XINFO": true,
		"INDEX_LIST": true, "FOREIGN_KEY_LIST": true, "FOREIGN_KEY_CHECK": true, "INTEGRITY_CHECK": true, "QUICK_CHECK": true,
	}
)

// sqlToken is a word (upper-cased; a keyword or a bare name), a quoted name
// or literal (kind 'q'), or one punctuation character, with the depth of
// parentheses it stands at.
type sqlToken struct {
	kind  byte // 'w' word, 'q' quoted, or the punctuation character itself
	word  string
	depth int
}

// sqlStatements splits sql into statements of tokens, as SQLite reads it:
// comments and white space dropped, strings and quoted names kept whole,
// statements ended by a semicolon outside parentheses. A trigger body's
// semicolons end statements here too, which does not matter for finding the
// first statement that writes: CREATE TRIGGER comes first.
func sqlStatements(sql string) [][]sqlToken {
	var out [][]sqlToken
	var cur []sqlToken
	depth := 0
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			i++
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			for i < len(sql) && sql[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			end := strings.Index(sql[i+2:], "*/")
			if end < 0 {
				i = len(sql)
			} else {
				i += 2 + end + 2
			}
		case c == '\'' || c == '"' || c == '`' || c == '[':
			closing := c
			if c == '[' {
				closing = ']'
			}
			i++
			for i < len(sql) {
				if sql[i] == closing {
					if closing != ']' && i+1 < len(sql) && sql[i+1] == closing {
						i += 2
						continue
					}
					break
				}
				i++
			}
			i++
			cur = append(cur, sqlToken{kind: 'q', depth: depth})
		case isWordByte(c):
			start := i
			for i < len(sql) && isWordByte(sql[i]) {
				i++
			}
			cur = append(cur, sqlToken{kind: 'w', word: strings.ToUpper(sql[start:i]), depth: depth})
		case c == ';' && depth == 0:
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
			i++
		default:
			if c == ')' && depth > 0 {
				depth--
			}
			cur = append(cur, sqlToken{kind: c, depth: depth})
			if c == '(' {
				depth++
			}
			i++
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// isWordByte says whether c continues a word: ASCII letters, digits, _ and
// $, and any byte of a multi-byte UTF-8 character (SQLite's identifiers).
func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c >= 0x80
}

// d1WriteStatement finds the first statement of sql that would change the
// database and answers its number (from 1) and its verb ("DROP", "PRAGMA",
// "WITH … DELETE", …), or 0 and "" when every statement only reads.
func d1WriteStatement(sql string) (int, string) {
	for n, st := range sqlStatements(sql) {
		if verb := statementWrites(st); verb != "" {
			return n + 1, verb
		}
	}
	return 0, ""
}

// statementWrites answers the verb of a statement that writes, or "".
func statementWrites(st []sqlToken) string {
	if st[0].kind != 'w' {
		return ""
	}
	verb := st[0].word
	switch {
	case writeVerbs[verb]:
		return verb
	case verb == "WITH":
		// The statement's own verb is the first one outside the common
		// table expressions, which all stand in parentheses.
		for _, t := range st[1:] {
			if t.kind != 'w' || t.depth != 0 {
				continue
			}
			switch t.word {
			case "SELECT", "VALUES":
				return ""
			case "INSERT", "UPDATE", "DELETE", "REPLACE":
				return "WITH … " + t.word
			}
		}
	case verb == "PRAGMA":
		if pragmaWrites(st[1:]) {
			return verb
		}
	}
	return ""
}

// pragmaWrites says whether the tokens after PRAGMA set a value or act.
func pragmaWrites(rest []sqlToken) bool {
	name := ""
	for i, t := range rest {
		switch {
		case t.kind == 'w' || t.kind == 'q':
			if name == "" || i > 0 && rest[i-1].kind == '.' {
				name = t.word
			}
		case t.kind == '.':
		case t.kind == '=':
			return true
		case t.kind == '(':
			return !pragmaReads[name]
		}
	}
	return pragmaActions[name]
}
