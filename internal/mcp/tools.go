package mcp

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// tool is one tool of the server: the route it stands for (whose scope it
// needs), what it says of itself, its hints, its schemas and its work.
type tool struct {
	name, title, description string
	// route is the API route the tool stands for: its scope is the tool's,
	// its parameters, body and answer give the tool's schemas.
	route string
	// readOnly: the tool changes nothing. destructive: it may replace or
	// undo what exists, or run workflow code that may. openWorld: it
	// reaches outside edgeflow (a provider account, a workflow's code).
	readOnly, destructive, openWorld bool
	input                            func(d *apiDoc, o operation) map[string]any
	output                           func(d *apiDoc, o operation) map[string]any
	run                              func(c *call) (*outcome, error)

	// params are the input schema's properties, filled when the tool is
	// registered.
	params map[string]any
}

// tools are the server's tools, in the order a client lists them.
func tools() []*tool {
	return append(workflowTools(), runTools()...)
}

// sdkTool builds the tool's MCP definition from the OpenAPI document.
func (t *tool) sdkTool(d *apiDoc) (*sdk.Tool, error) {
	o, err := d.operation(t.route)
	if err != nil {
		return nil, err
	}
	in := t.input(d, o)
	t.params, _ = in["properties"].(map[string]any)
	desc := t.description
	if o.scope != "" {
		desc += fmt.Sprintf(" Needs the API key's %q scope (it stands for %s).", o.scope, o.key)
	}
	destructive, openWorld := t.destructive, t.openWorld
	return &sdk.Tool{
		Name:         t.name,
		Title:        t.title,
		Description:  desc,
		InputSchema:  d.bundle(in),
		OutputSchema: d.bundle(t.output(d, o)),
		Annotations: &sdk.ToolAnnotations{
			Title:           t.title,
			ReadOnlyHint:    t.readOnly,
			DestructiveHint: &destructive,
			IdempotentHint:  t.readOnly,
			OpenWorldHint:   &openWorld,
		},
	}, nil
}

// page is the input of a list: cursor and limit, as the route reads them.
func page(o operation) map[string]any {
	return map[string]any{
		"cursor": o.queryParameter("cursor"),
		"limit":  described(o.queryParameter("limit"), "Items per page, 1 to 100 (default 50)."),
	}
}

// reply is the route's answer, unchanged.
func reply(_ *apiDoc, o operation) map[string]any { return o.reply() }

// count says how many items a page holds and whether more follow.
func count(raw json.RawMessage, noun string) string {
	var p struct {
		Data       []json.RawMessage `json:"data"`
		NextCursor *string           `json:"nextCursor"`
	}
	json.Unmarshal(raw, &p)
	s := fmt.Sprintf("%d %s", len(p.Data), noun)
	if p.NextCursor != nil && *p.NextCursor != "" {
		s += "; more follow: call again with cursor " + *p.NextCursor
	}
	return s + "."
}

