package e2e_test

import (
	"encoding/json"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestReadyzWhileEdgeRestarts kills the local edge (SIGKILL): while its
// supervisor starts it again, /readyz answers 503 naming the edge (the
// database still "ok"), and once it is back 200 with edge "ok". It runs
// alone (not parallel): the other tests share the edge.
func TestReadyzWhileEdgeRestarts(t *testing.T) {
	s := newServer(t, serverOptions{})
	ready := func() (int, map[string]any) {
		r := s.do("GET", "/readyz", nil)
		var m map[string]any
		json.Unmarshal(r.body, &m)
		return r.status, m
	}
	if code, m := ready(); code != 200 || m["edge"] != "ok" || m["database"] != "ok" {
		t.Fatalf("readyz before = %d %v", code, m)
	}
	restarts, pid := shared.edge.Restarts(), shared.edge.Pid()
	if pid == 0 {
		t.Fatal("the edge has no pid")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	sawDown := false
	testenv.WaitFor(t, 3*time.Minute, 50*time.Millisecond, "the edge to be restarted", func() (bool, string) {
		if shared.edge.Restarts() != restarts {
			return true, ""
		}
		code, m := ready()
		if code == 503 {
			if m["edge"] != "down" || m["database"] != "ok" || m["code"] != "unavailable" {
				t.Fatalf("readyz while the edge restarts = %d %v", code, m)
			}
			sawDown = true
		}
		return false, fmt.Sprintf("readyz %d %v", code, m)
	})
	if !sawDown {
		t.Fatal("readyz never answered 503 while the edge was down")
	}
	testenv.WaitFor(t, 3*time.Minute, 50*time.Millisecond, "readyz to answer 200 after the restart", func() (bool, string) {
		code, m := ready()
		return code == 200 && m["edge"] == "ok", fmt.Sprintf("%d %v", code, m)
	})
}
