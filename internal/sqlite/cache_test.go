package sqlite_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/sqlite"
	"github.com/google/go-cmp/cmp"
)

// cacheWorld is a user, an organization with two projects, an API key and
// three workflows in the first project, one with a version.
type cacheWorld struct {
	user              *edgeflow.User
	org               *edgeflow.Organization
	project, other    *edgeflow.Project
	key               *edgeflow.APIKey
	workflows         []*edgeflow.Workflow // newest first
	version, version2 *edgeflow.Version    // of workflows[0]; version2 is current
}

func newCacheWorld(t *testing.T, s *sqlite.Store) *cacheWorld {
	t.Helper()
	ctx := context.Background()
	w := &cacheWorld{user: &edgeflow.User{Email: "cache@example.com"}}
	must(t, s.CreateUser(ctx, w.user))
	w.org = &edgeflow.Organization{Name: "o", Slug: "o"}
	must(t, s.CreateOrganization(ctx, w.org, w.user.ID))
	w.project = &edgeflow.Project{OrganizationID: w.org.ID, Name: "p", Slug: "p"}
	must(t, s.CreateProject(ctx, w.project))
	w.other = &edgeflow.Project{OrganizationID: w.org.ID, Name: "q", Slug: "q"}
	must(t, s.CreateProject(ctx, w.other))
	w.key = &edgeflow.APIKey{OrganizationID: w.org.ID, ProjectID: w.project.ID, UserID: w.user.ID, Name: "k",
		Prefix: "ask_abcd", Hash: []byte("hash-of-the-key"), Scopes: []edgeflow.Scope{"read"}}
	must(t, s.CreateAPIKey(ctx, w.key))
	for i := range 3 {
		wf := &edgeflow.Workflow{OrganizationID: w.org.ID, ProjectID: w.project.ID, Name: fmt.Sprintf("wf %d", i),
			Kind: edgeflow.KindWorkflow}
		must(t, s.CreateWorkflow(ctx, wf))
		w.workflows = append([]*edgeflow.Workflow{wf}, w.workflows...)
	}
	w.version = &edgeflow.Version{WorkflowID: w.workflows[0].ID, IR: json.RawMessage(`{}`)}
	must(t, s.CreateVersion(ctx, w.version))
	w.version2 = &edgeflow.Version{WorkflowID: w.workflows[0].ID, IR: json.RawMessage(`{}`)}
	must(t, s.CreateVersion(ctx, w.version2))
	return w
}

