package storetest

import (
	"encoding/json"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

func testInstalledNodes(t *testing.T, s edgeflow.Store) {
	ctx := t.Context()
	a := newTenant(t, s)
	b := newTenant(t, s)
	mk := func(org, node string) *edgeflow.InstalledNode {
		n := &edgeflow.InstalledNode{OrganizationID: org, NodeID: node, Version: "1.0.0",
			Definition: json.RawMessage(`{"id": "` + node + `"}`), Template: "export default () => {}", Checksum: "sha256-x",
			InstalledBy: a.user.ID}
		must(t, s.InstallNode(ctx, n))
		return n
	}
	slack := mk(a.org.ID, "slack-message")
	http := mk(a.org.ID, "http-request")
	mk(b.org.ID, "slack-message")
	wantCode(t, "install twice", s.InstallNode(ctx, &edgeflow.InstalledNode{OrganizationID: a.org.ID,
		NodeID: "slack-message", Version: "2.0.0"}), edgeflow.EConflict)

	got, err := s.FindInstalledNode(ctx, a.org.ID, "slack-message")
	must(t, err)
	diff(t, "FindInstalledNode", got, slack)
	_, err = s.FindInstalledNode(ctx, a.org.ID, "nope")
	wantCode(t, "not installed", err, edgeflow.ENotFound)

	page, err := s.ListInstalledNodes(ctx, a.org.ID, edgeflow.ListOptions{Limit: 1})
	must(t, err)
	diff(t, "ListInstalledNodes page 1", page.Items, []edgeflow.InstalledNode{*http})
	page, err = s.ListInstalledNodes(ctx, a.org.ID, edgeflow.ListOptions{Limit: 1, Cursor: page.NextCursor})
	must(t, err)
	diff(t, "ListInstalledNodes page 2", page.Items, []edgeflow.InstalledNode{*slack})
	if page.NextCursor != "" {
		t.Errorf("cursor after last page: %q", page.NextCursor)
	}

	upd := *slack
	upd.Version, upd.Definition, upd.Template, upd.Checksum = "2.0.0", json.RawMessage(`{"v":2}`), "t2", "sha256-y"
	must(t, s.UpdateInstalledNode(ctx, &upd))
	got, err = s.FindInstalledNode(ctx, a.org.ID, "slack-message")
	must(t, err)
	diff(t, "UpdateInstalledNode", got, &upd)
	if got.Version != "2.0.0" || !got.InstalledAt.Equal(slack.InstalledAt) {
		t.Errorf("updated node %+v", got)
	}
	other, err := s.FindInstalledNode(ctx, b.org.ID, "slack-message")
	must(t, err)
	if other.Version != "1.0.0" {
		t.Errorf("update leaked to other org: %+v", other)
	}
	missing := upd
	missing.NodeID = "nope"
	wantCode(t, "update not installed", s.UpdateInstalledNode(ctx, &missing), edgeflow.ENotFound)
	must(t, s.UninstallNode(ctx, a.org.ID, "slack-message"))
	_, err = s.FindInstalledNode(ctx, a.org.ID, "slack-message")
	wantCode(t, "uninstalled", err, edgeflow.ENotFound)
	wantCode(t, "uninstall twice", s.UninstallNode(ctx, a.org.ID, "slack-message"), edgeflow.ENotFound)
	if _, err := s.FindInstalledNode(ctx, b.org.ID, "slack-message"); err != nil {
		t.Errorf("uninstall removed other org's node: %v", err)
	}
}