func workflowTools() []*tool {
	return []*tool{
		{
			name: "list_workflows", title: "List workflows", readOnly: true,
			description: "Lists the workflows and functions of the API key's project, newest first, each with its id, name, " +
				"kind, current and active (deployed) version ids.",
			route:  "GET /api/workflows",
			input:  func(_ *apiDoc, o operation) map[string]any { return object(page(o)) },
			output: reply,
			run: func(c *call) (*outcome, error) {
				q, err := c.query("cursor", "limit")
				if err != nil {
					return nil, err
				}
				var raw json.RawMessage
				if err := c.do(http.MethodGet, "/api/workflows", q, nil, &raw); err != nil {
					return nil, err
				}
				return &outcome{raw, count(raw, "workflows")}, nil
			},
		},
		{
			name: "get_workflow", title: "Get a workflow", readOnly: true,
			description: "Reads a workflow: its record, the IR of its current version (or of versionId), the summaries of " +
				"all its versions, its active deployment and every deployment it has had.",
			route: "GET /api/workflows/{id}/full",
			input: func(_ *apiDoc, o operation) map[string]any {
				return object(map[string]any{
					"workflowId": str("The workflow's id (wf_…)."),
					"versionId":  described(o.queryParameter("version"), "A version's id (ver_…); default: the current version."),
				}, "workflowId")
			},
			output: func(d *apiDoc, o operation) map[string]any {
				s := d.resolved("WorkflowFull")
				s["properties"].(map[string]any)["deployments"] = map[string]any{"type": "array", "items": d.component("Deployment"),
					"description": "The workflow's deployments, newest first (at most 100)."}
				s["required"] = append(s["required"].([]any), "deployments")
				return s
			},
			run: runGetWorkflow,
		},
		{
			name: "list_node_types", title: "List node types", readOnly: true,
			description: "Lists the node types an IR may use: the builtin nodes and the marketplace nodes installed in the " +
				"organization, each with its configSchema (the fields of a node's data) and outputSchema (what its value " +
				"looks like, for {{node.path}} expressions downstream).",
			route: "GET /api/nodes",
			input: func(_ *apiDoc, o operation) map[string]any {
				p := page(o)
				p["limit"] = described(o.queryParameter("limit"), "Items per page, 1 to 100 (default 100: every builtin at once).")
				return object(p)
			},
			output: reply,
			run: func(c *call) (*outcome, error) {
				q, err := c.query("cursor", "limit")
				if err != nil {
					return nil, err
				}
				if q.Get("limit") == "" {
					q.Set("limit", "100")
				}
				var raw json.RawMessage
				if err := c.do(http.MethodGet, "/api/nodes", q, nil, &raw); err != nil {
					return nil, err
				}
				return &outcome{raw, count(raw, "node types")}, nil
			},
		},
		{
			name: "validate_ir", title: "Validate an IR", readOnly: true,
			description: "Checks an IR as submitting it as a version would, without storing anything: every problem at " +
				"once, each with the JSON pointer of the bad value (path), the node's id and the rule broken. The IR's " +
				"reference is the resource edgeflow://docs/ir.md; complete examples are edgeflow://examples/*.",
			route: "POST /api/ir/validate",
			input: func(_ *apiDoc, o operation) map[string]any {
				return object(map[string]any{
					"ir": described(o.bodyProperty("ir"), "The IR: {metadata, nodes, edges, entryNodeId, kind?, trigger?}."),
					"workflowId": described(o.bodyProperty("workflowId"),
						"Check the IR as a version of this workflow (its kind, the sub-workflows it may call)."),
				}, "ir")
			},
			output: reply,
			run: func(c *call) (*outcome, error) {
				var raw json.RawMessage
				if err := c.do(http.MethodPost, "/api/ir/validate", nil, c.body("ir", "workflowId"), &raw); err != nil {
					return nil, err
				}
				return &outcome{raw, validationSummary(raw)}, nil
			},
		},
		{
			name: "create_workflow", title: "Create a workflow",
			description: "Creates an empty workflow (kind \"workflow\", the default: a durable workflow that is triggered " +
				"and tracked as runs) or function (kind \"script\": an HTTP worker) in the API key's project. Give it its " +
				"IR with submit_version.",
			route: "POST /api/workflows",
			input: func(d *apiDoc, o operation) map[string]any {
				kind := d.resolved("Workflow")["properties"].(map[string]any)["kind"].(map[string]any)
				return object(map[string]any{
					"name":        described(o.bodyProperty("name"), "Its display name, unique in the project."),
					"description": o.bodyProperty("description"),
					"kind":        described(kind, "workflow (default) or script (a function); set only at creation."),
				}, "name")
			},
			output: reply,
			run: func(c *call) (*outcome, error) {
				var w struct {
					ID   string `json:"id"`
					Name string `json:"name"`
					Kind string `json:"kind"`
				}
				var raw json.RawMessage
				if err := c.do(http.MethodPost, "/api/workflows", nil, c.body("name", "description", "kind"), &raw); err != nil {
					return nil, err
				}
				json.Unmarshal(raw, &w)
				return &outcome{raw, fmt.Sprintf("Created %s %s (%q). Submit its IR with submit_version.", w.Kind, w.ID, w.Name)}, nil
			},
		},
		{
			name: "submit_version", title: "Submit a version",
			description: "Validates and compiles an IR and stores it as the workflow's next version, which becomes its " +
				"current version. An invalid IR stores nothing: the error lists every problem with its JSON pointer, node " +
				"and rule (validate_ir gives the same answer without storing).",
			route: "POST /api/workflows/{workflowId}/versions",
			input: func(_ *apiDoc, o operation) map[string]any {
				return object(map[string]any{
					"workflowId": str("The workflow's id (wf_…)."),
					"ir":         described(o.bodyProperty("ir"), "The IR (reference: edgeflow://docs/ir.md)."),
				}, "workflowId", "ir")
			},
			output: reply,
			run: func(c *call) (*outcome, error) {
				wf, err := c.id("workflowId")
				if err != nil {
					return nil, err
				}
				var v struct {
					ID      string `json:"id"`
					Version int    `json:"version"`
				}
				var raw json.RawMessage
				if err := c.do(http.MethodPost, "/api/workflows/"+wf+"/versions", nil, c.body("ir"), &raw); err != nil {
					return nil, err
				}
				json.Unmarshal(raw, &v)
				return &outcome{raw, fmt.Sprintf("Stored version %d (%s). Deploy it with deploy.", v.Version, v.ID)}, nil
			},
		},
		{
			name: "deploy", title: "Deploy a workflow", destructive: true, openWorld: true,
			description: "Deploys the workflow's current version (or versionId) to a connection (list_connections; a " +
				"connection of provider \"local\" is the server's own local edge) and waits for the result: the stages " +
				"it went through and the deployment. It replaces the workflow's deployment on that connection.",
			route: "POST /api/workflows/{workflowId}/deploy-stream",
			input: func(_ *apiDoc, o operation) map[string]any {
				return object(map[string]any{
					"workflowId":   str("The workflow's id (wf_…)."),
					"connectionId": described(o.bodyProperty("connectionId"), "The connection to deploy to (con_…)."),
					"versionId":    described(o.bodyProperty("versionId"), "The version to deploy (ver_…); default: the current one."),
				}, "workflowId", "connectionId")
			},
			output: func(d *apiDoc, _ operation) map[string]any {
				return object(map[string]any{
					"stages":     map[string]any{"type": "array", "items": d.component("DeployProgress"), "description": "The stages the deploy went through, in order."},
					"deployment": d.component("DeployResult"),
				}, "stages", "deployment")
			},
			run: runDeploy,
		},
		{
			name: "list_connections", title: "List connections", readOnly: true,
			description: "Lists the connections (provider accounts) the project may deploy to, credentials redacted. " +
				"Provider \"local\" is the server's own local edge.",
			route:  "GET /api/connections",
			input:  func(_ *apiDoc, o operation) map[string]any { return object(page(o)) },
			output: reply,
			run: func(c *call) (*outcome, error) {
				q, err := c.query("cursor", "limit")
				if err != nil {
					return nil, err
				}
				var raw json.RawMessage
				if err := c.do(http.MethodGet, "/api/connections", q, nil, &raw); err != nil {
					return nil, err
				}
				return &outcome{raw, count(raw, "connections")}, nil
			},
		},
	}
}

