package secret

// DeploymentSecretAD binds one secret of a deployment (kind "worker-token"
// or "trigger-secret") to the deployment's id, so that a sealed token
// copied into another deployment's row, or into the other column, fails to
// open.
func DeploymentSecretAD(deploymentID, kind string) string {
	return "deployment:" + kind + ":" + deploymentID
}

// The kinds of a deployment's sealed secrets (DeploymentSecretAD).
const (
	DeploymentWorkerToken   = "worker-token"
	DeploymentTriggerSecret = "trigger-secret"
)
