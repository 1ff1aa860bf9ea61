package sqlstore

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// The team side of the store: setup tokens, organizations' life cycle,
// members and roles, invitations (docs/decisions.md 180-186).

// CountUsers implements edgeflow.Store.
func (s *Store) CountUsers(ctx context.Context) (int, error) {
	var n int
	err := s.queryRow(ctx, `SELECT count(*) FROM users`).Scan(&n)
	return n, s.dbErr(err, "user", "", "")
}

// CreateSetupToken implements edgeflow.Store.
func (s *Store) CreateSetupToken(ctx context.Context, hash []byte, expiresAt time.Time) error {
	now := s.timestamp()
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		var n int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM users`).Scan(&n); err != nil {
			return s.dbErr(err, "user", "", "")
		}
		if n > 0 {
			return edgeflow.Errorf(edgeflow.EConflict, "users exist already: a setup link is only for the first user; invite people from the organization's members page instead")
		}
		if _, err := tx.Exec(ctx, `DELETE FROM setup_tokens WHERE expires_at <= ?`, s.ts(now)); err != nil {
			return s.dbErr(err, "setup token", "", "")
		}
		_, err := tx.Exec(ctx, `INSERT INTO setup_tokens (token_hash, created_at, expires_at) VALUES (?, ?, ?)`,
			hash, s.ts(now), s.ts(expiresAt))
		return s.dbErr(err, "setup token", "setup token already stored", "")
	})
}

// UseSetupToken implements edgeflow.Store.
func (s *Store) UseSetupToken(ctx context.Context, hash []byte, now time.Time) error {
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		var users int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM users`).Scan(&users); err != nil {
			return s.dbErr(err, "user", "", "")
		}
		if users > 0 {
			return edgeflow.NotFound("setup token")
		}
		n, err := tx.Exec(ctx, `DELETE FROM setup_tokens WHERE token_hash = ? AND expires_at > ?`, hash, s.ts(now))
		if err != nil {
			return s.dbErr(err, "setup token", "", "")
		}
		if n == 0 {
			return edgeflow.NotFound("setup token")
		}
		_, err = tx.Exec(ctx, `DELETE FROM setup_tokens`)
		return s.dbErr(err, "setup token", "", "")
	})
}

// UpdateOrganization implements edgeflow.Store.
func (s *Store) UpdateOrganization(ctx context.Context, o *edgeflow.Organization) error {
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		err := tx.QueryRow(ctx, `UPDATE organizations SET name = ? WHERE id = ? RETURNING `+orgCols, o.Name, o.ID).
			Scan(&o.ID, &o.Name, &o.Slug, timeCol{&o.CreatedAt})
		return s.dbErr(err, "organization", "", "")
	})
}

// DeleteOrganization implements edgeflow.Store.
func (s *Store) DeleteOrganization(ctx context.Context, id string) error {
	return s.write(ctx, ScopeAll, func(tx Querier) error {
		var found string
		if err := tx.QueryRow(ctx, `SELECT id FROM organizations WHERE id = ?`+s.lock("FOR UPDATE"), id).Scan(&found); err != nil {
			return s.dbErr(err, "organization", "", "")
		}
		rows, err := tx.Query(ctx, `SELECT d.id FROM deployments d JOIN workflows w ON w.id = d.workflow_id
			WHERE w.organization_id = ? AND d.status = 'active' ORDER BY d.id`, id)
		if err != nil {
			return s.dbErr(err, "organization", "", "")
		}
		var active []string
		for rows.Next() {
			var d string
			if err := rows.Scan(&d); err != nil {
				rows.Close()
				return s.dbErr(err, "organization", "", "")
			}
			active = append(active, d)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return s.dbErr(err, "organization", "", "")
		}
		if len(active) > 0 {
			return &edgeflow.Error{Code: edgeflow.EConflict,
				Message: "the organization has " + strconv.Itoa(len(active)) + " active deployments (" + strings.Join(active, ", ") + "); take them down first",
				Details: activeDetails(active)}
		}
		if _, err := tx.Exec(ctx, `DELETE FROM workflows WHERE organization_id = ?`, id); err != nil {
			return s.dbErr(err, "organization", "", "")
		}
		n, err := tx.Exec(ctx, `DELETE FROM organizations WHERE id = ?`, id)
		return s.affected(n, err, "organization")
	})
}

const memberSel = `SELECT id, email, name, role, created_at FROM (SELECT m.user_id AS id, u.email AS email, u.name AS name,
	m.role AS role, m.created_at AS created_at FROM memberships m JOIN users u ON u.id = m.user_id
	WHERE m.organization_id = ?) t WHERE 1 = 1`

