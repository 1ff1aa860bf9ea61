package sqlstore

import (
	"context"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// CreateSession stores s.
func (s *Store) CreateSession(ctx context.Context, ses *edgeflow.Session) error {
	if ses.ID == "" {
		ses.ID = edgeflow.NewID(edgeflow.PrefixSession)
	}
	ses.CreatedAt = s.timestamp()
	ses.ExpiresAt = norm(ses.ExpiresAt)
	ses.RevokedAt = normPtr(ses.RevokedAt)
	ses.LastSeenAt = normPtr(ses.LastSeenAt)
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		_, err := tx.Exec(ctx, `INSERT INTO sessions (id, user_id, token_hash, csrf_token, active_organization_id,
			active_project_id, created_at, expires_at, revoked_at, last_seen_at, user_agent, ip)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			ses.ID, ses.UserID, ses.TokenHash, ses.CSRFToken, ses.ActiveOrganizationID, ses.ActiveProjectID,
			s.ts(ses.CreatedAt), s.ts(ses.ExpiresAt), s.nullTS(ses.RevokedAt), s.nullTS(ses.LastSeenAt), ses.UserAgent, ses.IP)
		return s.dbErr(err, "session", "", "user")
	})
}

// FindSessionByTokenHash returns the session that is neither revoked nor
// expired at now; ENotFound otherwise.
func (s *Store) FindSessionByTokenHash(ctx context.Context, hash []byte, now time.Time) (*edgeflow.Session, error) {
	ses, err := scanSession(s.queryRow(ctx, `SELECT `+sessionCols+` FROM sessions
		WHERE token_hash = ? AND revoked_at IS NULL AND expires_at > ?`, hash, s.ts(now)))
	if err != nil {
		return nil, s.dbErr(err, "session", "", "")
	}
	return &ses, nil
}

const sessionCols = `id, user_id, token_hash, csrf_token, active_organization_id, active_project_id,
	created_at, expires_at, revoked_at, last_seen_at, user_agent, ip`

func scanSession(sc rowScanner) (edgeflow.Session, error) {
	var ses edgeflow.Session
	err := sc.Scan(&ses.ID, &ses.UserID, &ses.TokenHash, &ses.CSRFToken, &ses.ActiveOrganizationID, &ses.ActiveProjectID,
		timeCol{&ses.CreatedAt}, timeCol{&ses.ExpiresAt}, nullTimeCol{&ses.RevokedAt}, nullTimeCol{&ses.LastSeenAt},
		&ses.UserAgent, &ses.IP)
	return ses, err
}

// ListSessionsForUser lists the user's live sessions at now, newest first.
func (s *Store) ListSessionsForUser(ctx context.Context, userID string, now time.Time, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.Session], error) {
	return listPage(ctx, s, `SELECT `+sessionCols+` FROM sessions
		WHERE user_id = ? AND revoked_at IS NULL AND expires_at > ?`, []any{userID, s.ts(now)},
		keyset{key: "created_at", desc: true, timeKey: true}, opts, func(sc rowScanner) (edgeflow.Session, string, string, error) {
			ses, err := scanSession(sc)
			return ses, timeKey(ses.CreatedAt), ses.ID, err
		})
}

// TouchSession records a use of the session; ENotFound for an unknown one.
func (s *Store) TouchSession(ctx context.Context, sessionID string, at time.Time) error {
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		res, err := tx.Exec(ctx, `UPDATE sessions SET last_seen_at = ? WHERE id = ?`, s.ts(norm(at)), sessionID)
		return s.affected(res, err, "session")
	})
}

// RevokeUserSession revokes one live session of the user; ENotFound for
// another user's, an unknown, a revoked or an expired session.
func (s *Store) RevokeUserSession(ctx context.Context, userID, sessionID string, at time.Time) error {
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		res, err := tx.Exec(ctx, `UPDATE sessions SET revoked_at = ?
			WHERE id = ? AND user_id = ? AND revoked_at IS NULL AND expires_at > ?`,
			s.ts(norm(at)), sessionID, userID, s.ts(norm(at)))
		return s.affected(res, err, "session")
	})
}

// SetPassword stores the new hash and revokes the user's other live
// sessions in one transaction; ENotFound for an unknown user.
func (s *Store) SetPassword(ctx context.Context, userID string, hash []byte, keepSessionID string, at time.Time) error {
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		res, err := tx.Exec(ctx, `UPDATE users SET password_hash = ? WHERE id = ?`, hash, userID)
		if err := s.affected(res, err, "user"); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, `UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND id <> ? AND revoked_at IS NULL`,
			s.ts(norm(at)), userID, keepSessionID)
		return s.dbErr(err, "session", "", "")
	})
}

// SetSessionActive changes the active organization and project; ENotFound
// for an unknown session.
func (s *Store) SetSessionActive(ctx context.Context, sessionID, organizationID, projectID string) error {
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		res, err := tx.Exec(ctx, `UPDATE sessions SET active_organization_id = ?, active_project_id = ? WHERE id = ?`,
			organizationID, projectID, sessionID)
		return s.affected(res, err, "session")
	})
}

// RevokeSession marks the session revoked at at (the first revocation time
// is kept); ENotFound for an unknown session.
func (s *Store) RevokeSession(ctx context.Context, sessionID string, at time.Time) error {
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		res, err := tx.Exec(ctx, `UPDATE sessions SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?`,
			s.ts(at), sessionID)
		return s.affected(res, err, "session")
	})
}

// PurgeSessions deletes expired and revoked sessions.
func (s *Store) PurgeSessions(ctx context.Context, now time.Time) (int, error) {
	var n int64
	err := s.write(ctx, ScopeNone, func(tx Querier) error {
		res, err := tx.Exec(ctx, `DELETE FROM sessions WHERE expires_at <= ? OR revoked_at IS NOT NULL`, s.ts(now))
		if err != nil {
			return err
		}
		n = res
		return nil
	})
	return int(n), err
}
