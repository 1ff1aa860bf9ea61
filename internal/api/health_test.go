package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/sqlite"
)

// TestReadyzNamesDependencies: /readyz answers each dependency's state.
// Without an edge it is "off" and the server is ready; with an edge that
// answers its /healthz it is "ok"; an edge that is down or answers an error
// makes /readyz 503 unavailable (with Retry-After) naming the edge, and a
// closed database makes it 503 naming the database.
func TestReadyzNamesDependencies(t *testing.T) {
	t.Parallel()
	var edgeUp atomic.Bool
	edgeUp.Store(true)
	// the edge's /readyz is 503 naming the failing groups while one cannot open Workflow instances (edge/src/health.mjs)
	fakeEdge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/readyz" || !edgeUp.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte(`{"ok":false,"failing":[{"group":"g1","kind":"sqlite_cantopen"}]}`))
			return
		}
		w.Write([]byte(`{"ok":true}`))
	}))
	defer fakeEdge.Close()
	edgeURL := fakeEdge.URL

	start := func(check func(context.Context) error) (*sqlite.Store, *world) {
		st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "edgeflow.db"), sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		sealer, _ := secret.New(bytes.Repeat([]byte{1}, secret.KeySize))
		s, err := api.New(api.Config{SignUp: api.SignUpOpen, Store: st, Sealer: sealer, Limits: ratelimit.Limits{Off: true}, EdgeCheck: check})
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(s)
		t.Cleanup(srv.Close)
		return st, &world{t: t, srv: srv, api: s}
	}
	ready := func(w *world, status int, want map[string]string) {
		t.Helper()
		r := w.do("GET", "/readyz", "", cred{})
		var got map[string]any
		if err := json.Unmarshal(r.body, &got); err != nil || r.status != status {
			t.Fatalf("readyz = %d %s, want %d", r.status, r.body, status)
		}
		for k, v := range want {
			if got[k] != v {
				t.Fatalf("readyz %s = %v, want %s (%s)", k, got[k], v, r.body)
			}
		}
		if status == 503 && (got["code"] != "unavailable" || got["requestId"] == "" || r.header.Get("Retry-After") == "") {
			t.Fatalf("readyz 503 without the error shape or Retry-After: %s %v", r.body, r.header)
		}
		if status == 200 && got["code"] != nil {
			t.Fatalf("readyz 200 with an error code: %s", r.body)
		}
	}

	_, off := start(nil)
	ready(off, 200, map[string]string{"status": "ok", "database": "ok", "edge": "off"})

	st, w := start(func(ctx context.Context) error { return api.ProbeEdge(ctx, edgeURL) })
	ready(w, 200, map[string]string{"status": "ok", "database": "ok", "edge": "ok"})
	edgeUp.Store(false)
	ready(w, 503, map[string]string{"status": "unavailable", "database": "ok", "edge": "down",
		"error": "not ready: edge unreachable"})
	edgeUp.Store(true)
	ready(w, 200, map[string]string{"edge": "ok"})
	fakeEdge.Close() // nothing listens any more
	ready(w, 503, map[string]string{"database": "ok", "edge": "down"})
	st.Close()
	ready(w, 503, map[string]string{"database": "down", "edge": "down", "error": "not ready: database and edge unreachable"})
}
