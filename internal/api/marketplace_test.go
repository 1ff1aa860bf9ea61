package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/nodes/registry"
	"github.com/edgeflow/edgeflow/internal/ratelimit"
)

// privateNodeID is the id of the node installPrivateNode gives a tenant.
func privateNodeID(tn *tenant) string {
	return "private-" + strings.ToLower(strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return '-'
	}, tn.email))
}

// installPrivateNode installs, straight into the store, a node that the
// registry does not serve (as when a remote registry dropped it after the
// install), so that only this tenant's organization knows it. It returns
// the node id.
func (w *world) installPrivateNode(tn *tenant) string {
	w.t.Helper()
	id := privateNodeID(tn)
	def := fmt.Sprintf(`{"id":%q,"name":"Private","description":"A node only one organization has.","category":"Utilities",
		"author":"tests","license":"MIT","version":"1.0.0",
		"configSchema":{"text":{"type":"string","label":"Text","required":true}},
		"outputSchema":{"text":{"type":"string"}},"allowedInFunctions":true}`, id)
	tmpl := "interface Config { text: string }\n\nexport default async function privateNode(ctx: { config: Config; env: Record<string, unknown> }): Promise<{ text: string }> {\n  return { text: ctx.config.text };\n}\n"
	b, err := registry.NewBundle([]byte(def), tmpl)
	if err != nil {
		w.t.Fatal(err)
	}
	if err := w.store.InstallNode(context.Background(), &edgeflow.InstalledNode{OrganizationID: tn.orgID, NodeID: id,
		Version: "1.0.0", Definition: b.NodeJSON, Template: b.Template, Checksum: b.Checksum, InstalledBy: tn.userID}); err != nil {
		w.t.Fatal(err)
	}
	return id
}

// minimalIR is a valid workflow IR of one step node.
const minimalIR = `{"metadata":{"name":"Orders","version":1,"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-01T00:00:00Z"},
"nodes":[{"id":"start","type":"step","name":"Start","position":{"x":0,"y":0},"version":"1.0.0","provider":"cloudflare","data":{"code":"return {ok: true};"}}],
"edges":[],"entryNodeId":"start"}`

// submitVersion submits an IR to a workflow and returns the version id.
func (w *world) submitVersion(tn *tenant, workflowID, irJSON string) string {
	w.t.Helper()
	return w.must(201, "POST", "/api/workflows/"+workflowID+"/versions", `{"ir":`+irJSON+`}`, tn.keyAll).str(w.t, "id")
}

