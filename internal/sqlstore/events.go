package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// RecordEvent stores e and the webhook deliveries it causes in one
// transaction (edgeflow.Store).
func (s *Store) RecordEvent(ctx context.Context, e *edgeflow.Event) error {
	return s.write(ctx, ScopeNone, func(tx Querier) error { return s.recordEvent(ctx, tx, e) })
}

// recordEvent is the one place events are written: the event row for the
// run streams, and a pending delivery for every webhook of the project that
// subscribes to the type, in the caller's transaction.
func (s *Store) recordEvent(ctx context.Context, tx Querier, e *edgeflow.Event) error {
	if e.ID == "" {
		e.ID = edgeflow.NewID(edgeflow.PrefixEvent)
	}
	e.CreatedAt = s.timestamp()
	if lock := s.d.EventLock(); lock != "" {
		if _, err := tx.Exec(ctx, lock); err != nil {
			return s.dbErr(err, "event", "", "")
		}
	}
	if err := tx.QueryRow(ctx, `INSERT INTO events (id, project_id, type, data, created_at) VALUES (?, ?, ?, ?, ?) RETURNING seq`,
		e.ID, e.ProjectID, e.Type, rawArg(e.Data), s.ts(e.CreatedAt)).Scan(&e.Seq); err != nil {
		return s.dbErr(err, "event", "", "")
	}
	if !edgeflow.IsWebhookEventType(e.Type) {
		return nil
	}
	rows, err := tx.Query(ctx, `SELECT `+webhookCols+` FROM webhooks WHERE project_id = ?`, e.ProjectID)
	if err != nil {
		return s.dbErr(err, "webhook", "", "")
	}
	var hooks []edgeflow.Webhook
	for rows.Next() {
		w, err := scanWebhook(rows)
		if err != nil {
			rows.Close()
			return s.dbErr(err, "webhook", "", "")
		}
		if w.Wants(e.Type) {
			hooks = append(hooks, w)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return s.dbErr(err, "webhook", "", "")
	}
	if len(hooks) == 0 {
		return nil
	}
	payload, err := json.Marshal(struct {
		Type      string          `json:"type"`
		Timestamp time.Time       `json:"timestamp"`
		Data      json.RawMessage `json:"data"`
	}{e.Type, e.CreatedAt, e.Data})
	if err != nil {
		return fmt.Errorf("%s: encode the webhook payload: %w", s.name, err)
	}
	for _, w := range hooks {
		d := &edgeflow.WebhookDelivery{WebhookID: w.ID, ProjectID: w.ProjectID, MessageID: e.ID, EventType: e.Type,
			Payload: payload, NextAttemptAt: &e.CreatedAt}
		if err := s.insertDelivery(ctx, tx, d); err != nil {
			return err
		}
	}
	return nil
}

// runEvent records the event of r's change from (oldStatus, oldDetail), if
// it is one, in the run's transaction.
func (s *Store) runEvent(ctx context.Context, tx Querier, created bool, oldStatus, oldDetail string, r *edgeflow.Run) error {
	typ := edgeflow.RunEventType(created, oldStatus, oldDetail, r)
	if typ == "" {
		return nil
	}
	data, err := json.Marshal(edgeflow.RunEvent{ID: r.ID, WorkflowID: r.WorkflowID, ProjectID: r.ProjectID,
		Status: r.Status, StatusDetail: r.StatusDetail, Error: r.Error, UpdatedAt: r.UpdatedAt})
	if err != nil {
		return fmt.Errorf("%s: encode the run event: %w", s.name, err)
	}
	if err := s.recordEvent(ctx, tx, &edgeflow.Event{ProjectID: r.ProjectID, Type: typ, Data: data}); err != nil {
		return err
	}
	if typ != edgeflow.EventRunErrored && typ != edgeflow.EventRunTerminated {
		return nil
	}
	// A run that ended after rolling back: run.rolled_back follows, with the
	// rollbacks' outcome.
	outcome := edgeflow.RunRollback(r.Steps)
	if outcome == "" {
		return nil
	}
	data, err = json.Marshal(edgeflow.RunEvent{ID: r.ID, WorkflowID: r.WorkflowID, ProjectID: r.ProjectID,
		Status: r.Status, StatusDetail: r.StatusDetail, Error: r.Error, Rollback: outcome, UpdatedAt: r.UpdatedAt})
	if err != nil {
		return fmt.Errorf("%s: encode the run event: %w", s.name, err)
	}
	return s.recordEvent(ctx, tx, &edgeflow.Event{ProjectID: r.ProjectID, Type: edgeflow.EventRunRolledBack, Data: data})
}

// ListEventsAfter returns events with seq above after, in seq order.
func (s *Store) ListEventsAfter(ctx context.Context, after int64, limit int) ([]edgeflow.Event, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.query(ctx, `SELECT seq, id, project_id, type, data, created_at FROM events WHERE seq > ? ORDER BY seq LIMIT ?`, after, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []edgeflow.Event{}
	for rows.Next() {
		var e edgeflow.Event
		if err := rows.Scan(&e.Seq, &e.ID, &e.ProjectID, &e.Type, rawCol{&e.Data}, timeCol{&e.CreatedAt}); err != nil {
			return nil, s.dbErr(err, "event", "", "")
		}
		out = append(out, e)
	}
	return out, s.dbErr(rows.Err(), "event", "", "")
}

// LastEventSeq returns the highest seq stored, 0 when there is none.
func (s *Store) LastEventSeq(ctx context.Context) (int64, error) {
	var seq int64
	err := s.queryRow(ctx, `SELECT coalesce(max(seq), 0) FROM events`).Scan(&seq)
	return seq, s.dbErr(err, "event", "", "")
}

// PruneEvents deletes the events created before before.
func (s *Store) PruneEvents(ctx context.Context, before time.Time) (int, error) {
	var n int64
	err := s.write(ctx, ScopeNone, func(tx Querier) error {
		var err error
		n, err = tx.Exec(ctx, `DELETE FROM events WHERE created_at < ?`, s.ts(before))
		return s.dbErr(err, "event", "", "")
	})
	return int(n), err
}
