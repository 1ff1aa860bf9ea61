package storetest

import (
	"testing"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func testDeployments(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	w := newWorkflow(t, s, a.project.ID, "w")
	other := newWorkflow(t, s, a.project.ID, "other")
	v1 := newVersion(t, s, w.ID)
	v2 := newVersion(t, s, w.ID)
	ov := newVersion(t, s, other.ID)
	ca := newConnection(t, s, a.org.ID)
	cb := newConnection(t, s, a.org.ID)

	wantCode(t, "deploy version of another workflow", s.RecordDeployment(ctx, &edgeflow.Deployment{WorkflowID: w.ID,
		VersionID: ov.ID, ConnectionID: ca.ID}), edgeflow.ENotFound)
	wantCode(t, "deploy unknown workflow", s.RecordDeployment(ctx, &edgeflow.Deployment{WorkflowID: "wf_missing",
		VersionID: v1.ID, ConnectionID: ca.ID}), edgeflow.ENotFound)
	_, err := s.FindActiveDeployment(ctx, w.ID, "")
	wantCode(t, "nothing deployed", err, edgeflow.ENotFound)

	d1 := &edgeflow.Deployment{WorkflowID: w.ID, VersionID: v1.ID, ConnectionID: ca.ID, URL: "http://a/1",
		ScriptName: "ef-w", WorkflowName: "ef-w-wf", CreatedBy: a.user.ID}
	must(t, s.RecordDeployment(ctx, d1))
	if d1.Status != edgeflow.DeploymentActive || d1.ProjectID != a.project.ID || d1.RemovedAt != nil {
		t.Fatalf("RecordDeployment set %+v", d1)
	}
	got, err := s.FindActiveDeployment(ctx, w.ID, ca.ID)
	must(t, err)
	diff(t, "FindActiveDeployment", got, d1)
	activeVersion(t, s, a.project.ID, w.ID, v1.ID)

	d2 := deploy(t, s, w, v2, ca)
	activeVersion(t, s, a.project.ID, w.ID, v2.ID)
	d3 := deploy(t, s, w, v1, cb)
	activeVersion(t, s, a.project.ID, w.ID, v1.ID)
	got, err = s.FindActiveDeployment(ctx, w.ID, "")
	must(t, err)
	diff(t, "newest active deployment", *got, byTime(true, deploymentKey, *d2, *d3)[0])
	got, err = s.FindActiveDeployment(ctx, w.ID, ca.ID)
	must(t, err)
	diff(t, "active on ca", got, d2)

	page, err := s.ListDeployments(ctx, edgeflow.DeploymentFilter{ProjectID: a.project.ID, WorkflowID: w.ID}, edgeflow.ListOptions{})
	must(t, err)
	replaced := *d1
	replaced.Status = edgeflow.DeploymentReplaced
	diff(t, "ListDeployments", page.Items, byTime(true, deploymentKey, replaced, *d2, *d3))
	page, err = s.ListDeployments(ctx, edgeflow.DeploymentFilter{ProjectID: b.project.ID}, edgeflow.ListOptions{})
	must(t, err)
	if len(page.Items) != 0 {
		t.Errorf("other tenant sees deployments: %+v", page.Items)
	}
	page, err = s.ListDeployments(ctx, edgeflow.DeploymentFilter{ProjectID: a.project.ID, WorkflowID: other.ID}, edgeflow.ListOptions{})
	must(t, err)
	if len(page.Items) != 0 {
		t.Errorf("deployments of other workflow: %+v", page.Items)
	}

	active, err := s.ListActiveDeployments(ctx)
	must(t, err)
	diff(t, "ListActiveDeployments", active, []edgeflow.Deployment{*d2, *d3})

	at := time.Now().UTC()
	removed, err := s.RemoveDeployment(ctx, w.ID, cb.ID, at)
	must(t, err)
	if removed.ID != d3.ID || removed.Status != edgeflow.DeploymentRemoved || removed.RemovedAt == nil ||
		!removed.RemovedAt.Equal(at.Truncate(time.Microsecond)) {
		t.Errorf("RemoveDeployment returned %+v", removed)
	}
	activeVersion(t, s, a.project.ID, w.ID, v2.ID) // still deployed on ca
	_, err = s.RemoveDeployment(ctx, w.ID, cb.ID, at)
	wantCode(t, "remove twice", err, edgeflow.ENotFound)
	_, err = s.RemoveDeployment(ctx, w.ID, ca.ID, at)
	must(t, err)
	activeVersion(t, s, a.project.ID, w.ID, "")
	_, err = s.FindActiveDeployment(ctx, w.ID, "")
	wantCode(t, "all removed", err, edgeflow.ENotFound)

	d4 := deploy(t, s, w, v1, ca)
	activeVersion(t, s, a.project.ID, w.ID, v1.ID)
	got, err = s.FindActiveDeployment(ctx, w.ID, ca.ID)
	must(t, err)
	diff(t, "redeployed", got, d4)
	active, err = s.ListActiveDeployments(ctx)
	must(t, err)
	diff(t, "ListActiveDeployments after removals", active, []edgeflow.Deployment{*d4})
}

func testDeploymentSecrets(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	w := newWorkflow(t, s, a.project.ID, "w")
	v1 := newVersion(t, s, w.ID)
	c := newConnection(t, s, a.org.ID)

	d1 := &edgeflow.Deployment{WorkflowID: w.ID, VersionID: v1.ID, ConnectionID: c.ID, URL: "http://a/1", ScriptName: "ef-w",
		WorkflowName: "ef-w-wf", SealedWorkerToken: "sealed-token-1", SealedTriggerSecret: "sealed-secret-1"}
	must(t, s.RecordDeployment(ctx, d1))
	got, err := s.FindActiveDeployment(ctx, w.ID, c.ID)
	must(t, err)
	diff(t, "recorded secrets", got, d1)

	must(t, s.SetDeploymentSecrets(ctx, d1.ID, "sealed-token-2", ""))
	got, err = s.FindActiveDeployment(ctx, w.ID, c.ID)
	must(t, err)
	want := *d1
	want.SealedWorkerToken, want.SealedTriggerSecret = "sealed-token-2", ""
	diff(t, "rotated secrets", got, &want)
	page, err := s.ListDeployments(ctx, edgeflow.DeploymentFilter{ProjectID: a.project.ID}, edgeflow.ListOptions{})
	must(t, err)
	diff(t, "listed secrets", page.Items, []edgeflow.Deployment{want})

	d2 := deploy(t, s, w, v1, c)
	wantCode(t, "set secrets of a replaced deployment", s.SetDeploymentSecrets(ctx, d1.ID, "x", "y"), edgeflow.ENotFound)
	wantCode(t, "set secrets of an unknown deployment", s.SetDeploymentSecrets(ctx, "dep_missing", "x", "y"), edgeflow.ENotFound)
	got, err = s.FindActiveDeployment(ctx, w.ID, c.ID)
	must(t, err)
	diff(t, "the new deployment keeps its own (none)", got, d2)
}

func activeVersion(t *testing.T, s edgeflow.Store, projectID, workflowID, want string) {
	t.Helper()
	w, err := s.FindWorkflowByID(t.Context(), projectID, workflowID)
	must(t, err)
	if w.ActiveVersionID != want {
		t.Errorf("ActiveVersionID %q, want %q", w.ActiveVersionID, want)
	}
}

func testListWorkflowsUsingNode(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	ca := newConnection(t, s, a.org.ID)
	cb := newConnection(t, s, b.org.ID)

	deployed := newWorkflow(t, s, a.project.ID, "deployed")
	deploy(t, s, deployed, newVersion(t, s, deployed.ID, "slack-message@2.0.0", "http-request@1.0.0"), ca)
	// Uses the node only in a version that is not deployed.
	undeployed := newWorkflow(t, s, a.project.ID, "undeployed")
	deploy(t, s, undeployed, newVersion(t, s, undeployed.ID, "http-request@1.0.0"), ca)
	newVersion(t, s, undeployed.ID, "slack-message@2.0.0")
	// Deployed, then taken down.
	removed := newWorkflow(t, s, a.project.ID, "removed")
	deploy(t, s, removed, newVersion(t, s, removed.ID, "slack-message@1.0.0"), ca)
	_, err := s.RemoveDeployment(ctx, removed.ID, ca.ID, time.Now())
	must(t, err)
	// Replaced by a version without the node.
	replaced := newWorkflow(t, s, a.project.ID, "replaced")
	deploy(t, s, replaced, newVersion(t, s, replaced.ID, "slack-message@2.0.0"), ca)
	deploy(t, s, replaced, newVersion(t, s, replaced.ID), ca)
	// Prefix of another node id must not match.
	prefix := newWorkflow(t, s, a.project.ID, "prefix")
	deploy(t, s, prefix, newVersion(t, s, prefix.ID, "slack-message-v2@1.0.0", "slack@1.0.0"), ca)
	// Another project of the same org counts; another org does not.
	p2 := newProject(t, s, a.org.ID)
	sibling := newWorkflow(t, s, p2.ID, "sibling")
	deploy(t, s, sibling, newVersion(t, s, sibling.ID, "slack-message@1.1.0"), ca)
	foreign := newWorkflow(t, s, b.project.ID, "foreign")
	deploy(t, s, foreign, newVersion(t, s, foreign.ID, "slack-message@2.0.0"), cb)

	got, err := s.ListWorkflowsUsingNode(ctx, a.org.ID, "slack-message")
	must(t, err)
	diff(t, "workflows using slack-message", setOf(ids(got, workflowID)), setOf([]string{deployed.ID, sibling.ID}))
	for _, w := range got {
		if w.ID == deployed.ID {
			diff(t, "listed workflow", w.Name, "deployed")
		}
	}
	got, err = s.ListWorkflowsUsingNode(ctx, a.org.ID, "unused")
	must(t, err)
	if len(got) != 0 {
		t.Errorf("unused node: %v", ids(got, workflowID))
	}
}
