package storetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func testPageLimits(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	for i := range 110 {
		newWorkflow(t, s, tn.project.ID, fmt.Sprint(i))
	}
	for _, c := range []struct{ limit, want int }{{0, 50}, {1, 1}, {100, 100}, {101, 100}, {1000, 100}} {
		p, err := s.ListWorkflows(ctx, tn.project.ID, edgeflow.ListOptions{Limit: c.limit})
		must(t, err)
		if len(p.Items) != c.want || p.NextCursor == "" {
			t.Errorf("limit %d: %d items (cursor %q), want %d and a cursor", c.limit, len(p.Items), p.NextCursor, c.want)
		}
	}
}

func testBadCursor(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	w := newWorkflow(t, s, tn.project.ID, "w")
	lists := map[string]func(edgeflow.ListOptions) error{
		"ListWorkflows": func(o edgeflow.ListOptions) error { _, err := s.ListWorkflows(ctx, tn.project.ID, o); return err },
		"ListProjects":  func(o edgeflow.ListOptions) error { _, err := s.ListProjects(ctx, tn.org.ID, o); return err },
		"ListAPIKeys":   func(o edgeflow.ListOptions) error { _, err := s.ListAPIKeys(ctx, tn.org.ID, o); return err },
		"ListVersions":  func(o edgeflow.ListOptions) error { _, err := s.ListVersions(ctx, w.ID, o); return err },
		"ListRuns": func(o edgeflow.ListOptions) error {
			_, err := s.ListRuns(ctx, edgeflow.RunFilter{ProjectID: tn.project.ID}, o)
			return err
		},
		"ListDeployments": func(o edgeflow.ListOptions) error {
			_, err := s.ListDeployments(ctx, edgeflow.DeploymentFilter{ProjectID: tn.project.ID}, o)
			return err
		},
		"ListConnections":    func(o edgeflow.ListOptions) error { _, err := s.ListConnections(ctx, tn.org.ID, "", o); return err },
		"ListEnvVars":        func(o edgeflow.ListOptions) error { _, err := s.ListEnvVars(ctx, tn.org.ID, "", o); return err },
		"ListInstalledNodes": func(o edgeflow.ListOptions) error { _, err := s.ListInstalledNodes(ctx, tn.org.ID, o); return err },
	}
	for name, list := range lists {
		for _, cursor := range []string{"!!!", "bm9zZXBhcmF0b3I", "eHl6H2lk", /* "xyz\x1fid": non-numeric key */
			"YQBiH2lk" /* "a\x00b\x1fid": a NUL byte, which no key holds */} {
			err := list(edgeflow.ListOptions{Cursor: cursor})
			if name == "ListEnvVars" || name == "ListInstalledNodes" {
				if cursor == "eHl6H2lk" {
					continue // string sort keys: any text is a valid key
				}
			}
			var e *edgeflow.Error
			if !errors.As(err, &e) || e.Code != edgeflow.EInvalid {
				t.Errorf("%s cursor %q: %v, want %s", name, cursor, err, edgeflow.EInvalid)
				continue
			}
			diff(t, name+" cursor error details", e.Details, []edgeflow.FieldError{{Path: "/cursor", Message: e.Message}})
		}
	}
}

func testTimePrecision(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	for _, c := range []*edgeflow.Organization{tn.org} {
		if c.CreatedAt.Location() != time.UTC {
			t.Errorf("CreatedAt location %v", c.CreatedAt.Location())
		}
	}
	loc := time.FixedZone("X", 5*3600+1800)
	exp := time.Date(2030, 5, 6, 7, 8, 9, 123456789, loc)
	ses := &edgeflow.Session{UserID: tn.user.ID, TokenHash: []byte("tp"), ExpiresAt: exp}
	must(t, s.CreateSession(ctx, ses))
	got, err := s.FindSessionByTokenHash(ctx, []byte("tp"), exp.Add(-time.Hour))
	must(t, err)
	want := time.Date(2030, 5, 6, 1, 38, 9, 123456000, time.UTC)
	if got.ExpiresAt != want || ses.ExpiresAt != want {
		t.Errorf("ExpiresAt stored %v returned %v, want %v (UTC, microseconds)", ses.ExpiresAt, got.ExpiresAt, want)
	}
	if got.CreatedAt.Location() != time.UTC || got.CreatedAt != ses.CreatedAt {
		t.Errorf("CreatedAt %v, want %v in UTC", got.CreatedAt, ses.CreatedAt)
	}
	// Exactly at expiry the session is gone.
	_, err = s.FindSessionByTokenHash(ctx, []byte("tp"), want)
	wantCode(t, "session at expiry", err, edgeflow.ENotFound)
	_, err = s.FindSessionByTokenHash(ctx, []byte("tp"), want.Add(-time.Microsecond))
	must(t, err)
}
