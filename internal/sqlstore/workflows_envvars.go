package sqlstore

import (
	"strings"
	"unicode/utf8"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// decodeEnvVars decodes the env_vars column as written by json.Marshal
// ([{"name":..,"value":..,"isSecret":..},...]) without reflection. It
// reports false for anything else (escapes, other key order, spacing), and
// the caller falls back to encoding/json. ListWorkflows decodes this column
// for every row, which made encoding/json a fifth of its CPU time.
func decodeEnvVars(s string) ([]edgeflow.WorkflowEnvVar, bool) {
	if strings.IndexByte(s, '\\') >= 0 || len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' || !utf8.ValidString(s) {
		return nil, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 {
			return nil, false
		}
	}
	s = s[1 : len(s)-1]
	out := make([]edgeflow.WorkflowEnvVar, 0, strings.Count(s, `"isSecret":`))
	for len(s) > 0 {
		var v edgeflow.WorkflowEnvVar
		var ok bool
		if s, ok = strings.CutPrefix(s, `{"name":"`); !ok {
			return nil, false
		}
		if v.Name, s, ok = strings.Cut(s, `","value":"`); !ok {
			return nil, false
		}
		if v.Value, s, ok = strings.Cut(s, `","isSecret":`); !ok {
			return nil, false
		}
		switch {
		case strings.HasPrefix(s, "true}"):
			v.IsSecret, s = true, s[len("true}"):]
		case strings.HasPrefix(s, "false}"):
			s = s[len("false}"):]
		default:
			return nil, false
		}
		if strings.ContainsRune(v.Name, '"') || strings.ContainsRune(v.Value, '"') {
			return nil, false
		}
		out = append(out, v)
		if len(s) > 0 {
			if s[0] != ',' || len(s) == 1 {
				return nil, false
			}
			s = s[1:]
		}
	}
	return out, true
}
