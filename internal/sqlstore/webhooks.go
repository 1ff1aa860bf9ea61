package sqlstore

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

const webhookCols = `id, organization_id, project_id, url, events, secret, created_at, updated_at`

func scanWebhook(sc rowScanner) (edgeflow.Webhook, error) {
	var w edgeflow.Webhook
	err := sc.Scan(&w.ID, &w.OrganizationID, &w.ProjectID, &w.URL, jsonCol{&w.Events}, &w.SealedSecret,
		timeCol{&w.CreatedAt}, timeCol{&w.UpdatedAt})
	if w.Events == nil {
		w.Events = []string{}
	}
	return w, err
}

func eventsArg(events []string) (string, error) {
	if events == nil {
		events = []string{}
	}
	b, err := json.Marshal(events)
	return string(b), err
}

// CreateWebhook stores w; ENotFound for a project not of its organization.
func (s *Store) CreateWebhook(ctx context.Context, w *edgeflow.Webhook) error {
	if w.ID == "" {
		w.ID = edgeflow.NewID(edgeflow.PrefixWebhook)
	}
	w.CreatedAt = s.timestamp()
	w.UpdatedAt = w.CreatedAt
	if w.Events == nil {
		w.Events = []string{}
	}
	events, err := eventsArg(w.Events)
	if err != nil {
		return err
	}
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		var one int
		if err := tx.QueryRow(ctx, `SELECT 1 FROM projects WHERE organization_id = ? AND id = ?`, w.OrganizationID, w.ProjectID).Scan(&one); err != nil {
			return s.dbErr(err, "project", "", "")
		}
		_, err := tx.Exec(ctx, `INSERT INTO webhooks (`+webhookCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
			w.ID, w.OrganizationID, w.ProjectID, w.URL, events, w.SealedSecret, s.ts(w.CreatedAt), s.ts(w.UpdatedAt))
		return s.dbErr(err, "webhook", "", "project")
	})
}

// FindWebhookByID returns the project's webhook or ENotFound.
func (s *Store) FindWebhookByID(ctx context.Context, projectID, id string) (*edgeflow.Webhook, error) {
	w, err := scanWebhook(s.queryRow(ctx, `SELECT `+webhookCols+` FROM webhooks WHERE project_id = ? AND id = ?`, projectID, id))
	if err != nil {
		return nil, s.dbErr(err, "webhook", "", "")
	}
	return &w, nil
}

// ListWebhooks lists the project's webhooks, newest first.
func (s *Store) ListWebhooks(ctx context.Context, projectID string, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.Webhook], error) {
	return listPage(ctx, s, `SELECT `+webhookCols+` FROM webhooks WHERE project_id = ?`, []any{projectID},
		keyset{key: "created_at", desc: true, timeKey: true}, opts, func(sc rowScanner) (edgeflow.Webhook, string, string, error) {
			w, err := scanWebhook(sc)
			return w, timeKey(w.CreatedAt), w.ID, err
		})
}

// UpdateWebhook writes URL, events and the sealed secret and refreshes w.
func (s *Store) UpdateWebhook(ctx context.Context, w *edgeflow.Webhook) error {
	events, err := eventsArg(w.Events)
	if err != nil {
		return err
	}
	now := s.timestamp()
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		got, err := scanWebhook(tx.QueryRow(ctx, `UPDATE webhooks SET url = ?, events = ?, secret = ?, updated_at = ?
			WHERE project_id = ? AND id = ? RETURNING `+webhookCols, w.URL, events, w.SealedSecret, s.ts(now), w.ProjectID, w.ID))
		if err != nil {
			return s.dbErr(err, "webhook", "", "")
		}
		*w = got
		return nil
	})
}

// DeleteWebhook deletes the webhook and its deliveries.
func (s *Store) DeleteWebhook(ctx context.Context, projectID, id string) error {
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		n, err := tx.Exec(ctx, `DELETE FROM webhooks WHERE project_id = ? AND id = ?`, projectID, id)
		return s.affected(n, err, "webhook")
	})
}

const deliveryCols = `id, webhook_id, project_id, message_id, event_type, payload, status, response_status, attempts,
	next_attempt_at, redelivery_of, created_at, updated_at`

func scanDelivery(sc rowScanner) (edgeflow.WebhookDelivery, error) {
	var d edgeflow.WebhookDelivery
	err := sc.Scan(&d.ID, &d.WebhookID, &d.ProjectID, &d.MessageID, &d.EventType, rawCol{&d.Payload}, &d.Status,
		&d.ResponseStatus, jsonCol{&d.Attempts}, nullTimeCol{&d.NextAttemptAt}, &d.RedeliveryOf,
		timeCol{&d.CreatedAt}, timeCol{&d.UpdatedAt})
	if d.Attempts == nil {
		d.Attempts = []edgeflow.DeliveryAttempt{}
	}
	return d, err
}

// insertDelivery stores d as a pending delivery (ID, times set).
func (s *Store) insertDelivery(ctx context.Context, tx Querier, d *edgeflow.WebhookDelivery) error {
	if d.ID == "" {
		d.ID = edgeflow.NewID(edgeflow.PrefixDelivery)
	}
	d.Status = edgeflow.DeliveryPending
	d.Attempts = []edgeflow.DeliveryAttempt{}
	d.ResponseStatus = 0
	d.CreatedAt = s.timestamp()
	d.UpdatedAt = d.CreatedAt
	d.NextAttemptAt = normPtr(d.NextAttemptAt)
	_, err := tx.Exec(ctx, `INSERT INTO webhook_deliveries (`+deliveryCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		d.ID, d.WebhookID, d.ProjectID, d.MessageID, d.EventType, rawArg(d.Payload), d.Status, d.ResponseStatus, "[]",
		s.nullTS(d.NextAttemptAt), d.RedeliveryOf, s.ts(d.CreatedAt), s.ts(d.UpdatedAt))
	return s.dbErr(err, "webhook delivery", "", "webhook")
}

