package sqlstore

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Bulk jobs on runs (docs/runs.md, "Bulk actions").

const bulkCols = `id, organization_id, project_id, action, filter, from_step, version, state, matched, done, failed,
	failed_count, run_ids, next_index, actor_type, actor_id, request_id, lease_until, created_at, updated_at, ended_at`

// CreateBulkJob stores a new bulk job, setting its times.
func (s *Store) CreateBulkJob(ctx context.Context, j *edgeflow.BulkJob) error {
	now := s.timestamp()
	j.CreatedAt, j.UpdatedAt = now, now
	filter, err := json.Marshal(j.Filter)
	if err != nil {
		return err
	}
	ids, err := json.Marshal(orEmpty(j.RunIDs))
	if err != nil {
		return err
	}
	failed, err := json.Marshal(orEmpty(j.Failed))
	if err != nil {
		return err
	}
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		_, err := tx.Exec(ctx, `INSERT INTO bulk_jobs (`+bulkCols+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			j.ID, j.OrganizationID, j.ProjectID, j.Action, string(filter), j.FromStep, j.Version, j.State, j.Matched, j.Done,
			string(failed), j.FailedCount, string(ids), j.Next, j.Actor.Type, j.Actor.ID, j.RequestID, s.nullTS(j.LeaseUntil),
			s.ts(j.CreatedAt), s.ts(j.UpdatedAt), s.nullTS(j.EndedAt))
		return s.dbErr(err, "bulk job", "bulk job id already used", "")
	})
}

func orEmpty[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}

func scanBulkJob(sc rowScanner) (*edgeflow.BulkJob, error) {
	var j edgeflow.BulkJob
	var filter, failed, ids string
	err := sc.Scan(&j.ID, &j.OrganizationID, &j.ProjectID, &j.Action, &filter, &j.FromStep, &j.Version, &j.State,
		&j.Matched, &j.Done, &failed, &j.FailedCount, &ids, &j.Next, &j.Actor.Type, &j.Actor.ID, &j.RequestID,
		nullTimeCol{&j.LeaseUntil}, timeCol{&j.CreatedAt}, timeCol{&j.UpdatedAt}, nullTimeCol{&j.EndedAt})
	if err != nil {
		return nil, err
	}
	for _, f := range []struct {
		text string
		into any
	}{{filter, &j.Filter}, {failed, &j.Failed}, {ids, &j.RunIDs}} {
		if err := json.Unmarshal([]byte(f.text), f.into); err != nil {
			return nil, err
		}
	}
	return &j, nil
}

// FindBulkJob returns the project's bulk job.
func (s *Store) FindBulkJob(ctx context.Context, projectID, id string) (*edgeflow.BulkJob, error) {
	j, err := scanBulkJob(s.queryRow(ctx, `SELECT `+bulkCols+` FROM bulk_jobs WHERE project_id = ? AND id = ?`, projectID, id))
	if s.noRows(err) {
		return nil, edgeflow.Errorf(edgeflow.ENotFound, "bulk job not found")
	}
	if err != nil {
		return nil, s.dbErr(err, "bulk job", "", "")
	}
	return j, nil
}

// SaveBulkJobProgress writes the progress of a job; false when it is no
// longer running. The counts of a job cancelled meanwhile are written
// too (the batch in progress was done), its state is kept.
func (s *Store) SaveBulkJobProgress(ctx context.Context, j *edgeflow.BulkJob) (bool, error) {
	failed, err := json.Marshal(orEmpty(j.Failed))
	if err != nil {
		return false, err
	}
	j.UpdatedAt = s.timestamp()
	running := false
	err = s.write(ctx, ScopeNone, func(tx Querier) error {
		var state string
		if err := tx.QueryRow(ctx, `SELECT state FROM bulk_jobs WHERE id = ?`+s.lock("FOR UPDATE"), j.ID).Scan(&state); err != nil {
			return s.dbErr(err, "bulk job", "", "")
		}
		running = state == edgeflow.BulkRunning
		q := `UPDATE bulk_jobs SET done = ?, failed = ?, failed_count = ?, next_index = ?, lease_until = ?, updated_at = ?`
		args := []any{j.Done, string(failed), j.FailedCount, j.Next, s.nullTS(j.LeaseUntil), s.ts(j.UpdatedAt)}
		if running {
			q += `, state = ?, ended_at = ?`
			args = append(args, j.State, s.nullTS(j.EndedAt))
		}
		_, err := tx.Exec(ctx, q+` WHERE id = ?`, append(args, j.ID)...)
		return s.dbErr(err, "bulk job", "", "")
	})
	return running, err
}

