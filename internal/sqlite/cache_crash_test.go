package sqlite_test

import (
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/edgeflow/edgeflow/internal/sqlite"
)

// TestCacheOtherProcessKilled: another process writing to the database is
// killed with SIGKILL — once right after a commit (the WAL holds the commit,
// nothing was checkpointed) and once in the middle of a write transaction. The
// cached reads of this process show the commit at once, never the change the
// killed transaction did not commit, and this process's own writes go on and
// are seen.
func TestCacheOtherProcessKilled(t *testing.T) {
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
			wf := w.workflows[1]
			warm := func() {
				listed(t, s, w.project.ID)
				for range 2 {
					_, err := s.FindWorkflowByID(ctx, w.project.ID, wf.ID)
					must(t, err)
				}
			}
			name := func() (row, list string) {
				got, err := s.FindWorkflowByID(ctx, w.project.ID, wf.ID)
				must(t, err)
				return got.Name, listed(t, s, w.project.ID)[1].Name
			}
			kill := func(how string) {
				t.Helper()
				cmd := exec.Command(os.Args[0], "-test.run=^TestCacheKilledHelper$")
				cmd.Env = append(os.Environ(), "EDGEFLOW_CACHE_KILLED="+path+"\n"+wf.ID+"\n"+how)
				out, err := cmd.CombinedOutput()
				if ee, ok := err.(*exec.ExitError); !ok || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
					t.Fatalf("helper process %s: want it killed by SIGKILL, got %v\n%s", how, err, out)
				}
			}

			warm()
			kill("after-commit")
			if row, list := name(); row != "committed, then killed" || list != row {
				t.Errorf("after a commit of a process killed at once: row %q, list %q", row, list)
			}

			warm()
			kill("mid-transaction")
			if row, list := name(); row != "committed, then killed" || list != row {
				t.Errorf("after a process killed in its transaction: row %q, list %q (the uncommitted name must never show)", row, list)
			}

			got, err := s.FindWorkflowByID(ctx, w.project.ID, wf.ID)
			must(t, err)
			got.Name = "written after the crash"
			must(t, s.UpdateWorkflow(ctx, got))
			if row, list := name(); row != "written after the crash" || list != row {
				t.Errorf("own write after the crash: row %q, list %q", row, list)
			}
		})
	}
}

// TestCacheKilledHelper is the process TestCacheOtherProcessKilled kills: it
// writes with a plain SQLite connection and sends itself SIGKILL.
func TestCacheKilledHelper(t *testing.T) {
	arg := os.Getenv("EDGEFLOW_CACHE_KILLED")
	if arg == "" {
		t.Skip("runs as TestCacheOtherProcessKilled's helper only")
	}
	f := strings.Split(arg, "\n")
	path, id, how := f[0], f[1], f[2]
	db, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(5000)&_pragma=journal_mode(WAL)")
	must(t, err)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	must(t, err)
	_, err = conn.ExecContext(ctx, "BEGIN IMMEDIATE")
	must(t, err)
	name := "committed, then killed"
	if how == "mid-transaction" {
		name = "never committed"
	}
	_, err = conn.ExecContext(ctx, "UPDATE workflows SET name = ? WHERE id = ?", name, id)
	must(t, err)
	if how == "after-commit" {
		_, err = conn.ExecContext(ctx, "COMMIT")
		must(t, err)
	}
	must(t, syscall.Kill(os.Getpid(), syscall.SIGKILL))
	select {}
}

// With the read cache off, nothing is served from it.
func TestCacheOff(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "edgeflow.db"), sqlite.Options{NoReadCache: true})
	must(t, err)
	defer s.Close()
	w := newCacheWorld(t, s)
	for range 3 {
		_, err := s.FindWorkflowByID(ctx, w.project.ID, w.workflows[1].ID)
		must(t, err)
		_, err = s.FindAPIKeyByHash(ctx, w.key.Hash)
		must(t, err)
	}
	if s.WorkflowCached(ctx, w.workflows[1].ID) || s.APIKeyCached(ctx, w.key.Hash) || s.WatchesShm() {
		t.Error("the read cache is off, yet serves entries or watches the WAL-index")
	}
}
