package marketplace_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/marketplace"
	"github.com/edgeflow/edgeflow/internal/nodes/registry"
	"github.com/edgeflow/edgeflow/internal/sqlite"
)

type fixture struct {
	store edgeflow.Store
	svc   *marketplace.Service
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "edgeflow.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	reg, err := registry.New(registry.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc, err := marketplace.New(marketplace.Options{Store: st, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{store: st, svc: svc}
}

// newOrg creates a user and an organization it owns; it returns both ids.
func (f *fixture) newOrg(t *testing.T, slug string) (orgID, userID string) {
	t.Helper()
	ctx := context.Background()
	u := &edgeflow.User{Email: slug + "@example.com", Name: slug, PasswordHash: []byte("x")}
	if err := f.store.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	o := &edgeflow.Organization{Name: slug, Slug: slug}
	if err := f.store.CreateOrganization(ctx, o, u.ID); err != nil {
		t.Fatal(err)
	}
	return o.ID, u.ID
}

func code(err error) string { return edgeflow.ErrorCode(err) }

func TestInstallUpdateUninstall(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	org, user := f.newOrg(t, "acme")

	inst, err := f.svc.Install(ctx, org, user, "slack-message", "")
	if err != nil {
		t.Fatal(err)
	}
	if inst.NodeID != "slack-message" || inst.Version != "2.2.0" || inst.Latest != "2.2.0" || inst.UpdateAvail || inst.InstalledBy != user {
		t.Fatalf("install without version = %+v, want slack-message 2.2.0 (the latest) installed by %s", inst, user)
	}

	steps := []struct {
		name     string
		do       func() error
		wantCode string
	}{
		{"install again", func() error { _, err := f.svc.Install(ctx, org, user, "slack-message", "1.0.0"); return err }, edgeflow.EConflict},
		{"install unknown node", func() error { _, err := f.svc.Install(ctx, org, user, "no-such-node", ""); return err }, edgeflow.ENotFound},
		{"install unknown version", func() error { _, err := f.svc.Install(ctx, org, user, "openai-chat", "9.9.9"); return err }, edgeflow.ENotFound},
		{"install malformed version", func() error { _, err := f.svc.Install(ctx, org, user, "openai-chat", "latest"); return err }, edgeflow.EInvalid},
		{"install without node id", func() error { _, err := f.svc.Install(ctx, org, user, "", ""); return err }, edgeflow.EInvalid},
		{"update to the same version", func() error { _, err := f.svc.Update(ctx, org, "slack-message", "2.2.0"); return err }, edgeflow.EConflict},
		{"update to an unknown version", func() error { _, err := f.svc.Update(ctx, org, "slack-message", "3.0.0"); return err }, edgeflow.ENotFound},
		{"update without version", func() error { _, err := f.svc.Update(ctx, org, "slack-message", ""); return err }, edgeflow.EInvalid},
		{"update a node not installed", func() error { _, err := f.svc.Update(ctx, org, "openai-chat", "1.0.0"); return err }, edgeflow.ENotFound},
		{"update an unknown node", func() error { _, err := f.svc.Update(ctx, org, "no-such-node", "1.0.0"); return err }, edgeflow.ENotFound},
		{"uninstall a node not installed", func() error { return f.svc.Uninstall(ctx, org, "openai-chat") }, edgeflow.ENotFound},
		{"uninstall an unknown node", func() error { return f.svc.Uninstall(ctx, org, "no-such-node") }, edgeflow.ENotFound},
	}
	for _, s := range steps {
		if got := code(s.do()); got != s.wantCode {
			t.Errorf("%s: error code %q, want %q", s.name, got, s.wantCode)
		}
	}

	older, err := f.svc.Update(ctx, org, "slack-message", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if older.Version != "1.0.0" || !older.UpdateAvail || older.Latest != "2.2.0" {
		t.Fatalf("update to 1.0.0 = %+v", older)
	}
	b, err := f.svc.Bundles(ctx, org)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) != 1 || b[0].Definition.Version != "1.0.0" {
		t.Fatalf("bundles after the downgrade = %+v", b)
	}
	if _, ok := b[0].Definition.ConfigSchema["blocks"]; ok {
		t.Fatal("the 1.0.0 snapshot has the 2.0.0 field blocks")
	}
	newer, err := f.svc.Update(ctx, org, "slack-message", "2.2.0")
	if err != nil {
		t.Fatal(err)
	}
	if newer.Version != "2.2.0" || newer.UpdateAvail {
		t.Fatalf("update back to 2.2.0 = %+v", newer)
	}

	if err := f.svc.Uninstall(ctx, org, "slack-message"); err != nil {
		t.Fatal(err)
	}
	if got := code(f.svc.Uninstall(ctx, org, "slack-message")); got != edgeflow.ENotFound {
		t.Fatalf("second uninstall: code %q, want not_found", got)
	}
	if _, err := f.svc.Install(ctx, org, user, "slack-message", "1.0.0"); err != nil {
		t.Fatalf("reinstall after uninstall: %v", err)
	}
}