// CancelBulkJob moves a running job to cancelled.
func (s *Store) CancelBulkJob(ctx context.Context, projectID, id string, now time.Time) (*edgeflow.BulkJob, error) {
	err := s.write(ctx, ScopeNone, func(tx Querier) error {
		_, err := tx.Exec(ctx, `UPDATE bulk_jobs SET state = ?, ended_at = ?, updated_at = ?
			WHERE project_id = ? AND id = ? AND state = ?`,
			edgeflow.BulkCancelled, s.ts(now), s.ts(now), projectID, id, edgeflow.BulkRunning)
		return s.dbErr(err, "bulk job", "", "")
	})
	if err != nil {
		return nil, err
	}
	return s.FindBulkJob(ctx, projectID, id)
}

// ClaimBulkJob takes one running job whose lease ended.
func (s *Store) ClaimBulkJob(ctx context.Context, now, until time.Time) (*edgeflow.BulkJob, error) {
	var out *edgeflow.BulkJob
	err := s.write(ctx, ScopeNone, func(tx Querier) error {
		out = nil
		j, err := scanBulkJob(tx.QueryRow(ctx, `SELECT `+bulkCols+` FROM bulk_jobs
			WHERE state = ? AND (lease_until IS NULL OR lease_until < ?) ORDER BY created_at LIMIT 1`+s.lock("FOR UPDATE SKIP LOCKED"),
			edgeflow.BulkRunning, s.ts(now)))
		if s.noRows(err) {
			return nil
		}
		if err != nil {
			return s.dbErr(err, "bulk job", "", "")
		}
		n, err := tx.Exec(ctx, `UPDATE bulk_jobs SET lease_until = ? WHERE id = ? AND state = ?`,
			s.ts(until), j.ID, edgeflow.BulkRunning)
		if err != nil {
			return s.dbErr(err, "bulk job", "", "")
		}
		if n == 1 {
			u := norm(until)
			j.LeaseUntil = &u
			out = j
		}
		return nil
	})
	return out, err
}

// DeleteRuns deletes the project's final runs among ids.
func (s *Store) DeleteRuns(ctx context.Context, projectID string, ids []string) ([]string, []edgeflow.RunInstance, error) {
	if len(ids) == 0 {
		return nil, nil, nil
	}
	marks := make([]string, len(ids))
	args := []any{projectID}
	for i, id := range ids {
		marks[i] = "?"
		args = append(args, id)
	}
	var deleted []string
	var instances []edgeflow.RunInstance
	err := s.write(ctx, ScopeNone, func(tx Querier) error {
		deleted, instances = nil, nil
		var orgID string
		if err := tx.QueryRow(ctx, `SELECT organization_id FROM projects WHERE id = ?`, projectID).Scan(&orgID); err != nil {
			return s.dbErr(err, "project", "", "")
		}
		rows, err := tx.Query(ctx, `DELETE FROM runs WHERE project_id = ? AND id IN (`+strings.Join(marks, ", ")+`)
			AND status IN ('complete', 'errored', 'terminated')
			RETURNING id, connection_id, workflow_name, instance_id`, args...)
		if err != nil {
			return s.dbErr(err, "run", "", "")
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			ri := edgeflow.RunInstance{OrganizationID: orgID}
			if err := rows.Scan(&id, &ri.ConnectionID, &ri.WorkflowName, &ri.InstanceID); err != nil {
				return s.dbErr(err, "run", "", "")
			}
			deleted = append(deleted, id)
			if ri.ConnectionID != "" && ri.WorkflowName != "" && ri.InstanceID != "" {
				instances = append(instances, ri)
			}
		}
		return s.dbErr(rows.Err(), "run", "", "")
	})
	return deleted, instances, err
}
