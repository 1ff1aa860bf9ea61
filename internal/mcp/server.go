// Package mcp is edgeflow's Model Context Protocol server: the tools,
// resources and prompt through which an AI assistant builds, checks,
// deploys, runs and debugs workflows (docs/agents.md). It is built on the
// official Go SDK (github.com/modelcontextprotocol/go-sdk).
//
// One tool set serves two transports: Streamable HTTP at /api/mcp of the
// API server (HTTPHandler, whose tools call the API in-process through its
// own handler chain as the caller), and standard input/output for
// `edgeflow mcp` (ServeStdio, whose tools call a server's API over HTTP with
// the CLI's login). Every tool is a route of the API (or a few of them): it
// needs that route's scope, acts in the API key's project, and takes its
// input and output schemas from the API's OpenAPI document, so the tools
// cannot say anything the API does not.
package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/edgeflow/edgeflow/docs"
	"github.com/edgeflow/edgeflow/examples"
)

// Options configure the MCP server.
type Options struct {
	// OpenAPI is the API's OpenAPI document (api.OpenAPI()), the source of
	// every tool's schemas and scope (required).
	OpenAPI []byte
	// Backend returns the backend a tool call's API requests go through
	// (required).
	Backend func(req *sdk.CallToolRequest) Backend
	// Version is edgeflow's version, as the server names itself.
	Version string
	// Logger receives the SDK's diagnostics; nil discards them.
	Logger *slog.Logger
}

// instructions are what the server tells an assistant at initialization.
const instructions = `edgeflow runs durable workflows on Cloudflare Workers (or the server's local edge). A workflow is a JSON IR: nodes (steps of JavaScript, http requests, branches, loops, waits for events, …) joined by edges. To build and run one: read edgeflow://docs/ir.md (the IR) and an example (edgeflow://examples/hello.json), list_node_types for the node types and their data fields, create_workflow, validate_ir until it is valid, submit_version, list_connections (provider "local" is the server's own edge), deploy, trigger with wait, then get_run for its steps, output and logs. Every tool acts in the project of the API key.`

// NewServer builds the MCP server: every tool with its schemas from the
// OpenAPI document, the IR reference and the examples as resources, and the
// build-workflow prompt.
func NewServer(opts Options) (*sdk.Server, error) {
	if opts.Backend == nil {
		return nil, fmt.Errorf("mcp: Options.Backend is required")
	}
	d, err := parseDoc(opts.OpenAPI)
	if err != nil {
		return nil, err
	}
	version := opts.Version
	if version == "" {
		version = "dev"
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "edgeflow", Title: "edgeflow", Version: version},
		&sdk.ServerOptions{Instructions: instructions, Logger: opts.Logger})
	for _, t := range tools() {
		def, err := t.sdkTool(d)
		if err != nil {
			return nil, err
		}
		s.AddTool(def, t.handle(opts.Backend))
	}
	addResources(s)
	addPrompt(s)
	return s, nil
}

// resource is one document the server offers.
type resource struct {
	uri, name, title, description, mime string
	text                                []byte
}

// resources are the IR reference, the node reference and every example IR
// with its params.
func resources() []resource {
	list := []resource{
		{uri: "edgeflow://docs/ir.md", name: "ir.md", title: "The workflow IR", mime: "text/markdown", text: docs.IRReference(),
			description: "The reference of the workflow IR: its fields, edges and containers, validation rules (with the rule names errors carry), durations, expressions, node values and the builtin node types."},
		{uri: "edgeflow://docs/nodes.md", name: "nodes.md", title: "The builtin nodes", mime: "text/markdown", text: docs.NodeReference(),
			description: "The builtin node types: what each does, its data fields and its value."},
	}
	for _, ex := range examples.All() {
		list = append(list, resource{
			uri: "edgeflow://examples/" + ex.Name + ".json", name: ex.Name + ".json", title: "Example: " + ex.Name, mime: "application/json", text: ex.IR,
			description: fmt.Sprintf("A complete IR that runs as it is (submit it as a version's ir). Trigger it with the params %s.", compact(ex.Params)),
		})
	}
	return list
}

func addResources(s *sdk.Server) {
	for _, r := range resources() {
		s.AddResource(&sdk.Resource{URI: r.uri, Name: r.name, Title: r.title, Description: r.description, MIMEType: r.mime, Size: int64(len(r.text))},
			func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
				return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{{URI: r.uri, MIMEType: r.mime, Text: string(r.text)}}}, nil
			})
	}
}

// promptRules frame the IR for an assistant writing one: the rules a first
// IR most often breaks, from docs/ir.md, which the prompt also embeds.
const promptRules = `Build an edgeflow workflow that does the following:

%s

An edgeflow workflow is a JSON IR: {"metadata": {"name"}, "nodes": [...], "edges": [...], "entryNodeId"}. The rules:
- Each node is {"id", "type", "name", "data"}: id a slug (letters, digits, - and _), unique; name a display name; data the fields of the node type (list_node_types gives each type's configSchema; docs below).
- A step node's data.code is the body of an async JavaScript function; what it returns is the node's value. It reads the run's params as event.payload.
- {{node_id.path}} reads the value of a node that is upstream of the one using it (on every path from the entry node); {{env.NAME}} an environment variable or secret; {{event.payload.x}} the params. In code, an expression becomes a JavaScript value.
- Edges are {"id", "source", "target", "label"?}: a plain node has at most one outgoing edge and no label; containers label theirs (branch: the arm's label or "then"; loop: "body" and "then"; try_catch: "try", "catch", "finally"?, "then"; parallel and race: one edge per lane and "then"). No cycles; every node reachable from entryNodeId.
- Durations are seconds or strings such as "30 seconds" or "2 hours".

Then, with the tools: create_workflow, validate_ir until it reports no problem (each problem has a JSON pointer into the IR, the node's id and the rule), submit_version, list_connections, deploy, trigger with wait and the params, and get_run to read each step's output and the logs if the run errored.`

func addPrompt(s *sdk.Server) {
	s.AddPrompt(&sdk.Prompt{
		Name:        "build-workflow",
		Title:       "Build a workflow",
		Description: "Frames the IR's rules and the tools' order for building, deploying and running a workflow that does what the description says.",
		Arguments:   []*sdk.PromptArgument{{Name: "description", Description: "What the workflow should do.", Required: true}},
	}, func(_ context.Context, req *sdk.GetPromptRequest) (*sdk.GetPromptResult, error) {
		desc := req.Params.Arguments["description"]
		if desc == "" {
			return nil, fmt.Errorf("the argument description is required: say what the workflow should do")
		}
		hello, ref := findResource("edgeflow://examples/hello.json"), findResource("edgeflow://docs/ir.md")
		return &sdk.GetPromptResult{
			Description: "Build, deploy and run an edgeflow workflow",
			Messages: []*sdk.PromptMessage{
				{Role: "user", Content: &sdk.TextContent{Text: fmt.Sprintf(promptRules, desc)}},
				{Role: "user", Content: &sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: hello.uri, MIMEType: hello.mime, Text: string(hello.text)}}},
				{Role: "user", Content: &sdk.EmbeddedResource{Resource: &sdk.ResourceContents{URI: ref.uri, MIMEType: ref.mime, Text: string(ref.text)}}},
			},
		}, nil
	})
}

// findResource is the resource of uri.
func findResource(uri string) resource {
	for _, r := range resources() {
		if r.uri == uri {
			return r
		}
	}
	panic("mcp: no resource " + uri)
}

// compact is a JSON document on one line.
func compact(raw []byte) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}