func TestMarketplaceEndpoints(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a, b := w.a, w.b

	list := w.must(200, "GET", "/api/marketplace", "", a.keyRead)
	var cat struct {
		Nodes []struct {
			ID               string  `json:"id"`
			Latest           string  `json:"latest"`
			Installed        bool    `json:"installed"`
			InstalledVersion *string `json:"installedVersion"`
			Versions         []struct{ Version, Checksum string }
		} `json:"data"`
		NextCursor *string `json:"nextCursor"`
	}
	if err := json.Unmarshal(list.body, &cat); err != nil {
		t.Fatal(err)
	}
	if len(cat.Nodes) < 16 || cat.NextCursor != nil {
		t.Fatalf("catalog has %d nodes, nextCursor %v", len(cat.Nodes), cat.NextCursor)
	}
	for _, n := range cat.Nodes {
		if n.ID == "slack-message" && (n.Installed || n.InstalledVersion != nil || n.Latest != "2.2.0" || len(n.Versions) != 4) {
			t.Fatalf("slack-message before install: %+v", n)
		}
	}

	// Install: default latest, explicit version, 404s, 409, 422.
	inst := w.must(201, "POST", "/api/marketplace/install", `{"nodeId":"slack-message"}`, a.keyAll).json(t)
	if inst["version"] != "2.2.0" || inst["nodeId"] != "slack-message" {
		t.Fatalf("install = %v", inst)
	}
	w.must(201, "POST", "/api/marketplace/install", `{"nodeId":"openai-chat","version":"1.0.0"}`, a.session)
	checkError(t, w.do("POST", "/api/marketplace/install", `{"nodeId":"slack-message","version":"1.0.0"}`, a.keyAll), 409, "conflict", "")
	checkError(t, w.do("POST", "/api/marketplace/install", `{"nodeId":"no-such-node"}`, a.keyAll), 404, "not_found", "")
	checkError(t, w.do("POST", "/api/marketplace/install", `{"nodeId":"github-issue","version":"9.0.0"}`, a.keyAll), 404, "not_found", "")
	checkError(t, w.do("POST", "/api/marketplace/install", `{"nodeId":"github-issue","version":"v1"}`, a.keyAll), 422, "validation_failed", "/version")
	checkError(t, w.do("POST", "/api/marketplace/install", `{"nodeId":"Bad Id"}`, a.keyAll), 422, "validation_failed", "/nodeId")
	checkError(t, w.do("POST", "/api/marketplace/install", `{"nodeId":"slack-message"}`, a.keyRead), 403, "forbidden", "")

	// Details and status, per organization.
	d := w.must(200, "GET", "/api/marketplace/openai-chat", "", a.keyRead).json(t)
	if d["installed"] != true || d["installedVersion"] != "1.0.0" || d["updateAvailable"] != true || d["installation"] == nil || len(d["versions"].([]any)) != 4 {
		t.Fatalf("details = %v", d)
	}
	if d := w.must(200, "GET", "/api/marketplace/openai-chat", "", b.keyRead).json(t); d["installed"] != false || d["installedVersion"] != nil || d["installation"] != nil {
		t.Fatalf("details for another organization = %v", d)
	}
	checkError(t, w.do("GET", "/api/marketplace/no-such-node", "", a.keyRead), 404, "not_found", "")

	// Update: older and newer, same version 409, not installed 404.
	if u := w.must(200, "POST", "/api/marketplace/update", `{"nodeId":"openai-chat","version":"1.1.0"}`, a.keyAll).json(t); u["version"] != "1.1.0" {
		t.Fatalf("update = %v", u)
	}
	w.must(200, "POST", "/api/marketplace/update", `{"nodeId":"openai-chat","version":"1.0.0"}`, a.keyAll)
	checkError(t, w.do("POST", "/api/marketplace/update", `{"nodeId":"openai-chat","version":"1.0.0"}`, a.keyAll), 409, "conflict", "")
	checkError(t, w.do("POST", "/api/marketplace/update", `{"nodeId":"openai-chat","version":"7.0.0"}`, a.keyAll), 404, "not_found", "")
	checkError(t, w.do("POST", "/api/marketplace/update", `{"nodeId":"github-issue","version":"1.0.0"}`, a.keyAll), 404, "not_found", "")
	checkError(t, w.do("POST", "/api/marketplace/update", `{"nodeId":"openai-chat","version":"1.0.0"}`, b.keyAll), 404, "not_found", "")
	checkError(t, w.do("POST", "/api/marketplace/update", `{"nodeId":"openai-chat"}`, a.keyAll), 422, "validation_failed", "/version")

	// Installed list, paginated and per organization.
	page := w.must(200, "GET", "/api/marketplace/installed?limit=1", "", a.keyRead).json(t)
	if len(page["data"].([]any)) != 1 || page["nextCursor"] == nil {
		t.Fatalf("installed page 1 = %v", page)
	}
	page2 := w.must(200, "GET", "/api/marketplace/installed?limit=100&cursor="+page["nextCursor"].(string), "", a.keyRead).json(t)
	var ids []string
	for _, p := range [][]any{page["data"].([]any), page2["data"].([]any)} {
		for _, it := range p {
			ids = append(ids, it.(map[string]any)["nodeId"].(string))
		}
	}
	if strings.Join(ids, ",") != "openai-chat,"+privateNodeID(a)+",slack-message" || page2["nextCursor"] != nil {
		t.Fatalf("installed nodes = %v (next %v)", ids, page2["nextCursor"])
	}
	for _, it := range w.must(200, "GET", "/api/marketplace/installed", "", b.keyRead).json(t)["data"].([]any) {
		if id := it.(map[string]any)["nodeId"]; id != privateNodeID(b) {
			t.Fatalf("b sees installed node %v", id)
		}
	}

	// Uninstall.
	checkError(t, w.do("POST", "/api/marketplace/uninstall", `{"nodeId":"slack-message"}`, b.keyAll), 404, "not_found", "")
	if r := w.must(200, "POST", "/api/marketplace/uninstall", `{"nodeId":"slack-message"}`, a.keyAll).json(t); r["ok"] != true {
		t.Fatalf("uninstall = %v", r)
	}
	checkError(t, w.do("POST", "/api/marketplace/uninstall", `{"nodeId":"slack-message"}`, a.keyAll), 404, "not_found", "")
}

