package sqlstore

import (
	"context"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// SealedSamples returns one record of each kind holding a value sealed with
// the secret key (edgeflow.Store).
func (s *Store) SealedSamples(ctx context.Context) (edgeflow.SealedSamples, error) {
	var out edgeflow.SealedSamples
	c, err := scanConnection(s.queryRow(ctx, `SELECT `+connectionCols+` FROM connections
		WHERE length(sealed_credentials) > 0 LIMIT 1`))
	if err == nil {
		out.Connection = &c
	} else if !s.noRows(err) {
		return out, s.dbErr(err, "connection", "", "")
	}
	v, err := scanEnvVar(s.queryRow(ctx, `SELECT `+envVarCols+` FROM env_vars WHERE is_secret = ? LIMIT 1`, s.d.Bool(true)))
	if err == nil {
		out.EnvVar = &v
	} else if !s.noRows(err) {
		return out, s.dbErr(err, "environment variable", "", "")
	}
	w, err := scanWorkflow(s.queryRow(ctx, `SELECT `+workflowCols+` FROM workflows
		WHERE env_vars LIKE '%"isSecret":true%' LIMIT 1`))
	if err == nil {
		out.Workflow = &w
	} else if !s.noRows(err) {
		return out, s.dbErr(err, "workflow", "", "")
	}
	d, err := scanDeployment(s.queryRow(ctx, `SELECT `+deploymentCols+` FROM deployments
		WHERE worker_token <> '' OR trigger_secret <> '' LIMIT 1`))
	if err == nil {
		out.Deployment = &d
	} else if !s.noRows(err) {
		return out, s.dbErr(err, "deployment", "", "")
	}
	h, err := scanWebhook(s.queryRow(ctx, `SELECT `+webhookCols+` FROM webhooks LIMIT 1`))
	if err == nil {
		out.Webhook = &h
	} else if !s.noRows(err) {
		return out, s.dbErr(err, "webhook", "", "")
	}
	return out, nil
}
