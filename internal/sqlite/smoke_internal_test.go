package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func TestSmoke(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "db.sqlite"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	u := &edgeflow.User{Email: "A@x.io"}
	if err := s.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateUser(ctx, &edgeflow.User{Email: "a@X.io"}); !edgeflow.IsConflict(err) {
		t.Fatal(err)
	}
	o := &edgeflow.Organization{Name: "o", Slug: "o"}
	if err := s.CreateOrganization(ctx, o, u.ID); err != nil {
		t.Fatal(err)
	}
	p := &edgeflow.Project{OrganizationID: o.ID, Name: "p", Slug: "p"}
	if err := s.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		if err := s.CreateWorkflow(ctx, &edgeflow.Workflow{ProjectID: p.ID, Name: "w", Kind: "workflow"}); err != nil {
			t.Fatal(err)
		}
	}
	pg, err := s.ListWorkflows(ctx, p.ID, edgeflow.ListOptions{Limit: 2})
	if err != nil || len(pg.Items) != 2 || pg.NextCursor == "" {
		t.Fatal(err, pg)
	}
	pg, err = s.ListWorkflows(ctx, p.ID, edgeflow.ListOptions{Limit: 2, Cursor: pg.NextCursor})
	if err != nil || len(pg.Items) != 1 || pg.NextCursor != "" {
		t.Fatal(err, pg)
	}
	v := &edgeflow.Version{WorkflowID: pg.Items[0].ID, NodeTypes: []string{"slack@1.0.0"}}
	if err := s.CreateVersion(ctx, v); err != nil || v.Number != 1 {
		t.Fatal(err, v)
	}
	n, err := s.Hit(ctx, "k", o.CreatedAt)
	if err != nil || n != 1 {
		t.Fatal(err, n)
	}
}
