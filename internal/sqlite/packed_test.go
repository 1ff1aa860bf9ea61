package sqlite_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/sqlite"
)

// TestPackedVersionColumns: a version's IR and code are stored compressed
// (BLOB) from packMin bytes up and read back unchanged; short values and
// rows written as TEXT before compression read as they are; a damaged BLOB
// is an error, not a panic or garbage.
func TestPackedVersionColumns(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "edgeflow.db")
	s, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	w := seedWorkflow(t, s)

	var nodes []string
	for i := range 200 {
		nodes = append(nodes, fmt.Sprintf(`{"id":"n%d","name":"Step %d ✓","data":{"code":"return %d;"}}`, i, i, i))
	}
	bigIR := json.RawMessage(`{"nodes":[` + strings.Join(nodes, ",") + `]}`)
	bigCode := strings.Repeat("const x = await step.do(\"é\", async () => 1);\n", 500)
	versions := []*edgeflow.Version{
		{WorkflowID: w.ID, IR: bigIR, Code: bigCode},
		{WorkflowID: w.ID, IR: json.RawMessage(`{"small":true}`), Code: "export {};"},
	}
	for _, v := range versions {
		must(t, s.CreateVersion(ctx, v))
		got, err := s.FindVersionByID(ctx, w.ID, v.ID)
		if err != nil {
			t.Fatal(err)
		}
		if string(got.IR) != string(v.IR) || got.Code != v.Code {
			t.Fatalf("version %d read back differently (IR %d bytes, code %d bytes; stored %d and %d)",
				v.Number, len(got.IR), len(got.Code), len(v.IR), len(v.Code))
		}
	}

	raw, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var irType, codeType string
	var irLen, codeLen int
	must(t, raw.QueryRowContext(ctx, `SELECT typeof(ir), typeof(code), length(ir), length(code) FROM versions WHERE id = ?`,
		versions[0].ID).Scan(&irType, &codeType, &irLen, &codeLen))
	if irType != "blob" || codeType != "blob" || irLen*3 > len(bigIR) || codeLen*3 > len(bigCode) {
		t.Errorf("large version stored as %s (%d bytes of %d) and %s (%d of %d); want compressed blobs",
			irType, irLen, len(bigIR), codeType, codeLen, len(bigCode))
	}
	must(t, raw.QueryRowContext(ctx, `SELECT typeof(ir), typeof(code) FROM versions WHERE id = ?`, versions[1].ID).Scan(&irType, &codeType))
	if irType != "text" || codeType != "text" {
		t.Errorf("small version stored as %s and %s; want text", irType, codeType)
	}

	// A row from before compression: TEXT columns however long.
	if _, err := raw.ExecContext(ctx, `UPDATE versions SET ir = ?, code = ? WHERE id = ?`, string(bigIR), bigCode, versions[0].ID); err != nil {
		t.Fatal(err)
	}
	s.InvalidateCache()
	got, err := s.FindVersionByID(ctx, w.ID, versions[0].ID)
	if err != nil || string(got.IR) != string(bigIR) || got.Code != bigCode {
		t.Fatalf("TEXT row read back differently (err %v)", err)
	}

	// A damaged BLOB.
	if _, err := raw.ExecContext(ctx, `UPDATE versions SET code = X'00FFFFFFFF0102' WHERE id = ?`, versions[0].ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.FindVersionByID(ctx, w.ID, versions[0].ID); err == nil || !strings.Contains(err.Error(), "packed column") {
		t.Fatalf("damaged BLOB: err = %v, want a packed column error", err)
	}
}

// seedWorkflow stores a user, an organization, a project and a workflow.
func seedWorkflow(t *testing.T, s *sqlite.Store) *edgeflow.Workflow {
	t.Helper()
	ctx := t.Context()
	u := &edgeflow.User{Email: "seed@example.com"}
	must(t, s.CreateUser(ctx, u))
	o := &edgeflow.Organization{Name: "o", Slug: "o"}
	must(t, s.CreateOrganization(ctx, o, u.ID))
	p := &edgeflow.Project{OrganizationID: o.ID, Name: "p", Slug: "p"}
	must(t, s.CreateProject(ctx, p))
	w := &edgeflow.Workflow{OrganizationID: o.ID, ProjectID: p.ID, Name: "w", Kind: edgeflow.KindWorkflow}
	must(t, s.CreateWorkflow(ctx, w))
	return w
}
