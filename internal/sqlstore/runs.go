package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

const runCols = `id, workflow_id, project_id, version_id, connection_id, deployment_id, workflow_name, instance_id, status,
	status_detail, params, output, error, steps, created_at, started_at, ended_at, updated_at, next_refresh_at,
	refresh_failures, state_version, restart_of, from_step, replayed`

func scanRun(sc rowScanner) (edgeflow.Run, error) {
	var r edgeflow.Run
	err := sc.Scan(&r.ID, &r.WorkflowID, &r.ProjectID, &r.VersionID, &r.ConnectionID, &r.DeploymentID, &r.WorkflowName,
		&r.InstanceID, &r.Status, &r.StatusDetail, rawCol{&r.Params}, rawCol{&r.Output}, &r.Error, rawCol{&r.Steps},
		timeCol{&r.CreatedAt}, nullTimeCol{&r.StartedAt}, nullTimeCol{&r.EndedAt}, timeCol{&r.UpdatedAt},
		nullTimeCol{&r.NextRefreshAt}, &r.RefreshFailures, &r.StateVersion, &r.RestartOf, &r.FromStep, replayedCol{&r.Replayed})
	return r, err
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
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		if err := tx.QueryRow(ctx, `SELECT project_id FROM workflows WHERE id = ?`+s.lock("FOR SHARE"), r.WorkflowID).
			Scan(&r.ProjectID); err != nil {
			return s.dbErr(err, "workflow", "", "")
		}
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
		_, err := tx.Exec(ctx, `INSERT INTO runs (`+runCols+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			r.ID, r.WorkflowID, r.ProjectID, r.VersionID, r.ConnectionID, r.DeploymentID, r.WorkflowName, r.InstanceID,
			r.Status, r.StatusDetail, rawArg(r.Params), rawArg(r.Output), r.Error, rawArg(r.Steps),
			s.ts(r.CreatedAt), s.nullTS(r.StartedAt), s.nullTS(r.EndedAt), s.ts(r.UpdatedAt),
			s.nullTS(r.NextRefreshAt), r.RefreshFailures, r.StateVersion, r.RestartOf, r.FromStep, replayed)
		if err != nil {
			return s.dbErr(err, "run", "", "workflow")
		}
		return s.runEvent(ctx, tx, true, "", "", r)
	})
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

// RowidOrderedRuns is implemented by a dialect (SQLite) whose runs table
// keeps rowid order equal to creation order, (created_at, id): migration
// 16 copied the rows in that order and CreateRun gives each new run a
// creation time after the newest stored run's. Its full-text index is keyed
// by rowid, so a word search reads the matches newest first from the index
// and stops at a page, instead of reading and sorting every match.
type RowidOrderedRuns interface {
	// RunSearchMatch is the full-text query (the argument of MATCH on the
	// FTS5 table runs_search) for q's words; ok is false when q has none.
	RunSearchMatch(q string) (match string, ok bool)
}

// ListRuns lists the project's runs, narrowed by the filter's workflow,
// status, version, creation time range and words, newest first.
func (s *Store) ListRuns(ctx context.Context, f edgeflow.RunFilter, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.Run], error) {
	var page edgeflow.Page[edgeflow.Run]
	var err error
	if m, ok := s.d.(RowidOrderedRuns); ok && strings.TrimSpace(f.Query) != "" {
		page, err = s.listRunsByRowid(ctx, m, f, opts)
	} else if strings.TrimSpace(f.Query) != "" {
		page, err = s.listRunsWindowed(ctx, f, opts)
	} else {
		q, args := runListQuery(s.d, f)
		page, err = listPage(ctx, s, q, args, keyset{key: "created_at", desc: true, timeKey: true}, opts,
			func(sc rowScanner) (edgeflow.Run, string, string, error) {
				r, err := scanRun(sc)
				return r, timeKey(r.CreatedAt), r.ID, err
			})
	}
	if err != nil {
		return page, err
	}
	return page, s.markDeletedWorkflows(ctx, f.ProjectID, page.Items)
}

// runSearchWindow is how many of the newest runs passing the other filters
// a word search looks at first (listRunsWindowed).
const runSearchWindow = 2000

// scanRunKey scans a run for listPage.
func scanRunKey(sc rowScanner) (edgeflow.Run, string, string, error) {
	r, err := scanRun(sc)
	return r, timeKey(r.CreatedAt), r.ID, err
}

