package sqlstore

import (
	"context"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// DeleteWorkflowKeepingRuns deletes the workflow with its versions and
// deployments, records its name in deleted_workflows and keeps its runs;
// runs that are not final become terminated ("the workflow was deleted"):
// their deployments are gone, so nothing would end them. ENotFound outside
// the project.
func (s *Store) DeleteWorkflowKeepingRuns(ctx context.Context, projectID, id string) error {
	now := s.timestamp()
	return s.write(ctx, ScopeLists, func(tx Querier) error {
		name, err := lockWorkflow(ctx, s, tx, projectID, id)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO deleted_workflows (id, project_id, name, deleted_at) VALUES (?, ?, ?, ?)`,
			id, projectID, name, s.ts(now)); err != nil {
			return s.dbErr(err, "workflow", "", "")
		}
		if _, err := tx.Exec(ctx, `UPDATE runs SET status = ?, status_detail = ?, ended_at = coalesce(ended_at, ?),
			updated_at = ?, next_refresh_at = NULL, refresh_claimed_until = NULL, state_version = state_version + 1
			WHERE project_id = ? AND workflow_id = ? AND status IN (?, ?, ?)`,
			edgeflow.RunTerminated, "the workflow was deleted", s.ts(now), s.ts(now), projectID, id,
			edgeflow.RunQueued, edgeflow.RunRunning, edgeflow.RunPaused); err != nil {
			return s.dbErr(err, "run", "", "")
		}
		res, err := tx.Exec(ctx, `DELETE FROM workflows WHERE project_id = ? AND id = ?`, projectID, id)
		return s.affected(res, err, "workflow")
	})
}

// FindDeletedWorkflow returns the project's workflow deleted with its runs
// kept, or ENotFound.
func (s *Store) FindDeletedWorkflow(ctx context.Context, projectID, id string) (*edgeflow.DeletedWorkflow, error) {
	d := edgeflow.DeletedWorkflow{ID: id, ProjectID: projectID}
	if err := s.queryRow(ctx, `SELECT name, deleted_at FROM deleted_workflows WHERE project_id = ? AND id = ?`,
		projectID, id).Scan(&d.Name, timeCol{&d.DeletedAt}); err != nil {
		return nil, s.dbErr(err, "workflow", "", "")
	}
	return &d, nil
}

// nodeIDs returns the distinct node ids of node references "<id>@<version>".
