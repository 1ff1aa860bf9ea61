package ir_test

import (
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes"
)

// schemaObject is the part of a JSON Schema object definition the field
// tables of docs/ir.md describe.
type schemaObject struct {
	Required   []string                   `json:"required"`
	Properties map[string]json.RawMessage `json:"properties"`
	Defs       map[string]json.RawMessage `json:"$defs"`
}

func decodeSchemaObject(t *testing.T, raw json.RawMessage) schemaObject {
	t.Helper()
	var o schemaObject
	if err := json.Unmarshal(raw, &o); err != nil {
		t.Fatal(err)
	}
	return o
}

// docTable is a field table of docs/ir.md: | Field | Type | Required |
// Default | Rule |, under a heading.
type docTable struct {
	heading string
	rows    map[string][2]string // field -> required, default
	order   []string
}

func docFieldTables(t *testing.T) map[string]*docTable {
	t.Helper()
	b, err := os.ReadFile("../../docs/ir.md")
	if err != nil {
		t.Fatal(err)
	}
	tables := map[string]*docTable{}
	heading := ""
	var cur *docTable
	field := regexp.MustCompile("^`([A-Za-z]+)`$")
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "#"):
			heading = strings.TrimSpace(strings.TrimLeft(line, "#"))
			cur = nil
		case strings.HasPrefix(line, "| Field | Type | Required | Default |"):
			cur = &docTable{heading: heading, rows: map[string][2]string{}}
			tables[heading] = cur
		case cur != nil && strings.HasPrefix(line, "|---"):
		case cur != nil && strings.HasPrefix(line, "| "):
			cells := strings.Split(strings.Trim(line, "|"), " | ")
			if len(cells) < 5 {
				t.Fatalf("docs/ir.md, %s: row %q has %d cells", heading, line, len(cells))
			}
			m := field.FindStringSubmatch(strings.TrimSpace(cells[0]))
			if m == nil {
				t.Fatalf("docs/ir.md, %s: field cell %q", heading, cells[0])
			}
			cur.rows[m[1]] = [2]string{strings.TrimSpace(cells[2]), strings.TrimSpace(cells[3])}
			cur.order = append(cur.order, m[1])
		default:
			cur = nil
		}
	}
	return tables
}

// TestDocsFieldTablesMatchSchema keeps docs/ir.md's field tables and the
// JSON Schema served at /api/ir/schema.json in step: the same fields, the
// same required ones, and every default the schema states written in the
// Default column (a required field's default is "—"; an optional field's
// says what omitting it means).
func TestDocsFieldTablesMatchSchema(t *testing.T) {
	t.Parallel()
	root := decodeSchemaObject(t, ir.SchemaJSON())
	node := decodeSchemaObject(t, root.Defs["node"])
	stepConfig := decodeSchemaObject(t, root.Defs["stepConfig"])
	objects := map[string]schemaObject{
		"Top level":   root,
		"Metadata":    decodeSchemaObject(t, root.Defs["metadata"]),
		"Trigger":     decodeSchemaObject(t, root.Defs["trigger"]),
		"Nodes":       node,
		"Step config": stepConfig,
		"Edges":       decodeSchemaObject(t, root.Defs["edge"]),
		"Notes":       decodeSchemaObject(t, root.Defs["note"]),
	}
	tables := docFieldTables(t)
	for heading, obj := range objects {
		tab, ok := tables[heading]
		if !ok {
			t.Errorf("docs/ir.md has no field table under %q", heading)
			continue
		}
		var props []string
		for k := range obj.Properties {
			props = append(props, k)
		}
		slices.Sort(props)
		documented := slices.Sorted(slices.Values(tab.order))
		if !slices.Equal(props, documented) {
			t.Errorf("%s: schema properties %v, docs/ir.md fields %v", heading, props, documented)
		}
		for _, f := range tab.order {
			req, def := tab.rows[f][0], tab.rows[f][1]
			if want := slices.Contains(obj.Required, f); strings.HasPrefix(req, "yes") != want {
				t.Errorf("%s: %s: docs say required %q, schema required = %v", heading, f, req, want)
			}
			var prop struct {
				Default json.RawMessage `json:"default"`
			}
			if err := json.Unmarshal(obj.Properties[f], &prop); err != nil {
				t.Fatal(err)
			}
			switch {
			case prop.Default != nil:
				if !strings.Contains(def, "`") || !sameJSON(t, prop.Default, firstCode(def)) {
					t.Errorf("%s: %s: schema default %s, docs/ir.md default %q", heading, f, prop.Default, def)
				}
			case strings.HasPrefix(req, "yes"):
				if def != "—" {
					t.Errorf("%s: %s is required: its default is written —, not %q", heading, f, def)
				}
			case def == "" || def == "—":
				t.Errorf("%s: %s is optional: docs/ir.md must say what omitting it means", heading, f)
			}
		}
	}
}

func firstCode(s string) string {
	i := strings.IndexByte(s, '`')
	j := strings.IndexByte(s[i+1:], '`')
	if i < 0 || j < 0 {
		return ""
	}
	return s[i+1 : i+1+j]
}

func sameJSON(t *testing.T, a json.RawMessage, b string) bool {
	t.Helper()
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

// TestDocsSmallestIRIsValid: the smallest workflow docs/ir.md shows, which
// omits every key with a default, validates and comes back filled in.
func TestDocsSmallestIRIsValid(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../docs/ir.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	i := strings.Index(doc, "A smallest complete workflow")
	start := strings.Index(doc[i:], "```json\n")
	end := strings.Index(doc[i+start+8:], "```")
	if i < 0 || start < 0 || end < 0 {
		t.Fatal("docs/ir.md lacks the smallest complete workflow")
	}
	raw := []byte(doc[i+start+8 : i+start+8+end])
	a, ps := ir.Validate(raw, ir.Options{Nodes: nodes.BuiltinCatalog()})
	if len(ps) > 0 {
		t.Fatalf("smallest IR: %+v", ps)
	}
	n := a.Nodes[0]
	if !a.FilledDefaults() || n.Version != ir.BuiltinNodeVersion || n.Provider != ir.DefaultProvider || n.Position != (ir.Position{}) {
		t.Fatalf("filled in: %v %+v", a.FilledDefaults(), n)
	}
}
