package secret_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/secret"
)

// TestCheckKey: the key that sealed every sample opens them; another key is
// refused with ErrWrongKey naming the record, for each kind alone; no
// samples accept any key.
func TestCheckKey(t *testing.T) {
	t.Parallel()
	right := newSealer(t)
	wrong, err := secret.New(bytes.Repeat([]byte{8}, secret.KeySize))
	if err != nil {
		t.Fatal(err)
	}
	c := &edgeflow.Connection{ID: "con_1", OrganizationID: "org_1"}
	if err := right.SealCredentials(c, secret.Credentials{APIToken: "t", AccountID: "a"}); err != nil {
		t.Fatal(err)
	}
	v := &edgeflow.EnvVar{ID: "env_1", OrganizationID: "org_1", IsSecret: true,
		Value: right.SealString("v", secret.EnvVarAD("org_1", "env_1"))}
	w := &edgeflow.Workflow{ID: "wf_1", EnvVars: []edgeflow.WorkflowEnvVar{{Name: "PLAIN", Value: "p"},
		{Name: "TOKEN", IsSecret: true, Value: right.SealString("s", secret.WorkflowEnvVarAD("wf_1", "TOKEN"))}}}
	d := &edgeflow.Deployment{ID: "dep_1",
		SealedWorkerToken:   right.SealString("w", secret.DeploymentSecretAD("dep_1", secret.DeploymentWorkerToken)),
		SealedTriggerSecret: right.SealString("g", secret.DeploymentSecretAD("dep_1", secret.DeploymentTriggerSecret))}
	all := edgeflow.SealedSamples{Connection: c, EnvVar: v, Workflow: w, Deployment: d}
	if err := right.CheckKey(all); err != nil {
		t.Fatalf("the right key: %v", err)
	}
	if err := wrong.CheckKey(edgeflow.SealedSamples{}); err != nil {
		t.Fatalf("nothing sealed: %v", err)
	}
	for name, one := range map[string]edgeflow.SealedSamples{
		"con_1": {Connection: c}, "env_1": {EnvVar: v}, "TOKEN of workflow wf_1": {Workflow: w}, "dep_1": {Deployment: d},
	} {
		err := wrong.CheckKey(one)
		if !errors.Is(err, secret.ErrWrongKey) || !strings.Contains(err.Error(), name) {
			t.Errorf("%s with the wrong key: %v", name, err)
		}
	}
}
