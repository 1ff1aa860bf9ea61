package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/testenv"
)

// lockedBuffer collects a command's output while it runs.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// runningServe is `edgeflow serve` running in this process.
type runningServe struct {
	base   string
	stderr *lockedBuffer
	stop   func() int // stops serve and returns its exit status
}

// startServe runs serve with args and EDGEFLOW_SECRET_KEY=key. It returns
// once serve listens, or with code >= 0 when serve exited first.
func startServe(t *testing.T, key string, args ...string) (rs *runningServe, code int) {
	t.Helper()
	t.Setenv("EDGEFLOW_SECRET_KEY", key)
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- dispatch(ctx, append([]string{"serve", "--addr", "127.0.0.1:0", "--no-edge"}, args...), &stdout, &stderr)
	}()
	deadline := time.After(30 * time.Second)
	for {
		if base, ok := strings.CutPrefix(strings.TrimSpace(stdout.String()), "edgeflow listening on "); ok {
			rs := &runningServe{base: base, stderr: &stderr, stop: func() int { cancel(); return <-done }}
			t.Cleanup(func() { cancel() })
			return rs, -1
		}
		select {
		case code := <-done:
			cancel()
			if stdout.String() != "" {
				t.Fatalf("serve printed %q before exiting", stdout.String())
			}
			return &runningServe{stderr: &stderr}, code
		case <-deadline:
			cancel()
			t.Fatalf("serve did not start; stderr:\n%s", stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestServeRefusesAnotherSecretKey: serve checks its secret key against the
// values sealed in the database before it listens. A database with nothing
// sealed (users, organizations, API keys only) accepts any key; once a
// connection's credentials are sealed with key B, serve with key A exits 1
// without listening and says EDGEFLOW_SECRET_KEY is wrong, and serve with B
// still starts.
//
// On PostgreSQL each start is a replica with its own data dir on one
// database.
func TestServeRefusesAnotherSecretKey(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		dataDir := filepath.Join(t.TempDir(), "data")
		testServeRefusesAnotherSecretKey(t, func() []string { return []string{"--data-dir", dataDir} })
	})
	t.Run("postgres", func(t *testing.T) {
		u := testenv.PostgresSchema(t)
		testServeRefusesAnotherSecretKey(t, func() []string {
			return []string{"--data-dir", filepath.Join(t.TempDir(), "replica"), "--database-url", u}
		})
	})
}

func testServeRefusesAnotherSecretKey(t *testing.T, store func() []string) {
	keyA, keyB := strings.Repeat("a1", 32), strings.Repeat("b2", 32)

	rs, code := startServe(t, keyA, store()...)
	if code >= 0 {
		t.Fatalf("serve on an empty database exited %d:\n%s", code, rs.stderr)
	}
	var out, errOut strings.Builder
	if c := dispatch(t.Context(), append([]string{"admin", "bootstrap", "--email", "key@example.com",
		"--password", "password-1", "--json"}, store()...), &out, &errOut); c != 0 {
		t.Fatalf("bootstrap: %d %s", c, errOut.String())
	}
	var boot map[string]string
	if err := json.Unmarshal([]byte(out.String()), &boot); err != nil {
		t.Fatal(err)
	}
	if c := rs.stop(); c != 0 {
		t.Fatalf("serve exited %d:\n%s", c, rs.stderr)
	}

	// Nothing sealed yet: another key is accepted, and seals a connection.
	rs, code = startServe(t, keyB, store()...)
	if code >= 0 {
		t.Fatalf("serve with nothing sealed refused key B (%d):\n%s", code, rs.stderr)
	}
	req, _ := http.NewRequest("POST", rs.base+"/api/connections",
		strings.NewReader(`{"provider":"cloudflare","name":"prod","credentials":{"apiToken":"tok-0123456789abcdef0123456789abcdef0123","accountId":"0123456789abcdef0123456789abcdef"}}`))
	req.Header.Set("Authorization", "Bearer "+boot["apiKey"])
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 201 {
		t.Fatalf("create connection: %d %s", res.StatusCode, body)
	}
	if c := rs.stop(); c != 0 {
		t.Fatalf("serve exited %d:\n%s", c, rs.stderr)
	}

	rs, code = startServe(t, keyA, store()...)
	if code != 1 {
		t.Fatalf("serve with the wrong key: exit %d, want 1; stderr:\n%s", code, rs.stderr)
	}
	if log := rs.stderr.String(); !strings.Contains(log, "EDGEFLOW_SECRET_KEY") || !strings.Contains(log, "not the key the data was sealed with") {
		t.Fatalf("the refusal does not name EDGEFLOW_SECRET_KEY:\n%s", log)
	}
	if strings.Contains(rs.stderr.String(), keyA) || strings.Contains(rs.stderr.String(), keyB) {
		t.Fatalf("a key reached the log:\n%s", rs.stderr)
	}

	rs, code = startServe(t, keyB, store()...)
	if code >= 0 {
		t.Fatalf("serve with the right key exited %d:\n%s", code, rs.stderr)
	}
	if c := rs.stop(); c != 0 {
		t.Fatalf("serve exited %d:\n%s", c, rs.stderr)
	}
}
