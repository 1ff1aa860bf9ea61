package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

const runCols = `id, workflow_id, project_id, version_id, connection_id, deployment_id, workflow_name, instance_id, status,
	status_detail, params, output, error, steps, created_at, started_at, ended_at, updated_at, next_refresh_at,
	refresh_failures, state_version, restart_of, from_step, replayed, input_tokens, output_tokens, trace_context,
	replay_of, params_changed, environment`

func scanRun(sc rowScanner) (edgeflow.Run, error) {
	var r edgeflow.Run
	var in, out sql.NullInt64
	err := sc.Scan(&r.ID, &r.WorkflowID, &r.ProjectID, &r.VersionID, &r.ConnectionID, &r.DeploymentID, &r.WorkflowName,
		&r.InstanceID, &r.Status, &r.StatusDetail, rawCol{&r.Params}, rawCol{&r.Output}, &r.Error, rawCol{&r.Steps},
		timeCol{&r.CreatedAt}, nullTimeCol{&r.StartedAt}, nullTimeCol{&r.EndedAt}, timeCol{&r.UpdatedAt},
		nullTimeCol{&r.NextRefreshAt}, &r.RefreshFailures, &r.StateVersion, &r.RestartOf, &r.FromStep, replayedCol{&r.Replayed},
		&in, &out, traceCol{&r.Trace}, &r.ReplayOf, boolCol{&r.ParamsChanged}, &r.Environment)
	if in.Valid || out.Valid {
		r.Usage = &edgeflow.TokenUsage{InputTokens: in.Int64, OutputTokens: out.Int64}
	}
	if r.Trace != nil {
		r.TraceID = r.Trace.TraceID
	}
	return r, err
}

// usageArgs are the input_tokens and output_tokens values of u: NULL for a
// run without model calls.
func usageArgs(u *edgeflow.TokenUsage) (any, any) {
	if u == nil {
		return nil, nil
	}
	return u.InputTokens, u.OutputTokens
}

// traceCol scans the trace_context column (JSON, or NULL) into a run's
// trace context; a value that does not read leaves the run without one.
type traceCol struct{ p **edgeflow.RunTrace }

func (c traceCol) Scan(v any) error {
	var raw json.RawMessage
	if err := (rawCol{&raw}).Scan(v); err != nil {
		return err
	}
	*c.p = nil
	if len(raw) == 0 {
		return nil
	}
	var t edgeflow.RunTrace
	if json.Unmarshal(raw, &t) == nil && t.TraceID != "" {
		*c.p = &t
	}
	return nil
}

// traceArg is the trace_context column's value: NULL without a trace.
func traceArg(t *edgeflow.RunTrace) any {
	if t == nil {
		return nil
	}
	b, _ := json.Marshal(t)
	return string(b)
}

func boolArg(b bool) int {
	if b {
		return 1
	}
	return 0
}

// replayedCol scans the replayed column (a JSON array, or NULL) into a
// run's Replayed steps.
type replayedCol struct{ p *[]edgeflow.ReplayedStep }

func (c replayedCol) Scan(v any) error {
	var raw json.RawMessage
	if err := (rawCol{&raw}).Scan(v); err != nil {
		return err
	}
	*c.p = nil
	if len(raw) == 0 {
		return nil
	}
	return json.Unmarshal(raw, c.p)
}

// replayedArg is the replayed column's value for steps: NULL when none.
func replayedArg(steps []edgeflow.ReplayedStep) (any, error) {
	if len(steps) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(steps)
	if err != nil {
		return nil, err
	}
	return string(b), nil
}

// CreateRun stores r. ProjectID is taken from the workflow and an empty
// Status becomes queued; ENotFound for an unknown workflow.
func (s *Store) CreateRun(ctx context.Context, r *edgeflow.Run) error {
	if r.ID == "" {
		r.ID = edgeflow.NewID(edgeflow.PrefixRun)
	}
	if r.Status == "" {
		r.Status = edgeflow.RunQueued
	}
	r.CreatedAt = s.timestamp()
	r.UpdatedAt = r.CreatedAt
	r.StartedAt, r.EndedAt, r.NextRefreshAt = normPtr(r.StartedAt), normPtr(r.EndedAt), normPtr(r.NextRefreshAt)
	replayed, err := replayedArg(r.Replayed)
	if err != nil {
		return fmt.Errorf("encode the replayed steps: %w", err)
	}
	in, out := usageArgs(r.Usage)
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		if err := tx.QueryRow(ctx, `SELECT project_id FROM workflows WHERE id = ?`+s.lock("FOR SHARE"), r.WorkflowID).
			Scan(&r.ProjectID); err != nil {
			return s.dbErr(err, "workflow", "", "")
		}
		return s.insertRun(ctx, tx, r, replayed, in, out)
	})
}

