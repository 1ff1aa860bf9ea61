package sqlite_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// BenchmarkListWorkflows reads 50-row pages of a project holding 1,000
// workflows, as GET /api/workflows does.
func BenchmarkListWorkflows(b *testing.B) {
	ctx := context.Background()
	s := openTemp(b)
	u := &edgeflow.User{Email: "bench@example.com"}
	o := &edgeflow.Organization{Name: "o", Slug: "o"}
	p := &edgeflow.Project{Name: "p", Slug: "p"}
	if err := s.CreateUser(ctx, u); err != nil {
		b.Fatal(err)
	}
	if err := s.CreateOrganization(ctx, o, u.ID); err != nil {
		b.Fatal(err)
	}
	p.OrganizationID = o.ID
	if err := s.CreateProject(ctx, p); err != nil {
		b.Fatal(err)
	}
	for i := range 1000 {
		w := &edgeflow.Workflow{ProjectID: p.ID, Name: fmt.Sprintf("workflow %d", i), Description: "a workflow",
			Kind: edgeflow.KindWorkflow, EnvVars: []edgeflow.WorkflowEnvVar{{Name: "A", Value: "1"}},
			Dependencies: map[string]string{}}
		if err := s.CreateWorkflow(ctx, w); err != nil {
			b.Fatal(err)
		}
	}
	for _, bc := range []struct {
		name  string
		pages int
	}{{"first-page", 1}, {"walk-20-pages", 20}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				opts := edgeflow.ListOptions{Limit: 50}
				for range bc.pages {
					page, err := s.ListWorkflows(ctx, p.ID, opts)
					if err != nil || len(page.Items) != 50 {
						b.Fatal(err, len(page.Items))
					}
					opts.Cursor = page.NextCursor
				}
			}
		})
	}
}
