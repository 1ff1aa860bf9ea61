package deploy

import (
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/secret"
)

// SealerSecrets returns the Secrets of internal/secret's Sealer, with the
// associated data the API seals records with.
func SealerSecrets(s *secret.Sealer) Secrets { return sealerSecrets{s} }

type sealerSecrets struct{ s *secret.Sealer }

func (x sealerSecrets) OpenConnection(c *edgeflow.Connection) (map[string]string, error) {
	creds, err := x.s.OpenCredentials(c)
	if err != nil {
		return nil, err
	}
	return map[string]string{"apiToken": creds.APIToken, "accountId": creds.AccountID}, nil
}

func (x sealerSecrets) SealConnection(c *edgeflow.Connection, creds map[string]string) error {
	return x.s.SealCredentials(c, secret.Credentials{APIToken: creds["apiToken"], AccountID: creds["accountId"]})
}

func (x sealerSecrets) OpenWorkflowSecret(w *edgeflow.Workflow, v edgeflow.WorkflowEnvVar) (string, error) {
	return x.s.OpenWorkflowEnvVar(w.ID, v)
}

func (x sealerSecrets) OpenEnvVar(v *edgeflow.EnvVar) (string, error) { return x.s.OpenEnvVar(v) }

func (x sealerSecrets) SealDeploymentSecret(deploymentID, kind, value string) string {
	return x.s.SealString(value, secret.DeploymentSecretAD(deploymentID, kind))
}

func (x sealerSecrets) OpenDeploymentSecret(deploymentID, kind, sealed string) (string, error) {
	return x.s.OpenString(sealed, secret.DeploymentSecretAD(deploymentID, kind))
}
