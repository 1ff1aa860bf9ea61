package api

// importRouteDocs document the imports (imports.go) and the export
// (exports.go): docs/import.md and docs/export.md say what they convert.
var importRouteDocs = map[string]RouteDoc{
	"POST /api/import/n8n": {
		Summary: "Converts an n8n workflow (as n8n exports it) into an IR, with a report of what became of each node; with `?create=true` also creates the workflow.",
		Answer: "`{ir, report: {converted: [{n8nNode, nodeIds}], approximated: [{n8nNode, what}], unsupported: [{n8nNode, type, " +
			"reason, nodeIds?}], envVars: [{name, secret, why}], marketplace}, triggerCode?}`. Nothing is stored (200). With " +
			"`?create=true` (which needs the write scope and the member role) the IR must pass every check of a version " +
			"submit; the workflow is created with it as its first version and the answer (201) adds `workflow` and " +
			"`version`. The body is `{workflow, name?, subWorkflows?}` or the n8n workflow itself; `subWorkflows` maps " +
			"n8n workflow ids to edgeflow workflow ids, so that Execute Workflow nodes calling them become `sub_workflow` " +
			"nodes. Every n8n node is in `converted` or in `unsupported` (an unsupported node becomes a step that throws " +
			"`not converted: <type>`). At most 4 MiB and 1,000 nodes.",
		Errors: []ErrorCase{
			{400, "invalid_ir", "with `?create=true`: the converted IR does not pass a version submit's checks (a marketplace node the " +
				"organization has not installed; `details` name each problem)"},
			{403, "forbidden", "`?create=true` with a key without the write scope, or for a viewer"},
			{422, "validation_failed", "the workflow is not an n8n workflow (`details` name the field: `/workflow/nodes/3/type`), or is " +
				"past the bounds; `create` is not `true` or `false`"},
		},
		BadBody: `{"workflow": {"nodes": "none"}}`,
		Example: exImportN8n,
	},
	"POST /api/import/awaitstep": {
		Summary: "Converts an AwaitStep IR (its examples and its exports, as they are) into an edgeflow IR, with a report; with `?create=true` also creates the workflow.",
		Answer: "The answer of `POST /api/import/n8n`, with `node` (the AwaitStep node's id) where n8n's has `n8nNode`. The body is " +
			"`{ir, name?, subWorkflows?}` or the AwaitStep IR itself.",
		Errors: []ErrorCase{
			{400, "invalid_ir", "with `?create=true`: the converted IR does not pass a version submit's checks"},
			{403, "forbidden", "`?create=true` with a key without the write scope, or for a viewer"},
			{422, "validation_failed", "the IR is not an AwaitStep IR (`details` name the field), or is past the bounds"},
		},
		BadBody: `{"ir": {"nodes": "none"}}`,
		Example: exImportAwaitStep,
	},
	"GET /api/workflows/{workflowId}/versions/{versionId}/export": {
		Summary: "Downloads the version as a plain Cloudflare Workers project that `wrangler deploy` deploys without edgeflow (`?format=wrangler`).",
		Answer: "A gzipped tar (`Content-Disposition: attachment; filename=\"<name>-v<number>-wrangler.tar.gz\"`) of " +
			"`wrangler.jsonc` (name, main, compatibility date and flags as edgeflow deploys them, the Workflow binding, " +
			"KV/D1/R2 bindings with their ids marked `FILL-IN`, `vars` by name, cron `triggers`), `src/` (the generated " +
			"TypeScript), `package.json` (the version's dependencies, `wrangler` as a dev dependency), `README.md` (the " +
			"secrets to set with `wrangler secret put`, how to deploy and to start a run) and `.gitignore`. It holds no " +
			"value of a variable or secret. docs/export.md.",
		Errors: []ErrorCase{
			{400, "invalid_ir", "the version no longer validates (a marketplace node it uses was uninstalled)"},
			{422, "validation_failed", "`format` missing or not `wrangler`"},
		},
		Example: exVersionExport,
	},
}