// ListMembers implements edgeflow.Store.
func (s *Store) ListMembers(ctx context.Context, organizationID string, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.Member], error) {
	return listPage(ctx, s, memberSel, []any{organizationID}, keyset{key: "created_at", timeKey: true}, opts,
		func(sc rowScanner) (edgeflow.Member, string, string, error) {
			var m edgeflow.Member
			err := sc.Scan(&m.UserID, &m.Email, &m.Name, &m.Role, timeCol{&m.CreatedAt})
			return m, timeKey(m.CreatedAt), m.UserID, err
		})
}

// memberRole reads a member's role inside tx, locking the row.
func (s *Store) memberRole(ctx context.Context, tx Querier, organizationID, userID string) (edgeflow.Role, error) {
	var role edgeflow.Role
	err := tx.QueryRow(ctx, `SELECT role FROM memberships WHERE organization_id = ? AND user_id = ?`+s.lock("FOR UPDATE"),
		organizationID, userID).Scan(&role)
	if err != nil {
		return "", s.dbErr(err, "member", "", "")
	}
	return role, nil
}

func lastOwner() error {
	return edgeflow.Errorf(edgeflow.EConflict, "the organization's last owner cannot leave or lose the owner role; transfer ownership to another member first (POST /api/organizations/{id}/transfer-ownership)")
}

// SetMemberRole implements edgeflow.Store.
func (s *Store) SetMemberRole(ctx context.Context, organizationID, userID string, role edgeflow.Role) error {
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		cur, err := s.memberRole(ctx, tx, organizationID, userID)
		if err != nil {
			return err
		}
		if cur == edgeflow.RoleOwner && role != edgeflow.RoleOwner {
			if err := s.checkOtherOwner(ctx, tx, organizationID, userID); err != nil {
				return err
			}
		}
		_, err = tx.Exec(ctx, `UPDATE memberships SET role = ? WHERE organization_id = ? AND user_id = ?`, role, organizationID, userID)
		return s.dbErr(err, "member", "", "")
	})
}

func (s *Store) checkOtherOwner(ctx context.Context, tx Querier, organizationID, userID string) error {
	var n int
	err := tx.QueryRow(ctx, `SELECT count(*) FROM memberships WHERE organization_id = ? AND role = ? AND user_id <> ?`,
		organizationID, edgeflow.RoleOwner, userID).Scan(&n)
	if err != nil {
		return s.dbErr(err, "member", "", "")
	}
	if n == 0 {
		return lastOwner()
	}
	return nil
}

