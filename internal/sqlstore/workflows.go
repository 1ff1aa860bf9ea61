package sqlstore

import (
	"context"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

const workflowCols = `id, organization_id, project_id, name, description, kind, env_vars, trigger_code, dependencies,
	deploy_config, current_version_id, active_version_id, created_at, updated_at`

func scanWorkflow(sc rowScanner) (edgeflow.Workflow, error) {
	var w edgeflow.Workflow
	err := sc.Scan(&w.ID, &w.OrganizationID, &w.ProjectID, &w.Name, &w.Description, &w.Kind, jsonCol{&w.EnvVars},
		&w.TriggerCode, jsonCol{&w.Dependencies}, jsonCol{&w.DeployConfig}, &w.CurrentVersionID, &w.ActiveVersionID,
		timeCol{&w.CreatedAt}, timeCol{&w.UpdatedAt})
	return w, err
}

// workflowJSON encodes the JSON columns of w.
func (s *Store) workflowJSON(w *edgeflow.Workflow) (envVars, deps, deployConfig string, err error) {
	if envVars, err = s.jsonArg(w.EnvVars); err != nil {
		return
	}
	if deps, err = s.jsonArg(w.Dependencies); err != nil {
		return
	}
	deployConfig, err = s.jsonArg(w.DeployConfig)
	return
}

// CreateWorkflow stores w in its project. OrganizationID is taken from the
// project; ENotFound for an unknown project.
func (s *Store) CreateWorkflow(ctx context.Context, w *edgeflow.Workflow) error {
	if w.ID == "" {
		w.ID = edgeflow.NewID(edgeflow.PrefixWorkflow)
	}
	w.CreatedAt = s.timestamp()
	w.UpdatedAt = w.CreatedAt
	envVars, deps, deployConfig, err := s.workflowJSON(w)
	if err != nil {
		return err
	}
	return s.write(ctx, ScopeLists, func(tx Querier) error {
		if err := tx.QueryRow(ctx, `SELECT organization_id FROM projects WHERE id = ?`+s.lock("FOR SHARE"), w.ProjectID).
			Scan(&w.OrganizationID); err != nil {
			return s.dbErr(err, "project", "", "")
		}
		_, err := tx.Exec(ctx, `INSERT INTO workflows (`+workflowCols+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			w.ID, w.OrganizationID, w.ProjectID, w.Name, w.Description, w.Kind, envVars, w.TriggerCode, deps,
			deployConfig, w.CurrentVersionID, w.ActiveVersionID, s.ts(w.CreatedAt), s.ts(w.UpdatedAt))
		return s.dbErr(err, "workflow", "", "project")
	})
}

// FindWorkflowByID returns the project's workflow or ENotFound.
func (s *Store) FindWorkflowByID(ctx context.Context, projectID, id string) (*edgeflow.Workflow, error) {
	w, err := scanWorkflow(s.queryRow(ctx, `SELECT `+workflowCols+` FROM workflows WHERE project_id = ? AND id = ?`,
		projectID, id))
	if err != nil {
		return nil, s.dbErr(err, "workflow", "", "")
	}
	return &w, nil
}

// ListWorkflows lists the project's workflows and functions, newest first,
// in one indexed query (workflows_project_created).
func (s *Store) ListWorkflows(ctx context.Context, projectID string, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.Workflow], error) {
	return listPage(ctx, s, `SELECT `+workflowCols+` FROM workflows WHERE project_id = ?`, []any{projectID},
		keyset{key: "created_at", desc: true, timeKey: true}, opts, func(sc rowScanner) (edgeflow.Workflow, string, string, error) {
			w, err := scanWorkflow(sc)
			return w, timeKey(w.CreatedAt), w.ID, err
		})
}

// UpdateWorkflow writes name, description, envVars, triggerCode,
// dependencies and deployConfig, sets UpdatedAt and refreshes w from the
// stored row; ENotFound outside the project.
func (s *Store) UpdateWorkflow(ctx context.Context, w *edgeflow.Workflow) error {
	now := s.timestamp()
	envVars, deps, deployConfig, err := s.workflowJSON(w)
	if err != nil {
		return err
	}
	return s.write(ctx, ScopeLists, func(tx Querier) error {
		got, err := scanWorkflow(tx.QueryRow(ctx, `UPDATE workflows SET name = ?, description = ?, env_vars = ?,
			trigger_code = ?, dependencies = ?, deploy_config = ?, updated_at = ?
			WHERE project_id = ? AND id = ? RETURNING `+workflowCols,
			w.Name, w.Description, envVars, w.TriggerCode, deps, deployConfig, s.ts(now), w.ProjectID, w.ID))
		if err != nil {
			return s.dbErr(err, "workflow", "", "")
		}
		*w = got
		return nil
	})
}