var (
	exImportN8n = Example{Path: "/api/import/n8n",
		Body: `{"workflow": {"name": "Greeting", "nodes": [
  {"id": "1", "name": "When clicking 'Execute workflow'", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "position": [0, 0], "parameters": {}},
  {"id": "2", "name": "Greet", "type": "n8n-nodes-base.set", "typeVersion": 3.4, "position": [220, 0],
   "parameters": {"assignments": {"assignments": [{"id": "a", "name": "greeting", "value": "={{ 'Hello ' + $json.name }}", "type": "string"}]}, "options": {}}}],
  "connections": {"When clicking 'Execute workflow'": {"main": [[{"node": "Greet", "type": "main", "index": 0}]]}}}}`,
		Answer: `{"ir": {"metadata": {"name": "Greeting", "description": "Imported from n8n."},
  "nodes": [{"id": "when-clicking-execute-workflow", "type": "step", "name": "When clicking 'Execute workflow'", "position": {"x": 0, "y": 0}, "version": "1.0.0", "provider": "cloudflare",
    "data": {"code": "// n8n node \"When clicking 'Execute workflow'\" (n8n-nodes-base.manualTrigger, version 1).\n// A manual run starts with one empty item.\nreturn [{ json: {} }];\n"}},
   {"id": "greet", "type": "step", "name": "Greet", "position": {"x": 220, "y": 0}, "version": "1.0.0", "provider": "cloudflare",
    "data": {"code": "// n8n node \"Greet\" (n8n-nodes-base.set, version 3.4).\nlet items = structuredClone({{when-clicking-execute-workflow}});\n…\nreturn items.map((item, $itemIndex) => {\n  const $json = item.json;\n  const json = {};\n  $setPath(json, \"greeting\", $setType(\"greeting\", \"string\", ('Hello ' + $json.name), false, 3.4), true);\n  return { json, pairedItem: { item: $itemIndex } };\n});\n"}}],
  "edges": [{"id": "e1", "source": "when-clicking-execute-workflow", "target": "greet"}], "entryNodeId": "when-clicking-execute-workflow", "trigger": {"type": "manual"}},
 "report": {"converted": [{"n8nNode": "When clicking 'Execute workflow'", "nodeIds": ["when-clicking-execute-workflow"]}, {"n8nNode": "Greet", "nodeIds": ["greet"]}],
  "approximated": [], "unsupported": [], "envVars": [], "marketplace": []}}`, Partial: true}
	exImportAwaitStep = Example{Path: "/api/import/awaitstep",
		Body: `{"ir": {"metadata": {"name": "simple-workflow", "version": 1, "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-01T00:00:00Z"},
  "nodes": [{"id": "step-1", "type": "step", "name": "Fetch data", "position": {"x": 0, "y": 0}, "version": "1.0.0", "provider": "cloudflare",
    "data": {"code": "const res = await fetch('https://api.example.com/data'); return res.json();"}},
   {"id": "sleep-1", "type": "sleep", "name": "Wait 10s", "position": {"x": 0, "y": 100}, "version": "1.0.0", "provider": "cloudflare", "data": {"duration": "10 seconds"}}],
  "edges": [{"id": "e1", "source": "step-1", "target": "sleep-1"}], "entryNodeId": "step-1"}}`,
		Answer: `{"ir": {"metadata": {"name": "simple-workflow"},
  "nodes": [{"id": "step-1", "type": "step", "name": "Fetch data", "position": {"x": 0, "y": 0}, "version": "1.0.0", "provider": "cloudflare",
    "data": {"code": "const res = await fetch('https://api.example.com/data'); return res.json();"}},
   {"id": "sleep-1", "type": "sleep", "name": "Wait 10s", "position": {"x": 0, "y": 100}, "version": "1.0.0", "provider": "cloudflare", "data": {"duration": "10 seconds"}}],
  "edges": [{"id": "e1", "source": "step-1", "target": "sleep-1"}], "entryNodeId": "step-1"},
 "report": {"converted": [{"node": "step-1", "nodeIds": ["step-1"]}, {"node": "sleep-1", "nodeIds": ["sleep-1"]}],
  "approximated": [], "unsupported": [], "envVars": [], "marketplace": []}}`}
	exVersionExport = Example{Path: "/api/workflows/" + exWorkflow + "/versions/" + exVersion + "/export?format=wrangler",
		Archive: []string{".gitignore", "README.md", "package.json", "src/index.ts", "wrangler.jsonc"}}
)