// RemoveMember implements edgeflow.Store.
func (s *Store) RemoveMember(ctx context.Context, organizationID, userID string, at time.Time) error {
	return s.write(ctx, ScopeAll, func(tx Querier) error {
		cur, err := s.memberRole(ctx, tx, organizationID, userID)
		if err != nil {
			return err
		}
		if cur == edgeflow.RoleOwner {
			if err := s.checkOtherOwner(ctx, tx, organizationID, userID); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE organization_id = ? AND user_id = ?`,
			s.ts(at), organizationID, userID); err != nil {
			return s.dbErr(err, "API key", "", "")
		}
		_, err = tx.Exec(ctx, `DELETE FROM memberships WHERE organization_id = ? AND user_id = ?`, organizationID, userID)
		return s.dbErr(err, "member", "", "")
	})
}

// TransferOwnership implements edgeflow.Store.
func (s *Store) TransferOwnership(ctx context.Context, organizationID, fromUserID, toUserID string) error {
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		from, err := s.memberRole(ctx, tx, organizationID, fromUserID)
		if err != nil {
			return err
		}
		if from != edgeflow.RoleOwner {
			return edgeflow.Errorf(edgeflow.EForbidden, "only the owner transfers ownership")
		}
		if _, err := s.memberRole(ctx, tx, organizationID, toUserID); err != nil {
			return err
		}
		if fromUserID == toUserID {
			return edgeflow.Errorf(edgeflow.EConflict, "the user is the owner already")
		}
		if _, err := tx.Exec(ctx, `UPDATE memberships SET role = ? WHERE organization_id = ? AND user_id = ?`,
			edgeflow.RoleOwner, organizationID, toUserID); err != nil {
			return s.dbErr(err, "member", "", "")
		}
		_, err = tx.Exec(ctx, `UPDATE memberships SET role = ? WHERE organization_id = ? AND user_id = ?`,
			edgeflow.RoleAdmin, organizationID, fromUserID)
		return s.dbErr(err, "member", "", "")
	})
}

const invitationCols = `id, organization_id, email, role, token_hash, invited_by, created_at, expires_at, accepted_at, accepted_by, revoked_at`

func scanInvitation(sc rowScanner) (edgeflow.Invitation, error) {
	var i edgeflow.Invitation
	err := sc.Scan(&i.ID, &i.OrganizationID, &i.Email, &i.Role, &i.TokenHash, &i.InvitedBy, timeCol{&i.CreatedAt},
		timeCol{&i.ExpiresAt}, nullTimeCol{&i.AcceptedAt}, &i.AcceptedBy, nullTimeCol{&i.RevokedAt})
	return i, err
}

// CreateInvitation implements edgeflow.Store.
func (s *Store) CreateInvitation(ctx context.Context, inv *edgeflow.Invitation) error {
	if inv.ID == "" {
		inv.ID = edgeflow.NewID(edgeflow.PrefixInvitation)
	}
	inv.CreatedAt = s.timestamp()
	inv.ExpiresAt = norm(inv.ExpiresAt)
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		_, err := tx.Exec(ctx, `INSERT INTO invitations (id, organization_id, email, email_key, role, token_hash, invited_by,
			created_at, expires_at, accepted_at, accepted_by, revoked_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, '', NULL)`,
			inv.ID, inv.OrganizationID, inv.Email, strings.ToLower(inv.Email), inv.Role, inv.TokenHash, inv.InvitedBy,
			s.ts(inv.CreatedAt), s.ts(inv.ExpiresAt))
		return s.dbErr(err, "invitation", "", "organization")
	})
}

// ListInvitations implements edgeflow.Store.
func (s *Store) ListInvitations(ctx context.Context, organizationID string, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.Invitation], error) {
	return listPage(ctx, s, `SELECT `+invitationCols+` FROM invitations WHERE organization_id = ?`, []any{organizationID},
		keyset{key: "created_at", desc: true, timeKey: true}, opts, func(sc rowScanner) (edgeflow.Invitation, string, string, error) {
			i, err := scanInvitation(sc)
			return i, timeKey(i.CreatedAt), i.ID, err
		})
}

// FindInvitationByTokenHash implements edgeflow.Store.
func (s *Store) FindInvitationByTokenHash(ctx context.Context, hash []byte) (*edgeflow.Invitation, error) {
	i, err := scanInvitation(s.queryRow(ctx, `SELECT `+invitationCols+` FROM invitations WHERE token_hash = ?`, hash))
	if err != nil {
		return nil, s.dbErr(err, "invitation", "", "")
	}
	return &i, nil
}

// RevokeInvitation implements edgeflow.Store.
func (s *Store) RevokeInvitation(ctx context.Context, organizationID, id string, at time.Time) error {
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		i, err := scanInvitation(tx.QueryRow(ctx, `SELECT `+invitationCols+` FROM invitations WHERE organization_id = ? AND id = ?`,
			organizationID, id))
		if err != nil {
			return s.dbErr(err, "invitation", "", "")
		}
		if i.AcceptedAt != nil {
			return edgeflow.Errorf(edgeflow.EConflict, "the invitation was accepted already; remove the member instead")
		}
		_, err = tx.Exec(ctx, `UPDATE invitations SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?`, s.ts(at), id)
		return s.dbErr(err, "invitation", "", "")
	})
}

// AcceptInvitation implements edgeflow.Store.
func (s *Store) AcceptInvitation(ctx context.Context, id, userID string, at time.Time) (*edgeflow.Membership, error) {
	var m *edgeflow.Membership
	err := s.write(ctx, ScopeNone, func(tx Querier) error {
		i, err := scanInvitation(tx.QueryRow(ctx, `SELECT `+invitationCols+` FROM invitations WHERE id = ?`+s.lock("FOR UPDATE"), id))
		if err != nil {
			return s.dbErr(err, "invitation", "", "")
		}
		if st := i.Status(at); st != "pending" {
			return edgeflow.Errorf(edgeflow.EConflict, "the invitation is %s; ask for a new one", st)
		}
		var exists bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM memberships WHERE organization_id = ? AND user_id = ?)`,
			i.OrganizationID, userID).Scan(boolCol{&exists}); err != nil {
			return s.dbErr(err, "member", "", "")
		}
		if exists {
			return edgeflow.Errorf(edgeflow.EConflict, "you are a member of this organization already")
		}
		if _, err := tx.Exec(ctx, `UPDATE invitations SET accepted_at = ?, accepted_by = ? WHERE id = ?`, s.ts(at), userID, id); err != nil {
			return s.dbErr(err, "invitation", "", "")
		}
		m = &edgeflow.Membership{OrganizationID: i.OrganizationID, UserID: userID, Role: i.Role, CreatedAt: norm(at)}
		_, err = tx.Exec(ctx, `INSERT INTO memberships (organization_id, user_id, role, created_at) VALUES (?, ?, ?, ?)`,
			m.OrganizationID, m.UserID, m.Role, s.ts(m.CreatedAt))
		return s.dbErr(err, "member", "", "user")
	})
	if err != nil {
		return nil, err
	}
	return m, nil
}

// activeDetails lists active deployments in an error's details.
func activeDetails(ids []string) []map[string]string {
	out := make([]map[string]string, len(ids))
	for i, id := range ids {
		out[i] = map[string]string{"deploymentId": id}
	}
	return out
}
