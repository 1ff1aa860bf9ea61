package sqlstore

import (
	"context"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

const installedNodeCols = `id, organization_id, node_id, version, definition, template, checksum, installed_by,
	installed_at, updated_at`

func scanInstalledNode(sc rowScanner) (edgeflow.InstalledNode, error) {
	var n edgeflow.InstalledNode
	err := sc.Scan(&n.ID, &n.OrganizationID, &n.NodeID, &n.Version, rawCol{&n.Definition}, &n.Template, &n.Checksum,
		&n.InstalledBy, timeCol{&n.InstalledAt}, timeCol{&n.UpdatedAt})
	return n, err
}

// InstallNode stores n; EConflict when the node is already installed in the
// organization.
func (s *Store) InstallNode(ctx context.Context, n *edgeflow.InstalledNode) error {
	if n.ID == "" {
		n.ID = edgeflow.NewID(edgeflow.PrefixInstall)
	}
	n.InstalledAt = s.timestamp()
	n.UpdatedAt = n.InstalledAt
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		_, err := tx.Exec(ctx, `INSERT INTO installed_nodes (`+installedNodeCols+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			n.ID, n.OrganizationID, n.NodeID, n.Version, rawArg(n.Definition), n.Template, n.Checksum, n.InstalledBy,
			s.ts(n.InstalledAt), s.ts(n.UpdatedAt))
		return s.dbErr(err, "installed node", "node "+n.NodeID+" is already installed", "organization")
	})
}

// FindInstalledNode returns the organization's installation of nodeID or ENotFound.
func (s *Store) FindInstalledNode(ctx context.Context, organizationID, nodeID string) (*edgeflow.InstalledNode, error) {
	n, err := scanInstalledNode(s.queryRow(ctx, `SELECT `+installedNodeCols+` FROM installed_nodes
		WHERE organization_id = ? AND node_id = ?`, organizationID, nodeID))
	if err != nil {
		return nil, s.dbErr(err, "installed node", "", "")
	}
	return &n, nil
}

// ListInstalledNodes lists the organization's installations ordered by node id.
func (s *Store) ListInstalledNodes(ctx context.Context, organizationID string, opts edgeflow.ListOptions) (edgeflow.Page[edgeflow.InstalledNode], error) {
	return listPage(ctx, s, `SELECT `+installedNodeCols+` FROM installed_nodes WHERE organization_id = ?`,
		[]any{organizationID}, keyset{key: "node_id"}, opts, func(sc rowScanner) (edgeflow.InstalledNode, string, string, error) {
			n, err := scanInstalledNode(sc)
			return n, n.NodeID, n.ID, err
		})
}

// UpdateInstalledNode writes version, definition, template and checksum of
// the organization's installation of n.NodeID, sets UpdatedAt and refreshes
// n; ENotFound when it is not installed.
func (s *Store) UpdateInstalledNode(ctx context.Context, n *edgeflow.InstalledNode) error {
	now := s.timestamp()
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		got, err := scanInstalledNode(tx.QueryRow(ctx, `UPDATE installed_nodes SET version = ?, definition = ?,
			template = ?, checksum = ?, updated_at = ? WHERE organization_id = ? AND node_id = ? RETURNING `+installedNodeCols,
			n.Version, rawArg(n.Definition), n.Template, n.Checksum, s.ts(now), n.OrganizationID, n.NodeID))
		if err != nil {
			return s.dbErr(err, "installed node", "", "")
		}
		*n = got
		return nil
	})
}

// UninstallNode deletes the installation; ENotFound when it is not installed.
func (s *Store) UninstallNode(ctx context.Context, organizationID, nodeID string) error {
	return s.write(ctx, ScopeNone, func(tx Querier) error {
		res, err := tx.Exec(ctx, `DELETE FROM installed_nodes WHERE organization_id = ? AND node_id = ?`,
			organizationID, nodeID)
		return s.affected(res, err, "installed node")
	})
}
