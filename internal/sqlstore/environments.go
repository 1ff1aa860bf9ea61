package sqlstore

import (
	"context"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

const environmentCols = `project_id, name, connection_id, protected, created_at, updated_at`

func scanEnvironment(sc rowScanner) (edgeflow.Environment, error) {
	var e edgeflow.Environment
	err := sc.Scan(&e.ProjectID, &e.Name, &e.ConnectionID, boolCol{&e.Protected}, timeCol{&e.CreatedAt}, timeCol{&e.UpdatedAt})
	return e, err
}

// environmentConflict is the message of a taken name or connection.
const environmentConflict = "an environment of that name exists in the project, or the connection is bound to another of its environments"

// CreateEnvironment stores e; EConflict for a name taken in the project, a
// connection bound to another of its environments, or a project that has
// MaxEnvironments already; ENotFound for an unknown project.
func (s *Store) CreateEnvironment(ctx context.Context, e *edgeflow.Environment) error {
	e.CreatedAt = s.timestamp()
	e.UpdatedAt = e.CreatedAt
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		return s.insertEnvironment(ctx, tx, e)
	})
}

func (s *Store) insertEnvironment(ctx context.Context, tx Querier, e *edgeflow.Environment) error {
	var n int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM environments WHERE project_id = ?`, e.ProjectID).Scan(&n); err != nil {
		return s.dbErr(err, "environment", "", "")
	}
	if n >= edgeflow.MaxEnvironments {
		return edgeflow.Errorf(edgeflow.EConflict, "the project has %d environments, the most it may have", n)
	}
	_, err := tx.Exec(ctx, `INSERT INTO environments (`+environmentCols+`) VALUES (?, ?, ?, ?, ?, ?)`,
		e.ProjectID, e.Name, e.ConnectionID, s.d.Bool(e.Protected), s.ts(e.CreatedAt), s.ts(e.UpdatedAt))
	return s.dbErr(err, "environment", environmentConflict, "project")
}

// FindEnvironment returns the project's environment of that name or
// ENotFound.
func (s *Store) FindEnvironment(ctx context.Context, projectID, name string) (*edgeflow.Environment, error) {
	e, err := scanEnvironment(s.queryRow(ctx, `SELECT `+environmentCols+` FROM environments WHERE project_id = ? AND name = ?`,
		projectID, name))
	if err != nil {
		return nil, s.dbErr(err, "environment", "", "")
	}
	return &e, nil
}

// FindEnvironmentByConnection returns the project's environment bound to
// the connection or ENotFound.
func (s *Store) FindEnvironmentByConnection(ctx context.Context, projectID, connectionID string) (*edgeflow.Environment, error) {
	if connectionID == "" {
		return nil, edgeflow.NotFound("environment")
	}
	e, err := scanEnvironment(s.queryRow(ctx, `SELECT `+environmentCols+` FROM environments WHERE project_id = ? AND connection_id = ?`,
		projectID, connectionID))
	if err != nil {
		return nil, s.dbErr(err, "environment", "", "")
	}
	return &e, nil
}

// ListEnvironments lists the project's environments by name.
func (s *Store) ListEnvironments(ctx context.Context, projectID string) ([]edgeflow.Environment, error) {
	rows, err := s.query(ctx, `SELECT `+environmentCols+` FROM environments WHERE project_id = ? ORDER BY name LIMIT ?`,
		projectID, edgeflow.MaxEnvironments)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []edgeflow.Environment{}
	for rows.Next() {
		e, err := scanEnvironment(rows)
		if err != nil {
			return nil, s.dbErr(err, "environment", "", "")
		}
		out = append(out, e)
	}
	return out, s.dbErr(rows.Err(), "environment", "", "")
}

// UpdateEnvironment writes the connection and the protected flag of the
// environment (ProjectID, Name), sets UpdatedAt and refreshes e; EConflict
// when the connection is bound to another environment of the project.
func (s *Store) UpdateEnvironment(ctx context.Context, e *edgeflow.Environment) error {
	now := s.timestamp()
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		got, err := scanEnvironment(tx.QueryRow(ctx, `UPDATE environments SET connection_id = ?, protected = ?, updated_at = ?
			WHERE project_id = ? AND name = ? RETURNING `+environmentCols,
			e.ConnectionID, s.d.Bool(e.Protected), s.ts(now), e.ProjectID, e.Name))
		if err != nil {
			return s.dbErr(err, "environment", environmentConflict, "")
		}
		*e = got
		return nil
	})
}

// DeleteEnvironment deletes the project's environment; ENotFound when it
// has none of that name.
func (s *Store) DeleteEnvironment(ctx context.Context, projectID, name string) error {
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		res, err := tx.Exec(ctx, `DELETE FROM environments WHERE project_id = ? AND name = ?`, projectID, name)
		return s.affected(res, err, "environment")
	})
}