// listRunsWindowed is ListRuns with words where the full-text index is not
// in creation order (PostgreSQL). The words of a common search match many
// runs, and a plan that reads every match and sorts them is slow; so the
// search first looks at the newest runSearchWindow runs that pass the other
// filters (through the index that gives their order) and keeps those with
// the words. When that finds more than a page, the page is exact: no older
// run comes before them. Otherwise (rare words) the whole search runs
// through the full-text index, where few matches are cheap to sort.
func (s *Store) listRunsWindowed(ctx context.Context, f edgeflow.RunFilter, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.Run], error) {
	conds, args := runFilterConds(s.d, f)
	if opts.Cursor != "" {
		key, id, err := decodeCursor(opts.Cursor)
		if err != nil {
			return edgeflow.Page[edgeflow.Run]{}, err
		}
		n, err := strconv.ParseInt(key, 10, 64)
		if err != nil {
			return edgeflow.Page[edgeflow.Run]{}, badCursor()
		}
		conds += ` AND (created_at, id) < (?, ?)`
		args = append(args, s.d.Time(time.UnixMicro(n).UTC()), id)
	}
	sel, args := runWindowQuery(s.d, f, conds, args)
	ks := keyset{key: "created_at", desc: true, timeKey: true}
	page, err := listPage(ctx, s, sel, args, ks, opts, scanRunKey)
	if err != nil || page.NextCursor != "" {
		return page, err
	}
	q, qargs := runListQuery(s.d, f)
	return listPage(ctx, s, q, qargs, ks, opts, scanRunKey)
}

// runWindowQuery is the first step of listRunsWindowed without its cursor
// and limit: the words among the newest runSearchWindow runs passing conds.
func runWindowQuery(d Dialect, f edgeflow.RunFilter, conds string, args []any) (string, []any) {
	cond, arg := d.RunSearch(f.Query)
	return `SELECT ` + runCols + ` FROM (SELECT * FROM runs WHERE ` + conds +
		` ORDER BY created_at DESC, id DESC LIMIT ?) AS runs WHERE ` + cond, append(args, runSearchWindow, arg)
}

// RunWindowQuery is the query and arguments of the first step of a word
// search's first page on an engine whose full-text index is not in creation
// order (listRunsWindowed), for tests that check its plan.
func RunWindowQuery(d Dialect, f edgeflow.RunFilter) (string, []any) {
	conds, args := runFilterConds(d, f)
	q, args := runWindowQuery(d, f, conds, args)
	return q + ` ORDER BY created_at DESC, id DESC LIMIT ?`, append(args, PageLimit(0)+1)
}

// runFilterConds are the conditions (on the runs table, unaliased) and
// arguments of f's project, workflow, status, version and time range.
func runFilterConds(d Dialect, f edgeflow.RunFilter) (string, []any) {
	q := `project_id = ?`
	args := []any{f.ProjectID}
	if f.WorkflowID != "" {
		q += ` AND workflow_id = ?`
		args = append(args, f.WorkflowID)
	}
	if f.Status != "" {
		q += ` AND status = ?`
		args = append(args, f.Status)
	}
	if f.VersionID != "" {
		q += ` AND version_id = ?`
		args = append(args, f.VersionID)
	}
	if f.From != nil {
		q += ` AND created_at >= ?`
		args = append(args, d.Time(norm(*f.From)))
	}
	if f.To != nil {
		q += ` AND created_at < ?`
		args = append(args, d.Time(norm(*f.To)))
	}
	return q, args
}

func runListQuery(d Dialect, f edgeflow.RunFilter) (string, []any) {
	conds, args := runFilterConds(d, f)
	q := `SELECT ` + runCols + ` FROM runs WHERE ` + conds
	if strings.TrimSpace(f.Query) != "" {
		cond, arg := d.RunSearch(f.Query)
		q += ` AND ` + cond
		args = append(args, arg)
	}
	return q, args
}

// runRowidQuery is the word search of a RowidOrderedRuns dialect without
// its cursor and limit: the FTS5 matches newest first (descending rowid,
// which the index gives without sorting), each joined to its run by rowid
// and kept when the other filters hold. ok is false when q has no word.
func runRowidQuery(d Dialect, m RowidOrderedRuns, f edgeflow.RunFilter) (q string, args []any, ok bool) {
	match, ok := m.RunSearchMatch(f.Query)
	if !ok {
		return "", nil, false
	}
	conds, fargs := runFilterConds(d, f)
	return `SELECT ` + runCols + ` FROM runs_search CROSS JOIN runs ON runs.rowid = runs_search.rowid
		WHERE runs_search MATCH ? AND ` + conds, append([]any{match}, fargs...), true
}

