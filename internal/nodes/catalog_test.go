package nodes_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/nodes"
	"github.com/edgeflow/edgeflow/internal/nodes/registry"
	embedded "github.com/edgeflow/edgeflow/registry"
	"github.com/google/go-cmp/cmp"
)

func TestBuiltins(t *testing.T) {
	t.Parallel()
	var ids []string
	for _, d := range nodes.Builtins() {
		ids = append(ids, d.ID)
		if !d.Builtin || d.Version != nodes.BuiltinVersion || d.Name == "" || d.Description == "" || d.Category == "" {
			t.Errorf("%s: incomplete definition %+v", d.ID, d)
		}
		// Every builtin definition is a valid marketplace-format definition
		// (except for the id rules and the builtin-only branches field).
		raw, err := json.Marshal(d)
		if err != nil {
			t.Fatal(err)
		}
		var rd registry.Definition
		if err := json.Unmarshal(raw, &rd); err != nil {
			t.Errorf("%s: not in the node.json shape: %v", d.ID, err)
		}
		for name, f := range d.ConfigSchema {
			if f.Label == "" {
				t.Errorf("%s.%s: no label", d.ID, name)
			}
			if (f.Type == ir.FieldSelect || f.Type == ir.FieldMultiselect) && len(f.Options) == 0 {
				t.Errorf("%s.%s: select without options", d.ID, name)
			}
		}
	}
	want := []string{"step", "sleep", "sleep_until", "branch", "parallel", "race", "http_request", "wait_for_event", "try_catch", "loop", "break", "sub_workflow", "agent"}
	if diff := cmp.Diff(want, ids); diff != "" {
		t.Errorf("builtin types (-want +got):\n%s", diff)
	}
	for _, id := range want {
		if !ir.IsBuiltinType(id) {
			t.Errorf("ir.IsBuiltinType(%q) = false", id)
		}
	}
	notInFunctions := map[string]bool{"sleep": true, "sleep_until": true, "wait_for_event": true}
	for _, d := range nodes.Builtins() {
		if d.AllowedInFunctions == notInFunctions[d.ID] {
			t.Errorf("%s: allowedInFunctions = %v", d.ID, d.AllowedInFunctions)
		}
	}
}

func TestBuiltinDataContract(t *testing.T) {
	t.Parallel()
	// The data fields of docs/ir.md, "Builtin node types".
	want := map[string][]string{
		"step":           {"backoff", "code", "retryDelay", "retryLimit", "timeout"},
		"sleep":          {"duration"},
		"sleep_until":    {"timestamp"},
		"branch":         {"branches"},
		"parallel":       {},
		"race":           {},
		"http_request":   {"allowErrorStatus", "body", "headers", "method", "url"},
		"wait_for_event": {"eventType", "timeout"},
		"try_catch":      {},
		"loop":           {"collection", "condition", "count", "indexVar", "itemVar", "loopType", "maxIterations"},
		"break":          {"condition"},
		"sub_workflow":   {"input", "timeout", "waitForCompletion", "workflowId"},
		"agent": {"apiKey", "approval", "approvalTimeout", "baseUrl", "maxTokens", "maxTotalTokens", "maxTurns",
			"model", "output", "prompt", "provider", "system", "tools"},
	}
	for _, d := range nodes.Builtins() {
		var got []string
		for k := range d.ConfigSchema {
			got = append(got, k)
		}
		slices.Sort(got)
		if got == nil {
			got = []string{}
		}
		if diff := cmp.Diff(want[d.ID], got); diff != "" {
			t.Errorf("%s fields (-want +got):\n%s", d.ID, diff)
		}
	}
	step, _ := nodes.BuiltinCatalog().Get("http_request")
	if f := step.ConfigSchema["headers"]; f.Type != ir.FieldJSON {
		t.Errorf("http_request headers is %q, want json (a string holding JSON)", f.Type)
	}
}

