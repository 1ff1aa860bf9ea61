package storetest

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func testSignInFailures(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 123456789, time.UTC)
	policy := edgeflow.SignInBackOff{FreeFailures: 3, BaseDelay: 30 * time.Second, MaxDelay: 2 * time.Minute, ForgetAfter: time.Hour}
	claim := func(key string, at time.Time) (edgeflow.SignInFailures, time.Duration) {
		t.Helper()
		f, wait, err := s.ClaimSignInAttempt(ctx, key, at, policy)
		must(t, err)
		return f, wait
	}
	f, err := s.FindSignInFailures(ctx, "k1")
	must(t, err)
	if f.Count != 0 {
		t.Fatalf("no failures yet: %+v", f)
	}
	// Each admitted claim counts; past FreeFailures the next waits.
	for i := 1; i <= 3; i++ {
		if f, wait := claim("k1", t0.Add(time.Duration(i)*time.Second)); f.Count != i || wait != 0 {
			t.Errorf("claim %d: %+v, wait %v", i, f, wait)
		}
	}
	last := t0.Add(3 * time.Second)
	if f, wait := claim("k1", last.Add(10*time.Second)); f.Count != 3 || wait != 20*time.Second {
		t.Errorf("claim in the back-off: %+v, wait %v, want count 3 and 20s", f, wait)
	}
	if f, _ = claim("k2", t0); f.Count != 1 {
		t.Errorf("k2: %+v", f)
	}
	f, err = s.FindSignInFailures(ctx, "k1")
	must(t, err)
	if want := last.Truncate(time.Microsecond); f.Count != 3 || !f.LastFailedAt.Equal(want) || f.LastFailedAt.Location() != time.UTC {
		t.Errorf("k1 = %+v, want 3 at %v (a refused claim changes nothing)", f, want)
	}
	// The back-off over, one claim is admitted and doubles the next wait.
	if f, wait := claim("k1", last.Add(30*time.Second)); f.Count != 4 || wait != 0 {
		t.Errorf("claim after the back-off: %+v, wait %v", f, wait)
	}
	if _, wait := claim("k1", last.Add(31*time.Second)); wait != 59*time.Second {
		t.Errorf("next wait %v, want 59s", wait)
	}
	// A success clears one key only.
	must(t, s.ClearSignInFailures(ctx, "k1"))
	must(t, s.ClearSignInFailures(ctx, "never-failed"))
	if f, err = s.FindSignInFailures(ctx, "k1"); err != nil || f.Count != 0 {
		t.Errorf("k1 after clear = %+v, %v", f, err)
	}
	if f, err = s.FindSignInFailures(ctx, "k2"); err != nil || f.Count != 1 {
		t.Errorf("k2 after clearing k1 = %+v, %v", f, err)
	}
	// Failures older than ForgetAfter are forgotten: the count starts again.
	later := t0.Add(48 * time.Hour)
	if f, _ = claim("k2", later); f.Count != 1 {
		t.Errorf("stale count not restarted: %+v", f)
	}

	// Concurrent claims are checked and counted one at a time: of many at
	// once, exactly FreeFailures are admitted.
	const workers, each = 10, 3
	var wg sync.WaitGroup
	var admitted atomic.Int64
	errs := make([]error, workers)
	for i := range workers {
		wg.Go(func() {
			for range each {
				_, wait, err := s.ClaimSignInAttempt(ctx, "k3", later, policy)
				if err != nil {
					errs[i] = err
				} else if wait == 0 {
					admitted.Add(1)
				}
			}
		})
	}
	wg.Wait()
	must(t, errors.Join(errs...))
	if n := admitted.Load(); n != int64(policy.FreeFailures) {
		t.Errorf("%d concurrent claims: %d admitted, want %d", workers*each, n, policy.FreeFailures)
	}
	if f, err = s.FindSignInFailures(ctx, "k3"); err != nil || f.Count != policy.FreeFailures {
		t.Errorf("after %d concurrent claims: %+v, %v", workers*each, f, err)
	}
}

// testSignInClaimsAcrossReplicas claims sign-in attempts of one key through
// two stores on one database at once: exactly FreeFailures are admitted, as
// if one store had taken them all.
func testSignInClaimsAcrossReplicas(t *testing.T, a, b edgeflow.Store) {
	ctx := t.Context()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	policy := edgeflow.SignInBackOff{FreeFailures: 5, BaseDelay: time.Minute, MaxDelay: time.Hour, ForgetAfter: 24 * time.Hour}
	const workers = 16
	var wg sync.WaitGroup
	var admitted atomic.Int64
	errs := make([]error, workers)
	for i := range workers {
		s := a
		if i%2 == 1 {
			s = b
		}
		wg.Go(func() {
			_, wait, err := s.ClaimSignInAttempt(ctx, "replicated", at, policy)
			if err != nil {
				errs[i] = err
			} else if wait == 0 {
				admitted.Add(1)
			}
		})
	}
	wg.Wait()
	must(t, errors.Join(errs...))
	if n := admitted.Load(); n != int64(policy.FreeFailures) {
		t.Errorf("%d concurrent claims on two replicas: %d admitted, want %d", workers, n, policy.FreeFailures)
	}
}
