package storetest

import (
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// testSealedSamples: SealedSamples finds nothing in a database without
// sealed values (users, organizations, plain variables, workflows without
// secret variables, deployments without secrets), and one record of each
// kind once there is one.
func testSealedSamples(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	must(t, s.CreateEnvVar(ctx, &edgeflow.EnvVar{OrganizationID: a.org.ID, Name: "PLAIN", Value: "v"}))
	w := &edgeflow.Workflow{ProjectID: a.project.ID, Name: "plain", Kind: edgeflow.KindWorkflow,
		EnvVars: []edgeflow.WorkflowEnvVar{{Name: "PLAIN", Value: "v"}}}
	must(t, s.CreateWorkflow(ctx, w))
	empty := &edgeflow.Connection{OrganizationID: a.org.ID, Provider: edgeflow.ProviderLocal, Name: "empty-" + suffix()}
	must(t, s.CreateConnection(ctx, empty))
	deploy(t, s, w, newVersion(t, s, w.ID), empty)
	got, err := s.SealedSamples(ctx)
	must(t, err)
	diff(t, "samples of a database with nothing sealed", got, edgeflow.SealedSamples{})

	c := newConnection(t, s, a.org.ID)
	v := &edgeflow.EnvVar{OrganizationID: a.org.ID, Name: "SECRET", Value: "sealed-value", IsSecret: true}
	must(t, s.CreateEnvVar(ctx, v))
	sw := &edgeflow.Workflow{ProjectID: a.project.ID, Name: "secret", Kind: edgeflow.KindWorkflow,
		EnvVars: []edgeflow.WorkflowEnvVar{{Name: "PLAIN", Value: "v"}, {Name: "TOKEN", Value: "sealed-token", IsSecret: true}}}
	must(t, s.CreateWorkflow(ctx, sw))
	d := deploy(t, s, sw, newVersion(t, s, sw.ID), c)
	must(t, s.SetDeploymentSecrets(ctx, d.ID, "sealed-worker-token", ""))

	h := &edgeflow.Webhook{OrganizationID: a.org.ID, ProjectID: a.project.ID, URL: "https://93.184.215.14/", SealedSecret: "sealed-secret"}
	must(t, s.CreateWebhook(ctx, h))

	got, err = s.SealedSamples(ctx)
	must(t, err)
	if got.Webhook == nil || got.Webhook.ID != h.ID || got.Webhook.SealedSecret != "sealed-secret" {
		t.Errorf("webhook sample %+v, want %s", got.Webhook, h.ID)
	}
	if got.Connection == nil || got.Connection.ID != c.ID || string(got.Connection.SealedCredentials) != string(c.SealedCredentials) {
		t.Errorf("connection sample %+v, want %s", got.Connection, c.ID)
	}
	if got.EnvVar == nil || got.EnvVar.ID != v.ID || got.EnvVar.Value != "sealed-value" || got.EnvVar.OrganizationID != a.org.ID {
		t.Errorf("variable sample %+v, want %s", got.EnvVar, v.ID)
	}
	if got.Workflow == nil || got.Workflow.ID != sw.ID || len(got.Workflow.EnvVars) != 2 {
		t.Errorf("workflow sample %+v, want %s", got.Workflow, sw.ID)
	}
	if got.Deployment == nil || got.Deployment.ID != d.ID || got.Deployment.SealedWorkerToken != "sealed-worker-token" {
		t.Errorf("deployment sample %+v, want %s", got.Deployment, d.ID)
	}
}
