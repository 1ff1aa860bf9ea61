package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

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
		done := false
		if narrowed(f) {
			page, done, err = s.listRunsProbed(ctx, m, f, opts)
		}
		if err == nil && !done {
			page, err = s.listRunsByRowid(ctx, m, f, opts)
		}
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
	if f.Environment != "" {
		q += ` AND environment = ?`
		args = append(args, f.Environment)
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

// runSearchProbe is how many of the newest runs passing the other filters
// a word search on a RowidOrderedRuns dialect looks at first
// (listRunsProbed), and runSearchProbeSpan the most rowids those may span
// for the probe to be taken: the words' matches in that span are read
// from the full-text index whatever the filters.
const (
	runSearchProbe     = 500
	runSearchProbeSpan = 50_000
)

// narrowed reports whether f has a filter besides its project and words.
func narrowed(f edgeflow.RunFilter) bool {
	return f.WorkflowID != "" || f.Status != "" || f.VersionID != "" || f.Environment != "" || f.From != nil || f.To != nil
}

// runProbeQuery is the probe of listRunsProbed without its cursor and
// limit: the runs passing conds created from since on (the oldest probed
// run's creation, whose rowid is lo) whose rowid is among the full-text
// matches from lo on (one read of the index over that span, kept as a set).
// The unary + keeps the planner from reading the runs by those rowids (one
// lookup per match, then a sort: 120 ms on 300,000 runs once ANALYZE has
// run) instead of through the filters' index in order.
func runProbeQuery(d Dialect, conds string, args []any, match string, lo int64, since time.Time) (string, []any) {
	q := `SELECT ` + runCols + ` FROM runs WHERE ` + conds + ` AND created_at >= ? AND +rowid IN
		(SELECT rowid FROM runs_search WHERE runs_search MATCH ? AND rowid >= ?)`
	return q, append(append([]any{}, args...), d.Time(since), match, lo)
}

// RunProbeQuery is the query and arguments of the probe of a word search's
// first page with other filters on a RowidOrderedRuns dialect
// (listRunsProbed), with lo for the bound the store reads first, for tests
// that check its plan; ok is false when the search takes no probe.
func RunProbeQuery(d Dialect, f edgeflow.RunFilter, lo int64) (q string, args []any, ok bool) {
	m, ok := d.(RowidOrderedRuns)
	if !ok || !narrowed(f) {
		return "", nil, false
	}
	match, ok := m.RunSearchMatch(f.Query)
	if !ok {
		return "", nil, false
	}
	conds, cargs := runFilterConds(d, f)
	q, args = runProbeQuery(d, conds, cargs, match, lo, time.Unix(0, 0).UTC())
	return q + ` ORDER BY created_at DESC, id DESC LIMIT ?`, append(args, PageLimit(0)+1), true
}

// listRunsProbed is the first step of a word search with other filters on
// a RowidOrderedRuns dialect. Walking the full-text index newest first
// (listRunsByRowid) reads every match that the other filters reject before
// a page is full, with its run: a word every run holds (a key of a step's
// output, an event's type) with a rare status read thousands of runs. So
// the search first finds the newest runSearchProbe runs that pass the
// other filters (through the index that gives their order) and the rowid
// lo of the oldest of them; when they span at most runSearchProbeSpan
// rowids, it keeps those among them that the index matches from lo on (the
// index alone reads that span, without the runs). When that finds more
// than a page, or fewer than runSearchProbe runs pass the filters at all,
// the page is exact and done; otherwise the words are rare among those
// runs and the index walk answers.
func (s *Store) listRunsProbed(ctx context.Context, m RowidOrderedRuns, f edgeflow.RunFilter, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.Run], bool, error) {
	match, ok := m.RunSearchMatch(f.Query)
	if !ok {
		return edgeflow.Page[edgeflow.Run]{Items: []edgeflow.Run{}}, true, nil
	}
	conds, args := runFilterConds(s.d, f)
	if opts.Cursor != "" {
		key, id, err := decodeCursor(opts.Cursor)
		if err != nil {
			return edgeflow.Page[edgeflow.Run]{}, true, err
		}
		n, err := strconv.ParseInt(key, 10, 64)
		if err != nil {
			return edgeflow.Page[edgeflow.Run]{}, true, badCursor()
		}
		conds += ` AND (created_at, id) < (?, ?)`
		args = append(args, s.d.Time(time.UnixMicro(n).UTC()), id)
	}
	var held int
	var lo, hi sql.NullInt64
	var since *time.Time
	err := s.queryRow(ctx, `SELECT count(*), min(rowid), max(rowid), min(created_at)
		FROM (SELECT rowid, created_at FROM runs WHERE `+conds+` ORDER BY created_at DESC, id DESC LIMIT ?) AS probe`,
		append(append([]any{}, args...), runSearchProbe)...).Scan(&held, &lo, &hi, nullTimeCol{&since})
	if err != nil {
		return edgeflow.Page[edgeflow.Run]{}, true, fmt.Errorf("%s: the newest runs of the filters: %w", s.name, err)
	}
	if held == 0 || since == nil {
		return edgeflow.Page[edgeflow.Run]{Items: []edgeflow.Run{}}, true, nil
	}
	if hi.Int64-lo.Int64 > runSearchProbeSpan {
		return edgeflow.Page[edgeflow.Run]{}, false, nil
	}
	sel, sargs := runProbeQuery(s.d, conds, args, match, lo.Int64, *since)
	page, err := listPage(ctx, s, sel, sargs, keyset{key: "created_at", desc: true, timeKey: true}, opts, scanRunKey)
	if err != nil || page.NextCursor != "" {
		return page, true, err
	}
	return page, held < runSearchProbe, nil
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
