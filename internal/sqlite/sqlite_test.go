package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/sqlite"
	"github.com/edgeflow/edgeflow/internal/storetest"
)

func openTemp(t testing.TB) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "edgeflow.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T) edgeflow.Store { return openTemp(t) })
}

// TestReplicas runs the two-store conformance cases on two stores opened on
// one file.
func TestReplicas(t *testing.T) {
	t.Parallel()
	storetest.RunReplicas(t, func(t *testing.T) (edgeflow.Store, edgeflow.Store) {
		path := filepath.Join(t.TempDir(), "edgeflow.db")
		stores := make([]edgeflow.Store, 2)
		for i := range stores {
			s, err := sqlite.Open(context.Background(), path, sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			stores[i] = s
		}
		return stores[0], stores[1]
	})
}

// TestTwoStoresOneFile opens the same file from two stores at once (as a
// server and `edgeflow admin bootstrap` do) and writes from both.
func TestTwoStoresOneFile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "shared.db")
	stores := make([]*sqlite.Store, 4)
	errs := make([]error, len(stores))
	var wg sync.WaitGroup
	for i := range stores {
		wg.Go(func() { stores[i], errs[i] = sqlite.Open(ctx, path, sqlite.Options{}) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("open %d: %v", i, err)
		}
		t.Cleanup(func() { stores[i].Close() })
	}
	u := &edgeflow.User{Email: "a@example.com"}
	if err := stores[0].CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	o := &edgeflow.Organization{Name: "o", Slug: "o"}
	if err := stores[1].CreateOrganization(ctx, o, u.ID); err != nil {
		t.Fatal(err)
	}
	for i, s := range stores {
		wg.Go(func() {
			for j := range 10 {
				p := &edgeflow.Project{OrganizationID: o.ID, Name: "p", Slug: fmt.Sprintf("p-%d-%d", i, j)}
				if err := s.CreateProject(ctx, p); err != nil {
					errs[i] = err
					return
				}
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("writer %d: %v", i, err)
		}
	}
	page, err := stores[3].ListProjects(ctx, o.ID, edgeflow.ListOptions{Limit: 100})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != 40 {
		t.Fatalf("%d projects, want 40", len(page.Items))
	}
}

func TestOpenErrors(t *testing.T) {
	t.Parallel()
	for _, path := range []string{"", "a?b", filepath.Join(t.TempDir(), "missing-dir", "x.db")} {
		if s, err := sqlite.Open(context.Background(), path, sqlite.Options{}); err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", path)
		}
	}
}
