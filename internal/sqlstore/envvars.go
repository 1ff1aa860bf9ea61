package sqlstore

import (
	"context"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

const envVarCols = `id, organization_id, project_id, name, value, is_secret, created_at, updated_at, env_values, env_only`

func scanEnvVar(sc rowScanner) (edgeflow.EnvVar, error) {
	var v edgeflow.EnvVar
	err := sc.Scan(&v.ID, &v.OrganizationID, &v.ProjectID, &v.Name, &v.Value, boolCol{&v.IsSecret},
		timeCol{&v.CreatedAt}, timeCol{&v.UpdatedAt}, jsonCol{&v.Values}, boolCol{&v.OnlyEnvironments})
	return v, err
}

// envValuesArg is the env_values argument of v: NULL without values.
func (s *Store) envValuesArg(v *edgeflow.EnvVar) (any, error) {
	if len(v.Values) == 0 {
		return nil, nil
	}
	return s.jsonArg(v.Values)
}

// CreateEnvVar stores v; a name taken in the same scope is EConflict, an
// unknown organization or project (of another organization) ENotFound.
func (s *Store) CreateEnvVar(ctx context.Context, v *edgeflow.EnvVar) error {
	if v.ID == "" {
		v.ID = edgeflow.NewID(edgeflow.PrefixEnvVar)
	}
	v.CreatedAt = s.timestamp()
	v.UpdatedAt = v.CreatedAt
	values, err := s.envValuesArg(v)
	if err != nil {
		return err
	}
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		if v.ProjectID != "" {
			var one int
			if err := tx.QueryRow(ctx, `SELECT 1 FROM projects WHERE organization_id = ? AND id = ?`,
				v.OrganizationID, v.ProjectID).Scan(&one); err != nil {
				return s.dbErr(err, "project", "", "")
			}
		}
		_, err := tx.Exec(ctx, `INSERT INTO env_vars (`+envVarCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			v.ID, v.OrganizationID, v.ProjectID, v.Name, v.Value, s.d.Bool(v.IsSecret), s.ts(v.CreatedAt), s.ts(v.UpdatedAt),
			values, s.d.Bool(v.OnlyEnvironments))
		return s.dbErr(err, "environment variable", "environment variable "+v.Name+" already exists in this scope", "organization")
	})
}

// FindEnvVarByID returns the organization's variable or ENotFound.
func (s *Store) FindEnvVarByID(ctx context.Context, organizationID, id string) (*edgeflow.EnvVar, error) {
	v, err := scanEnvVar(s.queryRow(ctx, `SELECT `+envVarCols+` FROM env_vars WHERE organization_id = ? AND id = ?`,
		organizationID, id))
	if err != nil {
		return nil, s.dbErr(err, "environment variable", "", "")
	}
	return &v, nil
}

// ListEnvVars lists the organization-level variables and, when projectID is
// set, that project's, ordered by name (then id).
func (s *Store) ListEnvVars(ctx context.Context, organizationID, projectID string, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.EnvVar], error) {
	return listPage(ctx, s, `SELECT `+envVarCols+` FROM env_vars WHERE organization_id = ? AND project_id IN ('', ?)`,
		[]any{organizationID, projectID}, keyset{key: "name"}, opts, func(sc rowScanner) (edgeflow.EnvVar, string, string, error) {
			v, err := scanEnvVar(sc)
			return v, v.Name, v.ID, err
		})
}

// UpdateEnvVar writes name, value and isSecret, sets UpdatedAt and refreshes
// v; EConflict when the new name is taken in the scope, ENotFound outside
// the organization.
func (s *Store) UpdateEnvVar(ctx context.Context, v *edgeflow.EnvVar) error {
	now := s.timestamp()
	values, err := s.envValuesArg(v)
	if err != nil {
		return err
	}
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		got, err := scanEnvVar(tx.QueryRow(ctx, `UPDATE env_vars SET name = ?, value = ?, is_secret = ?, updated_at = ?,
			env_values = ?, env_only = ? WHERE organization_id = ? AND id = ? RETURNING `+envVarCols,
			v.Name, v.Value, s.d.Bool(v.IsSecret), s.ts(now), values, s.d.Bool(v.OnlyEnvironments), v.OrganizationID, v.ID))
		if err != nil {
			return s.dbErr(err, "environment variable", "environment variable "+v.Name+" already exists in this scope", "")
		}
		*v = got
		return nil
	})
}

// DeleteEnvVar deletes the variable; ENotFound outside the organization.
func (s *Store) DeleteEnvVar(ctx context.Context, organizationID, id string) error {
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		res, err := tx.Exec(ctx, `DELETE FROM env_vars WHERE organization_id = ? AND id = ?`, organizationID, id)
		return s.affected(res, err, "environment variable")
	})
}