func TestMarketplaceChangesAreRateLimited(t *testing.T) {
	t.Parallel()
	w := newWorld(t, worldOptions{limits: ratelimit.Limits{Global: 1000, Write: 1000, Deploy: 1000, Verify: 1000}})
	sess, _ := w.signUp("rate@example.com")
	ids := []string{"airtable-record", "anthropic-message", "d1-query", "discord-webhook", "github-issue", "kv-get",
		"kv-put", "linear-issue", "notion-page", "openai-chat"}
	for _, id := range ids {
		r := w.must(201, "POST", "/api/marketplace/install", `{"nodeId":"`+id+`"}`, sess)
		if r.header.Get("RateLimit-Limit") != "10" {
			t.Fatalf("RateLimit-Limit = %q, want 10", r.header.Get("RateLimit-Limit"))
		}
	}
	r := w.do("POST", "/api/marketplace/uninstall", `{"nodeId":"kv-get"}`, sess)
	checkError(t, r, 429, "rate_limited", "")
	if r.header.Get("Retry-After") == "" {
		t.Fatal("429 without Retry-After")
	}
	// Reads are not marketplace changes.
	w.must(200, "GET", "/api/marketplace", "", sess)
}

// TestMarketplaceSearchCategoriesAndUsage: the catalog's q and category
// filters (validated, paginated with the filters), the categories with their
// counts, the changelog of every version in a node's details, and the
// workflows that use an installed node, named by the details and by the
// refused uninstall; on SQLite and PostgreSQL.
func TestMarketplaceSearchCategoriesAndUsage(t *testing.T) {
	t.Parallel()
	engines(t, worldOptions{}, func(t *testing.T, w *world) {
		a := w.a
		ids := func(page map[string]any) string {
			var out []string
			for _, it := range page["data"].([]any) {
				out = append(out, it.(map[string]any)["id"].(string))
			}
			return strings.Join(out, ",")
		}
		if got := ids(w.must(200, "GET", "/api/marketplace?q=Email", "", a.keyRead).json(t)); got != "resend-email,sendgrid-email,stripe-customer" {
			t.Errorf("q=Email: %s", got)
		}
		if got := ids(w.must(200, "GET", "/api/marketplace?q=send+email&category=Email", "", a.keyRead).json(t)); got != "resend-email,sendgrid-email" {
			t.Errorf("q=send email, category Email: %s", got)
		}
		p1 := w.must(200, "GET", "/api/marketplace?category=Storage&limit=2", "", a.keyRead).json(t)
		if ids(p1) != "kv-get,kv-put" || p1["nextCursor"] == nil {
			t.Fatalf("Storage page 1: %v", p1)
		}
		p2 := w.must(200, "GET", "/api/marketplace?category=Storage&limit=2&cursor="+p1["nextCursor"].(string), "", a.keyRead).json(t)
		if ids(p2) != "r2-get,r2-put" || p2["nextCursor"] != nil {
			t.Fatalf("Storage page 2: %v", p2)
		}
		checkError(t, w.do("GET", "/api/marketplace?category=Misc", "", a.keyRead), 422, "validation_failed", "?category")
		checkError(t, w.do("GET", "/api/marketplace?category=ai", "", a.keyRead), 422, "validation_failed", "?category")
		checkError(t, w.do("GET", "/api/marketplace?category=AI&category=Data", "", a.keyRead), 422, "validation_failed", "?category")
		checkError(t, w.do("GET", "/api/marketplace?q="+strings.Repeat("x", 101), "", a.keyRead), 422, "validation_failed", "?q")

		var cats struct {
			Categories []struct {
				Name  string
				Nodes int
			}
		}
		if err := json.Unmarshal(w.must(200, "GET", "/api/marketplace/categories", "", a.keyRead).body, &cats); err != nil {
			t.Fatal(err)
		}
		counts := map[string]int{}
		for _, c := range cats.Categories {
			counts[c.Name] = c.Nodes
		}
		if len(cats.Categories) != len(registry.Categories) || cats.Categories[0].Name != registry.Categories[0] ||
			counts["AI"] != 2 || counts["Storage"] != 4 || counts["CRM"] != 0 {
			t.Errorf("categories = %+v", cats.Categories)
		}

		// Every version of the details has its changelog; nothing uses a node
		// that is not installed.
		var d struct {
			Versions []struct{ Version, Changelog string }
			UsedBy   []map[string]any `json:"usedBy"`
		}
		if err := json.Unmarshal(w.must(200, "GET", "/api/marketplace/openai-chat", "", a.keyRead).body, &d); err != nil {
			t.Fatal(err)
		}
		if len(d.Versions) != 4 || !strings.HasPrefix(d.Versions[2].Changelog, "Adds Max tokens") || !strings.HasPrefix(d.Versions[3].Changelog, "First release") {
			t.Errorf("versions = %+v", d.Versions)
		}
		if d.UsedBy == nil || len(d.UsedBy) != 0 {
			t.Errorf("usedBy of a node not installed = %v, want []", d.UsedBy)
		}

		// A member may read but not install.
		member := a.team[edgeflow.RoleMember]
		checkError(t, w.do("POST", "/api/marketplace/install", `{"nodeId":"openai-chat","version":"1.0.0"}`, member.session), 403, "forbidden", "")
		w.must(201, "POST", "/api/marketplace/install", `{"nodeId":"openai-chat","version":"1.0.0"}`, a.session)

		// A workflow deploys a version that uses the node.
		wf := w.must(201, "POST", "/api/workflows", `{"name":"Digest"}`, a.keyAll).str(t, "id")
		ctx := context.Background()
		v := &edgeflow.Version{WorkflowID: wf, IR: []byte(`{}`), Code: "//", NodeTypes: []string{"openai-chat@1.0.0"}}
		if err := w.store.CreateVersion(ctx, v); err != nil {
			t.Fatal(err)
		}
		dep := &edgeflow.Deployment{WorkflowID: wf, ProjectID: a.projectID, VersionID: v.ID, ConnectionID: a.connectionID,
			Status: edgeflow.DeploymentActive, ScriptName: "ef-" + wf}
		if err := w.store.RecordDeployment(ctx, dep); err != nil {
			t.Fatal(err)
		}
		want := []map[string]any{{"id": wf, "name": "Digest", "projectId": a.projectID}}
		if err := json.Unmarshal(w.must(200, "GET", "/api/marketplace/openai-chat", "", a.keyRead).body, &d); err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(d.UsedBy) != fmt.Sprint(want) {
			t.Errorf("usedBy = %v, want %v", d.UsedBy, want)
		}
		r := w.do("POST", "/api/marketplace/uninstall", `{"nodeId":"openai-chat"}`, a.session)
		checkError(t, r, 409, "conflict", "")
		var refusal struct {
			Error   string           `json:"error"`
			Details []map[string]any `json:"details"`
		}
		if err := json.Unmarshal(r.body, &refusal); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(refusal.Error, `"Digest"`) || fmt.Sprint(refusal.Details) != fmt.Sprint(want) {
			t.Errorf("refusal = %s", r.body)
		}
		if _, err := w.store.RemoveDeployment(ctx, wf, a.connectionID, dep.CreatedAt); err != nil {
			t.Fatal(err)
		}
		w.must(200, "POST", "/api/marketplace/uninstall", `{"nodeId":"openai-chat"}`, a.session)
	})
}
