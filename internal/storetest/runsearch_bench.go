package storetest

import (
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// BulkRuns stores n runs of the project for the run search benchmark, run
// i (0 <= i < n) with: id "run_bench" and i; workflow B when i%10 == 0,
// else A; version "ver_bench" and i%20; status errored when i%50 == 0,
// running when i%50 == 1, else complete; params {"orderId":"A-<i>",
// "customer":"customer <i%1000>"}; output {"total":<i%500>}; error "card
// declined by issuer <i%7>" when errored, else ""; created start + i ms;
// steps: a step with output {"tracking":"T-<i>","carrier":"carrier
// <i%13>"}, a sensitive step (output "[REDACTED]") and a waitForEvent step
// whose event payload is {"approvedBy":"manager <i%50>"}, with the step
// words the store would write for them (the loader checks one run's
// against sqlstore.StepWords).
type BulkRuns func(b *testing.B, projectID, workflowA, workflowB string, n int, start time.Time)

// BenchRunCount is the number of runs the search benchmarks store:
// EDGEFLOW_BENCH_RUNS, default 1,000,000.
func BenchRunCount() int {
	if n, err := strconv.Atoi(os.Getenv("EDGEFLOW_BENCH_RUNS")); err == nil && n > 0 {
		return n
	}
	return 1_000_000
}

// BenchRunSearch measures first pages (50 runs) of GET /api/runs searches
// on BenchRunCount runs stored by load, and the fifth page of the project's
// runs.
func BenchRunSearch(b *testing.B, s edgeflow.Store, load BulkRuns) {
	ctx := b.Context()
	u := &edgeflow.User{Email: "bench@example.com"}
	if err := s.CreateUser(ctx, u); err != nil {
		b.Fatal(err)
	}
	o := &edgeflow.Organization{Name: "o", Slug: "o"}
	if err := s.CreateOrganization(ctx, o, u.ID); err != nil {
		b.Fatal(err)
	}
	p := &edgeflow.Project{OrganizationID: o.ID, Name: "p", Slug: "p"}
	if err := s.CreateProject(ctx, p); err != nil {
		b.Fatal(err)
	}
	wa := &edgeflow.Workflow{OrganizationID: o.ID, ProjectID: p.ID, Name: "a", Kind: edgeflow.KindWorkflow}
	wb := &edgeflow.Workflow{OrganizationID: o.ID, ProjectID: p.ID, Name: "b", Kind: edgeflow.KindWorkflow}
	for _, w := range []*edgeflow.Workflow{wa, wb} {
		if err := s.CreateWorkflow(ctx, w); err != nil {
			b.Fatal(err)
		}
	}
	n := BenchRunCount()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	began := time.Now()
	load(b, p.ID, wa.ID, wb.ID, n, start)
	b.Logf("stored %d runs in %s", n, time.Since(began).Round(time.Millisecond))
	mid := start.Add(time.Duration(n/2) * time.Millisecond)
	end := mid.Add(time.Hour)
	for _, c := range []struct {
		name  string
		f     edgeflow.RunFilter
		pages int
	}{
		{"project", edgeflow.RunFilter{}, 1},
		{"project-page-5", edgeflow.RunFilter{}, 5},
		{"workflow", edgeflow.RunFilter{WorkflowID: wb.ID}, 1},
		{"status-errored", edgeflow.RunFilter{Status: edgeflow.RunErrored}, 1},
		{"workflow-and-status", edgeflow.RunFilter{WorkflowID: wb.ID, Status: edgeflow.RunErrored}, 1},
		{"version", edgeflow.RunFilter{VersionID: "ver_bench7"}, 1},
		{"time-range", edgeflow.RunFilter{From: &mid, To: &end}, 1},
		{"words-common", edgeflow.RunFilter{Query: "declined"}, 1},
		{"words-rare", edgeflow.RunFilter{Query: "A-" + strconv.Itoa(n/3)}, 1},
		{"words-and-status", edgeflow.RunFilter{Status: edgeflow.RunErrored, Query: "issuer 3"}, 1},
		{"step-output-common", edgeflow.RunFilter{Query: "carrier 7"}, 1},
		{"step-output-rare", edgeflow.RunFilter{Query: "T-" + strconv.Itoa(n/3+1)}, 1},
		{"step-output-rare-and-status", edgeflow.RunFilter{Status: edgeflow.RunErrored, Query: "T-" + strconv.Itoa(n/2/50*50)}, 1},
		{"event-payload", edgeflow.RunFilter{Query: "manager 17"}, 1},
		{"event-payload-and-status", edgeflow.RunFilter{Status: edgeflow.RunErrored, Query: "approval"}, 1},
		{"params-and-step-output", edgeflow.RunFilter{Query: "customer 42 carrier 3"}, 1},
		// The same density of matches (1 run in 640) from params and output
		// only, as searches found before step words.
		{"params-and-output", edgeflow.RunFilter{Query: "customer 42 total 3"}, 1},
		{"step-output-page-5", edgeflow.RunFilter{Query: "carrier 7"}, 5},
	} {
		b.Run(c.name, func(b *testing.B) {
			f := c.f
			f.ProjectID = p.ID
			for b.Loop() {
				opts := edgeflow.ListOptions{Limit: 50}
				for range c.pages {
					page, err := s.ListRuns(ctx, f, opts)
					if err != nil {
						b.Fatal(err)
					}
					if len(page.Items) == 0 {
						b.Fatalf("%s: no runs found", c.name)
					}
					opts.Cursor = page.NextCursor
				}
			}
		})
	}
}