// runGetWorkflow reads the workflow whole and its deployments. The current
// version's generated code is left out: it is long, derived from the IR,
// and no tool takes it.
func runGetWorkflow(c *call) (*outcome, error) {
	wf, err := c.id("workflowId")
	if err != nil {
		return nil, err
	}
	v, err := c.str("versionId")
	if err != nil {
		return nil, err
	}
	q := map[string][]string{}
	if v != "" {
		q["version"] = []string{v}
	}
	var full map[string]json.RawMessage
	if err := c.do(http.MethodGet, "/api/workflows/"+wf+"/full", q, nil, &full); err != nil {
		return nil, err
	}
	var cur map[string]json.RawMessage
	if json.Unmarshal(full["currentVersion"], &cur) == nil && cur != nil {
		delete(cur, "code")
		full["currentVersion"], _ = json.Marshal(cur)
	}
	var deps struct {
		Data json.RawMessage `json:"data"`
	}
	if err := c.do(http.MethodGet, "/api/workflows/"+wf+"/deployments", map[string][]string{"limit": {"100"}}, nil, &deps); err != nil {
		return nil, err
	}
	full["deployments"] = deps.Data
	var w struct {
		Name string `json:"name"`
	}
	json.Unmarshal(full["workflow"], &w)
	summary := fmt.Sprintf("Workflow %q", w.Name)
	var ver struct {
		Version int `json:"version"`
	}
	if json.Unmarshal(cur["version"], &ver.Version) == nil && cur != nil {
		summary += fmt.Sprintf(", version %d", ver.Version)
	}
	if string(full["activeDeployment"]) == "null" {
		summary += ", not deployed."
	} else {
		summary += ", deployed."
	}
	return &outcome{full, summary}, nil
}

// validationSummary says whether an IR is valid, or its problems.
func validationSummary(raw json.RawMessage) string {
	var v struct {
		Valid  bool `json:"valid"`
		Errors []struct {
			Path    string `json:"path"`
			Message string `json:"message"`
			NodeID  string `json:"nodeId"`
			Rule    string `json:"rule"`
		} `json:"errors"`
	}
	json.Unmarshal(raw, &v)
	if v.Valid {
		return "The IR is valid."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "The IR has %d problems:", len(v.Errors))
	for _, e := range v.Errors {
		fmt.Fprintf(&b, "\n  %s", e.Path)
		if e.NodeID != "" {
			fmt.Fprintf(&b, " (node %s, rule %s)", e.NodeID, e.Rule)
		} else {
			fmt.Fprintf(&b, " (rule %s)", e.Rule)
		}
		fmt.Fprintf(&b, ": %s", e.Message)
	}
	return b.String()
}
