package storetest

import (
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func testAudit(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	other := newTenant(t, s)
	t0 := time.Date(2026, 3, 4, 5, 6, 7, 891234000, time.UTC)
	entry := func(i int, action, actor, target string) edgeflow.AuditEntry {
		return edgeflow.AuditEntry{OrganizationID: tn.org.ID, ProjectID: tn.project.ID,
			Actor: edgeflow.AuditActor{Type: "user", ID: actor}, Action: action,
			Target: edgeflow.AuditTarget{Type: "workflow", ID: target}, Outcome: 200 + i,
			RequestID: "req-" + suffix(), Time: t0.Add(time.Duration(i) * time.Second)}
	}
	entries := []edgeflow.AuditEntry{
		entry(0, "workflow.create", "usr_a", "wf_1"),
		entry(1, "workflow.update", "usr_a", "wf_1"),
		entry(2, "workflow.update", "usr_b", "wf_2"),
		entry(3, "workflow.delete", "usr_b", "wf_1"),
	}
	// Two entries with the same time order by id.
	same := entry(3, "project.create", "usr_a", "prj_1")
	entries = append(entries, same)
	foreign := entry(1, "workflow.create", "usr_a", "wf_1")
	foreign.OrganizationID = other.org.ID
	entries = append(entries, foreign)
	must(t, s.RecordAudit(ctx, entries))
	must(t, s.RecordAudit(ctx, nil))
	for _, e := range entries {
		if e.ID == "" {
			t.Fatal("RecordAudit did not set the ids on its argument's copy; the list below checks stored ids")
		}
	}

	list := func(f edgeflow.AuditFilter, limit int) []edgeflow.AuditEntry {
		t.Helper()
		var out []edgeflow.AuditEntry
		opts := edgeflow.ListOptions{Limit: limit}
		for {
			page, err := s.ListAudit(ctx, tn.org.ID, f, opts)
			must(t, err)
			out = append(out, page.Items...)
			if page.NextCursor == "" {
				return out
			}
			opts.Cursor = page.NextCursor
		}
	}
	all := list(edgeflow.AuditFilter{}, 2)
	want := byTime(true, func(e edgeflow.AuditEntry) (time.Time, string) { return e.Time, e.ID }, entries[:5]...)
	diff(t, "ListAudit newest first", all, want)

	actions := func(es []edgeflow.AuditEntry) []string {
		return ids(es, func(e edgeflow.AuditEntry) string { return e.Action + "/" + e.Actor.ID + "/" + e.Target.ID })
	}
	diff(t, "filter actor", actions(list(edgeflow.AuditFilter{ActorID: "usr_b"}, 10)),
		[]string{"workflow.delete/usr_b/wf_1", "workflow.update/usr_b/wf_2"})
	diff(t, "filter action", actions(list(edgeflow.AuditFilter{Action: "workflow.update"}, 10)),
		[]string{"workflow.update/usr_b/wf_2", "workflow.update/usr_a/wf_1"})
	diff(t, "filter target", actions(list(edgeflow.AuditFilter{TargetID: "wf_1", ActorID: "usr_a"}, 10)),
		[]string{"workflow.update/usr_a/wf_1", "workflow.create/usr_a/wf_1"})
	// since is inclusive, until exclusive.
	diff(t, "filter since/until", actions(list(edgeflow.AuditFilter{Since: t0.Add(time.Second), Until: t0.Add(3 * time.Second)}, 10)),
		[]string{"workflow.update/usr_b/wf_2", "workflow.update/usr_a/wf_1"})

	// Purging removes the old entries of every organization, not newer ones.
	n, err := s.PurgeAudit(ctx, t0.Add(2*time.Second))
	must(t, err)
	if n < 3 {
		t.Errorf("PurgeAudit deleted %d entries, want at least 3", n)
	}
	diff(t, "after PurgeAudit", actions(list(edgeflow.AuditFilter{}, 10)),
		actions(want[:3]))
	page, err := s.ListAudit(ctx, other.org.ID, edgeflow.AuditFilter{}, edgeflow.ListOptions{})
	must(t, err)
	if len(page.Items) != 0 {
		t.Errorf("other organization's old entry not purged: %+v", page.Items)
	}
}

// testAuditProjectFilter: AuditFilter.ProjectID keeps the entries recorded
// in the project and the organization's entries whose target is the
// project, and nothing of other projects.
func testAuditProjectFilter(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	tn := newTenant(t, s)
	t0 := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	const mine, theirs = "prj_mine", "prj_theirs"
	entry := func(i int, project, targetType, targetID string) edgeflow.AuditEntry {
		return edgeflow.AuditEntry{OrganizationID: tn.org.ID, ProjectID: project,
			Actor: edgeflow.AuditActor{Type: "key", ID: "key_1"}, Action: targetType + ".update",
			Target: edgeflow.AuditTarget{Type: targetType, ID: targetID}, Outcome: 200,
			RequestID: "req-" + suffix(), Time: t0.Add(time.Duration(i) * time.Second)}
	}
	must(t, s.RecordAudit(ctx, []edgeflow.AuditEntry{
		entry(0, mine, "workflow", "wf_mine"),
		entry(1, theirs, "workflow", "wf_theirs"),
		entry(2, theirs, "project", mine),   // about my project, recorded in theirs
		entry(3, theirs, "project", theirs), // about theirs
		entry(4, "", "organization", tn.org.ID),
		entry(5, mine, "project", theirs), // recorded in mine
	}))
	page, err := s.ListAudit(ctx, tn.org.ID, edgeflow.AuditFilter{ProjectID: mine}, edgeflow.ListOptions{Limit: 100})
	must(t, err)
	got := ids(page.Items, func(e edgeflow.AuditEntry) string { return e.ProjectID + "/" + e.Target.ID })
	diff(t, "ListAudit of one project", got, []string{mine + "/" + theirs, theirs + "/" + mine, mine + "/wf_mine"})
	page, err = s.ListAudit(ctx, tn.org.ID, edgeflow.AuditFilter{}, edgeflow.ListOptions{Limit: 100})
	must(t, err)
	if len(page.Items) != 6 {
		t.Errorf("ListAudit of the organization: %d entries, want 6", len(page.Items))
	}
}
