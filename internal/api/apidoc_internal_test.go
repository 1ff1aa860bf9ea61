package api

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestAPIDocCurrent fails when the endpoint reference in docs/api.md differs
// from what the route table renders.
func TestAPIDocCurrent(t *testing.T) {
	path := filepath.Join("..", "..", "docs", "api.md")
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := Reference()
	if err != nil {
		t.Fatal(err)
	}
	want, err := ReplaceReference(doc, ref)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(doc, want) {
		t.Fatalf("docs/api.md is out of date with the route table (internal/api/routes.go): " +
			"run `go run ./internal/api/cmd/apidoc` from the repository root and commit docs/api.md")
	}
	// Every route is in the reference once, under its own heading.
	for _, rt := range DocRoutes() {
		heading := "#### `" + rt.Method + " " + rt.Pattern + "`\n"
		if n := bytes.Count(doc, []byte(heading)); n != 1 {
			t.Errorf("docs/api.md has %d headings %q", n, heading)
		}
	}
}

// TestRouteDocFields: every route has a success status, an answer
// description unless it answers 204, and an example whose request fits the
// route: a body exactly when it reads one, which decodes strictly into the
// route's Body type, and a path the route's pattern matches.
func TestRouteDocFields(t *testing.T) {
	for _, rt := range DocRoutes() {
		name := rt.Method + " " + rt.Pattern
		switch rt.Status {
		case http.StatusOK, http.StatusCreated, http.StatusAccepted:
			// An archive's example is the list of its files (Example.Archive).
			if rt.Answer == "" || (rt.Example.Answer == "" && len(rt.Example.Archive) == 0) {
				t.Errorf("%s: no Answer or no example answer", name)
			}
		case http.StatusNoContent:
			if rt.Answer != "" || rt.Example.Answer != "" {
				t.Errorf("%s answers 204 but describes a body", name)
			}
		default:
			t.Errorf("%s: Status %d", name, rt.Status)
		}
		ex := rt.Example
		if (ex.Body != "") != rt.ReadsBody() {
			t.Errorf("%s: example body %q, reads a body: %v", name, ex.Body, rt.ReadsBody())
		}
		if ex.Body != "" {
			v := reflect.New(reflect.TypeOf(rt.Body))
			if err := decodeBytes([]byte(ex.Body), v.Interface()); err != nil {
				t.Errorf("%s: the example body does not decode into %T: %v", name, rt.Body, err)
			}
		}
		mux := http.NewServeMux()
		mux.HandleFunc(rt.Method+" "+rt.Pattern, func(http.ResponseWriter, *http.Request) {})
		req, err := http.NewRequest(rt.Method, "http://example.com"+ex.Path, nil)
		if err != nil {
			t.Errorf("%s: example path %q: %v", name, ex.Path, err)
			continue
		}
		if _, pattern := mux.Handler(req); pattern != rt.Method+" "+rt.Pattern {
			t.Errorf("%s: the example path %q is not one of the route's", name, ex.Path)
		}
		q := req.URL.Query()
		for k := range q {
			known := k == "organizationId" || k == "projectId"
			for _, p := range rt.Query {
				known = known || p == k
			}
			if !known {
				t.Errorf("%s: the example sends query parameter %q, which the route does not read", name, k)
			}
		}
		if strings.Contains(ex.Path, "{") {
			t.Errorf("%s: the example path %q has a pattern's parameter", name, ex.Path)
		}
	}
}

// TestRouteDocsKeyed: every route of the table has its entry in routeDocs
// (route_docs.go) with a summary, and every entry names a route of the
// table.
func TestRouteDocsKeyed(t *testing.T) {
	routes := map[string]bool{}
	for _, rt := range DocRoutes() {
		routes[rt.key()] = true
		if d, ok := routeDocs[rt.key()]; !ok || d.Summary == "" {
			t.Errorf("%s: no entry with a Summary in routeDocs (route_docs.go)", rt.key())
		}
	}
	for key := range routeDocs {
		if !routes[key] {
			t.Errorf("routeDocs documents %q, which is not a route of the table (routes.go)", key)
		}
	}
}

// TestRouteTableLines: routes.go reads as one short line per route.
func TestRouteTableLines(t *testing.T) {
	src, err := os.ReadFile("routes.go")
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(src), "\n") {
		if n := utf8.RuneCountInString(line); n > 220 {
			t.Errorf("routes.go:%d is %d characters long; its documentation belongs in route_docs.go", i+1, n)
		}
	}
}
