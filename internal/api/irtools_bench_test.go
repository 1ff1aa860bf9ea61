package api_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/auth"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir/irtest"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/sqlite"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// BenchmarkIRTools sends the mixed-1000 benchmark IR to POST
// /api/ir/validate and POST /api/ir/compile through the HTTP handler (API
// key auth, SQLite, rate limits off), one request at a time, as an editor
// does: the target is at most 100 ms per request (docs/studio.md). With
// workflowId the IR is checked as a version of a workflow (one more read).
func BenchmarkIRTools(b *testing.B) {
	raw := testenv.BenchIR(b, "mixed-1000")
	s, key, wf := benchIRServer(b)
	for _, path := range []string{"/api/ir/validate", "/api/ir/compile"} {
		for _, withWorkflow := range []bool{false, true} {
			body := append(append([]byte(`{"ir":`), raw...), '}')
			name := path[len("/api/ir/"):]
			if withWorkflow {
				body = append(append([]byte(`{"workflowId":"`+wf.ID+`","ir":`), raw...), '}')
				name += " workflowId"
			}
			b.Run(name, func(b *testing.B) {
				send := func() {
					req := httptest.NewRequest("POST", path, bytes.NewReader(body))
					req.Header.Set("Content-Type", "application/json")
					req.Header.Set("Authorization", "Bearer "+key)
					rec := httptest.NewRecorder()
					s.ServeHTTP(rec, req)
					res := rec.Result()
					out, _ := io.ReadAll(res.Body)
					if res.StatusCode != http.StatusOK || bytes.Contains(out, []byte(`"valid":false`)) {
						b.Fatalf("status %d: %.500s", res.StatusCode, out)
					}
				}
				send() // warm up
				b.SetBytes(int64(len(body)))
				b.ResetTimer()
				for range b.N {
					send()
				}
			})
		}
	}
}

// benchIRServer is an API server on a temporary SQLite database (rate
// limits off) with one organization, a read key of its project and a
// workflow.
func benchIRServer(b *testing.B) (*api.Server, string, *edgeflow.Workflow) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "edgeflow.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	sealer, err := secret.New(bytes.Repeat([]byte{1}, secret.KeySize))
	if err != nil {
		b.Fatal(err)
	}
	s, err := api.New(api.Config{SignUp: api.SignUpOpen, Store: st, Sealer: sealer, Limits: ratelimit.Limits{Off: true}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(s.Close)
	u := &edgeflow.User{Email: "bench@example.com", PasswordHash: []byte("x")}
	must(b, st.CreateUser(ctx, u))
	o := &edgeflow.Organization{Name: "Bench", Slug: "bench"}
	must(b, st.CreateOrganization(ctx, o, u.ID))
	p := &edgeflow.Project{OrganizationID: o.ID, Name: "Bench", Slug: "bench"}
	must(b, st.CreateProject(ctx, p))
	key, prefix, hash := auth.NewAPIKey()
	must(b, st.CreateAPIKey(ctx, &edgeflow.APIKey{OrganizationID: o.ID, ProjectID: p.ID, UserID: u.ID, Name: "bench",
		Prefix: prefix, Hash: hash, Scopes: []edgeflow.Scope{edgeflow.ScopeRead}}))
	wf := &edgeflow.Workflow{OrganizationID: o.ID, ProjectID: p.ID, Name: "bench", Kind: edgeflow.KindWorkflow}
	must(b, st.CreateWorkflow(ctx, wf))
	return s, key, wf
}

// BenchmarkIRToolsWorst sends each worst shape of internal/ir/irtest, built
// to the body limit, to POST /api/ir/validate through the HTTP handler: the
// whole check of a version submit (validation, step code syntax, and the
// compiler for the valid ones) in one request.
func BenchmarkIRToolsWorst(b *testing.B) {
	s, key, _ := benchIRServer(b)
	for _, shape := range irtest.Shapes() {
		body := append(append([]byte(`{"ir":`), shape.Build(irtest.FullSize)...), '}')
		b.Run(shape.Name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			b.ReportAllocs()
			start := cpuTime()
			defer func() { b.ReportMetric(float64(cpuTime()-start)/float64(b.N)/1e6, "cpu-ms/op") }()
			for b.Loop() {
				req := httptest.NewRequest("POST", "/api/ir/validate", bytes.NewReader(body))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+key)
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK || bytes.Contains(rec.Body.Bytes(), []byte(`"valid":true`)) != shape.Valid {
					b.Fatalf("status %d: %.300s", rec.Code, rec.Body.Bytes())
				}
			}
		})
	}
}