// MoveWorkflow moves the workflow with its runs and deployments to
// toProjectID; ENotFound when the workflow is not in fromProjectID or the
// target project is not in the same organization.
func (s *Store) MoveWorkflow(ctx context.Context, fromProjectID, id, toProjectID string) error {
	now := s.timestamp()
	return s.write(ctx, ScopeLists, func(tx Querier) error {
		var org string
		if err := tx.QueryRow(ctx, `SELECT organization_id FROM workflows WHERE project_id = ? AND id = ?`+s.lock("FOR UPDATE"),
			fromProjectID, id).Scan(&org); err != nil {
			return s.dbErr(err, "workflow", "", "")
		}
		var one int
		if err := tx.QueryRow(ctx, `SELECT 1 FROM projects WHERE organization_id = ? AND id = ?`+s.lock("FOR SHARE"),
			org, toProjectID).Scan(&one); err != nil {
			return s.dbErr(err, "project", "", "")
		}
		if fromProjectID == toProjectID {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE workflows SET project_id = ?, updated_at = ? WHERE id = ?`,
			toProjectID, s.ts(now), id); err != nil {
			return s.dbErr(err, "workflow", "", "")
		}
		if _, err := tx.Exec(ctx, `UPDATE runs SET project_id = ? WHERE workflow_id = ?`, toProjectID, id); err != nil {
			return s.dbErr(err, "run", "", "")
		}
		if _, err := tx.Exec(ctx, `UPDATE deployments SET project_id = ? WHERE workflow_id = ?`, toProjectID, id); err != nil {
			return s.dbErr(err, "deployment", "", "")
		}
		return nil
	})
}

// DeleteWorkflow deletes the workflow with its versions, deployments and
// runs (their steps and outputs are columns of the run rows); ENotFound
// outside the project. Runs do not refer to their workflow (migration 16),
// so they are deleted here.
func (s *Store) DeleteWorkflow(ctx context.Context, projectID, id string) error {
	// The runs go first, a batch per transaction, so that a workflow with a
	// million runs never holds the database's write lock for long; the last
	// transaction deletes the runs created meanwhile with the workflow.
	for {
		var n int64
		err := s.write(ctx, ScopeNone, func(tx Querier) error {
			var err error
			n, err = tx.Exec(ctx, `DELETE FROM runs WHERE id IN (
				SELECT id FROM runs WHERE project_id = ? AND workflow_id = ? LIMIT ?)`, projectID, id, runDeleteBatch)
			return s.dbErr(err, "run", "", "")
		})
		if err != nil {
			return err
		}
		if n < runDeleteBatch {
			break
		}
	}
	return s.write(ctx, ScopeLists, func(tx Querier) error {
		if _, err := lockWorkflow(ctx, s, tx, projectID, id); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM runs WHERE project_id = ? AND workflow_id = ?`, projectID, id); err != nil {
			return s.dbErr(err, "run", "", "")
		}
		res, err := tx.Exec(ctx, `DELETE FROM workflows WHERE project_id = ? AND id = ?`, projectID, id)
		return s.affected(res, err, "workflow")
	})
}

// runDeleteBatch is how many runs a transaction of DeleteWorkflow deletes.
const runDeleteBatch = 2000

// lockWorkflow reads the project's workflow's name in tx, holding its row
// (PostgreSQL) so that no run is created for it while it is deleted;
// ENotFound outside the project.
func lockWorkflow(ctx context.Context, s *Store, tx Querier, projectID, id string) (string, error) {
	var name string
	if err := tx.QueryRow(ctx, `SELECT name FROM workflows WHERE project_id = ? AND id = ?`+s.lock("FOR UPDATE"),
		projectID, id).Scan(&name); err != nil {
		return "", s.dbErr(err, "workflow", "", "")
	}
	return name, nil
}
