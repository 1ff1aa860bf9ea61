package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/sqlstore"
)

// runSearchFilters are the run searches whose plans must use indexes.
func runSearchFilters() map[string]edgeflow.RunFilter {
	from, to := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
	return map[string]edgeflow.RunFilter{
		"project":             {ProjectID: "prj_a"},
		"workflow":            {ProjectID: "prj_a", WorkflowID: "wf_a"},
		"status":              {ProjectID: "prj_a", Status: "errored"},
		"workflow and status": {ProjectID: "prj_a", WorkflowID: "wf_a", Status: "errored"},
		"version":             {ProjectID: "prj_a", VersionID: "ver_a"},
		"time range":          {ProjectID: "prj_a", From: &from, To: &to},
		"status in a range":   {ProjectID: "prj_a", Status: "complete", From: &from, To: &to},
		"words":               {ProjectID: "prj_a", Query: "card declined"},
		"words and status":    {ProjectID: "prj_a", Status: "errored", Query: "declined"},
	}
}

// TestRunSearchPlans: every run search reads runs through an index (no
// full scan of runs) in index order (no sort); words go through the FTS5
// index, read newest first by rowid (migration 0016), each match joined to
// its run by rowid; with other filters, the probe of the newest runs that
// pass them reads them in index order and the FTS5 matches of their span
// once, as a set.
func TestRunSearchPlans(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "edgeflow.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	type search struct {
		name string
		f    edgeflow.RunFilter
		q    string
		args []any
	}
	var searches []search
	for name, f := range runSearchFilters() {
		q, args := sqlstore.RunListQuery(driver{s}, f)
		searches = append(searches, search{name, f, q, args})
		// Words with other filters first look at the newest runs that
		// pass them, one rowid lookup in the FTS5 index each.
		if q, args, ok := sqlstore.RunProbeQuery(driver{s}, f, 1); ok {
			searches = append(searches, search{name + " (probe)", f, q, args})
		}
	}
	for _, c := range searches {
		name, f := c.name, c.f
		rows, err := s.r.QueryContext(ctx, "EXPLAIN QUERY PLAN "+c.q, c.args...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		text := strings.Join(plan, "\n")
		t.Logf("%s:\n%s", name, text)
		for _, d := range plan {
			if strings.HasPrefix(d, "SCAN runs") && !strings.HasPrefix(d, "SCAN runs_search") {
				t.Errorf("%s: full scan of runs:\n%s", name, text)
			}
		}
		if strings.Contains(text, "TEMP B-TREE") {
			t.Errorf("%s: sorts instead of reading in index order:\n%s", name, text)
		}
		if probe := strings.HasSuffix(name, "(probe)"); probe && !strings.Contains(text, "LIST SUBQUERY") {
			t.Errorf("%s: the FTS5 matches of the span are not read once, as a set:\n%s", name, text)
		} else if !probe && f.Query != "" && !strings.Contains(text, "runs_search VIRTUAL TABLE INDEX") {
			t.Errorf("%s: words not looked up in the FTS5 index:\n%s", name, text)
		}
		if !strings.Contains(text, "USING INDEX") && !strings.Contains(text, "USING COVERING INDEX") && !strings.Contains(text, "INTEGER PRIMARY KEY") {
			t.Errorf("%s: runs not read through an index:\n%s", name, text)
		}
	}
}
