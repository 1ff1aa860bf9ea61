package storetest

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func testHit(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	w1 := time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)
	w2 := w1.Add(time.Minute)
	hit := func(key string, w time.Time) int {
		t.Helper()
		n, err := s.Hit(ctx, key, w)
		must(t, err)
		return n
	}
	for i := 1; i <= 3; i++ {
		if n := hit("ip:1", w1); n != i {
			t.Errorf("hit %d in window 1: count %d", i, n)
		}
	}
	if n := hit("ip:2", w1); n != 1 {
		t.Errorf("other key: count %d", n)
	}
	if n := hit("ip:1", w2); n != 1 {
		t.Errorf("next window: count %d", n)
	}
	// Windows long gone are pruned without disturbing current counts.
	if n := hit("ip:1", w2.Add(3*time.Hour)); n != 1 {
		t.Errorf("much later window: count %d", n)
	}
	if n := hit("ip:1", w2.Add(3*time.Hour)); n != 2 {
		t.Errorf("much later window, second hit: count %d", n)
	}

	const workers, each = 10, 5
	var wg sync.WaitGroup
	errs := make([]error, workers)
	w3 := w1.Add(24 * time.Hour)
	for i := range workers {
		wg.Go(func() {
			for range each {
				if _, err := s.Hit(ctx, "user:x", w3); err != nil {
					errs[i] = err
				}
			}
		})
	}
	wg.Wait()
	must(t, errors.Join(errs...))
	if n := hit("user:x", w3); n != workers*each+1 {
		t.Errorf("after %d concurrent hits: count %d", workers*each, n)
	}
}