// listRunsByRowid is ListRuns with words on a RowidOrderedRuns dialect. A
// cursor (created_at, id) becomes a rowid bound: the rowid of the project's
// newest run at or before the cursor (found through the project's index),
// so the index walk starts right after the previous page even when the
// cursor's run has since been deleted.
func (s *Store) listRunsByRowid(ctx context.Context, m RowidOrderedRuns, f edgeflow.RunFilter, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.Run], error) {
	limit := PageLimit(opts.Limit)
	q, args, ok := runRowidQuery(s.d, m, f)
	if !ok {
		return edgeflow.Page[edgeflow.Run]{Items: []edgeflow.Run{}}, nil
	}
	if opts.Cursor != "" {
		key, id, err := decodeCursor(opts.Cursor)
		if err != nil {
			return edgeflow.Page[edgeflow.Run]{}, err
		}
		n, err := strconv.ParseInt(key, 10, 64)
		if err != nil {
			return edgeflow.Page[edgeflow.Run]{}, badCursor()
		}
		at := s.d.Time(time.UnixMicro(n).UTC())
		var bound int64
		err = s.queryRow(ctx, `SELECT rowid FROM runs WHERE project_id = ? AND (created_at, id) <= (?, ?)
			ORDER BY created_at DESC, id DESC LIMIT 1`, f.ProjectID, at, id).Scan(&bound)
		if s.noRows(err) {
			return edgeflow.Page[edgeflow.Run]{Items: []edgeflow.Run{}}, nil
		}
		if err != nil {
			return edgeflow.Page[edgeflow.Run]{}, s.dbErr(err, "run", "", "")
		}
		q += ` AND runs_search.rowid <= ? AND (created_at, id) < (?, ?)`
		args = append(args, bound, at, id)
	}
	q += ` ORDER BY runs_search.rowid DESC LIMIT ?`
	args = append(args, limit+1)
	rows, err := s.query(ctx, q, args...)
	if err != nil {
		return edgeflow.Page[edgeflow.Run]{}, err
	}
	defer rows.Close()
	items := make([]edgeflow.Run, 0, min(limit, 64))
	more := false
	for rows.Next() {
		if len(items) == limit {
			more = true
			break
		}
		r, err := scanRun(rows)
		if err != nil {
			return edgeflow.Page[edgeflow.Run]{}, fmt.Errorf("%s: scan: %w", s.name, err)
		}
		items = append(items, r)
	}
	if err := rows.Err(); err != nil {
		return edgeflow.Page[edgeflow.Run]{}, fmt.Errorf("%s: list: %w", s.name, err)
	}
	p := edgeflow.Page[edgeflow.Run]{Items: items}
	if more {
		last := items[len(items)-1]
		p.NextCursor = encodeCursor(timeKey(last.CreatedAt), last.ID)
	}
	return p, nil
}

// RunListQuery is the query (with '?' placeholders) and arguments of the
// first page of ListRuns for f, as the store runs it, for tests that check
// its plan on each engine.
func RunListQuery(d Dialect, f edgeflow.RunFilter) (string, []any) {
	if m, ok := d.(RowidOrderedRuns); ok && strings.TrimSpace(f.Query) != "" {
		if q, args, ok := runRowidQuery(d, m, f); ok {
			return q + ` ORDER BY runs_search.rowid DESC LIMIT ?`, append(args, PageLimit(0)+1)
		}
	}
	q, args := runListQuery(d, f)
	return q + ` ORDER BY created_at DESC, id DESC LIMIT ?`, append(args, PageLimit(0)+1)
}

// UpdateRun writes status, statusDetail, output, error, steps, startedAt,
// endedAt, nextRefreshAt and refreshFailures, sets UpdatedAt, adds one to
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
			steps = ?, started_at = ?, ended_at = ?, next_refresh_at = ?, refresh_failures = ?, updated_at = ?,
			state_version = state_version + 1, refresh_claimed_until = NULL
			WHERE workflow_id = ? AND id = ?`
	args := []any{r.Status, r.StatusDetail, rawArg(r.Output), r.Error, rawArg(r.Steps), s.nullTS(r.StartedAt),
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

// ClaimRunsForRefresh marks up to limit (100 when limit <= 0) due runs that
// no refresher holds as held until until and returns them oldest due first.
// Concurrent callers, of this process or another, get different runs:
// rows another transaction is claiming are skipped (FOR UPDATE SKIP LOCKED)
// where the engine locks rows; elsewhere write transactions take turns.
func (s *Store) ClaimRunsForRefresh(ctx context.Context, now, until time.Time, limit int) ([]edgeflow.Run, error) {
	if limit <= 0 {
		limit = 100
	}
	var out []edgeflow.Run
	err := s.write(ctx, ScopeNone, func(tx Querier) error {
		out = []edgeflow.Run{}
		rows, err := tx.Query(ctx, `UPDATE runs SET refresh_claimed_until = ? WHERE id IN (
			SELECT id FROM runs
			WHERE next_refresh_at IS NOT NULL AND next_refresh_at <= ? AND status NOT IN ('complete', 'errored', 'terminated')
				AND (refresh_claimed_until IS NULL OR refresh_claimed_until <= ?)
			ORDER BY next_refresh_at, id LIMIT ?`+s.lock("FOR UPDATE SKIP LOCKED")+`)
			RETURNING `+runCols, s.ts(until), s.ts(now), s.ts(now), limit)
		if err != nil {
			return s.dbErr(err, "run", "", "")
		}
		defer rows.Close()
		for rows.Next() {
			r, err := scanRun(rows)
			if err != nil {
				return s.dbErr(err, "run", "", "")
			}
			out = append(out, r)
		}
		return s.dbErr(rows.Err(), "run", "", "")
	})
	if err != nil {
		return nil, err
	}
	edgeflow.SortRunsByDue(out)
	return out, nil
}