// watchModes are the two ways the read cache detects other connections'
// commits: the WAL-index header (where it can be mapped) and PRAGMA
// data_version; and the cache turned off (Options.NoReadCache), which must
// answer the same.
var watchModes = map[string]func(ctx context.Context, path string) (*sqlite.Store, error){
	"shm": func(ctx context.Context, path string) (*sqlite.Store, error) {
		return sqlite.Open(ctx, path, sqlite.Options{})
	},
	"data_version": sqlite.OpenWithoutShmWatch,
	"off": func(ctx context.Context, path string) (*sqlite.Store, error) {
		return sqlite.Open(ctx, path, sqlite.Options{NoReadCache: true})
	},
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// listing is what a workflow list shows, in order.
type listing struct {
	ID, ProjectID, Name, CurrentVersionID, ActiveVersionID string
}

func listed(t *testing.T, s *sqlite.Store, projectID string) []listing {
	t.Helper()
	page, err := s.ListWorkflows(context.Background(), projectID, edgeflow.ListOptions{})
	must(t, err)
	out := []listing{}
	for _, w := range page.Items {
		out = append(out, listing{w.ID, w.ProjectID, w.Name, w.CurrentVersionID, w.ActiveVersionID})
	}
	return out
}

// encoded lists through ListWorkflowsEncoded with an encoder that renders the
// listing, and counts the encoder's calls.
func encoded(t *testing.T, s *sqlite.Store, projectID string, calls *int) string {
	t.Helper()
	b, err := s.ListWorkflowsEncoded(context.Background(), projectID, edgeflow.ListOptions{}, "test",
		func(p edgeflow.Page[edgeflow.Workflow]) ([]byte, error) {
			*calls++
			var out []listing
			for _, w := range p.Items {
				out = append(out, listing{w.ID, w.ProjectID, w.Name, w.CurrentVersionID, w.ActiveVersionID})
			}
			return json.Marshal(out)
		})
	must(t, err)
	return string(b)
}

func listingJSON(t *testing.T, l []listing) string {
	t.Helper()
	if len(l) == 0 {
		return "null"
	}
	b, err := json.Marshal(l)
	must(t, err)
	return string(b)
}

// TestCacheInvalidation fills the cache, changes workflow rows through every
// Store method that does so — from the same Store and from a second Store on
// the same file (as `edgeflow admin bootstrap` would) — and checks that the
// next list, plain and encoded, shows the change.
func TestCacheInvalidation(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		change func(t *testing.T, s *sqlite.Store, w *cacheWorld)
	}{
		{"create workflow", func(t *testing.T, s *sqlite.Store, w *cacheWorld) {
			must(t, s.CreateWorkflow(context.Background(), &edgeflow.Workflow{OrganizationID: w.org.ID,
				ProjectID: w.project.ID, Name: "new", Kind: edgeflow.KindScript}))
		}},
		{"update workflow", func(t *testing.T, s *sqlite.Store, w *cacheWorld) {
			wf := *w.workflows[1]
			wf.Name = "renamed"
			must(t, s.UpdateWorkflow(context.Background(), &wf))
		}},
		{"move workflow", func(t *testing.T, s *sqlite.Store, w *cacheWorld) {
			must(t, s.MoveWorkflow(context.Background(), w.project.ID, w.workflows[2].ID, w.other.ID))
		}},
		{"delete workflow", func(t *testing.T, s *sqlite.Store, w *cacheWorld) {
			must(t, s.DeleteWorkflow(context.Background(), w.project.ID, w.workflows[0].ID))
		}},
		{"create version", func(t *testing.T, s *sqlite.Store, w *cacheWorld) {
			must(t, s.CreateVersion(context.Background(), &edgeflow.Version{WorkflowID: w.workflows[1].ID}))
		}},
		{"record deployment", func(t *testing.T, s *sqlite.Store, w *cacheWorld) {
			must(t, s.RecordDeployment(context.Background(), &edgeflow.Deployment{WorkflowID: w.workflows[0].ID,
				VersionID: w.version.ID, ConnectionID: "con_1"}))
		}},
	}
	for _, c := range cases {
		for mode, open := range watchModes {
			for _, writer := range []string{"same store", "second store"} {
				t.Run(c.name+"/"+writer+"/"+mode, func(t *testing.T) {
					t.Parallel()
					path := filepath.Join(t.TempDir(), "edgeflow.db")
					s, err := open(context.Background(), path)
					must(t, err)
					defer s.Close()
					w := newCacheWorld(t, s)
					var calls int
					before := listed(t, s, w.project.ID)
					if got := encoded(t, s, w.project.ID, &calls); got != listingJSON(t, before) {
						t.Fatalf("encoded list %s, want %s", got, listingJSON(t, before))
					}
					encoded(t, s, w.project.ID, &calls)
					if want := map[bool]int{true: 2, false: 1}[mode == "off"]; calls != want {
						t.Fatalf("encoder ran %d times for two lists without a write, want %d", calls, want)
					}
					ws := s
					if writer == "second store" {
						ws, err = sqlite.Open(context.Background(), path, sqlite.Options{})
						must(t, err)
						defer ws.Close()
					}
					c.change(t, ws, w)
					// The truth, read past any cache by a fresh Store.
					fresh, err := sqlite.Open(context.Background(), path, sqlite.Options{})
					must(t, err)
					defer fresh.Close()
					want := listed(t, fresh, w.project.ID)
					if diff := cmp.Diff(before, want); diff == "" {
						t.Fatal("the change changed no listing; the case tests nothing")
					}
					if diff := cmp.Diff(want, listed(t, s, w.project.ID)); diff != "" {
						t.Errorf("ListWorkflows after the change (-want +got):\n%s", diff)
					}
					if got := encoded(t, s, w.project.ID, &calls); got != listingJSON(t, want) {
						t.Errorf("ListWorkflowsEncoded after the change = %s, want %s", got, listingJSON(t, want))
					}
				})
			}
		}
	}
}

