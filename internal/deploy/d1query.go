package deploy

import (
	"context"
	"errors"
	"strings"

	"github.com/edgeflow/edgeflow/internal/cloudflare"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// D1Query is one SQL request on a D1 database of a connection the project
// may use.
type D1Query struct {
	OrganizationID string
	ProjectID      string
	ConnectionID   string
	DatabaseID     string
	SQL            string
	Params         []any
	// ReadOnly runs the statements so that the database itself refuses to
	// change (a caller with the read scope only; docs/decisions.md 81).
	ReadOnly bool
	// Reader says who can only read, for the refusals of a read-only query:
	// "this API key can only read (scope read)" when empty.
	Reader string
}

// readOnlyRefused is the local edge's error code for statements that would
// have changed a database in read-only mode (docs/edge.md).
const readOnlyRefused = 7403

// QueryD1 runs q on a database and returns the last statement's columns and
// rows. A statement the database refuses is validation_failed (422) with the
// database's message. A read-only query whose statements would change the
// database is forbidden (403) and changes nothing: a statement that plainly
// writes (INSERT, DROP, ALTER, PRAGMA x = v, WITH … DELETE, …) is refused
// before anything runs, and the database's read-only execution refuses
// whatever else would change it; on a Cloudflare
// connection, which has no read-only execution, a read-only query is
// forbidden before anything runs.
func (s *Service) QueryD1(ctx context.Context, q D1Query) (*D1Result, error) {
	if strings.TrimSpace(q.SQL) == "" {
		return nil, edgeflow.Invalid("/sql", "sql is required")
	}
	c, err := s.connection(ctx, q.OrganizationID, q.ProjectID, q.ConnectionID)
	if err != nil {
		return nil, err
	}
	reader := q.Reader
	if reader == "" {
		reader = "this API key can only read (scope read)"
	}
	if q.ReadOnly {
		if n, verb := d1WriteStatement(q.SQL); n > 0 {
			return nil, edgeflow.Errorf(edgeflow.EForbidden, "%s: statement %d of the query (%s) would change the database, "+
				"so it was not run; a member's session or a key with the write scope may run it", reader, n, verb)
		}
	}
	if q.ReadOnly && c.Provider != edgeflow.ProviderLocal {
		return nil, edgeflow.Errorf(edgeflow.EForbidden, "%s, and Cloudflare's D1 API "+
			"cannot run SQL read-only: querying a D1 database of a Cloudflare connection needs the write scope (a member's session or a key with write)", reader)
	}
	p, err := s.providerFor(ctx, c)
	if err != nil {
		return nil, err
	}
	res, err := p.QueryD1(ctx, q.DatabaseID, q.SQL, q.Params, q.ReadOnly)
	if err != nil {
		if ae, ok := errors.AsType[*cloudflare.APIError](err); ok && q.ReadOnly && ae.Status == 403 && ae.HasCode(readOnlyRefused) {
			return nil, &edgeflow.Error{Code: edgeflow.EForbidden, Err: err, Message: reader + ": " +
				"the statements would change the database, so the database rolled them back and nothing was changed; " +
				"a member's session or a key with the write scope may run them"}
		}
		if providerStatus(err) == 400 {
			reason := providerReason(err)
			if q.ReadOnly {
				reason += " (" + reader + ": the statements run read-only)"
			}
			return nil, &edgeflow.Error{Code: edgeflow.EInvalid, Message: "the query failed: " + reason,
				Details: []edgeflow.FieldError{{Path: "/sql", Message: reason}}, Err: err}
		}
		return nil, resourceError("query D1 database "+q.DatabaseID, err)
	}
	return res, nil
}
