package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestStudioTypesCurrent fails when web/src/api/schema.gen.ts is not what
// openapi-typescript makes from the route table's OpenAPI document: run
// make apidoc. It needs node and `npm ci` in ts/ (make deps); without them
// it skips, except in CI.
func TestStudioTypesCurrent(t *testing.T) {
	testenv.NodeModules(t, "ts", "openapi-typescript")
	want, err := studioTypes("ts")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(testenv.Root(), "web", "src", "api", "schema.gen.ts"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("web/src/api/schema.gen.ts is out of date with the route table (internal/api/routes.go): " +
			"run `make apidoc` from the repository root and commit it")
	}
}
