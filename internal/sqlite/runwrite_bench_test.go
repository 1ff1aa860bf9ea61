package sqlite_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// BenchmarkRunWrites stores runs the way a burst of triggers does: 16
// writers at once, each creating a run and then writing its end (the
// trigger's insert and the refresher's final update). It reports the
// process's CPU per run beside the wall time.
func BenchmarkRunWrites(b *testing.B) {
	ctx := context.Background()
	s := openTemp(b)
	u := &edgeflow.User{Email: "bench@example.com"}
	o := &edgeflow.Organization{Name: "o", Slug: "o"}
	if err := s.CreateUser(ctx, u); err != nil {
		b.Fatal(err)
	}
	if err := s.CreateOrganization(ctx, o, u.ID); err != nil {
		b.Fatal(err)
	}
	p := &edgeflow.Project{Name: "p", Slug: "p", OrganizationID: o.ID}
	if err := s.CreateProject(ctx, p); err != nil {
		b.Fatal(err)
	}
	w := &edgeflow.Workflow{ProjectID: p.ID, Name: "burst", Kind: edgeflow.KindWorkflow}
	if err := s.CreateWorkflow(ctx, w); err != nil {
		b.Fatal(err)
	}
	c := &edgeflow.Connection{OrganizationID: o.ID, Provider: edgeflow.ProviderLocal, Name: "local",
		AccountID: "acc", SealedCredentials: []byte{1, 2, 3}}
	if err := s.CreateConnection(ctx, c); err != nil {
		b.Fatal(err)
	}
	steps := json.RawMessage(`[{"name":"one","type":"step","output":1},{"name":"two","type":"step","output":2}]`)
	const writers = 16
	b.ReportAllocs()
	start := cpuTime()
	b.ResetTimer()
	jobs := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failed error
	for range writers {
		wg.Go(func() {
			for range jobs {
				r := &edgeflow.Run{WorkflowID: w.ID, ConnectionID: c.ID, WorkflowName: "burst",
					Params: json.RawMessage(`{"n":1}`)}
				err := s.CreateRun(ctx, r)
				if err == nil {
					now := time.Now()
					r.Status, r.Output, r.Steps, r.StartedAt, r.EndedAt = edgeflow.RunComplete, json.RawMessage(`{"ok":true}`), steps, &now, &now
					_, err = s.UpdateRunIfUnchanged(ctx, r)
				}
				if err != nil {
					mu.Lock()
					failed = err
					mu.Unlock()
				}
			}
		})
	}
	for i := 0; i < b.N; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	b.StopTimer()
	if failed != nil {
		b.Fatal(failed)
	}
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/run")
}
