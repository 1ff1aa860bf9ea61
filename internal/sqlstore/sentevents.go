package sqlstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Events sent by type to a project's waiting runs (docs/runs.md, "Events").

const sentEventCols = `id, organization_id, project_id, type, workflow_id, payload, runs, truncated, replay_of, created_at`

// CreateSentEvent stores e and deletes the project's events beyond the
// newest edgeflow.MaxSentEvents.
func (s *Store) CreateSentEvent(ctx context.Context, e *edgeflow.SentEvent) error {
	if e.ID == "" {
		e.ID = edgeflow.NewID(edgeflow.PrefixSentEvent)
	}
	e.CreatedAt = s.timestamp()
	runs, err := json.Marshal(orEmpty(e.Runs))
	if err != nil {
		return err
	}
	payload := e.Payload
	if len(payload) == 0 {
		payload = json.RawMessage("{}")
	}
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		if _, err := tx.Exec(ctx, `INSERT INTO sent_events (`+sentEventCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			e.ID, e.OrganizationID, e.ProjectID, e.Type, e.WorkflowID, string(payload), string(runs), e.Truncated,
			e.ReplayOf, s.ts(e.CreatedAt)); err != nil {
			return s.dbErr(err, "sent event", "sent event id already used", "")
		}
		// The project keeps its newest MaxSentEvents: the first one past
		// them, and every older one, go.
		var edgeID string
		var edgeAt time.Time
		err := tx.QueryRow(ctx, `SELECT id, created_at FROM sent_events WHERE project_id = ?
			ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?`, e.ProjectID, edgeflow.MaxSentEvents).Scan(&edgeID, timeCol{&edgeAt})
		if s.noRows(err) {
			return nil
		}
		if err != nil {
			return s.dbErr(err, "sent event", "", "")
		}
		_, err = tx.Exec(ctx, `DELETE FROM sent_events WHERE project_id = ? AND (created_at < ? OR (created_at = ? AND id <= ?))`,
			e.ProjectID, s.ts(edgeAt), s.ts(edgeAt), edgeID)
		return s.dbErr(err, "sent event", "", "")
	})
}

func scanSentEvent(sc rowScanner) (edgeflow.SentEvent, error) {
	var e edgeflow.SentEvent
	err := sc.Scan(&e.ID, &e.OrganizationID, &e.ProjectID, &e.Type, &e.WorkflowID, rawCol{&e.Payload}, jsonCol{&e.Runs},
		boolCol{&e.Truncated}, &e.ReplayOf, timeCol{&e.CreatedAt})
	if e.Runs == nil {
		e.Runs = []edgeflow.SentEventRun{}
	}
	return e, err
}

// FindSentEvent returns the project's sent event.
func (s *Store) FindSentEvent(ctx context.Context, projectID, id string) (*edgeflow.SentEvent, error) {
	e, err := scanSentEvent(s.queryRow(ctx, `SELECT `+sentEventCols+` FROM sent_events WHERE project_id = ? AND id = ?`, projectID, id))
	if s.noRows(err) {
		return nil, edgeflow.Errorf(edgeflow.ENotFound, "event not found")
	}
	if err != nil {
		return nil, s.dbErr(err, "sent event", "", "")
	}
	return &e, nil
}

// ListSentEvents lists the project's sent events, newest first.
func (s *Store) ListSentEvents(ctx context.Context, projectID string, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.SentEvent], error) {
	return listPage(ctx, s, `SELECT `+sentEventCols+` FROM sent_events WHERE project_id = ?`, []any{projectID},
		keyset{key: "created_at", desc: true, timeKey: true}, opts, func(sc rowScanner) (edgeflow.SentEvent, string, string, error) {
			e, err := scanSentEvent(sc)
			return e, timeKey(e.CreatedAt), e.ID, err
		})
}
