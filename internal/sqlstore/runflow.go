package sqlstore

import (
	"context"
	"fmt"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Flow control of a workflow's runs (docs/deploy.md, "Flow control"): a run
// is admitted while fewer than the workflow's concurrency are admitted and
// not final on its connection, and otherwise held (queued, statusDetail
// held, no refresh due) until a slot frees. The count and the write are one
// transaction that locks the workflow's row (PostgreSQL) or is the only
// writer (SQLite), so replicas sharing a database never admit more.

// admittedRuns counts the runs of the workflow on the connection that take
// a slot: running, or queued and not held. Paused runs (by hand, or waiting
// for an event) take none.
const admittedRuns = `SELECT COUNT(*) FROM runs WHERE workflow_id = ? AND connection_id = ?
	AND (status = 'running' OR (status = 'queued' AND status_detail <> 'held'))`

// roomFor locks the workflow's row and reports whether fewer than
// concurrency of its runs on the connection take a slot (always, for
// concurrency <= 0).
func (s *Store) roomFor(ctx context.Context, tx Querier, workflowID, connectionID string, concurrency int, projectID *string) (bool, error) {
	if err := tx.QueryRow(ctx, `SELECT project_id FROM workflows WHERE id = ?`+s.lock("FOR UPDATE"), workflowID).
		Scan(projectID); err != nil {
		return false, s.dbErr(err, "workflow", "", "")
	}
	if concurrency <= 0 {
		return true, nil
	}
	var n int
	if err := tx.QueryRow(ctx, admittedRuns, workflowID, connectionID).Scan(&n); err != nil {
		return false, s.dbErr(err, "run", "", "")
	}
	return n < concurrency, nil
}

// CreateRunLimited stores r as CreateRun does when its workflow has room
// for one more run on r's connection (concurrency <= 0: always) and answers
// true. Otherwise, with hold, it stores r held (StatusDetail
// edgeflow.RunDetailHeld, NextRefreshAt nil) and answers false; without,
// it stores nothing and answers false.
func (s *Store) CreateRunLimited(ctx context.Context, r *edgeflow.Run, concurrency int, hold bool) (bool, error) {
	if r.ID == "" {
		r.ID = edgeflow.NewID(edgeflow.PrefixRun)
	}
	r.Status = edgeflow.RunQueued
	r.CreatedAt = s.timestamp()
	r.UpdatedAt = r.CreatedAt
	r.StartedAt, r.EndedAt, r.NextRefreshAt = normPtr(r.StartedAt), normPtr(r.EndedAt), normPtr(r.NextRefreshAt)
	replayed, err := replayedArg(r.Replayed)
	if err != nil {
		return false, fmt.Errorf("encode the replayed steps: %w", err)
	}
	in, out := usageArgs(r.Usage)
	next, detail := r.NextRefreshAt, r.StatusDetail
	admitted := false
	err = s.write(ctx, ScopeNone, func(tx Querier) error {
		r.NextRefreshAt, r.StatusDetail = next, detail
		room, err := s.roomFor(ctx, tx, r.WorkflowID, r.ConnectionID, concurrency, &r.ProjectID)
		if err != nil {
			return err
		}
		admitted = room
		if !room {
			if !hold {
				return nil
			}
			r.NextRefreshAt, r.StatusDetail = nil, edgeflow.RunDetailHeld
		}
		return s.insertRun(ctx, tx, r, replayed, in, out)
	})
	if err != nil {
		return false, err
	}
	return admitted, nil
}

// AdmitHeldRun admits the held run r when its workflow has room on its
// connection (concurrency <= 0: always): its statusDetail is cleared and
// its refresh is due at next. It answers false when there is no room or
// when r is no longer held (another replica admitted it, or it ended).
func (s *Store) AdmitHeldRun(ctx context.Context, r *edgeflow.Run, concurrency int, next time.Time) (bool, error) {
	now := s.timestamp()
	admitted := false
	err := s.write(ctx, ScopeNone, func(tx Querier) error {
		var projectID string
		room, err := s.roomFor(ctx, tx, r.WorkflowID, r.ConnectionID, concurrency, &projectID)
		if err != nil || !room {
			return err
		}
		n, err := tx.Exec(ctx, `UPDATE runs SET status_detail = '', next_refresh_at = ?, updated_at = ?, state_version = state_version + 1
			WHERE id = ? AND status = 'queued' AND status_detail = 'held'`, s.ts(norm(next)), s.ts(now), r.ID)
		if err != nil {
			return s.dbErr(err, "run", "", "")
		}
		admitted = n == 1
		return nil
	})
	if err != nil || !admitted {
		return false, err
	}
	nx := norm(next)
	r.StatusDetail, r.NextRefreshAt, r.UpdatedAt = "", &nx, now
	r.StateVersion++
	return true, nil
}

// ListHeldGroups returns up to limit (100 when limit <= 0) of the
// (workflow, connection) pairs that have held runs, the pair with the
// oldest held run first.
func (s *Store) ListHeldGroups(ctx context.Context, limit int) ([]edgeflow.HeldGroup, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.query(ctx, `SELECT project_id, workflow_id, connection_id FROM runs
		WHERE status = 'queued' AND status_detail = 'held'
		GROUP BY project_id, workflow_id, connection_id ORDER BY MIN(created_at), workflow_id, connection_id LIMIT ?`, limit)
	if err != nil {
		return nil, s.dbErr(err, "run", "", "")
	}
	defer rows.Close()
	out := []edgeflow.HeldGroup{}
	for rows.Next() {
		var g edgeflow.HeldGroup
		if err := rows.Scan(&g.ProjectID, &g.WorkflowID, &g.ConnectionID); err != nil {
			return nil, s.dbErr(err, "run", "", "")
		}
		out = append(out, g)
	}
	return out, s.dbErr(rows.Err(), "run", "", "")
}

// ListHeldRuns returns the held runs f selects, oldest first (creation
// time, then id), at most f.Limit (100 when <= 0).
func (s *Store) ListHeldRuns(ctx context.Context, f edgeflow.HeldRunsFilter) ([]edgeflow.Run, error) {
	if f.Limit <= 0 {
		f.Limit = 100
	}
	q := `SELECT ` + runCols + ` FROM runs WHERE status = 'queued' AND status_detail = 'held'`
	var args []any
	if f.WorkflowID != "" || f.ConnectionID != "" {
		q += ` AND workflow_id = ? AND connection_id = ?`
		args = append(args, f.WorkflowID, f.ConnectionID)
	}
	if !f.AfterCreatedAt.IsZero() {
		at := s.ts(norm(f.AfterCreatedAt))
		q += ` AND (created_at > ? OR (created_at = ? AND id > ?))`
		args = append(args, at, at, f.AfterID)
	}
	rows, err := s.query(ctx, q+` ORDER BY created_at, id LIMIT ?`, append(args, f.Limit)...)
	if err != nil {
		return nil, s.dbErr(err, "run", "", "")
	}
	defer rows.Close()
	out := []edgeflow.Run{}
	for rows.Next() {
		r, err := scanRun(rows)
		if err != nil {
			return nil, s.dbErr(err, "run", "", "")
		}
		out = append(out, r)
	}
	return out, s.dbErr(rows.Err(), "run", "", "")
}

// CountAdmittedRuns counts the runs of the workflow on the connection that
// take a flow control slot (running, or queued and not held).
func (s *Store) CountAdmittedRuns(ctx context.Context, workflowID, connectionID string) (int, error) {
	var n int
	if err := s.queryRow(ctx, admittedRuns, workflowID, connectionID).Scan(&n); err != nil {
		return 0, s.dbErr(err, "run", "", "")
	}
	return n, nil
}
