package postgres

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/sqlstore"
	"github.com/edgeflow/edgeflow/internal/testenv"
)

// TestRunSearchPlans: every run search reads runs through an index and,
// without words, in index order (no sort); so does the first step of a word
// search, which looks at the newest runs of the other filters. Sequential scans are disabled
// for the session so that the planner shows which index it would use on a
// table large enough to need one (the test's table is empty).
func TestRunSearchPlans(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Open(ctx, testenv.PostgresSchema(t), Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "SET enable_seqscan = off"); err != nil {
		t.Fatal(err)
	}
	from, to := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	filters := map[string]edgeflow.RunFilter{
		"project":             {ProjectID: "prj_a"},
		"workflow":            {ProjectID: "prj_a", WorkflowID: "wf_a"},
		"status":              {ProjectID: "prj_a", Status: "errored"},
		"workflow and status": {ProjectID: "prj_a", WorkflowID: "wf_a", Status: "errored"},
		"version":             {ProjectID: "prj_a", VersionID: "ver_a"},
		"time range":          {ProjectID: "prj_a", From: &from, To: &to},
		"words":               {ProjectID: "prj_a", Query: "card declined"},
		"words and status":    {ProjectID: "prj_a", Status: "errored", Query: "declined"},
	}
	type query struct {
		f      edgeflow.RunFilter
		window bool // the first step of a word search (sqlstore.RunWindowQuery)
	}
	queries := map[string]query{}
	for name, f := range filters {
		queries[name] = query{f: f}
		if f.Query != "" {
			queries[name+", newest runs first"] = query{f: f, window: true}
		}
	}
	for name, qq := range queries {
		f := qq.f
		q, args := sqlstore.RunListQuery(driver{s}, f)
		if qq.window {
			q, args = sqlstore.RunWindowQuery(driver{s}, f)
		}
		rows, err := conn.Query(ctx, "EXPLAIN "+rebind(q), args...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var plan []string
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, line)
		}
		rows.Close()
		text := strings.Join(plan, "\n")
		t.Logf("%s:\n%s", name, text)
		if strings.Contains(text, "Seq Scan") {
			t.Errorf("%s: sequential scan of runs:\n%s", name, text)
		}
		if !strings.Contains(text, "Index Scan using runs_") && !strings.Contains(text, "Bitmap Index Scan on runs_") {
			t.Errorf("%s: runs not read through one of its indexes:\n%s", name, text)
		}
		if (f.Query == "" || qq.window) && strings.Contains(text, "Sort") {
			t.Errorf("%s: sorts instead of reading in index order:\n%s", name, text)
		}
	}
}
