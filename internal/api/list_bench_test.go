package api_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/edgeflow/edgeflow/internal/api"
	"github.com/edgeflow/edgeflow/internal/auth"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
	"github.com/edgeflow/edgeflow/internal/secret"
	"github.com/edgeflow/edgeflow/internal/sqlite"
)

// BenchmarkWorkflowList serves GET /api/workflows (50 of 1,000 workflows,
// API key auth, request log to io.Discard as JSON) in process, to measure
// the server's CPU cost per request; bench/api-list.sh measures it over
// loopback with wrk.
func BenchmarkWorkflowList(b *testing.B) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "edgeflow.db"), sqlite.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	sealer, _ := secret.New(bytes.Repeat([]byte{1}, secret.KeySize))
	s, err := api.New(api.Config{SignUp: api.SignUpOpen, Store: st, Sealer: sealer, Limits: ratelimit.Limits{Off: true},
		Logger: slog.New(slog.NewJSONHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	u := &edgeflow.User{Email: "bench@example.com"}
	if err := st.CreateUser(ctx, u); err != nil {
		b.Fatal(err)
	}
	org, project, err := api.CreateOrganizationWithProject(ctx, st, u.ID, "Bench", "Default")
	if err != nil {
		b.Fatal(err)
	}
	key, prefix, hash := auth.NewAPIKey()
	if err := st.CreateAPIKey(ctx, &edgeflow.APIKey{OrganizationID: org.ID, ProjectID: project.ID, UserID: u.ID,
		Name: "bench", Prefix: prefix, Hash: hash, Scopes: []edgeflow.Scope{"read"}}); err != nil {
		b.Fatal(err)
	}
	for i := range 1000 {
		if err := st.CreateWorkflow(ctx, &edgeflow.Workflow{OrganizationID: org.ID, ProjectID: project.ID,
			Name: fmt.Sprintf("workflow %d", i), Description: "benchmark workflow", Kind: edgeflow.KindWorkflow}); err != nil {
			b.Fatal(err)
		}
	}
	req := httptest.NewRequest("GET", "/api/workflows", nil)
	req.Header.Set("Authorization", "Bearer "+key)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req.Clone(ctx))
			if rec.Code != http.StatusOK {
				b.Fatalf("status %d: %s", rec.Code, rec.Body)
			}
		}
	})
}