// TestCacheRemoveDeployment checks that taking a deployment down clears the
// listed active version.
func TestCacheRemoveDeployment(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTemp(t)
	w := newCacheWorld(t, s)
	must(t, s.RecordDeployment(ctx, &edgeflow.Deployment{WorkflowID: w.workflows[0].ID, VersionID: w.version.ID,
		ConnectionID: "con_1"}))
	if got := listed(t, s, w.project.ID)[0].ActiveVersionID; got != w.version.ID {
		t.Fatalf("active version %q, want %q", got, w.version.ID)
	}
	if _, err := s.RemoveDeployment(ctx, w.workflows[0].ID, "con_1", time.Now()); err != nil {
		t.Fatal(err)
	}
	if got := listed(t, s, w.project.ID)[0].ActiveVersionID; got != "" {
		t.Errorf("active version %q after the takedown, want none", got)
	}
}

// TestCacheAPIKeyRevocation revokes a key from the same Store and from a
// second Store on the same file: the next lookup shows it revoked.
func TestCacheAPIKeyRevocation(t *testing.T) {
	t.Parallel()
	for mode, open := range watchModes {
		for _, writer := range []string{"same store", "second store"} {
			t.Run(writer+"/"+mode, func(t *testing.T) {
				t.Parallel()
				ctx := context.Background()
				path := filepath.Join(t.TempDir(), "edgeflow.db")
				s, err := open(ctx, path)
				must(t, err)
				defer s.Close()
				w := newCacheWorld(t, s)
				for range 2 {
					k, err := s.FindAPIKeyByHash(ctx, w.key.Hash)
					must(t, err)
					if k.RevokedAt != nil {
						t.Fatal("fresh key is revoked")
					}
				}
				ws := s
				if writer == "second store" {
					ws, err = sqlite.Open(ctx, path, sqlite.Options{})
					must(t, err)
					defer ws.Close()
				}
				at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
				must(t, ws.RevokeAPIKey(ctx, w.org.ID, w.key.ID, at))
				k, err := s.FindAPIKeyByHash(ctx, w.key.Hash)
				must(t, err)
				if k.RevokedAt == nil || !k.RevokedAt.Equal(at) {
					t.Errorf("RevokedAt = %v after the revocation, want %v", k.RevokedAt, at)
				}
			})
		}
	}
}

// TestCacheCallersCannotModify changes what the store returned and checks
// that the next read is unaffected.
func TestCacheCallersCannotModify(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTemp(t)
	w := newCacheWorld(t, s)
	want := listed(t, s, w.project.ID)
	page, err := s.ListWorkflows(ctx, w.project.ID, edgeflow.ListOptions{})
	must(t, err)
	page.Items[0].Name = "changed by a caller"
	page.Items = page.Items[:1]
	if diff := cmp.Diff(want, listed(t, s, w.project.ID)); diff != "" {
		t.Errorf("list after a caller changed its page (-want +got):\n%s", diff)
	}
	k, err := s.FindAPIKeyByHash(ctx, w.key.Hash)
	must(t, err)
	k.Scopes[0] = "deploy"
	k.Hash[0] = 'X'
	revoked := time.Now()
	k.RevokedAt = &revoked
	k, err = s.FindAPIKeyByHash(ctx, w.key.Hash)
	must(t, err)
	if k.RevokedAt != nil || k.Scopes[0] != "read" || string(k.Hash) != "hash-of-the-key" {
		t.Errorf("key after a caller changed its copy: %+v", k)
	}
}

// TestCacheAfterClose: a closed Store reports errors, not cached data.
func TestCacheAfterClose(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "edgeflow.db"), sqlite.Options{})
	must(t, err)
	w := newCacheWorld(t, s)
	listed(t, s, w.project.ID)
	if _, err := s.FindAPIKeyByHash(ctx, w.key.Hash); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if _, err := s.ListWorkflows(ctx, w.project.ID, edgeflow.ListOptions{}); err == nil {
		t.Error("ListWorkflows on a closed store succeeded")
	}
	if _, err := s.FindAPIKeyByHash(ctx, w.key.Hash); err == nil {
		t.Error("FindAPIKeyByHash on a closed store succeeded")
	}
}

