package sqlstore

import (
	"context"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func (s *Store) CreateOrganization(ctx context.Context, o *edgeflow.Organization, ownerUserID string) error {
	if o.ID == "" {
		o.ID = edgeflow.NewID(edgeflow.PrefixOrganization)
	}
	o.CreatedAt = s.timestamp()
	return s.write(ctx, ScopeAll, func(tx Querier) error {
		_, err := tx.Exec(ctx, `INSERT INTO organizations (id, name, slug, created_at) VALUES (?, ?, ?, ?)`,
			o.ID, o.Name, o.Slug, s.ts(o.CreatedAt))
		if err != nil {
			return s.dbErr(err, "organization", "organization slug already taken", "")
		}
		_, err = tx.Exec(ctx, `INSERT INTO memberships (organization_id, user_id, role, created_at) VALUES (?, ?, ?, ?)`,
			o.ID, ownerUserID, edgeflow.RoleOwner, s.ts(o.CreatedAt))
		return s.dbErr(err, "membership", "", "user")
	})
}

const orgCols = `id, name, slug, created_at`

// FindOrganizationByID returns the organization or ENotFound.
func (s *Store) FindOrganizationByID(ctx context.Context, id string) (*edgeflow.Organization, error) {
	var o edgeflow.Organization
	err := s.queryRow(ctx, `SELECT `+orgCols+` FROM organizations WHERE id = ?`, id).
		Scan(&o.ID, &o.Name, &o.Slug, timeCol{&o.CreatedAt})
	if err != nil {
		return nil, s.dbErr(err, "organization", "", "")
	}
	return &o, nil
}

// ListOrganizationsForUser lists the user's organizations with the user's
// role, oldest organization first.
func (s *Store) ListOrganizationsForUser(ctx context.Context, userID string) ([]edgeflow.OrganizationMembership, error) {
	rows, err := s.query(ctx, `SELECT o.id, o.name, o.slug, o.created_at, m.role
		FROM memberships m JOIN organizations o ON o.id = m.organization_id
		WHERE m.user_id = ? ORDER BY o.created_at, o.id`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []edgeflow.OrganizationMembership{}
	for rows.Next() {
		var m edgeflow.OrganizationMembership
		if err := rows.Scan(&m.ID, &m.Name, &m.Slug, timeCol{&m.CreatedAt}, &m.Role); err != nil {
			return nil, s.dbErr(err, "organization", "", "")
		}
		out = append(out, m)
	}
	return out, s.dbErr(rows.Err(), "organization", "", "")
}

// FindMembership returns the user's membership or ENotFound.
func (s *Store) FindMembership(ctx context.Context, organizationID, userID string) (*edgeflow.Membership, error) {
	var m edgeflow.Membership
	err := s.queryRow(ctx, `SELECT organization_id, user_id, role, created_at FROM memberships
		WHERE organization_id = ? AND user_id = ?`, organizationID, userID).
		Scan(&m.OrganizationID, &m.UserID, &m.Role, timeCol{&m.CreatedAt})
	if err != nil {
		return nil, s.dbErr(err, "membership", "", "")
	}
	return &m, nil
}

// AddMember adds a member or changes an existing member's role (keeping the
// original CreatedAt, which is set on m); ENotFound for an unknown
// organization or user.
func (s *Store) AddMember(ctx context.Context, m *edgeflow.Membership) error {
	now := s.timestamp()
	return s.write(ctx, ScopeAll, func(tx Querier) error {
		err := tx.QueryRow(ctx, `INSERT INTO memberships (organization_id, user_id, role, created_at)
			VALUES (?, ?, ?, ?) ON CONFLICT (organization_id, user_id) DO UPDATE SET role = excluded.role
			RETURNING created_at`, m.OrganizationID, m.UserID, m.Role, s.ts(now)).Scan(timeCol{&m.CreatedAt})
		return s.dbErr(err, "membership", "", "organization or user")
	})
}

const projectCols = `id, organization_id, name, slug, description, created_at, updated_at`

func scanProject(sc rowScanner) (edgeflow.Project, error) {
	var p edgeflow.Project
	err := sc.Scan(&p.ID, &p.OrganizationID, &p.Name, &p.Slug, &p.Description, timeCol{&p.CreatedAt}, timeCol{&p.UpdatedAt})
	return p, err
}

// CreateProject stores p; a slug taken in the organization is EConflict.
func (s *Store) CreateProject(ctx context.Context, p *edgeflow.Project) error {
	if p.ID == "" {
		p.ID = edgeflow.NewID(edgeflow.PrefixProject)
	}
	p.CreatedAt = s.timestamp()
	p.UpdatedAt = p.CreatedAt
	return s.write(ctx, ScopeAll, func(tx Querier) error {
		_, err := tx.Exec(ctx, `INSERT INTO projects (`+projectCols+`) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			p.ID, p.OrganizationID, p.Name, p.Slug, p.Description, s.ts(p.CreatedAt), s.ts(p.UpdatedAt))
		if err != nil {
			return s.dbErr(err, "project", "project slug already taken in this organization", "organization")
		}
		// Every project has production, bound to no connection until set
		// (docs/environments.md).
		return s.insertEnvironment(ctx, tx, &edgeflow.Environment{ProjectID: p.ID, Name: edgeflow.DefaultEnvironment,
			CreatedAt: p.CreatedAt, UpdatedAt: p.CreatedAt})
	})
}

// FindProjectByID returns the organization's project or ENotFound.
func (s *Store) FindProjectByID(ctx context.Context, organizationID, id string) (*edgeflow.Project, error) {
	p, err := scanProject(s.queryRow(ctx, `SELECT `+projectCols+` FROM projects WHERE organization_id = ? AND id = ?`,
		organizationID, id))
	if err != nil {
		return nil, s.dbErr(err, "project", "", "")
	}
	return &p, nil
}

// FindProjectBySlug returns the organization's project with slug or ENotFound.
func (s *Store) FindProjectBySlug(ctx context.Context, organizationID, slug string) (*edgeflow.Project, error) {
	p, err := scanProject(s.queryRow(ctx, `SELECT `+projectCols+` FROM projects WHERE organization_id = ? AND slug = ?`,
		organizationID, slug))
	if err != nil {
		return nil, s.dbErr(err, "project", "", "")
	}
	return &p, nil
}

// ListProjects lists the organization's projects, oldest first.
func (s *Store) ListProjects(ctx context.Context, organizationID string, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.Project], error) {
	return listPage(ctx, s, `SELECT `+projectCols+` FROM projects WHERE organization_id = ?`, []any{organizationID},
		keyset{key: "created_at", timeKey: true}, opts, func(sc rowScanner) (edgeflow.Project, string, string, error) {
			p, err := scanProject(sc)
			return p, timeKey(p.CreatedAt), p.ID, err
		})
}

// UpdateProject writes name and description, sets UpdatedAt and refreshes p
// from the stored row; ENotFound outside the organization.
func (s *Store) UpdateProject(ctx context.Context, p *edgeflow.Project) error {
	now := s.timestamp()
	return s.write(ctx, ScopeAll, func(tx Querier) error {
		got, err := scanProject(tx.QueryRow(ctx, `UPDATE projects SET name = ?, description = ?, updated_at = ?
			WHERE organization_id = ? AND id = ? RETURNING `+projectCols,
			p.Name, p.Description, s.ts(now), p.OrganizationID, p.ID))
		if err != nil {
			return s.dbErr(err, "project", "", "")
		}
		*p = got
		return nil
	})
}

// DeleteProject deletes the project with its API keys and project-level
// variables; EConflict while it holds workflows, ENotFound outside the
// organization.
func (s *Store) DeleteProject(ctx context.Context, organizationID, id string) error {
	return s.write(ctx, ScopeAll, func(tx Querier) error {
		var n int
		err := tx.QueryRow(ctx, `SELECT (SELECT count(*) FROM workflows WHERE project_id = p.id)
			FROM projects p WHERE p.organization_id = ? AND p.id = ?`+s.lock("FOR UPDATE"), organizationID, id).Scan(&n)
		if err != nil {
			return s.dbErr(err, "project", "", "")
		}
		if n > 0 {
			return edgeflow.Errorf(edgeflow.EConflict, "project still holds %d workflows; move or delete them first", n)
		}
		var inUse bool
		err = tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM deployments d JOIN connections c ON c.id = d.connection_id
			WHERE c.organization_id = ? AND c.project_id = ? AND d.status = 'active')`, organizationID, id).Scan(boolCol{&inUse})
		if err != nil {
			return s.dbErr(err, "project", "", "")
		}
		if inUse {
			return edgeflow.Errorf(edgeflow.EConflict, "a connection of this project is used by an active deployment; take it down first")
		}
		if _, err := tx.Exec(ctx, `DELETE FROM env_vars WHERE organization_id = ? AND project_id = ?`, organizationID, id); err != nil {
			return s.dbErr(err, "project", "", "")
		}
		if _, err := tx.Exec(ctx, `DELETE FROM connections WHERE organization_id = ? AND project_id = ?`, organizationID, id); err != nil {
			return s.dbErr(err, "project", "", "")
		}
		res, err := tx.Exec(ctx, `DELETE FROM projects WHERE organization_id = ? AND id = ?`, organizationID, id)
		return s.affected(res, err, "project")
	})
}

const apiKeyCols = `id, organization_id, project_id, user_id, name, prefix, hash, scopes, expires_at, last_used_at, revoked_at, created_at`
