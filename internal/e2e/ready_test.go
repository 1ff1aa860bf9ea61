package e2e_test

import (
	"encoding/json"
	"syscall"
	"testing"
	"time"
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
	deadline := time.Now().Add(60 * time.Second)
	for shared.edge.Restarts() == restarts {
		if time.Now().After(deadline) {
			t.Fatal("the edge was not restarted")
		}
		code, m := ready()
		if code == 503 {
			if m["edge"] != "down" || m["database"] != "ok" || m["code"] != "unavailable" {
				t.Fatalf("readyz while the edge restarts = %d %v", code, m)
			}
			sawDown = true
		}
		time.Sleep(50 * time.Millisecond)
	}
	if !sawDown {
		t.Fatal("readyz never answered 503 while the edge was down")
	}
	for {
		code, m := ready()
		if code == 200 && m["edge"] == "ok" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("readyz after the restart = %d %v", code, m)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
