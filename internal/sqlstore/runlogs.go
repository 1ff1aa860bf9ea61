package sqlstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// PutRunLogs stores (replaces) the logs kept with a run.
func (s *Store) PutRunLogs(ctx context.Context, runID string, l edgeflow.RunLogs) error {
	lines := l.Lines
	if lines == nil {
		lines = []edgeflow.LogLine{}
	}
	text, err := json.Marshal(lines)
	if err != nil {
		return err
	}
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		_, err := tx.Exec(ctx, `INSERT INTO run_logs (run_id, lines, dropped, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (run_id) DO UPDATE SET lines = excluded.lines, dropped = excluded.dropped, updated_at = excluded.updated_at`,
			runID, string(text), l.Dropped, s.ts(time.Now()))
		return s.dbErr(err, "run", "", "")
	})
}

// FindRunLogs returns the logs kept with a run; none stored is no lines.
func (s *Store) FindRunLogs(ctx context.Context, runID string) (edgeflow.RunLogs, error) {
	var text string
	var out edgeflow.RunLogs
	err := s.queryRow(ctx, `SELECT lines, dropped FROM run_logs WHERE run_id = ?`, runID).Scan(&text, &out.Dropped)
	if s.noRows(err) {
		return edgeflow.RunLogs{}, nil
	}
	if err != nil {
		return edgeflow.RunLogs{}, s.dbErr(err, "run", "", "")
	}
	if err := json.Unmarshal([]byte(text), &out.Lines); err != nil {
		return edgeflow.RunLogs{}, err
	}
	return out, nil
}
