package api_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/auth"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/sqlite"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// BenchmarkVersionSubmit submits mixed-100 as a new version through the
// HTTP API (real server on a loopback port, SQLite on disk, API key auth,
// rate limits off) from 10 concurrent connections, each to its own workflow
// ("10 workflows") or all to one ("1 workflow"). It reports submissions/s.
func BenchmarkVersionSubmit(b *testing.B) {
	raw := testenv.BenchIR(b, "mixed-100")
	body := append(append([]byte(`{"ir":`), raw...), '}')
	// The server runs with GOGC 400 unless GOGC is set (serveGCPercent in
	// cmd/edgeflow/serve.go); measure it that way.
	if _, ok := os.LookupEnv("GOGC"); !ok {
		defer debug.SetGCPercent(debug.SetGCPercent(400))
	}
	for _, shared := range []bool{false, true} {
		name := "10 workflows"
		if shared {
			name = "1 workflow"
		}
		b.Run(name, func(b *testing.B) { benchSubmit(b, body, 10, shared) })
	}
}

func benchSubmit(b *testing.B, body []byte, conns int, shared bool) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "edgeflow.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	sealer, err := secret.New(bytes.Repeat([]byte{1}, secret.KeySize))
	if err != nil {
		b.Fatal(err)
	}
	s, err := api.New(api.Config{SignUp: api.SignUpOpen, Store: st, Sealer: sealer, Limits: ratelimit.Limits{Off: true}})
	if err != nil {
		b.Fatal(err)
	}
	srv := httptest.NewServer(s)
	defer srv.Close()

	u := &edgeflow.User{Email: "bench@example.com", PasswordHash: []byte("x")}
	must(b, st.CreateUser(ctx, u))
	o := &edgeflow.Organization{Name: "Bench", Slug: "bench"}
	must(b, st.CreateOrganization(ctx, o, u.ID))
	p := &edgeflow.Project{OrganizationID: o.ID, Name: "Bench", Slug: "bench"}
	must(b, st.CreateProject(ctx, p))
	key, prefix, hash := auth.NewAPIKey()
	must(b, st.CreateAPIKey(ctx, &edgeflow.APIKey{OrganizationID: o.ID, ProjectID: p.ID, UserID: u.ID, Name: "bench",
		Prefix: prefix, Hash: hash, Scopes: []edgeflow.Scope{edgeflow.ScopeRead, edgeflow.ScopeWrite}}))
	workflows := make([]string, conns)
	for i := range workflows {
		if shared && i > 0 {
			workflows[i] = workflows[0]
			continue
		}
		w := &edgeflow.Workflow{OrganizationID: o.ID, ProjectID: p.ID, Name: fmt.Sprintf("bench %d", i), Kind: edgeflow.KindWorkflow}
		must(b, st.CreateWorkflow(ctx, w))
		workflows[i] = w.ID
	}

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns}}
	submit := func(workflowID string) error {
		req, err := http.NewRequest("POST", srv.URL+"/api/workflows/"+workflowID+"/versions", bytes.NewReader(body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer "+key)
		res, err := client.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		out, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusCreated {
			return fmt.Errorf("status %d: %s", res.StatusCode, out)
		}
		return nil
	}
	for _, wf := range workflows { // warm up connections and caches
		if err := submit(wf); err != nil {
			b.Fatal(err)
		}
	}

	cpu0 := cpuTime()
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, conns)
	b.ResetTimer()
	start := time.Now()
	for i := 0; i < conns; i++ {
		wg.Add(1)
		go func(wf string) {
			defer wg.Done()
			for next.Add(1) <= int64(b.N) {
				if err := submit(wf); err != nil {
					errs <- err
					return
				}
			}
		}(workflows[i])
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu := cpuTime() - cpu0
	b.StopTimer()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "submissions/s")
	// CPU of the whole process (server and client) per submission: on a
	// loaded machine the wall-clock rate understates the server; cores /
	// cpu-ms gives what an otherwise idle machine would sustain.
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// cpuTime is the user and system CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func must(b *testing.B, err error) {
	b.Helper()
	if err != nil {
		b.Fatal(err)
	}
}
