package sqlstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// FindPinnedOutputs implements edgeflow.Store.
func (s *Store) FindPinnedOutputs(ctx context.Context, workflowID string) (edgeflow.PinnedOutputs, error) {
	var text string
	var at time.Time
	out := edgeflow.PinnedOutputs{Outputs: map[string]json.RawMessage{}}
	err := s.queryRow(ctx, `SELECT outputs, updated_by, updated_at FROM pinned_outputs WHERE workflow_id = ?`, workflowID).
		Scan(&text, &out.UpdatedBy, timeCol{&at})
	if s.noRows(err) {
		return out, nil
	}
	if err != nil {
		return edgeflow.PinnedOutputs{}, s.dbErr(err, "workflow", "", "")
	}
	if err := json.Unmarshal([]byte(text), &out.Outputs); err != nil {
		return edgeflow.PinnedOutputs{}, err
	}
	out.UpdatedAt = &at
	return out, nil
}

// PutPinnedOutputs implements edgeflow.Store.
func (s *Store) PutPinnedOutputs(ctx context.Context, workflowID string, outputs map[string]json.RawMessage, userID string) (edgeflow.PinnedOutputs, error) {
	if outputs == nil {
		outputs = map[string]json.RawMessage{}
	}
	text, err := json.Marshal(outputs)
	if err != nil {
		return edgeflow.PinnedOutputs{}, err
	}
	at := s.timestamp()
	err = s.write(ctx, ScopeNone, func(tx Querier) error {
		_, err := tx.Exec(ctx, `INSERT INTO pinned_outputs (workflow_id, outputs, updated_by, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT (workflow_id) DO UPDATE SET outputs = excluded.outputs, updated_by = excluded.updated_by, updated_at = excluded.updated_at`,
			workflowID, string(text), userID, s.ts(at))
		return s.dbErr(err, "workflow", "", "workflow")
	})
	if err != nil {
		return edgeflow.PinnedOutputs{}, err
	}
	var stored map[string]json.RawMessage
	if err := json.Unmarshal(text, &stored); err != nil {
		return edgeflow.PinnedOutputs{}, err
	}
	return edgeflow.PinnedOutputs{Outputs: stored, UpdatedAt: &at, UpdatedBy: userID}, nil
}