func TestCatalogAndDetailsShowInstallationStatus(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	org, user := f.newOrg(t, "acme")
	if _, err := f.svc.Install(ctx, org, user, "openai-chat", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	cat, err := f.svc.Catalog(ctx, org)
	if err != nil {
		t.Fatal(err)
	}
	if len(cat) < 15 {
		t.Fatalf("catalog has %d nodes, want at least 15", len(cat))
	}
	for _, n := range cat {
		want := n.ID == "openai-chat"
		if n.Installed != want {
			t.Errorf("%s: installed = %v, want %v", n.ID, n.Installed, want)
		}
		if want && (n.InstalledVersion == nil || *n.InstalledVersion != "1.0.0" || !n.UpdateAvailable) {
			t.Errorf("openai-chat: installedVersion %v, updateAvailable %v; want 1.0.0 and true", n.InstalledVersion, n.UpdateAvailable)
		}
		if !want && n.InstalledVersion != nil {
			t.Errorf("%s: installedVersion %q for a node not installed", n.ID, *n.InstalledVersion)
		}
	}

	d, err := f.svc.Details(ctx, org, "openai-chat")
	if err != nil {
		t.Fatal(err)
	}
	var versions []string
	for _, v := range d.Versions {
		versions = append(versions, v.Version)
	}
	if diff := cmp.Diff([]string{"1.3.0", "1.2.0", "1.1.0", "1.0.0"}, versions); diff != "" {
		t.Errorf("versions (-want +got):\n%s", diff)
	}
	if d.Installation == nil || d.Installation.Version != "1.0.0" || len(d.Installation.Definition) == 0 || len(d.Definition) == 0 {
		t.Fatalf("details installation = %+v", d.Installation)
	}
	if _, err := f.svc.Details(ctx, org, "no-such-node"); code(err) != edgeflow.ENotFound {
		t.Fatalf("details of an unknown node: %v, want not_found", err)
	}
	nd, err := f.svc.Details(ctx, org, "slack-message")
	if err != nil {
		t.Fatal(err)
	}
	if nd.Installed || nd.Installation != nil {
		t.Fatalf("slack-message details show an installation: %+v", nd)
	}
}

func TestInstalledIsPaginated(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	org, user := f.newOrg(t, "acme")
	ids := []string{"airtable-record", "discord-webhook", "github-issue", "kv-get", "slack-message"}
	for _, id := range ids {
		if _, err := f.svc.Install(ctx, org, user, id, ""); err != nil {
			t.Fatal(err)
		}
	}
	var got []string
	opts := edgeflow.ListOptions{Limit: 2}
	for pages := 0; ; pages++ {
		if pages > 5 {
			t.Fatal("pagination does not end")
		}
		p, err := f.svc.Installed(ctx, org, opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Items) > 2 {
			t.Fatalf("page of %d items, limit 2", len(p.Items))
		}
		for _, in := range p.Items {
			got = append(got, in.NodeID)
		}
		if p.NextCursor == "" {
			break
		}
		opts.Cursor = p.NextCursor
	}
	if diff := cmp.Diff(ids, got); diff != "" {
		t.Fatalf("installed nodes (-want +got):\n%s", diff)
	}
	if _, err := f.svc.Installed(ctx, org, edgeflow.ListOptions{Cursor: "not a cursor"}); code(err) != edgeflow.EInvalid {
		t.Fatalf("invalid cursor: %v, want validation_failed", err)
	}
}

func TestOrganizationsAreIsolated(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	a, userA := f.newOrg(t, "alpha")
	b, userB := f.newOrg(t, "beta")
	if _, err := f.svc.Install(ctx, a, userA, "slack-message", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	// The other organization sees nothing installed and can install its own
	// version of the same node.
	cat, err := f.svc.Catalog(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range cat {
		if n.Installed {
			t.Errorf("organization beta sees %s installed", n.ID)
		}
	}
	if p, err := f.svc.Installed(ctx, b, edgeflow.ListOptions{}); err != nil || len(p.Items) != 0 {
		t.Fatalf("beta installed = %+v, %v; want none", p.Items, err)
	}
	if err := f.svc.Uninstall(ctx, b, "slack-message"); code(err) != edgeflow.ENotFound {
		t.Fatalf("beta uninstalls alpha's node: %v, want not_found", err)
	}
	if _, err := f.svc.Update(ctx, b, "slack-message", "2.0.0"); code(err) != edgeflow.ENotFound {
		t.Fatalf("beta updates alpha's node: %v, want not_found", err)
	}
	if _, err := f.svc.Install(ctx, b, userB, "slack-message", "2.0.0"); err != nil {
		t.Fatal(err)
	}
	for org, want := range map[string]string{a: "1.0.0", b: "2.0.0"} {
		bs, err := f.svc.Bundles(ctx, org)
		if err != nil {
			t.Fatal(err)
		}
		if len(bs) != 1 || bs[0].Definition.Version != want {
			t.Errorf("org %s bundles = %v, want slack-message %s", org, bs, want)
		}
	}
}

func TestUninstallRefusedWhileDeployed(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	org, user := f.newOrg(t, "acme")
	if _, err := f.svc.Install(ctx, org, user, "slack-message", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Install(ctx, org, user, "discord-webhook", ""); err != nil {
		t.Fatal(err)
	}
	p := &edgeflow.Project{OrganizationID: org, Name: "Default", Slug: "default"}
	if err := f.store.CreateProject(ctx, p); err != nil {
		t.Fatal(err)
	}
	w := &edgeflow.Workflow{OrganizationID: org, ProjectID: p.ID, Name: "Notify", Kind: edgeflow.KindWorkflow}
	if err := f.store.CreateWorkflow(ctx, w); err != nil {
		t.Fatal(err)
	}
	v := &edgeflow.Version{WorkflowID: w.ID, IR: []byte(`{}`), Code: "//", NodeTypes: []string{"slack-message@2.0.0"}}
	if err := f.store.CreateVersion(ctx, v); err != nil {
		t.Fatal(err)
	}
	c := &edgeflow.Connection{OrganizationID: org, Provider: edgeflow.ProviderLocal, Name: "local", AccountID: "acc", SealedCredentials: []byte("x")}
	if err := f.store.CreateConnection(ctx, c); err != nil {
		t.Fatal(err)
	}
	d := &edgeflow.Deployment{WorkflowID: w.ID, ProjectID: p.ID, VersionID: v.ID, ConnectionID: c.ID, Status: edgeflow.DeploymentActive, ScriptName: "ef-" + w.ID}
	if err := f.store.RecordDeployment(ctx, d); err != nil {
		t.Fatal(err)
	}

	err := f.svc.Uninstall(ctx, org, "slack-message")
	if code(err) != edgeflow.EConflict {
		t.Fatalf("uninstall of a deployed node: %v, want conflict", err)
	}
	var e *edgeflow.Error
	if !asError(err, &e) {
		t.Fatal("not an *edgeflow.Error")
	}
	if diff := cmp.Diff([]marketplace.WorkflowRef{{ID: w.ID, Name: "Notify", ProjectID: p.ID}}, e.Details); diff != "" {
		t.Errorf("details (-want +got):\n%s", diff)
	}
	if !contains(e.Message, w.ID) || !contains(e.Message, "Notify") {
		t.Errorf("message %q does not name the workflow", e.Message)
	}
	// The node's details name the same workflows.
	det, err := f.svc.Details(ctx, org, "slack-message")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]marketplace.WorkflowRef{{ID: w.ID, Name: "Notify", ProjectID: p.ID}}, det.UsedBy); diff != "" {
		t.Errorf("details usedBy (-want +got):\n%s", diff)
	}
	// A node the deployed version does not use can go.
	if err := f.svc.Uninstall(ctx, org, "discord-webhook"); err != nil {
		t.Fatalf("uninstall of an unused node: %v", err)
	}
	// After the takedown the node can go too.
	if _, err := f.store.RemoveDeployment(ctx, w.ID, c.ID, d.CreatedAt); err != nil {
		t.Fatal(err)
	}
	if det, err := f.svc.Details(ctx, org, "slack-message"); err != nil || len(det.UsedBy) != 0 {
		t.Fatalf("details after takedown: usedBy %v, err %v", det.UsedBy, err)
	}
	if err := f.svc.Uninstall(ctx, org, "slack-message"); err != nil {
		t.Fatalf("uninstall after takedown: %v", err)
	}
}

// TestCatalogFilter: words match the id, name, description or tags in any
// case, every word must match, and a category narrows the list.
func TestCatalogFilter(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	org, _ := f.newOrg(t, "acme")
	all, err := f.svc.Catalog(ctx, org)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(ns []marketplace.CatalogNode) string {
		var out []string
		for _, n := range ns {
			out = append(out, n.ID)
		}
		return strings.Join(out, ",")
	}
	for _, tc := range []struct {
		q, category, want string
	}{
		{"", "", ids(all)},
		{"EMAIL", "", "resend-email,sendgrid-email,stripe-customer"}, // "by email address"
		{"  send   email ", "", "resend-email,sendgrid-email"},
		{"claude", "", "anthropic-message"}, // a tag
		{"kv-put", "", "kv-put"},            // the id
		{"", "AI", "anthropic-message,openai-chat"},
		{"openai", "Messaging", ""},
		{"bound", "Storage", "kv-get,kv-put,r2-get,r2-put"},
		{"no such words", "", ""},
	} {
		got := ids(marketplace.CatalogFilter{Words: marketplace.SearchWords(tc.q), Category: tc.category}.Filter(all))
		if got != tc.want {
			t.Errorf("q %q category %q: %s, want %s", tc.q, tc.category, got, tc.want)
		}
	}
}

// TestDetailsCarryChangelogs: every version of the details has the
// changelog of its node.json.
func TestDetailsCarryChangelogs(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	org, _ := f.newOrg(t, "acme")
	d, err := f.svc.Details(ctx, org, "openai-chat")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Versions) != 4 || d.Versions[2].Version != "1.1.0" || !strings.HasPrefix(d.Versions[0].Changelog, "Its error on a failed response names") ||
		!strings.HasPrefix(d.Versions[1].Changelog, "Sends the W3C trace context") ||
		!strings.HasPrefix(d.Versions[2].Changelog, "Adds Max tokens") || !strings.HasPrefix(d.Versions[3].Changelog, "First release") {
		t.Fatalf("versions = %+v", d.Versions)
	}
	if len(d.UsedBy) != 0 || d.Installation != nil {
		t.Fatalf("usedBy %v, installation %v for a node not installed", d.UsedBy, d.Installation)
	}
}

func TestTamperedSnapshotIsRefused(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	org, user := f.newOrg(t, "acme")
	if _, err := f.svc.Install(ctx, org, user, "slack-message", "2.0.0"); err != nil {
		t.Fatal(err)
	}
	in, err := f.store.FindInstalledNode(ctx, org, "slack-message")
	if err != nil {
		t.Fatal(err)
	}
	in.Template += "\n// exfiltrate(env)\n"
	if err := f.store.UpdateInstalledNode(ctx, in); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Bundles(ctx, org); code(err) != edgeflow.EConflict {
		t.Fatalf("bundles with a tampered template: %v, want conflict", err)
	}
	if _, err := f.svc.Installed(ctx, org, edgeflow.ListOptions{}); code(err) != edgeflow.EConflict {
		t.Fatalf("installed with a tampered template: %v, want conflict", err)
	}
	// Updating the node replaces the snapshot with a verified one.
	if _, err := f.svc.Update(ctx, org, "slack-message", "1.0.0"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.svc.Bundles(ctx, org); err != nil {
		t.Fatalf("bundles after update: %v", err)
	}
}

func TestSecrets(t *testing.T) {
	t.Parallel()
	f := newFixture(t)
	ctx := context.Background()
	org, user := f.newOrg(t, "acme")
	for _, id := range []string{"slack-message", "discord-webhook", "kv-get"} {
		if _, err := f.svc.Install(ctx, org, user, id, ""); err != nil {
			t.Fatal(err)
		}
	}
	a := &ir.ArtifactIR{Nodes: []ir.Node{
		{ID: "start", Type: ir.TypeStep, Version: "1.0.0"},
		{ID: "notify", Type: "slack-message", Version: "2.0.0"},
		{ID: "notify_again", Type: "slack-message", Version: "2.0.0"},
		{ID: "read", Type: "kv-get", Version: "1.0.0"},
		{ID: "hook", Type: "discord-webhook", Version: "1.0.0"},
		{ID: "other", Type: "not-installed", Version: "1.0.0"},
	}}
	got, err := f.svc.RequiredSecrets(ctx, org, a)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"DISCORD_WEBHOOK_URL", "SLACK_BOT_TOKEN"}, got); diff != "" {
		t.Errorf("required secrets (-want +got):\n%s", diff)
	}
	all, err := f.svc.Secrets(ctx, org, a)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range all {
		if s.EnvVar == "SLACK_BOT_TOKEN" {
			if diff := cmp.Diff([]string{"notify", "notify_again"}, s.NodeIDs); diff != "" {
				t.Errorf("SLACK_BOT_TOKEN nodes (-want +got):\n%s", diff)
			}
		}
	}
	if diff := cmp.Diff([]string{"discord-webhook@1.0.0", "kv-get@1.0.0", "not-installed@1.0.0", "slack-message@2.0.0"}, marketplace.NodeRefs(a)); diff != "" {
		t.Errorf("node refs (-want +got):\n%s", diff)
	}
	none, err := f.svc.RequiredSecrets(ctx, org, &ir.ArtifactIR{Nodes: []ir.Node{{ID: "s", Type: ir.TypeStep}}})
	if err != nil || len(none) != 0 {
		t.Fatalf("builtin-only IR: %v, %v; want none", none, err)
	}
}

func asError(err error, target **edgeflow.Error) bool { return errors.As(err, target) }

func contains(s, sub string) bool { return strings.Contains(s, sub) }
