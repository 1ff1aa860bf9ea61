package e2e_test

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestAttackSecretsOnDisk: a workflow with a secret variable is deployed,
// deployed again with another value and a new version, and rolled back to
// its first version; each deploy binds the secret and a fresh worker token
// (EDGEFLOW_WORKER_TOKEN) to the worker of the organization's edge account.
// Attack: every file under the data dirs of the edge and the servers, read as
// bytes, holds none of the secret values and tokens (the edge kept them in
// plaintext in every version of a provisioned account, decision 320). Twin:
// each run's step saw the secret of its deploy and a token, also after the
// rollback.
func TestAttackSecretsOnDisk(t *testing.T) {
	t.Parallel()
	type seen struct{ Key, Token string }
	var mu sync.Mutex
	var got []seen
	ln, err := net.Listen("tcp", allowedHost+":0")
	if err != nil {
		t.Fatalf("listen on %s: %v", allowedHost, err)
	}
	srv := &httptest.Server{Listener: ln, Config: &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var s seen
		body, _ := io.ReadAll(r.Body)
		json.Unmarshal(body, &s)
		mu.Lock()
		got = append(got, s)
		mu.Unlock()
	})}}
	srv.Start()
	defer srv.Close()

	s := newServer(t, serverOptions{})
	report := func(v int) map[string]any {
		return chain("Holder", step("report", `await fetch('`+srv.URL+`/', { method: 'POST', body: JSON.stringify({ key: env.API_KEY, token: env.EDGEFLOW_WORKER_TOKEN }) });
return { version: `+fmt.Sprint(v)+` };`))
	}
	wf, v1 := s.workflow("Holder", "workflow", report(1))
	first := "sk-first-" + randomHex(t)
	second := "sk-second-" + randomHex(t)
	setKey := func(value string) {
		s.must(200, "PATCH", "/api/workflows/"+wf, map[string]any{"envVars": []map[string]any{{"name": "API_KEY", "value": value, "isSecret": true}}})
	}
	runOnce := func(want string) seen {
		t.Helper()
		mu.Lock()
		n := len(got)
		mu.Unlock()
		id := s.trigger(wf, map[string]any{})
		s.waitStatus(wf, id, "complete", 90*time.Second)
		mu.Lock()
		defer mu.Unlock()
		if len(got) != n+1 {
			t.Fatalf("the step reported %d times, want once", len(got)-n)
		}
		last := got[len(got)-1]
		if last.Key != want || len(last.Token) < 32 {
			t.Fatalf("the step saw key %q and a token of %d characters, want key %q", last.Key, len(last.Token), want)
		}
		return last
	}

	setKey(first)
	s.deploy(wf)
	a := runOnce(first)
	setKey(second)
	s.version(wf, report(2))
	s.deploy(wf)
	b := runOnce(second)
	s.must(200, "POST", "/api/workflows/"+wf+"/deploy", map[string]any{"connectionId": s.conn, "versionId": v1}) // the rollback
	c := runOnce(second)

	secrets := []string{first, second, a.Token, b.Token, c.Token}
	var leaks []string
	filepath.WalkDir(shared.dataDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil // a file another test removed meanwhile
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		for _, sec := range secrets {
			for _, form := range [][]byte{[]byte(sec), []byte(base64.StdEncoding.EncodeToString([]byte(sec)))} {
				if bytes.Contains(data, form) {
					rel, _ := filepath.Rel(shared.dataDir, p)
					leaks = append(leaks, rel)
				}
			}
		}
		return nil
	})
	if len(leaks) > 0 {
		t.Fatalf("files holding a secret in plaintext: %q", leaks)
	}
}

// randomHex answers 16 random bytes in hex, a value no file holds by chance.
func randomHex(t *testing.T) string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}
