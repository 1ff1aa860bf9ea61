package sqlstore

import (
	"context"
	"strings"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

const userCols = `id, email, name, password_hash, created_at`

func scanUser(sc rowScanner) (*edgeflow.User, error) {
	var u edgeflow.User
	if err := sc.Scan(&u.ID, &u.Email, &u.Name, &u.PasswordHash, timeCol{&u.CreatedAt}); err != nil {
		return nil, err
	}
	return &u, nil
}

// CreateUser stores u; a taken email (case-insensitive) is EConflict.
func (s *Store) CreateUser(ctx context.Context, u *edgeflow.User) error {
	if u.ID == "" {
		u.ID = edgeflow.NewID(edgeflow.PrefixUser)
	}
	u.CreatedAt = s.timestamp()
	return s.write(ctx, ScopeAll, func(tx Querier) error {
		_, err := tx.Exec(ctx, `INSERT INTO users (id, email, email_key, name, password_hash, created_at)
			VALUES (?, ?, ?, ?, ?, ?)`, u.ID, u.Email, strings.ToLower(u.Email), u.Name, u.PasswordHash, s.ts(u.CreatedAt))
		return s.dbErr(err, "user", "email already registered", "")
	})
}

// FindUserByID returns the user or ENotFound.
func (s *Store) FindUserByID(ctx context.Context, id string) (*edgeflow.User, error) {
	u, err := scanUser(s.queryRow(ctx, `SELECT `+userCols+` FROM users WHERE id = ?`, id))
	return u, s.dbErr(err, "user", "", "")
}

// FindUserByEmail matches the email case-insensitively; ENotFound otherwise.
func (s *Store) FindUserByEmail(ctx context.Context, email string) (*edgeflow.User, error) {
	u, err := scanUser(s.queryRow(ctx, `SELECT `+userCols+` FROM users WHERE email_key = ?`, strings.ToLower(email)))
	return u, s.dbErr(err, "user", "", "")
}

// CreateOrganization stores o and makes ownerUserID its owner in one
// transaction; a taken slug is EConflict, an unknown user ENotFound.
