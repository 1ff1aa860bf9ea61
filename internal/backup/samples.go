package backup

import (
	"encoding/json"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// samples are the manifest's sealed samples: the fields the secret key is
// checked against, still sealed. The store's own types are not written as
// they are, since their JSON leaves sealed fields out (json:"-"): a
// manifest of them would hold nothing to open, and every key would fail.
type samples struct {
	Connection *sampleConnection `json:"connection,omitempty"`
	EnvVar     *edgeflow.EnvVar  `json:"envVar,omitempty"`
	Workflow   *sampleWorkflow   `json:"workflow,omitempty"`
	Deployment *sampleDeployment `json:"deployment,omitempty"`
	Webhook    *sampleWebhook    `json:"webhook,omitempty"`
}

type sampleConnection struct {
	ID             string `json:"id"`
	OrganizationID string `json:"organizationId"`
	Sealed         []byte `json:"sealedCredentials"`
}

type sampleWorkflow struct {
	ID string `json:"id"`
	// EnvVars are the workflow's secret variables only (values sealed).
	EnvVars []edgeflow.WorkflowEnvVar `json:"envVars"`
}

type sampleDeployment struct {
	ID            string `json:"id"`
	WorkerToken   string `json:"sealedWorkerToken,omitempty"`
	TriggerSecret string `json:"sealedTriggerSecret,omitempty"`
}

type sampleWebhook struct {
	ID             string `json:"id"`
	OrganizationID string `json:"organizationId"`
	Secret         string `json:"sealedSecret"`
}

// encodeSamples writes s as the manifest's sealedSamples.
func encodeSamples(s edgeflow.SealedSamples) (json.RawMessage, error) {
	var out samples
	if c := s.Connection; c != nil {
		out.Connection = &sampleConnection{ID: c.ID, OrganizationID: c.OrganizationID, Sealed: c.SealedCredentials}
	}
	out.EnvVar = s.EnvVar
	if w := s.Workflow; w != nil {
		sw := &sampleWorkflow{ID: w.ID}
		for _, v := range w.EnvVars {
			if v.IsSecret {
				sw.EnvVars = append(sw.EnvVars, v)
			}
		}
		out.Workflow = sw
	}
	if d := s.Deployment; d != nil {
		out.Deployment = &sampleDeployment{ID: d.ID, WorkerToken: d.SealedWorkerToken, TriggerSecret: d.SealedTriggerSecret}
	}
	if h := s.Webhook; h != nil {
		out.Webhook = &sampleWebhook{ID: h.ID, OrganizationID: h.OrganizationID, Secret: h.SealedSecret}
	}
	return json.Marshal(out)
}

// decodeSamples reads the manifest's sealedSamples back.
func decodeSamples(raw json.RawMessage) (edgeflow.SealedSamples, error) {
	var in samples
	var out edgeflow.SealedSamples
	if err := json.Unmarshal(raw, &in); err != nil {
		return out, err
	}
	if c := in.Connection; c != nil {
		out.Connection = &edgeflow.Connection{ID: c.ID, OrganizationID: c.OrganizationID, SealedCredentials: c.Sealed}
	}
	out.EnvVar = in.EnvVar
	if w := in.Workflow; w != nil {
		out.Workflow = &edgeflow.Workflow{ID: w.ID, EnvVars: w.EnvVars}
	}
	if d := in.Deployment; d != nil {
		out.Deployment = &edgeflow.Deployment{ID: d.ID, SealedWorkerToken: d.WorkerToken, SealedTriggerSecret: d.TriggerSecret}
	}
	if h := in.Webhook; h != nil {
		out.Webhook = &edgeflow.Webhook{ID: h.ID, OrganizationID: h.OrganizationID, SealedSecret: h.Secret}
	}
	return out, nil
}
