package sqlstore

import (
	"context"
	"encoding/json"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

const auditCols = `id, organization_id, project_id, actor_type, actor_id, action, target_type, target_id,
	outcome, request_id, at, details`

// RecordAudit stores the entries in one transaction, setting missing ids
// and times.
func (s *Store) RecordAudit(ctx context.Context, entries []edgeflow.AuditEntry) error {
	if len(entries) == 0 {
		return nil
	}
	now := s.timestamp()
	for i := range entries {
		e := &entries[i]
		if e.ID == "" {
			e.ID = edgeflow.NewID(edgeflow.PrefixAudit)
		}
		if e.Time.IsZero() {
			e.Time = now
		}
		e.Time = norm(e.Time)
	}
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		for _, e := range entries {
			_, err := tx.Exec(ctx, `INSERT INTO audit_log (`+auditCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				e.ID, e.OrganizationID, e.ProjectID, e.Actor.Type, e.Actor.ID, e.Action, e.Target.Type, e.Target.ID,
				e.Outcome, e.RequestID, s.ts(e.Time), string(e.Details))
			if err != nil {
				return s.dbErr(err, "audit entry", "audit entry id already used", "")
			}
		}
		return nil
	})
}

// ListAudit lists the organization's entries matching f, newest first.
func (s *Store) ListAudit(ctx context.Context, organizationID string, f edgeflow.AuditFilter, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.AuditEntry], error) {
	q := `SELECT ` + auditCols + ` FROM audit_log WHERE organization_id = ?`
	args := []any{organizationID}
	if f.ProjectID != "" {
		q += ` AND (project_id = ? OR (target_type = 'project' AND target_id = ?))`
		args = append(args, f.ProjectID, f.ProjectID)
	}
	if f.ActorID != "" {
		q += ` AND actor_id = ?`
		args = append(args, f.ActorID)
	}
	if f.Action != "" {
		q += ` AND action = ?`
		args = append(args, f.Action)
	}
	if f.TargetID != "" {
		q += ` AND target_id = ?`
		args = append(args, f.TargetID)
	}
	if !f.Since.IsZero() {
		q += ` AND at >= ?`
		args = append(args, s.ts(norm(f.Since)))
	}
	if !f.Until.IsZero() {
		q += ` AND at < ?`
		args = append(args, s.ts(norm(f.Until)))
	}
	return listPage(ctx, s, q, args, keyset{key: "at", desc: true, timeKey: true}, opts,
		func(sc rowScanner) (edgeflow.AuditEntry, string, string, error) {
			var e edgeflow.AuditEntry
			var details string
			err := sc.Scan(&e.ID, &e.OrganizationID, &e.ProjectID, &e.Actor.Type, &e.Actor.ID, &e.Action,
				&e.Target.Type, &e.Target.ID, &e.Outcome, &e.RequestID, timeCol{&e.Time}, &details)
			if details != "" {
				e.Details = json.RawMessage(details)
			}
			return e, timeKey(e.Time), e.ID, err
		})
}

// PurgeAudit deletes the entries older than before.
func (s *Store) PurgeAudit(ctx context.Context, before time.Time) (int, error) {
	var n int64
	err := s.write(ctx, ScopeNone, func(tx Querier) error {
		res, err := tx.Exec(ctx, `DELETE FROM audit_log WHERE at < ?`, s.ts(norm(before)))
		n = res
		return err
	})
	return int(n), err
}
