package sqlite_test

import (
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// BenchmarkListWorkflows reads 50-row pages of a project holding 1,000
// workflows, as GET /api/workflows does, from the read cache and (uncached)
// from the database.
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
		name     string
		pages    int
		uncached bool // every page read from the database
	}{{"first-page", 1, false}, {"walk-20-pages", 20, false}, {"first-page-uncached", 1, true},
		{"walk-20-pages-uncached", 20, true}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			for b.Loop() {
				opts := edgeflow.ListOptions{Limit: 50}
				for range bc.pages {
					if bc.uncached {
						s.InvalidateCache()
					}
					page, err := s.ListWorkflows(ctx, p.ID, opts)
					if err != nil || len(page.Items) != 50 {
						b.Fatal(err, len(page.Items))
					}
					opts.Cursor = page.NextCursor
				}
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N*bc.pages), "cpu-ns/page")
		})
	}
}

// cpuTime is the CPU time (user + system) the process has used. On a shared
// machine it measures the work of a benchmark better than wall time does.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