// ListWebhookDeliveries lists the webhook's deliveries, newest first.
func (s *Store) ListWebhookDeliveries(ctx context.Context, webhookID string, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.WebhookDelivery], error) {
	return listPage(ctx, s, `SELECT `+deliveryCols+` FROM webhook_deliveries WHERE webhook_id = ?`, []any{webhookID},
		keyset{key: "created_at", desc: true, timeKey: true}, opts, func(sc rowScanner) (edgeflow.WebhookDelivery, string, string, error) {
			d, err := scanDelivery(sc)
			return d, timeKey(d.CreatedAt), d.ID, err
		})
}

// FindWebhookDelivery returns the webhook's delivery or ENotFound.
func (s *Store) FindWebhookDelivery(ctx context.Context, webhookID, id string) (*edgeflow.WebhookDelivery, error) {
	d, err := scanDelivery(s.queryRow(ctx, `SELECT `+deliveryCols+` FROM webhook_deliveries WHERE webhook_id = ? AND id = ?`, webhookID, id))
	if err != nil {
		return nil, s.dbErr(err, "webhook delivery", "", "")
	}
	return &d, nil
}

// RedeliverWebhookDelivery stores a new pending delivery of the same
// message, due at now.
func (s *Store) RedeliverWebhookDelivery(ctx context.Context, webhookID, id string, now time.Time) (*edgeflow.WebhookDelivery, error) {
	var out *edgeflow.WebhookDelivery
	err := s.write(ctx, ScopeNone, func(tx Querier) error {
		d, err := scanDelivery(tx.QueryRow(ctx, `SELECT `+deliveryCols+` FROM webhook_deliveries WHERE webhook_id = ? AND id = ?`, webhookID, id))
		if err != nil {
			return s.dbErr(err, "webhook delivery", "", "")
		}
		due := norm(now)
		nd := &edgeflow.WebhookDelivery{WebhookID: d.WebhookID, ProjectID: d.ProjectID, MessageID: d.MessageID,
			EventType: d.EventType, Payload: d.Payload, NextAttemptAt: &due, RedeliveryOf: d.ID}
		if err := s.insertDelivery(ctx, tx, nd); err != nil {
			return err
		}
		out = nd
		return nil
	})
	return out, err
}

// ClaimWebhookDeliveries takes pending deliveries due at now that no
// dispatcher holds, as ClaimRunsForRefresh takes runs.
func (s *Store) ClaimWebhookDeliveries(ctx context.Context, now, until time.Time, limit int) ([]edgeflow.WebhookDelivery, error) {
	if limit <= 0 {
		limit = 100
	}
	var out []edgeflow.WebhookDelivery
	err := s.write(ctx, ScopeNone, func(tx Querier) error {
		out = []edgeflow.WebhookDelivery{}
		rows, err := tx.Query(ctx, `UPDATE webhook_deliveries SET claimed_until = ? WHERE id IN (
			SELECT id FROM webhook_deliveries
			WHERE next_attempt_at IS NOT NULL AND next_attempt_at <= ? AND status = 'pending'
				AND (claimed_until IS NULL OR claimed_until <= ?)
			ORDER BY next_attempt_at, id LIMIT ?`+s.lock("FOR UPDATE SKIP LOCKED")+`)
			RETURNING `+deliveryCols, s.ts(until), s.ts(now), s.ts(now), limit)
		if err != nil {
			return s.dbErr(err, "webhook delivery", "", "")
		}
		defer rows.Close()
		for rows.Next() {
			d, err := scanDelivery(rows)
			if err != nil {
				return s.dbErr(err, "webhook delivery", "", "")
			}
			out = append(out, d)
		}
		return s.dbErr(rows.Err(), "webhook delivery", "", "")
	})
	if err != nil {
		return nil, err
	}
	sortDeliveriesByDue(out)
	return out, nil
}

// FinishWebhookAttempt writes the outcome of an attempt and ends the hold.
func (s *Store) FinishWebhookAttempt(ctx context.Context, d *edgeflow.WebhookDelivery) error {
	attempts, err := json.Marshal(d.Attempts)
	if err != nil {
		return fmt.Errorf("%s: encode the attempts: %w", s.name, err)
	}
	now := s.timestamp()
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		got, err := scanDelivery(tx.QueryRow(ctx, `UPDATE webhook_deliveries SET status = ?, response_status = ?, attempts = ?,
			next_attempt_at = ?, claimed_until = NULL, updated_at = ? WHERE webhook_id = ? AND id = ? RETURNING `+deliveryCols,
			d.Status, d.ResponseStatus, string(attempts), s.nullTS(d.NextAttemptAt), s.ts(now), d.WebhookID, d.ID))
		if err != nil {
			return s.dbErr(err, "webhook delivery", "", "")
		}
		*d = got
		return nil
	})
}

func sortDeliveriesByDue(ds []edgeflow.WebhookDelivery) {
	slices.SortFunc(ds, func(a, b edgeflow.WebhookDelivery) int {
		if a.NextAttemptAt != nil && b.NextAttemptAt != nil {
			if c := a.NextAttemptAt.Compare(*b.NextAttemptAt); c != 0 {
				return c
			}
		}
		return strings.Compare(a.ID, b.ID)
	})
}
