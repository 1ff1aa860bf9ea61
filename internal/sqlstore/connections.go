package sqlstore

import (
	"context"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

const connectionCols = `id, organization_id, project_id, provider, name, account_id, sealed_credentials, plan, plan_limits, created_at, updated_at`

func scanConnection(sc rowScanner) (edgeflow.Connection, error) {
	var c edgeflow.Connection
	err := sc.Scan(&c.ID, &c.OrganizationID, &c.ProjectID, &c.Provider, &c.Name, &c.AccountID, &c.SealedCredentials,
		&c.Plan, jsonCol{&c.Limits}, timeCol{&c.CreatedAt}, timeCol{&c.UpdatedAt})
	return c, err
}

// CreateConnection stores c; ENotFound for an unknown organization.
func (s *Store) CreateConnection(ctx context.Context, c *edgeflow.Connection) error {
	if c.ID == "" {
		c.ID = edgeflow.NewID(edgeflow.PrefixConnection)
	}
	c.CreatedAt = s.timestamp()
	c.UpdatedAt = c.CreatedAt
	limits, err := s.jsonArg(c.Limits)
	if err != nil {
		return err
	}
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		_, err := tx.Exec(ctx, `INSERT INTO connections (`+connectionCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			c.ID, c.OrganizationID, c.ProjectID, c.Provider, c.Name, c.AccountID, c.SealedCredentials, c.Plan, limits,
			s.ts(c.CreatedAt), s.ts(c.UpdatedAt))
		return s.dbErr(err, "connection", "", "organization")
	})
}

// FindConnectionByID returns the organization's connection or ENotFound.
func (s *Store) FindConnectionByID(ctx context.Context, organizationID, id string) (*edgeflow.Connection, error) {
	c, err := scanConnection(s.queryRow(ctx, `SELECT `+connectionCols+` FROM connections WHERE organization_id = ? AND id = ?`,
		organizationID, id))
	if err != nil {
		return nil, s.dbErr(err, "connection", "", "")
	}
	return &c, nil
}

// ListConnections lists the organization-wide connections and, when
// projectID is set, that project's, newest first.
func (s *Store) ListConnections(ctx context.Context, organizationID, projectID string, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.Connection], error) {
	return listPage(ctx, s, `SELECT `+connectionCols+` FROM connections WHERE organization_id = ? AND project_id IN ('', ?)`, []any{organizationID, projectID},
		keyset{key: "created_at", desc: true, timeKey: true}, opts, func(sc rowScanner) (edgeflow.Connection, string, string, error) {
			c, err := scanConnection(sc)
			return c, timeKey(c.CreatedAt), c.ID, err
		})
}

// UpdateConnection writes provider, name, accountId, the sealed
// credentials, the plan and its limits, sets UpdatedAt and refreshes c;
// ENotFound outside the organization.
func (s *Store) UpdateConnection(ctx context.Context, c *edgeflow.Connection) error {
	now := s.timestamp()
	limits, err := s.jsonArg(c.Limits)
	if err != nil {
		return err
	}
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		got, err := scanConnection(tx.QueryRow(ctx, `UPDATE connections SET provider = ?, name = ?, account_id = ?,
			sealed_credentials = ?, plan = ?, plan_limits = ?, updated_at = ? WHERE organization_id = ? AND id = ? RETURNING `+connectionCols,
			c.Provider, c.Name, c.AccountID, c.SealedCredentials, c.Plan, limits, s.ts(now), c.OrganizationID, c.ID))
		if err != nil {
			return s.dbErr(err, "connection", "", "")
		}
		*c = got
		return nil
	})
}

// DeleteConnection deletes the connection; EConflict while an active
// deployment uses it, ENotFound outside the organization.
func (s *Store) DeleteConnection(ctx context.Context, organizationID, id string) error {
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		var inUse bool
		err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM deployments WHERE connection_id = c.id AND status = 'active')
			FROM connections c WHERE c.organization_id = ? AND c.id = ?`+s.lock("FOR UPDATE"), organizationID, id).Scan(boolCol{&inUse})
		if err != nil {
			return s.dbErr(err, "connection", "", "")
		}
		if inUse {
			return edgeflow.Errorf(edgeflow.EConflict, "connection is used by an active deployment; take it down first")
		}
		res, err := tx.Exec(ctx, `DELETE FROM connections WHERE organization_id = ? AND id = ?`, organizationID, id)
		if err := s.affected(res, err, "connection"); err != nil {
			return err
		}
		// The environments bound to it are bound to nothing now.
		_, err = tx.Exec(ctx, `UPDATE environments SET connection_id = '' WHERE connection_id = ?`, id)
		return s.dbErr(err, "environment", "", "")
	})
}
