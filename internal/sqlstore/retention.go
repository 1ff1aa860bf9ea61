package sqlstore

import (
	"context"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// FindRunRetention returns the organization's run retention in days;
// ENotFound for an unknown organization.
func (s *Store) FindRunRetention(ctx context.Context, organizationID string) (int, error) {
	var days int
	if err := s.queryRow(ctx, `SELECT run_retention_days FROM organizations WHERE id = ?`, organizationID).Scan(&days); err != nil {
		return 0, s.dbErr(err, "organization", "", "")
	}
	return days, nil
}

// SetRunRetention sets the organization's run retention in days;
// ENotFound for an unknown organization.
func (s *Store) SetRunRetention(ctx context.Context, organizationID string, days int) error {
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		n, err := tx.Exec(ctx, `UPDATE organizations SET run_retention_days = ? WHERE id = ?`, days, organizationID)
		return s.affected(n, err, "organization")
	})
}

// PruneRuns deletes up to limit (500 when limit <= 0) final runs, of every
// organization, created before now minus the organization's retention,
// oldest first, and returns how many it deleted with the provider
// instances of those that had one. Each organization's runs are deleted in
// a write transaction of their own, so a call holds the database's write
// lock only briefly.
func (s *Store) PruneRuns(ctx context.Context, now time.Time, limit int) (int, []edgeflow.RunInstance, error) {
	if limit <= 0 {
		limit = 500
	}
	type org struct {
		id   string
		days int
	}
	rows, err := s.query(ctx, `SELECT id, run_retention_days FROM organizations ORDER BY id`)
	if err != nil {
		return 0, nil, s.dbErr(err, "organization", "", "")
	}
	var orgs []org
	for rows.Next() {
		var o org
		if err := rows.Scan(&o.id, &o.days); err != nil {
			rows.Close()
			return 0, nil, s.dbErr(err, "organization", "", "")
		}
		orgs = append(orgs, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, nil, s.dbErr(err, "organization", "", "")
	}
	deleted := 0
	var instances []edgeflow.RunInstance
	for _, o := range orgs {
		if deleted >= limit {
			break
		}
		cutoff := now.Add(-time.Duration(o.days) * 24 * time.Hour)
		var n int
		var got []edgeflow.RunInstance
		err := s.write(ctx, ScopeNone, func(tx Querier) error {
			n, got = 0, nil
			rows, err := tx.Query(ctx, `DELETE FROM runs WHERE id IN (
				SELECT id FROM runs WHERE project_id IN (SELECT id FROM projects WHERE organization_id = ?)
					AND created_at < ? AND status IN ('complete', 'errored', 'terminated')
				ORDER BY created_at LIMIT ?)
				RETURNING connection_id, workflow_name, instance_id`, o.id, s.ts(cutoff), limit-deleted)
			if err != nil {
				return s.dbErr(err, "run", "", "")
			}
			defer rows.Close()
			for rows.Next() {
				ri := edgeflow.RunInstance{OrganizationID: o.id}
				if err := rows.Scan(&ri.ConnectionID, &ri.WorkflowName, &ri.InstanceID); err != nil {
					return s.dbErr(err, "run", "", "")
				}
				n++
				if ri.ConnectionID != "" && ri.WorkflowName != "" && ri.InstanceID != "" {
					got = append(got, ri)
				}
			}
			return s.dbErr(rows.Err(), "run", "", "")
		})
		if err != nil {
			return deleted, instances, err
		}
		deleted += n
		instances = append(instances, got...)
	}
	return deleted, instances, nil
}