func registryEntries(t *testing.T) []nodes.Entry {
	t.Helper()
	c, err := registry.Load(embedded.FS())
	if err != nil {
		t.Fatal(err)
	}
	entries, err := nodes.CatalogEntries(c)
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

func TestCatalogWithMarketplace(t *testing.T) {
	t.Parallel()
	entries := registryEntries(t)
	if len(entries) < 18 {
		t.Fatalf("only %d registry entries", len(entries))
	}
	c := nodes.NewCatalog(entries...)
	list := c.List()
	if list[0].ID != "step" || list[11].ID != "sub_workflow" || len(list) < 12+18 {
		t.Fatalf("List: %d definitions starting %s", len(list), list[0].ID)
	}
	if !slices.IsSortedFunc(list[12:], func(a, b ir.NodeDefinition) int { return cmpString(a.ID, b.ID) }) {
		t.Error("marketplace nodes are not sorted by id")
	}
	versions := c.Versions("openai-chat")
	if diff := cmp.Diff([]string{"1.0.0", "1.1.0", "1.2.0", "1.3.0"}, versions); diff != "" {
		t.Errorf("openai versions (-want +got):\n%s", diff)
	}
	latest, ok := c.Get("openai-chat")
	if !ok || latest.Version != "1.3.0" || latest.Builtin {
		t.Errorf("Get(openai) = %s %v builtin=%v", latest.Version, ok, latest.Builtin)
	}
	if _, ok := c.Lookup("openai-chat", "9.9.9"); ok {
		t.Error("Lookup of a missing version succeeded")
	}
	if c.Versions("nope") != nil {
		t.Error("Versions of an unknown type")
	}
	src, sum, ok := c.Template("slack-message", "1.0.0")
	if !ok || src == "" || sum == "" {
		t.Errorf("Template(slack): ok=%v", ok)
	}
	if _, _, ok := c.Template("step", nodes.BuiltinVersion); ok {
		t.Error("builtins have no template")
	}
	slack, _ := c.Get("slack-message")
	if diff := cmp.Diff([]string{"SLACK_BOT_TOKEN"}, nodes.SecretEnvVars(&slack)); diff != "" {
		t.Errorf("slack secrets (-want +got):\n%s", diff)
	}
	// A builtin id among the entries never replaces the builtin.
	fake := nodes.Entry{Definition: ir.NodeDefinition{ID: "step", Version: "9.0.0"}}
	if v := nodes.NewCatalog(fake).Versions("step"); !slices.Equal(v, []string{nodes.BuiltinVersion}) {
		t.Errorf("builtin replaced: %v", v)
	}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func TestTemplates(t *testing.T) {
	t.Parallel()
	c := nodes.NewCatalog(registryEntries(t)...)
	tpl := c.Templates()
	http := tpl["http_request"]
	if diff := cmp.Diff(nodes.TemplateData{
		Version: "1.0.0", Builtin: true,
		Defaults:      map[string]any{"method": "GET", "allowErrorStatus": false},
		Required:      []string{"url"},
		SecretEnvVars: []string{},
	}, http); diff != "" {
		t.Errorf("http_request template (-want +got):\n%s", diff)
	}
	slack := tpl["slack-message"]
	if slack.Builtin || slack.Template == "" || slack.Checksum == "" || !slices.Contains(slack.SecretEnvVars, "SLACK_BOT_TOKEN") {
		t.Errorf("slack template data incomplete: %+v", slack)
	}
	if _, err := json.Marshal(tpl); err != nil {
		t.Fatal(err)
	}
}

// TestValidateMarketplaceNodes validates IRs using marketplace nodes: data
// checked against their config schema, versions pinned, secrets never in
// data, functions refusing nodes not allowed there.
func TestValidateMarketplaceNodes(t *testing.T) {
	t.Parallel()
	c := nodes.NewCatalog(registryEntries(t)...)
	slack, _ := c.Get("slack-message")
	data := map[string]any{}
	for name, f := range slack.ConfigSchema {
		if f.Required && f.Type != ir.FieldSecret && f.Default == nil {
			switch f.Type {
			case ir.FieldNumber:
				data[name] = 1.0
			case ir.FieldBoolean:
				data[name] = true
			case ir.FieldSelect:
				data[name] = f.Options[0]
			default:
				data[name] = "x {{start.v}}"
			}
		}
	}
	build := func(version string, data map[string]any) []byte {
		a := ir.ArtifactIR{
			Metadata: ir.Metadata{Name: "m", Version: 1},
			Nodes: []ir.Node{
				{ID: "start", Type: "step", Name: "Start", Version: "1.0.0", Provider: "cloudflare", Data: map[string]any{"code": "return {v: 1};"}},
				{ID: "post", Type: "slack-message", Name: "Post", Version: version, Provider: "cloudflare", Data: data},
			},
			Edges:       []ir.Edge{{ID: "e1", Source: "start", Target: "post"}},
			EntryNodeID: "start",
		}
		raw, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
	opts := ir.Options{Nodes: c}
	if _, ps := ir.Validate(build(slack.Version, data), opts); len(ps) > 0 {
		t.Fatalf("valid slack IR: %+v", ps)
	}
	var secret string
	for name, f := range slack.ConfigSchema {
		if f.Type == ir.FieldSecret {
			secret = name
		}
	}
	bad := map[string]any{"surprise": 1.0}
	if secret != "" {
		bad[secret] = "xoxb-leaked"
	}
	_, ps := ir.Validate(build("0.0.1", data), opts)
	if len(ps) != 1 || ps[0].Path != "/nodes/1/version" || ps[0].Rule != ir.RuleNodeType {
		t.Errorf("unknown version: %+v", ps)
	}
	_, ps = ir.Validate(build(slack.Version, bad), opts)
	rules := map[string]string{}
	for _, p := range ps {
		rules[p.Path] = p.Rule
	}
	if rules["/nodes/1/data/surprise"] != ir.RuleNodeData {
		t.Errorf("unknown field not reported: %+v", ps)
	}
	if secret != "" && rules["/nodes/1/data/"+secret] != ir.RuleNodeData {
		t.Errorf("secret in data not reported: %+v", ps)
	}
	// Without the marketplace the type is unknown.
	_, ps = ir.Validate(build(slack.Version, data), ir.Options{Nodes: nodes.BuiltinCatalog()})
	if len(ps) != 1 || ps[0].Path != "/nodes/1/type" {
		t.Errorf("builtin catalog: %+v", ps)
	}
}

// TestDocsDescribeBuiltins checks that docs/nodes.md names every builtin
// type and each of its data fields.
func TestDocsDescribeBuiltins(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/nodes.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range nodes.Builtins() {
		i := strings.Index(string(doc), "| `"+d.ID+"` |")
		if i < 0 {
			t.Errorf("docs/nodes.md has no row for %s", d.ID)
			continue
		}
		row, _, _ := strings.Cut(string(doc[i:]), "\n")
		for name := range d.ConfigSchema {
			if !strings.Contains(row, "`"+name+"`") {
				t.Errorf("docs/nodes.md, %s: field %s is not described", d.ID, name)
			}
		}
	}
}
