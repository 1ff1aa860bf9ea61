package sqlstore

import (
	"context"
	"time"
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
// oldest first, and returns how many it deleted. Each organization's runs
// are deleted in a write transaction of their own, so a call holds the
// database's write lock only briefly.
func (s *Store) PruneRuns(ctx context.Context, now time.Time, limit int) (int, error) {
	if limit <= 0 {
		limit = 500
	}
	type org struct {
		id   string
		days int
	}
	rows, err := s.query(ctx, `SELECT id, run_retention_days FROM organizations ORDER BY id`)
	if err != nil {
		return 0, s.dbErr(err, "organization", "", "")
	}
	var orgs []org
	for rows.Next() {
		var o org
		if err := rows.Scan(&o.id, &o.days); err != nil {
			rows.Close()
			return 0, s.dbErr(err, "organization", "", "")
		}
		orgs = append(orgs, o)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, s.dbErr(err, "organization", "", "")
	}
	deleted := 0
	for _, o := range orgs {
		if deleted >= limit {
			break
		}
		cutoff := now.Add(-time.Duration(o.days) * 24 * time.Hour)
		var n int64
		err := s.write(ctx, ScopeNone, func(tx Querier) error {
			var err error
			n, err = tx.Exec(ctx, `DELETE FROM runs WHERE id IN (
				SELECT id FROM runs WHERE project_id IN (SELECT id FROM projects WHERE organization_id = ?)
					AND created_at < ? AND status IN ('complete', 'errored', 'terminated')
				ORDER BY created_at LIMIT ?)`, o.id, s.ts(cutoff), limit-deleted)
			return s.dbErr(err, "run", "", "")
		})
		if err != nil {
			return deleted, err
		}
		deleted += int(n)
	}
	return deleted, nil
}
