package storetest

import (
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// testRunStateVersion: every write of a run adds one to its state version,
// and UpdateRunIfUnchanged writes only over the version it was given, so a
// refresh that read the run before another write cannot move it back.
func testRunStateVersion(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	w := newWorkflow(t, s, tn.project.ID, "w")
	w2 := newWorkflow(t, s, tn.project.ID, "w2")
	r := &edgeflow.Run{WorkflowID: w.ID, Status: edgeflow.RunQueued}
	must(t, s.CreateRun(ctx, r))
	if r.StateVersion != 0 {
		t.Fatalf("new run has state version %d, want 0", r.StateVersion)
	}

	// A refresher reads the run ...
	stale, err := s.FindRunByID(ctx, w.ID, r.ID)
	must(t, err)
	// ... a resume writes it meanwhile ...
	resumed := *stale
	resumed.Status, resumed.StatusDetail = edgeflow.RunQueued, ""
	must(t, s.UpdateRun(ctx, &resumed))
	if resumed.StateVersion != 1 {
		t.Fatalf("after UpdateRun the state version is %d, want 1", resumed.StateVersion)
	}
	// ... and the refresher's write of what it read before loses.
	stale.Status, stale.StatusDetail = edgeflow.RunPaused, "paused"
	before := *stale
	ok, err := s.UpdateRunIfUnchanged(ctx, stale)
	must(t, err)
	if ok {
		t.Fatal("a write over a changed run succeeded")
	}
	diff(t, "run given to a refused write", stale, &before)
	got, err := s.FindRunByID(ctx, w.ID, r.ID)
	must(t, err)
	diff(t, "run after the refused write", got, &resumed)

	// A write over the current version succeeds and counts.
	cur := *got
	cur.Status = edgeflow.RunRunning
	ok, err = s.UpdateRunIfUnchanged(ctx, &cur)
	must(t, err)
	if !ok || cur.StateVersion != 2 || cur.Status != edgeflow.RunRunning {
		t.Fatalf("write over the current version: ok=%v version=%d status=%s, want true 2 running", ok, cur.StateVersion, cur.Status)
	}
	got, err = s.FindRunByID(ctx, w.ID, r.ID)
	must(t, err)
	diff(t, "run after the compare-and-set", got, &cur)

	// Two writers with the same version: exactly one wins.
	a, b := *got, *got
	a.Status, b.Status = edgeflow.RunComplete, edgeflow.RunPaused
	var wins []string
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, x := range []*edgeflow.Run{&a, &b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok, err := s.UpdateRunIfUnchanged(ctx, x)
			if err != nil {
				t.Error(err)
				return
			}
			if ok {
				mu.Lock()
				wins = append(wins, x.Status)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if len(wins) != 1 {
		t.Fatalf("concurrent writes over one version: %d won (%v), want 1", len(wins), wins)
	}
	got, err = s.FindRunByID(ctx, w.ID, r.ID)
	must(t, err)
	if got.Status != wins[0] || got.StateVersion != 3 {
		t.Fatalf("stored %s at version %d, want %s at 3", got.Status, got.StateVersion, wins[0])
	}

	missing := edgeflow.Run{WorkflowID: w2.ID, ID: r.ID, Status: edgeflow.RunRunning, StateVersion: got.StateVersion}
	_, err = s.UpdateRunIfUnchanged(ctx, &missing)
	wantCode(t, "UpdateRunIfUnchanged via other workflow", err, edgeflow.ENotFound)
	missing = edgeflow.Run{WorkflowID: w.ID, ID: "run_nope", Status: edgeflow.RunRunning}
	_, err = s.UpdateRunIfUnchanged(ctx, &missing)
	wantCode(t, "UpdateRunIfUnchanged of an unknown run", err, edgeflow.ENotFound)
}

// testRunClaims: a due run is claimed by one refresher at a time, until
// the claim expires or the run is written.
func testRunClaims(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	w := newWorkflow(t, s, tn.project.ID, "w")
	now := time.Now().UTC().Truncate(time.Microsecond)
	at := func(d time.Duration) *time.Time { x := now.Add(d); return &x }
	mk := func(status string, next *time.Time) string {
		r := &edgeflow.Run{WorkflowID: w.ID, Status: status, NextRefreshAt: next}
		must(t, s.CreateRun(ctx, r))
		return r.ID
	}
	dueOld := mk(edgeflow.RunRunning, at(-time.Hour))
	dueNow := mk(edgeflow.RunQueued, at(0))
	duePaused := mk(edgeflow.RunPaused, at(-time.Minute))
	mk(edgeflow.RunRunning, at(time.Minute))  // not yet due
	mk(edgeflow.RunRunning, nil)              // no refresh planned
	mk(edgeflow.RunComplete, at(-time.Hour))  // final
	mk(edgeflow.RunErrored, at(-2*time.Hour)) // final
	dueLast := mk(edgeflow.RunRunning, at(-time.Second))
	runID := func(r edgeflow.Run) string { return r.ID }

	claimed, err := s.ClaimRunsForRefresh(ctx, now, now.Add(10*time.Second), 2)
	must(t, err)
	diff(t, "first claim (oldest due first, limited)", ids(claimed, runID), []string{dueOld, duePaused})
	claimed, err = s.ClaimRunsForRefresh(ctx, now, now.Add(10*time.Second), 10)
	must(t, err)
	diff(t, "second claim (the others)", ids(claimed, runID), []string{dueLast, dueNow})
	claimed, err = s.ClaimRunsForRefresh(ctx, now.Add(5*time.Second), now.Add(15*time.Second), 10)
	must(t, err)
	diff(t, "claim while all are held", ids(claimed, runID), []string{})

	// A write ends the claim: the run is due again when its write says so.
	r, err := s.FindRunByID(ctx, w.ID, duePaused)
	must(t, err)
	r.NextRefreshAt = at(time.Second)
	ok, err := s.UpdateRunIfUnchanged(ctx, r)
	must(t, err)
	if !ok {
		t.Fatal("the claimed run could not be written")
	}
	claimed, err = s.ClaimRunsForRefresh(ctx, now.Add(2*time.Second), now.Add(12*time.Second), 10)
	must(t, err)
	diff(t, "claim after a write", ids(claimed, runID), []string{duePaused})

	// Claims that expired are taken again (a refresher that died).
	claimed, err = s.ClaimRunsForRefresh(ctx, now.Add(11*time.Second), now.Add(20*time.Second), 10)
	must(t, err)
	diff(t, "claim after expiry", ids(claimed, runID), []string{dueOld, dueLast, dueNow})

	// Concurrent claimers never get the same run.
	var due []string
	for range 40 {
		due = append(due, mk(edgeflow.RunRunning, at(-time.Minute)))
	}
	later := now.Add(30 * time.Second)
	seen := claimConcurrently(t, []edgeflow.Store{s}, 6, later, 3)
	for id, n := range seen {
		if n != 1 {
			t.Errorf("run %s claimed %d times by concurrent claimers", id, n)
		}
	}
	want := append(due, dueOld, dueLast, dueNow, duePaused)
	var got []string
	for id := range seen {
		got = append(got, id)
	}
	slices.Sort(got)
	slices.Sort(want)
	diff(t, "runs claimed by concurrent claimers", got, want)
}

// testRunClaimsAcrossReplicas: refreshers of two replicas claiming at once
// never get the same run, and together get every due run; a write through
// one replica is seen by the other's compare-and-set.
func testRunClaimsAcrossReplicas(t *testing.T, a, b edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, a)
	w := newWorkflow(t, a, tn.project.ID, "w")
	now := time.Now().UTC().Truncate(time.Microsecond)
	due := now.Add(-time.Second)
	var want []string
	for range 60 {
		r := &edgeflow.Run{WorkflowID: w.ID, Status: edgeflow.RunRunning, NextRefreshAt: &due}
		must(t, a.CreateRun(ctx, r))
		want = append(want, r.ID)
	}
	seen := claimConcurrently(t, []edgeflow.Store{a, b}, 8, now, 4)
	var got []string
	for id, n := range seen {
		if n != 1 {
			t.Errorf("run %s claimed %d times", id, n)
		}
		got = append(got, id)
	}
	slices.Sort(got)
	slices.Sort(want)
	diff(t, "runs claimed through both replicas", got, want)

	// A refresh through b that read the run before a write through a loses.
	stale, err := b.FindRunByID(ctx, w.ID, want[0])
	must(t, err)
	fresh, err := a.FindRunByID(ctx, w.ID, want[0])
	must(t, err)
	fresh.Status, fresh.StatusDetail = edgeflow.RunQueued, ""
	must(t, a.UpdateRun(ctx, fresh))
	stale.Status, stale.StatusDetail = edgeflow.RunPaused, "paused"
	ok, err := b.UpdateRunIfUnchanged(ctx, stale)
	must(t, err)
	if ok {
		t.Fatal("a stale write through the other replica succeeded")
	}
	cur, err := b.FindRunByID(ctx, w.ID, want[0])
	must(t, err)
	if cur.Status != edgeflow.RunQueued || cur.StateVersion != fresh.StateVersion {
		t.Fatalf("stored %s at version %d, want queued at %d", cur.Status, cur.StateVersion, fresh.StateVersion)
	}
}

// claimConcurrently runs claimers goroutines, spread over stores, that claim
// runs due at now (limit at a time, held for a minute) until none is left,
// and answers how many times each run was claimed.
func claimConcurrently(t *testing.T, stores []edgeflow.Store, claimers int, now time.Time, limit int) map[string]int {
	t.Helper()
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for i := range claimers {
		s := stores[i%len(stores)]
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				got, err := s.ClaimRunsForRefresh(t.Context(), now, now.Add(time.Minute), limit)
				if err != nil {
					t.Error(err)
					return
				}
				if len(got) == 0 {
					return
				}
				mu.Lock()
				for _, r := range got {
					seen[r.ID]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return seen
}
