package api_test

import (
	"testing"
	"time"
)

// TestAttackProjectKeyReadsAudit: an owner's API key of project A lists the
// audit log and gets none of project B's entries: neither B's key's work
// nor a member's work in B. It gets its own project's entries and the
// organization's entries about project A itself (A renamed by a member
// working in B). Twin: the owner's session and organization key see every
// project's entries, and B's key sees B's.
func TestAttackProjectKeyReadsAudit(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.a
	since := "since=" + time.Now().UTC().Format(time.RFC3339Nano)
	inA := w.must(201, "POST", "/api/workflows", `{"name":"In A"}`, a.keyAll).str(t, "id")
	inB := w.must(201, "POST", "/api/workflows", `{"name":"In B"}`, a.keyOtherProject).str(t, "id")
	bySession := w.must(201, "POST", "/api/workflows?projectId="+a.otherProjectID, `{"name":"Session in B"}`, a.session).str(t, "id")
	w.must(200, "PATCH", "/api/projects/"+a.projectID+"?projectId="+a.otherProjectID, `{"name":"Renamed A"}`, a.session)

	targets := func(c cred) map[string]string {
		t.Helper()
		out := map[string]string{}
		for _, e := range w.audit(c, since) {
			out[e.Action+" "+e.Target.ID] = e.ProjectID
		}
		return out
	}
	keyA := targets(a.keyAll)
	for what, project := range keyA {
		if project != a.projectID && what != "project.update "+a.projectID {
			t.Errorf("project A's key sees %q of project %s", what, project)
		}
	}
	for _, want := range []string{"workflow.create " + inA, "project.update " + a.projectID} {
		if _, ok := keyA[want]; !ok {
			t.Errorf("project A's key does not see %q: %v", want, keyA)
		}
	}
	for _, hidden := range []string{"workflow.create " + inB, "workflow.create " + bySession} {
		if _, ok := keyA[hidden]; ok {
			t.Errorf("project A's key sees project B's %q", hidden)
		}
	}

	// Twin: the organization-wide callers see everything; B's key sees B's.
	all := []string{"workflow.create " + inA, "workflow.create " + inB, "workflow.create " + bySession, "project.update " + a.projectID}
	for name, c := range map[string]cred{"session": a.session, "organization key": a.keyOrg} {
		got := targets(c)
		for _, want := range all {
			if _, ok := got[want]; !ok {
				t.Errorf("the owner's %s does not see %q: %v", name, want, got)
			}
		}
	}
	keyB := targets(a.keyOtherProject)
	if _, ok := keyB["workflow.create "+inB]; !ok {
		t.Errorf("project B's key does not see its own entry: %v", keyB)
	}
	if _, ok := keyB["workflow.create "+inA]; ok {
		t.Errorf("project B's key sees project A's entry")
	}
}