// insertRun inserts r (its ProjectID read) in tx with its run event.
func (s *Store) insertRun(ctx context.Context, tx Querier, r *edgeflow.Run, replayed, in, out any) error {
	if _, ok := s.d.(RowidOrderedRuns); ok {
		// Keep rowid order = creation order (RowidOrderedRuns): the
		// new run is created after the newest stored one (by at least
		// a microsecond, so that ids never have to break a tie).
		var last time.Time
		err := tx.QueryRow(ctx, `SELECT created_at FROM runs ORDER BY rowid DESC LIMIT 1`).Scan(timeCol{&last})
		if err != nil && !s.noRows(err) {
			return s.dbErr(err, "run", "", "")
		}
		if err == nil && !r.CreatedAt.After(last) {
			r.CreatedAt = last.Add(time.Microsecond)
			r.UpdatedAt = r.CreatedAt
		}
	}
	_, err := tx.Exec(ctx, `INSERT INTO runs (`+runCols+`, step_words)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		r.ID, r.WorkflowID, r.ProjectID, r.VersionID, r.ConnectionID, r.DeploymentID, r.WorkflowName, r.InstanceID,
		r.Status, r.StatusDetail, rawArg(r.Params), rawArg(r.Output), r.Error, rawArg(r.Steps),
		s.ts(r.CreatedAt), s.nullTS(r.StartedAt), s.nullTS(r.EndedAt), s.ts(r.UpdatedAt),
		s.nullTS(r.NextRefreshAt), r.RefreshFailures, r.StateVersion, r.RestartOf, r.FromStep, replayed, in, out, traceArg(r.Trace),
		r.ReplayOf, boolArg(r.ParamsChanged), r.Environment, stepWordsArg(r.Steps))
	if err != nil {
		return s.dbErr(err, "run", "", "workflow")
	}
	if r.Trace != nil {
		r.TraceID = r.Trace.TraceID
	}
	return s.runEvent(ctx, tx, true, "", "", r)
}

// FindRunByID returns the workflow's run or ENotFound.
func (s *Store) FindRunByID(ctx context.Context, workflowID, id string) (*edgeflow.Run, error) {
	r, err := scanRun(s.queryRow(ctx, `SELECT `+runCols+` FROM runs WHERE workflow_id = ? AND id = ?`, workflowID, id))
	if err != nil {
		return nil, s.dbErr(err, "run", "", "")
	}
	return &r, nil
}

// FindRunByInstanceID returns the workflow's newest run with the provider
// instance id, or ENotFound.
func (s *Store) FindRunByInstanceID(ctx context.Context, workflowID, instanceID string) (*edgeflow.Run, error) {
	r, err := scanRun(s.queryRow(ctx, `SELECT `+runCols+` FROM runs WHERE workflow_id = ? AND instance_id = ?
		ORDER BY created_at DESC, id DESC LIMIT 1`, workflowID, instanceID))
	if err != nil {
		return nil, s.dbErr(err, "run", "", "")
	}
	return &r, nil
}

// FindRunInProject returns the project's run, with DeletedWorkflow set when
// its workflow was deleted with its runs kept; ENotFound otherwise.
func (s *Store) FindRunInProject(ctx context.Context, projectID, id string) (*edgeflow.Run, error) {
	r, err := scanRun(s.queryRow(ctx, `SELECT `+runCols+` FROM runs WHERE id = ? AND project_id = ?`, id, projectID))
	if err != nil {
		return nil, s.dbErr(err, "run", "", "")
	}
	runs := []edgeflow.Run{r}
	if err := s.markDeletedWorkflows(ctx, projectID, runs); err != nil {
		return nil, err
	}
	return &runs[0], nil
}

// markDeletedWorkflows sets DeletedWorkflow on the runs (all of the
// project) whose workflow was deleted with its runs kept: one query for the
// distinct workflows of the runs.
func (s *Store) markDeletedWorkflows(ctx context.Context, projectID string, runs []edgeflow.Run) error {
	seen := map[string]bool{}
	args := []any{projectID}
	var marks []string
	for _, r := range runs {
		if !seen[r.WorkflowID] {
			seen[r.WorkflowID] = true
			args = append(args, r.WorkflowID)
			marks = append(marks, "?")
		}
	}
	if len(marks) == 0 {
		return nil
	}
	rows, err := s.query(ctx, `SELECT id, name, deleted_at FROM deleted_workflows WHERE project_id = ? AND id IN (`+
		strings.Join(marks, ", ")+`)`, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	deleted := map[string]*edgeflow.DeletedWorkflow{}
	for rows.Next() {
		d := &edgeflow.DeletedWorkflow{ProjectID: projectID}
		if err := rows.Scan(&d.ID, &d.Name, timeCol{&d.DeletedAt}); err != nil {
			return fmt.Errorf("%s: scan: %w", s.name, err)
		}
		deleted[d.ID] = d
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("%s: deleted workflows: %w", s.name, err)
	}
	for i := range runs {
		runs[i].DeletedWorkflow = deleted[runs[i].WorkflowID]
	}
	return nil
}

// UpdateRun writes status, statusDetail, output, error, steps, usage,
// startedAt, endedAt, nextRefreshAt and refreshFailures, sets UpdatedAt, adds one to
// StateVersion, ends the refresh claim and refreshes r from the stored row;
// ENotFound for an unknown run of the workflow.
func (s *Store) UpdateRun(ctx context.Context, r *edgeflow.Run) error {
	_, err := s.updateRun(ctx, r, false)
	return err
}

// UpdateRunIfUnchanged is UpdateRun while the stored state version is still
// r.StateVersion; false (r unchanged) when another write came first.
func (s *Store) UpdateRunIfUnchanged(ctx context.Context, r *edgeflow.Run) (bool, error) {
	return s.updateRun(ctx, r, true)
}

func (s *Store) updateRun(ctx context.Context, r *edgeflow.Run, cas bool) (bool, error) {
	now := s.timestamp()
	q := `UPDATE runs SET status = ?, status_detail = ?, output = ?, error = ?,
			steps = ?, step_words = ?, input_tokens = ?, output_tokens = ?, started_at = ?, ended_at = ?, next_refresh_at = ?,
			refresh_failures = ?, updated_at = ?, state_version = state_version + 1, refresh_claimed_until = NULL
			WHERE workflow_id = ? AND id = ?`
	in, out := usageArgs(r.Usage)
	args := []any{r.Status, r.StatusDetail, rawArg(r.Output), r.Error, rawArg(r.Steps), stepWordsArg(r.Steps), in, out, s.nullTS(r.StartedAt),
		s.nullTS(r.EndedAt), s.nullTS(r.NextRefreshAt), r.RefreshFailures, s.ts(now), r.WorkflowID, r.ID}
	if cas {
		q += ` AND state_version = ?`
		args = append(args, r.StateVersion)
	}
	written := false
	err := s.write(ctx, ScopeNone, func(tx Querier) error {
		written = false
		// The state before the write, for its event; the row stays locked
		// until the commit, so that concurrent writers see each other's state.
		var oldStatus, oldDetail string
		err := tx.QueryRow(ctx, `SELECT status, status_detail FROM runs WHERE workflow_id = ? AND id = ?`+s.lock("FOR UPDATE"),
			r.WorkflowID, r.ID).Scan(&oldStatus, &oldDetail)
		if err != nil {
			return s.dbErr(err, "run", "", "")
		}
		got, err := scanRun(tx.QueryRow(ctx, q+` RETURNING `+runCols, args...))
		if cas && s.noRows(err) {
			return nil // changed since r was read
		}
		if err != nil {
			return s.dbErr(err, "run", "", "")
		}
		if err := s.runEvent(ctx, tx, false, oldStatus, oldDetail, &got); err != nil {
			return err
		}
		*r = got
		written = true
		return nil
	})
	return written, err
}
