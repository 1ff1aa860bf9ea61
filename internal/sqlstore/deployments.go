package sqlstore

import (
	"context"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

const deploymentCols = `id, workflow_id, project_id, version_id, connection_id, status, url, script_name, workflow_name,
	created_by, created_at, removed_at, worker_token, trigger_secret, environment`

func scanDeployment(sc rowScanner) (edgeflow.Deployment, error) {
	var d edgeflow.Deployment
	err := sc.Scan(&d.ID, &d.WorkflowID, &d.ProjectID, &d.VersionID, &d.ConnectionID, &d.Status, &d.URL, &d.ScriptName,
		&d.WorkflowName, &d.CreatedBy, timeCol{&d.CreatedAt}, nullTimeCol{&d.RemovedAt}, &d.SealedWorkerToken, &d.SealedTriggerSecret, &d.Environment)
	return d, err
}

// RecordDeployment stores d as the active deployment of (workflow,
// connection), marks the previous active one replaced and sets the
// workflow's active version, in one transaction. ProjectID is taken from the
// workflow; ENotFound for an unknown workflow or a version of another workflow.
func (s *Store) RecordDeployment(ctx context.Context, d *edgeflow.Deployment) error {
	if d.ID == "" {
		d.ID = edgeflow.NewID(edgeflow.PrefixDeployment)
	}
	d.CreatedAt = s.timestamp()
	d.Status = edgeflow.DeploymentActive
	d.RemovedAt = nil
	return s.write(ctx, ScopeLists, func(tx Querier) error {
		var project string
		if err := tx.QueryRow(ctx, `SELECT project_id FROM workflows WHERE id = ?`+s.lock("FOR UPDATE"), d.WorkflowID).Scan(&project); err != nil {
			return s.dbErr(err, "workflow", "", "")
		}
		var one int
		if err := tx.QueryRow(ctx, `SELECT 1 FROM versions WHERE workflow_id = ? AND id = ?`,
			d.WorkflowID, d.VersionID).Scan(&one); err != nil {
			return s.dbErr(err, "version", "", "")
		}
		d.ProjectID = project
		if _, err := tx.Exec(ctx, `UPDATE deployments SET status = 'replaced'
			WHERE workflow_id = ? AND connection_id = ? AND status = 'active'`, d.WorkflowID, d.ConnectionID); err != nil {
			return s.dbErr(err, "deployment", "", "")
		}
		if _, err := tx.Exec(ctx, `INSERT INTO deployments (`+deploymentCols+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)`,
			d.ID, d.WorkflowID, d.ProjectID, d.VersionID, d.ConnectionID, d.Status, d.URL, d.ScriptName, d.WorkflowName,
			d.CreatedBy, s.ts(d.CreatedAt), d.SealedWorkerToken, d.SealedTriggerSecret, d.Environment); err != nil {
			return s.dbErr(err, "deployment", "", "workflow")
		}
		_, err := tx.Exec(ctx, `UPDATE workflows SET active_version_id = ? WHERE id = ?`, d.VersionID, d.WorkflowID)
		return s.dbErr(err, "workflow", "", "")
	})
}

// FindActiveDeployment returns the active deployment of the workflow on the
// connection (the newest active one when connectionID is ""), or ENotFound.
func (s *Store) FindActiveDeployment(ctx context.Context, workflowID, connectionID string) (*edgeflow.Deployment, error) {
	d, err := scanDeployment(s.queryRow(ctx, `SELECT `+deploymentCols+` FROM deployments
		WHERE workflow_id = ? AND status = 'active' AND (? = '' OR connection_id = ?)
		ORDER BY created_at DESC, id DESC LIMIT 1`, workflowID, connectionID, connectionID))
	if err != nil {
		return nil, s.dbErr(err, "deployment", "", "")
	}
	return &d, nil
}

// ListDeployments lists the project's deployments (of one workflow when
// f.WorkflowID is set), newest first.
func (s *Store) ListDeployments(ctx context.Context, f edgeflow.DeploymentFilter, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.Deployment], error) {
	q := `SELECT ` + deploymentCols + ` FROM deployments WHERE project_id = ?`
	args := []any{f.ProjectID}
	if f.WorkflowID != "" {
		q += ` AND workflow_id = ?`
		args = append(args, f.WorkflowID)
	}
	return listPage(ctx, s, q, args, keyset{key: "created_at", desc: true, timeKey: true}, opts,
		func(sc rowScanner) (edgeflow.Deployment, string, string, error) {
			d, err := scanDeployment(sc)
			return d, timeKey(d.CreatedAt), d.ID, err
		})
}

// SetDeploymentSecrets replaces the sealed worker token and trigger secret
// of the active deployment id; ENotFound when no active deployment has that
// id.
func (s *Store) SetDeploymentSecrets(ctx context.Context, id, sealedWorkerToken, sealedTriggerSecret string) error {
	return s.write(ctx, ScopeLists, func(tx Querier) error {
		res, err := tx.Exec(ctx, `UPDATE deployments SET worker_token = ?, trigger_secret = ?
			WHERE id = ? AND status = 'active'`, sealedWorkerToken, sealedTriggerSecret, id)
		if err != nil {
			return s.dbErr(err, "deployment", "", "")
		}
		if res == 0 {
			return edgeflow.Errorf(edgeflow.ENotFound, "deployment not found")
		}
		return nil
	})
}

// ListActiveDeployments returns every active deployment, oldest first.
func (s *Store) ListActiveDeployments(ctx context.Context) ([]edgeflow.Deployment, error) {
	rows, err := s.query(ctx, `SELECT `+deploymentCols+` FROM deployments
		WHERE status = 'active' ORDER BY created_at, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []edgeflow.Deployment{}
	for rows.Next() {
		d, err := scanDeployment(rows)
		if err != nil {
			return nil, s.dbErr(err, "deployment", "", "")
		}
		out = append(out, d)
	}
	return out, s.dbErr(rows.Err(), "deployment", "", "")
}

// RemoveDeployment marks the active deployment of (workflow, connection)
// removed at at and returns it. The workflow's active version becomes that
// of its newest remaining active deployment, or "" when none is left.
// ENotFound when nothing is deployed there.
func (s *Store) RemoveDeployment(ctx context.Context, workflowID, connectionID string, at time.Time) (*edgeflow.Deployment, error) {
	var out edgeflow.Deployment
	err := s.write(ctx, ScopeLists, func(tx Querier) error {
		if s.d.RowLocks() {
			// Removals of the workflow's deployments take turns, so the
			// active version set below is that of the last one standing.
			var one int
			if err := tx.QueryRow(ctx, `SELECT 1 FROM workflows WHERE id = ? FOR UPDATE`, workflowID).Scan(&one); err != nil {
				return s.dbErr(err, "deployment", "", "")
			}
		}
		d, err := scanDeployment(tx.QueryRow(ctx, `UPDATE deployments SET status = 'removed', removed_at = ?
			WHERE workflow_id = ? AND connection_id = ? AND status = 'active' RETURNING `+deploymentCols,
			s.ts(at), workflowID, connectionID))
		if err != nil {
			return s.dbErr(err, "deployment", "", "")
		}
		out = d
		_, err = tx.Exec(ctx, `UPDATE workflows SET active_version_id = COALESCE(
			(SELECT version_id FROM deployments WHERE workflow_id = ? AND status = 'active'
			 ORDER BY created_at DESC, id DESC LIMIT 1), '') WHERE id = ?`, workflowID, workflowID)
		return s.dbErr(err, "workflow", "", "")
	})
	if err != nil {
		return nil, err
	}
	return &out, nil
}

// ListWorkflowsUsingNode lists the organization's workflows whose active
// deployment runs a version using marketplace node nodeID, newest first.
func (s *Store) ListWorkflowsUsingNode(ctx context.Context, organizationID, nodeID string) ([]edgeflow.Workflow, error) {
	rows, err := s.query(ctx, `SELECT `+workflowCols+` FROM workflows w WHERE w.organization_id = ? AND EXISTS (
		SELECT 1 FROM deployments d JOIN version_nodes n ON n.version_id = d.version_id
		WHERE d.workflow_id = w.id AND d.status = 'active' AND n.node_id = ?)
		ORDER BY w.created_at DESC, w.id DESC`, organizationID, nodeID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []edgeflow.Workflow{}
	for rows.Next() {
		w, err := scanWorkflow(rows)
		if err != nil {
			return nil, s.dbErr(err, "workflow", "", "")
		}
		out = append(out, w)
	}
	return out, s.dbErr(rows.Err(), "workflow", "", "")
}

// ListDrainingDeployments returns every replaced deployment not retired yet
// (the versions that may still serve runs in flight), oldest first, for the
// retirer (docs/releases.md); never for a client.
func (s *Store) ListDrainingDeployments(ctx context.Context) ([]edgeflow.Deployment, error) {
	rows, err := s.query(ctx, `SELECT `+deploymentCols+` FROM deployments
		WHERE status = 'replaced' ORDER BY created_at, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []edgeflow.Deployment{}
	for rows.Next() {
		d, err := scanDeployment(rows)
		if err != nil {
			return nil, s.dbErr(err, "deployment", "", "")
		}
		out = append(out, d)
	}
	return out, s.dbErr(rows.Err(), "deployment", "", "")
}

// FindServingDeployment returns the newest deployment of the workflow on the
// connection, active or replaced (not retired, not removed), whose Workflow
// is workflowName: the one whose worker serves that Workflow's instances
// now. ENotFound when none does.
func (s *Store) FindServingDeployment(ctx context.Context, workflowID, connectionID, workflowName string) (*edgeflow.Deployment, error) {
	d, err := scanDeployment(s.queryRow(ctx, `SELECT `+deploymentCols+` FROM deployments
		WHERE workflow_id = ? AND connection_id = ? AND workflow_name = ? AND status IN ('active', 'replaced')
		ORDER BY created_at DESC, id DESC LIMIT 1`, workflowID, connectionID, workflowName))
	if err != nil {
		return nil, s.dbErr(err, "deployment", "", "")
	}
	return &d, nil
}

// RetireDeployment marks the replaced deployment id retired at at;
// ENotFound when no replaced deployment has that id (already retired, or
// active again).
func (s *Store) RetireDeployment(ctx context.Context, id string, at time.Time) error {
	return s.write(ctx, ScopeLists, func(tx Querier) error {
		res, err := tx.Exec(ctx, `UPDATE deployments SET status = 'retired', removed_at = ?
			WHERE id = ? AND status = 'replaced'`, s.ts(at), id)
		if err != nil {
			return s.dbErr(err, "deployment", "", "")
		}
		if res == 0 {
			return edgeflow.Errorf(edgeflow.ENotFound, "deployment not found")
		}
		return nil
	})
}

// CountRunsInFlight counts the workflow's runs that are not final
// (queued, running, paused), grouped by connection, version and Workflow
// name; connectionID "" counts them on every connection.
func (s *Store) CountRunsInFlight(ctx context.Context, workflowID, connectionID string) ([]edgeflow.RunsInFlight, error) {
	rows, err := s.query(ctx, `SELECT connection_id, version_id, workflow_name, COUNT(*) FROM runs
		WHERE workflow_id = ? AND (? = '' OR connection_id = ?) AND status IN ('queued', 'running', 'paused')
		GROUP BY connection_id, version_id, workflow_name ORDER BY connection_id, version_id, workflow_name`,
		workflowID, connectionID, connectionID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []edgeflow.RunsInFlight{}
	for rows.Next() {
		var g edgeflow.RunsInFlight
		if err := rows.Scan(&g.ConnectionID, &g.VersionID, &g.WorkflowName, &g.Count); err != nil {
			return nil, s.dbErr(err, "run", "", "")
		}
		out = append(out, g)
	}
	return out, s.dbErr(rows.Err(), "run", "", "")
}
