package sqlite_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/sqlite"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestCacheWorkflowRows: FindWorkflowByID is served from the read cache,
// gives callers their own copy, follows CreateVersion without dropping the
// row (the cached row is patched), and any other write to workflows drops
// the rows.
func TestCacheWorkflowRows(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "edgeflow.db"), sqlite.Options{})
	must(t, err)
	defer s.Close()
	if !s.WatchesShm() {
		testenv.Missing(t, "the WAL-index cannot be mapped here: every commit counts as foreign")
	}
	w := newCacheWorld(t, s)
	wf := w.workflows[1]
	find := func() *edgeflow.Workflow {
		t.Helper()
		got, err := s.FindWorkflowByID(ctx, w.project.ID, wf.ID)
		must(t, err)
		return got
	}
	find()
	if !s.WorkflowCached(ctx, wf.ID) {
		t.Fatal("workflow not cached after a read")
	}

	got := find()
	got.Name = "changed by the caller"
	got.EnvVars = append(got.EnvVars, edgeflow.WorkflowEnvVar{Name: "X"})
	if again := find(); again.Name != wf.Name || len(again.EnvVars) != 0 {
		t.Fatalf("a caller's change reached the cache: %+v", again)
	}

	v := &edgeflow.Version{WorkflowID: wf.ID, IR: json.RawMessage(`{}`)}
	must(t, s.CreateVersion(ctx, v))
	if !s.WorkflowCached(ctx, wf.ID) {
		t.Error("CreateVersion dropped the cached row")
	}
	if got := find(); got.CurrentVersionID != v.ID {
		t.Fatalf("current version after CreateVersion = %q, want %q", got.CurrentVersionID, v.ID)
	}

	renamed := *find()
	renamed.Name = "renamed"
	must(t, s.UpdateWorkflow(ctx, &renamed))
	if got := find(); got.Name != "renamed" || got.CurrentVersionID != v.ID {
		t.Fatalf("after UpdateWorkflow: %+v", got)
	}
	v2 := &edgeflow.Version{WorkflowID: wf.ID, IR: json.RawMessage(`{}`)}
	must(t, s.CreateVersion(ctx, v2))
	must(t, s.DeleteVersion(ctx, wf.ID, v.ID))
	if got := find(); got.CurrentVersionID != v2.ID {
		t.Fatalf("current version after a new version and deleting the old one = %q, want %q", got.CurrentVersionID, v2.ID)
	}
	if _, err := s.FindWorkflowByID(ctx, w.other.ID, wf.ID); !edgeflow.IsNotFound(err) {
		t.Fatalf("workflow through another project: %v, want not found", err)
	}
}

// TestCacheWorkflowRowsConcurrent: with submissions to several workflows and
// readers running at once, a FindWorkflowByID after CreateVersion returned
// always shows that version (or a later one).
func TestCacheWorkflowRowsConcurrent(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "edgeflow.db"), sqlite.Options{})
	must(t, err)
	defer s.Close()
	w := newCacheWorld(t, s)
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	done := make(chan struct{})
	for r := range 2 { // readers filling the cache all along
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				if _, err := s.FindWorkflowByID(ctx, w.project.ID, w.workflows[(i+r)%len(w.workflows)].ID); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	var writers sync.WaitGroup
	for _, wf := range w.workflows {
		writers.Go(func() {
			for i := range 60 {
				v := &edgeflow.Version{WorkflowID: wf.ID, IR: json.RawMessage(`{}`)}
				if err := s.CreateVersion(ctx, v); err != nil {
					errs <- err
					return
				}
				got, err := s.FindWorkflowByID(ctx, w.project.ID, wf.ID)
				if err != nil {
					errs <- err
					return
				}
				if got.CurrentVersionID != v.ID {
					errs <- fmt.Errorf("%s: submission %d: current version %s, want %s", wf.ID, i, got.CurrentVersionID, v.ID)
					return
				}
			}
		})
	}
	writers.Wait()
	close(done)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
