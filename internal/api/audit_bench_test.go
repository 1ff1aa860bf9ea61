package api_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/auth"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/sqlite"
)

// BenchmarkAuditedWrite renames workflows through the HTTP API from 10
// concurrent connections, each to its own workflow (real server on a
// loopback port, SQLite on disk, API key, rate limits off). Every request
// records an audit entry, so writes/s is the write path with the audit log
// (decision 193); BenchmarkAuditRecord gives the cost of the entries alone.
func BenchmarkAuditedWrite(b *testing.B) {
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
	s, err := api.New(api.Config{Store: st, Sealer: sealer, Limits: ratelimit.Limits{Off: true}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
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
	const conns = 10
	workflows := make([]string, conns)
	for i := range workflows {
		wf := &edgeflow.Workflow{ProjectID: p.ID, Name: fmt.Sprint("bench ", i), Kind: edgeflow.KindWorkflow}
		must(b, st.CreateWorkflow(ctx, wf))
		workflows[i] = wf.ID
	}
	client := srv.Client()
	client.Transport.(*http.Transport).MaxIdleConnsPerHost = conns
	var next atomic.Int64
	var failed atomic.Value
	b.ResetTimer()
	var wg sync.WaitGroup
	for c := range conns {
		wg.Go(func() {
			for {
				n := next.Add(1)
				if n > int64(b.N) {
					return
				}
				req, _ := http.NewRequest("PATCH", srv.URL+"/api/workflows/"+workflows[c],
					bytes.NewReader(fmt.Appendf(nil, `{"name":"renamed %d"}`, n)))
				req.Header.Set("Authorization", "Bearer "+key)
				req.Header.Set("Content-Type", "application/json")
				res, err := client.Do(req)
				if err != nil {
					failed.Store(err.Error())
					return
				}
				io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != 200 {
					failed.Store(res.Status)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	if f := failed.Load(); f != nil {
		b.Fatal(f)
	}
	must(b, s.FlushAudit(ctx))
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "writes/s")
}

// BenchmarkAuditRecord stores audit entries in batches of 256, as the
// audit writer does, on SQLite on disk; it reports entries/s.
func BenchmarkAuditRecord(b *testing.B) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "edgeflow.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	batch := make([]edgeflow.AuditEntry, 256)
	b.ResetTimer()
	for i := 0; i < b.N; i += len(batch) {
		for j := range batch {
			batch[j] = edgeflow.AuditEntry{OrganizationID: "org_bench", ProjectID: "prj_bench",
				Actor: edgeflow.AuditActor{Type: "key", ID: "key_bench"}, Action: "workflow.update",
				Target: edgeflow.AuditTarget{Type: "workflow", ID: fmt.Sprint("wf_", i+j)}, Outcome: 200, RequestID: "r"}
		}
		must(b, st.RecordAudit(ctx, batch))
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "entries/s")
}
