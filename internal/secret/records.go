package secret

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Associated data of each kind of sealed record. A sealed value opens only
// with the associated data of the row it was sealed for.

// ConnectionAD binds a connection's credentials to its organization and id.
func ConnectionAD(organizationID, connectionID string) string {
	return "connection:" + organizationID + ":" + connectionID
}

// EnvVarAD binds a global variable's secret value to its organization and id.
func EnvVarAD(organizationID, envVarID string) string {
	return "env-var:" + organizationID + ":" + envVarID
}

// WorkflowEnvVarAD binds a workflow variable's secret value to the workflow
// and the variable's name.
func WorkflowEnvVarAD(workflowID, name string) string {
	return "workflow-env:" + workflowID + ":" + name
}

// WebhookSecretAD binds a webhook's signing secret to its organization and
// id.
func WebhookSecretAD(organizationID, webhookID string) string {
	return "webhook:" + organizationID + ":" + webhookID
}

// Credentials are a connection's credentials. For provider "cloudflare" both
// fields are set; for provider "local" both are empty (the local edge's token
// and account are used).
type Credentials struct {
	APIToken  string `json:"apiToken,omitempty"`
	AccountID string `json:"accountId,omitempty"`
}

// SealCredentials seals creds into c.SealedCredentials, bound to c's
// organization and id (both must be set).
func (s *Sealer) SealCredentials(c *edgeflow.Connection, creds Credentials) error {
	if c.ID == "" || c.OrganizationID == "" {
		return fmt.Errorf("secret: connection id and organization are required to seal credentials")
	}
	raw, err := json.Marshal(creds)
	if err != nil {
		return err
	}
	c.SealedCredentials = s.Seal(raw, []byte(ConnectionAD(c.OrganizationID, c.ID)))
	return nil
}

// OpenCredentials opens c.SealedCredentials; ErrOpen when they were not
// sealed for this connection or with this key.
func (s *Sealer) OpenCredentials(c *edgeflow.Connection) (Credentials, error) {
	raw, err := s.Open(c.SealedCredentials, []byte(ConnectionAD(c.OrganizationID, c.ID)))
	if err != nil {
		return Credentials{}, err
	}
	var creds Credentials
	if err := json.Unmarshal(raw, &creds); err != nil {
		return Credentials{}, ErrOpen
	}
	return creds, nil
}

// OpenEnvVar returns the plain value of a global variable (its Value as is
// when it is not secret).
func (s *Sealer) OpenEnvVar(v *edgeflow.EnvVar) (string, error) {
	if !v.IsSecret {
		return v.Value, nil
	}
	return s.OpenString(v.Value, EnvVarAD(v.OrganizationID, v.ID))
}

// OpenWorkflowEnvVar returns the plain value of a workflow's variable.
func (s *Sealer) OpenWorkflowEnvVar(workflowID string, v edgeflow.WorkflowEnvVar) (string, error) {
	if !v.IsSecret {
		return v.Value, nil
	}
	return s.OpenString(v.Value, WorkflowEnvVarAD(workflowID, v.Name))
}

// ErrWrongKey is returned by CheckKey when the key does not open the values
// stored sealed in the database.
var ErrWrongKey = errors.New("secret: the secret key does not open the sealed values in the database")

// CheckKey tries to open each sealed value of samples (Store.SealedSamples)
// and returns an error wrapping ErrWrongKey that names the first record that
// does not open. A database holding nothing sealed accepts any key.
func (s *Sealer) CheckKey(samples edgeflow.SealedSamples) error {
	fail := func(what string) error { return fmt.Errorf("%w (%s)", ErrWrongKey, what) }
	if c := samples.Connection; c != nil {
		if _, err := s.Open(c.SealedCredentials, []byte(ConnectionAD(c.OrganizationID, c.ID))); err != nil {
			return fail("credentials of connection " + c.ID)
		}
	}
	if v := samples.EnvVar; v != nil {
		if _, err := s.OpenEnvVar(v); err != nil {
			return fail("value of secret variable " + v.ID)
		}
	}
	if w := samples.Workflow; w != nil {
		for _, v := range w.EnvVars {
			if !v.IsSecret {
				continue
			}
			if _, err := s.OpenWorkflowEnvVar(w.ID, v); err != nil {
				return fail("secret variable " + v.Name + " of workflow " + w.ID)
			}
			break
		}
	}
	if d := samples.Deployment; d != nil {
		if d.SealedWorkerToken != "" {
			if _, err := s.OpenString(d.SealedWorkerToken, DeploymentSecretAD(d.ID, DeploymentWorkerToken)); err != nil {
				return fail("worker token of deployment " + d.ID)
			}
		}
		if d.SealedTriggerSecret != "" {
			if _, err := s.OpenString(d.SealedTriggerSecret, DeploymentSecretAD(d.ID, DeploymentTriggerSecret)); err != nil {
				return fail("trigger secret of deployment " + d.ID)
			}
		}
	}
	if h := samples.Webhook; h != nil {
		if _, err := s.OpenString(h.SealedSecret, WebhookSecretAD(h.OrganizationID, h.ID)); err != nil {
			return fail("secret of webhook " + h.ID)
		}
	}
	return nil
}