// TestCacheConcurrentReaders renames a workflow from a second Store while
// readers of the first keep the cache busy: a list started after a rename
// returned always shows it, and the readers see no error.
func TestCacheConcurrentReaders(t *testing.T) {
	t.Parallel()
	for mode, open := range watchModes {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			testCacheConcurrentReaders(t, open)
		})
	}
}

func testCacheConcurrentReaders(t *testing.T, open func(ctx context.Context, path string) (*sqlite.Store, error)) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "edgeflow.db")
	s, err := open(ctx, path)
	must(t, err)
	defer s.Close()
	other, err := sqlite.Open(ctx, path, sqlite.Options{})
	must(t, err)
	defer other.Close()
	w := newCacheWorld(t, s)
	stop := make(chan struct{})
	errs := make(chan error, 8)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := s.ListWorkflows(ctx, w.project.ID, edgeflow.ListOptions{}); err != nil {
					errs <- err
					return
				}
				if _, err := s.FindAPIKeyByHash(ctx, w.key.Hash); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wf := *w.workflows[1]
	for i := range 50 {
		wf.Name = fmt.Sprintf("name %d", i)
		must(t, other.UpdateWorkflow(ctx, &wf))
		if got := listed(t, s, w.project.ID)[1].Name; got != wf.Name {
			t.Errorf("after rename %d the list shows %q, want %q", i, got, wf.Name)
		}
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestCacheOtherProcess renames a workflow from another process (this test
// binary run again, as `edgeflow admin bootstrap` would write): the cached
// list shows the new name on the next call.
func TestCacheOtherProcess(t *testing.T) {
	t.Parallel()
	for mode, open := range watchModes {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			path := filepath.Join(t.TempDir(), "edgeflow.db")
			s, err := open(ctx, path)
			must(t, err)
			defer s.Close()
			w := newCacheWorld(t, s)
			listed(t, s, w.project.ID)
			for range 2 { // the row cache too
				_, err := s.FindWorkflowByID(ctx, w.project.ID, w.workflows[1].ID)
				must(t, err)
			}
			cmd := exec.Command(os.Args[0], "-test.run=^TestCacheHelperProcess$")
			cmd.Env = append(os.Environ(), "EDGEFLOW_CACHE_HELPER="+path+"\n"+w.project.ID+"\n"+w.workflows[1].ID)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("helper process: %v\n%s", err, out)
			}
			if got, err := s.FindWorkflowByID(ctx, w.project.ID, w.workflows[1].ID); err != nil || got.Name != "renamed by another process" {
				t.Errorf("FindWorkflowByID after the other process renamed it: %+v, %v", got, err)
			}
			if got := listed(t, s, w.project.ID)[1].Name; got != "renamed by another process" {
				t.Errorf("name %q after the other process renamed it", got)
			}
			cmd = exec.Command(os.Args[0], "-test.run=^TestCacheHelperProcess$")
			cmd.Env = append(os.Environ(), "EDGEFLOW_CACHE_HELPER="+path+"\n"+w.org.ID+"\n"+w.key.ID+"\nrevoke")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("helper process: %v\n%s", err, out)
			}
			k, err := s.FindAPIKeyByHash(ctx, w.key.Hash)
			must(t, err)
			if k.RevokedAt == nil {
				t.Error("key not revoked after the other process revoked it")
			}
		})
	}
}

// TestCacheHelperProcess is the other process of TestCacheOtherProcess.
func TestCacheHelperProcess(t *testing.T) {
	arg := os.Getenv("EDGEFLOW_CACHE_HELPER")
	if arg == "" {
		t.Skip("runs as TestCacheOtherProcess's helper only")
	}
	ctx := context.Background()
	f := strings.Split(arg, "\n")
	s, err := sqlite.Open(ctx, f[0], sqlite.Options{})
	must(t, err)
	defer s.Close()
	if len(f) == 4 {
		must(t, s.RevokeAPIKey(ctx, f[1], f[2], time.Now()))
		return
	}
	wf, err := s.FindWorkflowByID(ctx, f[1], f[2])
	must(t, err)
	wf.Name = "renamed by another process"
	must(t, s.UpdateWorkflow(ctx, wf))
}
