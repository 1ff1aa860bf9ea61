package sqlstore

import (
	"context"
	"time"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func scanAPIKey(sc rowScanner) (edgeflow.APIKey, error) {
	var k edgeflow.APIKey
	err := sc.Scan(&k.ID, &k.OrganizationID, nullStrCol{&k.ProjectID}, &k.UserID, &k.Name, &k.Prefix, &k.Hash, jsonCol{&k.Scopes},
		nullTimeCol{&k.ExpiresAt}, nullTimeCol{&k.LastUsedAt}, nullTimeCol{&k.RevokedAt}, timeCol{&k.CreatedAt})
	return k, err
}

// CreateAPIKey stores k; ENotFound for an unknown organization, project or user.
func (s *Store) CreateAPIKey(ctx context.Context, k *edgeflow.APIKey) error {
	if k.ID == "" {
		k.ID = edgeflow.NewID(edgeflow.PrefixAPIKey)
	}
	k.CreatedAt = s.timestamp()
	k.ExpiresAt, k.LastUsedAt, k.RevokedAt = normPtr(k.ExpiresAt), normPtr(k.LastUsedAt), normPtr(k.RevokedAt)
	scopes, err := s.jsonArg(k.Scopes)
	if err != nil {
		return err
	}
	return s.write(ctx, ScopeAll, func(tx Querier) error {
		_, err := tx.Exec(ctx, `INSERT INTO api_keys (`+apiKeyCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			k.ID, k.OrganizationID, nullStr(k.ProjectID), k.UserID, k.Name, k.Prefix, k.Hash, scopes,
			s.nullTS(k.ExpiresAt), s.nullTS(k.LastUsedAt), s.nullTS(k.RevokedAt), s.ts(k.CreatedAt))
		return s.dbErr(err, "API key", "", "organization, project or user")
	})
}

// FindAPIKeyByHash returns the key whatever its state, or ENotFound.
func (s *Store) FindAPIKeyByHash(ctx context.Context, hash []byte) (*edgeflow.APIKey, error) {
	k, err := scanAPIKey(s.queryRow(ctx, `SELECT `+apiKeyCols+` FROM api_keys WHERE hash = ?`, hash))
	if err != nil {
		return nil, s.dbErr(err, "API key", "", "")
	}
	return &k, nil
}

// ListAPIKeys lists the organization's keys, newest first.
func (s *Store) ListAPIKeys(ctx context.Context, organizationID string, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.APIKey], error) {
	return listPage(ctx, s, `SELECT `+apiKeyCols+` FROM api_keys WHERE organization_id = ?`, []any{organizationID},
		keyset{key: "created_at", desc: true, timeKey: true}, opts, func(sc rowScanner) (edgeflow.APIKey, string, string, error) {
			k, err := scanAPIKey(sc)
			return k, timeKey(k.CreatedAt), k.ID, err
		})
}

// RevokeAPIKey marks the key revoked at at (a revoked key keeps its first
// revocation time); ENotFound outside the organization.
func (s *Store) RevokeAPIKey(ctx context.Context, organizationID, id string, at time.Time) error {
	return s.write(ctx, ScopeAll, func(tx Querier) error {
		res, err := tx.Exec(ctx, `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?)
			WHERE organization_id = ? AND id = ?`, s.ts(at), organizationID, id)
		return s.affected(res, err, "API key")
	})
}

// touchInterval is how long a recorded API key use stands before a later
// use is written again.
const touchInterval = time.Minute

// TouchAPIKey records a use of the key at at. Uses less than a minute after
// the last recorded one are coalesced (not written). Unknown keys are ignored.
func (s *Store) TouchAPIKey(ctx context.Context, id string, at time.Time) error {
	at = norm(at)
	if last, ok := s.touched.Load(id); ok && at.UnixMicro()-last.(int64) < touchInterval.Microseconds() {
		return nil
	}
	err := s.write(ctx, ScopeAll, func(tx Querier) error {
		_, err := tx.Exec(ctx, `UPDATE api_keys SET last_used_at = ?
			WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)`,
			s.ts(at), id, s.ts(at.Add(-touchInterval)))
		return s.dbErr(err, "API key", "", "")
	})
	if err == nil {
		s.touched.Store(id, at.UnixMicro())
	}
	return err
}

// ListAPIKeysOfUser implements edgeflow.Store.
func (s *Store) ListAPIKeysOfUser(ctx context.Context, organizationID, userID string, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.APIKey], error) {
	return listPage(ctx, s, `SELECT `+apiKeyCols+` FROM api_keys WHERE organization_id = ? AND user_id = ?`, []any{organizationID, userID},
		keyset{key: "created_at", desc: true, timeKey: true}, opts, func(sc rowScanner) (edgeflow.APIKey, string, string, error) {
			k, err := scanAPIKey(sc)
			return k, timeKey(k.CreatedAt), k.ID, err
		})
}

// FindAPIKeyByID implements edgeflow.Store.
func (s *Store) FindAPIKeyByID(ctx context.Context, organizationID, id string) (*edgeflow.APIKey, error) {
	k, err := scanAPIKey(s.queryRow(ctx, `SELECT `+apiKeyCols+` FROM api_keys WHERE organization_id = ? AND id = ?`, organizationID, id))
	if err != nil {
		return nil, s.dbErr(err, "API key", "", "")
	}
	return &k, nil
}
