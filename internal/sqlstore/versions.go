package sqlstore

import (
	"context"
	"strconv"
	"strings"
	"unsafe"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func nodeIDs(types []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range types {
		id, _, _ := strings.Cut(t, "@")
		if id != "" && !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

const versionSummaryCols = `id, workflow_id, number, locked, node_types, created_by, created_at`

func scanVersionSummary(sc rowScanner, extra ...any) (edgeflow.Version, error) {
	var v edgeflow.Version
	dest := append([]any{&v.ID, &v.WorkflowID, &v.Number, boolCol{&v.Locked}, jsonCol{&v.NodeTypes}, &v.CreatedBy,
		timeCol{&v.CreatedAt}}, extra...)
	err := sc.Scan(dest...)
	return v, err
}

// CreateVersion numbers v (highest number so far + 1, never reused), stores
// it and makes it the workflow's current version, in one transaction;
// ENotFound for an unknown workflow.
func (s *Store) CreateVersion(ctx context.Context, v *edgeflow.Version) error {
	_, err := s.SubmitVersion(ctx, v.WorkflowID, func(int) (*edgeflow.Version, error) { return v, nil })
	return err
}

// SubmitVersion takes the workflow's next number with UPDATE … RETURNING
// inside the write transaction, builds the version for it and stores it
// before the commit. Concurrent submissions, of this process or another,
// take turns: the UPDATE holds the workflow row's lock until the commit
// (PostgreSQL), or the transaction holds the database's write lock from its
// start (SQLite, BEGIN IMMEDIATE).
func (s *Store) SubmitVersion(ctx context.Context, workflowID string, build func(number int) (*edgeflow.Version, error)) (*edgeflow.Version, error) {
	if err := s.d.Prepare(ctx, createVersionSQL[:]...); err != nil {
		return nil, err
	}
	id := edgeflow.NewID(edgeflow.PrefixVersion)
	var out *edgeflow.Version
	// The workflow row changes only its current version: list pages end
	// their generation; a cached row is patched after the commit
	// (Driver.Submitted).
	err := s.write(ctx, ScopePages, func(tx Querier) error {
		var n int
		if err := tx.QueryRow(ctx, createVersionSQL[0], id, workflowID).Scan(&n); err != nil {
			return s.dbErr(err, "workflow", "", "")
		}
		v, err := build(n)
		if err != nil {
			return err
		}
		nodeTypes, err := s.jsonArg(v.NodeTypes)
		if err != nil {
			return err
		}
		v.ID, v.WorkflowID, v.Number, v.CreatedAt = id, workflowID, n, s.timestamp()
		ir, code := s.packText(unsafe.String(unsafe.SliceData(v.IR), len(v.IR))), s.packText(v.Code)
		defer ir.release()
		defer code.release()
		_, err = tx.Exec(ctx, createVersionSQL[1],
			v.ID, v.WorkflowID, n, ir.arg, code.arg, s.d.Bool(v.Locked), nodeTypes, v.CreatedBy, s.ts(v.CreatedAt))
		if err != nil {
			return s.dbErr(err, "version", "", "workflow")
		}
		for _, node := range nodeIDs(v.NodeTypes) {
			if _, err := tx.Exec(ctx, createVersionSQL[2], v.ID, node); err != nil {
				return s.dbErr(err, "version", "", "")
			}
		}
		out = v
		return nil
	})
	s.d.Submitted(workflowID, id, err)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// createVersionSQL are the statements of SubmitVersion.
var createVersionSQL = [...]string{
	// The workflow's number counter and current version move together (one
	// statement, one round trip); the version row follows in the same
	// transaction.
	`UPDATE workflows SET last_version = last_version + 1, current_version_id = ? WHERE id = ? RETURNING last_version`,
	`INSERT INTO versions (id, workflow_id, number, ir, code, locked, node_types, created_by, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
	`INSERT INTO version_nodes (version_id, node_id) VALUES (?, ?)`,
}

// FindVersionByID returns the workflow's version with IR and code, or ENotFound.
func (s *Store) FindVersionByID(ctx context.Context, workflowID, id string) (*edgeflow.Version, error) {
	var ir []byte
	var code string
	v, err := scanVersionSummary(s.queryRow(ctx, `SELECT `+versionSummaryCols+`, ir, code FROM versions
		WHERE workflow_id = ? AND id = ?`, workflowID, id), packedCol{raw: &ir, packed: s.d.PacksText()}, packedCol{text: &code, packed: s.d.PacksText()})
	if err != nil {
		return nil, s.dbErr(err, "version", "", "")
	}
	v.IR, v.Code = ir, code
	return &v, nil
}

// ListVersions lists summaries (IR and Code empty) of the workflow's
// versions, highest number first.
func (s *Store) ListVersions(ctx context.Context, workflowID string, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.Version], error) {
	return listPage(ctx, s, `SELECT `+versionSummaryCols+` FROM versions WHERE workflow_id = ?`, []any{workflowID},
		keyset{key: "number", desc: true, intKey: true}, opts, func(sc rowScanner) (edgeflow.Version, string, string, error) {
			v, err := scanVersionSummary(sc)
			return v, strconv.Itoa(v.Number), v.ID, err
		})
}

// SetVersionLocked locks or unlocks the version; ENotFound outside the workflow.
func (s *Store) SetVersionLocked(ctx context.Context, workflowID, id string, locked bool) error {
	return s.write(ctx, ScopeLists, func(tx Querier) error {
		res, err := tx.Exec(ctx, `UPDATE versions SET locked = ? WHERE workflow_id = ? AND id = ?`,
			s.d.Bool(locked), workflowID, id)
		return s.affected(res, err, "version")
	})
}

// DeleteVersion deletes the version; EConflict when it is locked, the
// workflow's current version, its active (deployed) version or the version of
// an active deployment.
func (s *Store) DeleteVersion(ctx context.Context, workflowID, id string) error {
	return s.write(ctx, ScopeLists, func(tx Querier) error {
		var locked, inUse bool
		var current, active string
		err := tx.QueryRow(ctx, `SELECT v.locked, w.current_version_id, w.active_version_id,
			EXISTS (SELECT 1 FROM deployments d WHERE d.version_id = v.id AND d.status = 'active')
			FROM versions v JOIN workflows w ON w.id = v.workflow_id WHERE v.workflow_id = ? AND v.id = ?`+s.lock("FOR UPDATE OF w"),
			workflowID, id).Scan(boolCol{&locked}, &current, &active, boolCol{&inUse})
		if err != nil {
			return s.dbErr(err, "version", "", "")
		}
		switch {
		case locked:
			return edgeflow.Errorf(edgeflow.EConflict, "version is locked")
		case active == id || inUse:
			return edgeflow.Errorf(edgeflow.EConflict, "version is deployed")
		case current == id:
			return edgeflow.Errorf(edgeflow.EConflict, "version is the workflow's current version")
		}
		if _, err := tx.Exec(ctx, `DELETE FROM versions WHERE id = ?`, id); err != nil {
			return s.dbErr(err, "version", "", "")
		}
		return nil
	})
}
