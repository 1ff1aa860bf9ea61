package postgres_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/postgres"
	"github.com/edgeflow/edgeflow/internal/storetest"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// testURL returns EDGEFLOW_TEST_POSTGRES_URL; without it the test skips, or
// fails under CI or EDGEFLOW_TEST_REQUIRE_POSTGRES=1 (internal/testenv).
func testURL(t testing.TB) string {
	t.Helper()
	return testenv.PostgresURL(t)
}

func openFresh(t testing.TB) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), testenv.PostgresSchema(t), postgres.Options{MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	t.Parallel()
	testURL(t)
	storetest.Run(t, func(t *testing.T) edgeflow.Store { return openFresh(t) })
}

// TestReplicas runs the two-store conformance cases on two stores, each its
// own connection pool, on one schema: two replicas of the service.
func TestReplicas(t *testing.T) {
	t.Parallel()
	testURL(t)
	storetest.RunReplicas(t, func(t *testing.T) (edgeflow.Store, edgeflow.Store) {
		u := testenv.PostgresSchema(t)
		stores := make([]edgeflow.Store, 2)
		for i := range stores {
			s, err := postgres.Open(context.Background(), u, postgres.Options{MaxConns: 8})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			stores[i] = s
		}
		return stores[0], stores[1]
	})
}

// TestConcurrentOpen starts several stores on one empty schema at once, as
// replicas starting together do: the migrations apply exactly once.
func TestConcurrentOpen(t *testing.T) {
	t.Parallel()
	u := testenv.PostgresSchema(t)
	ctx := context.Background()
	stores := make([]*postgres.Store, 4)
	errs := make([]error, len(stores))
	var wg sync.WaitGroup
	for i := range stores {
		wg.Go(func() { stores[i], errs[i] = postgres.Open(ctx, u, postgres.Options{MaxConns: 2}) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		t.Cleanup(func() { stores[i].Close() })
	}
	for i, s := range stores {
		if err := s.CreateUser(ctx, &edgeflow.User{Email: fmt.Sprintf("u%d@example.com", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := stores[0].FindUserByEmail(ctx, "U3@example.com"); err != nil {
		t.Fatal(err)
	}
}

func TestOpenBadURL(t *testing.T) {
	t.Parallel()
	if _, err := postgres.Open(context.Background(), "postgres://%zz", postgres.Options{}); err == nil {
		t.Fatal("Open with a malformed URL succeeded")
	}
}
