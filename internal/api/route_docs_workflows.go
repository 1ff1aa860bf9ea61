package api

// workflowRouteDocs document the routes of workflows and functions, their
// versions, node definitions and the IR, the marketplace, deployments, runs
// and provider resources (see route_docs.go).
var workflowRouteDocs = map[string]RouteDoc{
	"GET /api/workflows": {
		Summary: "Lists workflows and functions of the active project, newest first.",
		Answer: "`{data: [Workflow], nextCursor}`, newest first. A Workflow is `{id, organizationId, projectId, name, " +
			"description, kind, envVars, triggerCode, dependencies, deployConfig, currentVersionId, activeVersionId, " +
			"createdAt, updatedAt}`; secret values of `envVars` are `\"***\"`.",
		Example: exWorkflowList,
	},
	"POST /api/workflows": {
		Summary: "Creates a workflow or a function (kind script).",
		Answer:  "The Workflow. `kind` is `workflow` (the default) or `script` (a function).",
		BadBody: `{"name":"","kind":"cron"}`,
		Example: exWorkflowCreate,
	},
	"GET /api/workflows/{id}": {
		Summary: "One workflow.",
		Answer:  "The Workflow.",
		Example: exWorkflowGet,
	},
	"GET /api/workflows/{id}/full": {
		Summary: "The workflow with its current version (or ?version=), all version summaries and the active deployment.",
		Answer: "`{workflow, currentVersion, versions, activeDeployment}`: the Workflow; the current version (or the one " +
			"`?version=` names) with its `ir` and `code`, `null` when there is none; version summaries, highest first; the " +
			"newest active Deployment or `null`.",
		Example: exWorkflowFull,
	},
	"PATCH /api/workflows/{id}": {
		Summary: "Updates name, description, env vars, trigger code, dependencies or deploy config.",
		Answer:  "The Workflow. `envVars` replaces the list; `deployConfig` replaces the stored object; `kind` cannot change.",
		Errors: []ErrorCase{
			{422, "validation_failed", "also: `triggerCode` that does not parse (`details` give `line` and `column` in its text), a " +
				"dependency that is not a registry package with a semver range or dist-tag, `deployConfig.concurrency` outside " +
				"0 to 50,000, a `deployConfig.rateLimit` whose `limit` is outside 1 to 100,000, whose `period` is not whole " +
				"seconds from 1 second to 1 hour or whose `key` reads anything but `{{event.payload.<field>}}` (docs/deploy.md, " +
				"\"Flow control\")"},
		},
		BadBody: `{"envVars":[{"name":"lower","value":"x","isSecret":false}]}`,
		Example: exWorkflowUpdate,
	},
	"PATCH /api/workflows/{id}/move": {
		Summary: "Moves the workflow to another project of the organization.",
		Answer:  "The Workflow, now in the target project; its versions, deployments and runs move with it.",
		Errors: []ErrorCase{
			{404, "not_found", "the target project is not in the organization (for an API key: any project but its own)"},
			{409, "conflict", "the workflow is deployed on a connection of its current project"},
		},
		BadBody: `{"targetProjectId":""}`,
		Example: exWorkflowMove,
	},
	"DELETE /api/workflows/{id}": {
		Summary: "Deletes the workflow, taking its deployments down first (?force=true skips that), with its runs " +
			"(?runs=delete, the default) or keeping them (?runs=keep). Deleted runs' provider instances are deleted " +
			"too, in the background (docs/runs.md).",
		Errors: []ErrorCase{
			{403, "forbidden", "the workflow is deployed in a protected environment and the caller is below admin (with or " +
				"without ?force=true)"},
			{422, "validation_failed", "`runs` is neither `keep` nor `delete`"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		Example: exWorkflowDelete,
	},
	"GET /api/workflows/{workflowId}/versions": {
		Summary: "Lists version summaries, highest number first.",
		Answer: "`{data: [VersionSummary], nextCursor}`, highest number first. A VersionSummary is `{id, workflowId, version, " +
			"locked, nodeTypes, createdBy, createdAt}` (`nodeTypes`: the marketplace nodes the IR uses).",
		Example: exVersionList,
	},
	"POST /api/workflows/{workflowId}/versions": {
		Summary: "Validates, compiles and stores an IR as the next version.",
		Answer: "The VersionSummary of the new version. The stored IR has its defaults filled in and `metadata.version` set to " +
			"the version's number.",
		Errors: []ErrorCase{
			{400, "invalid_ir", "the IR fails validation; `details` hold one entry per problem: `{path, message, nodeId?, rule}`"},
			{422, "validation_failed", "also: step code or `triggerCode` that does not parse (`details`: `{path, message, nodeId?, field, " +
				"line, column}`)"},
		},
		BadBody: `{"ir":null}`,
		Example: exVersionSubmit,
	},
	"GET /api/workflows/{workflowId}/versions/{versionId}": {
		Summary: "One version with its IR and generated code.",
		Answer: "The version: the VersionSummary's fields plus `ir` (with its defaults filled in) and `code` (the generated " +
			"TypeScript).",
		Example: exVersionGet,
	},
	"PATCH /api/workflows/{workflowId}/versions/{versionId}": {
		Summary: "Locks or unlocks a version.",
		Answer:  "The VersionSummary.",
		BadBody: `{"locked":null}`,
		Example: exVersionUpdate,
	},
	"POST /api/workflows/{workflowId}/versions/{versionId}/revert": {
		Summary: "Creates a new version holding this version's IR.",
		Answer: "The VersionSummary of the new version, which holds the reverted version's IR; the reverted version is " +
			"unchanged.",
		Example: exVersionRevert,
	},
	"POST /api/workflows/{workflowId}/versions/{versionId}/test": {
		Summary: "Runs the version once on the local edge, without a connection or a deployment, and answers how it went.",
		Answer: "`{status, output, error, steps, logs, durationMs}` when the run ends (`complete`, `errored`, or `terminated` " +
			"after `timeoutSeconds`, default 120, at most 600), also for a run that errored: `error` is `null` when it " +
			"completed; `steps` as in a run's detail, a mocked step with state `mocked`; `logs` `[{timestamp, level, " +
			"message}]`. `mocks` maps node ids to outputs that those steps answer instead of running. The run uses a " +
			"temporary worker and Workflow in the organization's local edge account (binding the KV, D1 and R2 a local " +
			"deployment binds) and leaves no workflow, deployment, run, worker or Workflow behind.",
		Errors: []ErrorCase{
			{400, "bad_request", "the workflow is a function (invoke it instead)"},
			{400, "deploy_failed", "a variable or secret the version needs is not set"},
			{413, "payload_too_large", "`params` over 100 KB serialized"},
			{502, "provider_unavailable", "the server runs without the local edge (`--no-edge`)"},
		},
		BadBody: `{"params":[1]}`,
		Example: exVersionTest,
	},
	"POST /api/workflows/{workflowId}/test": {
		Summary: "Runs an IR of the workflow, saved or not (the editor's current one), once on the local edge and answers how it went.",
		Answer: "As the version test: `{status, output, error, steps, logs, durationMs, pinned}`. `ir` is checked as a version " +
			"submission is but not stored (no version, deployment, run, worker or Workflow is left behind). `mocks` maps node " +
			"ids to outputs those steps answer instead of running; the workflow's pinned outputs (`GET …/pinned-outputs`) " +
			"answer for the nodes `mocks` does not name, unless `usePinned` is `false`; `pinned` lists the nodes they " +
			"answered for (their steps show as `mocked`). A pin of a node the IR lacks, or of a node that is not a step " +
			"of its own, is left out.",
		Errors: []ErrorCase{
			{400, "invalid_ir", "the IR does not validate (every problem, with its path)"},
			{400, "bad_request", "the workflow is a function (invoke it instead)"},
			{400, "deploy_failed", "a variable or secret the IR needs is not set"},
			{413, "payload_too_large", "a body over 9 MB, or `params` over 100 KB serialized"},
			{422, "validation_failed", "`ir` missing or not an object, `mocks` naming a node the IR lacks or one that is not a step, `timeoutSeconds` out of 1–600 (the path of each)"},
			{502, "provider_unavailable", "the server runs without the local edge (`--no-edge`)"},
		},
		BadBody: `{"ir":[1]}`,
		Example: exDraftTest,
	},
	"GET /api/workflows/{workflowId}/pinned-outputs": {
		Summary: "The workflow's pinned outputs: per node, the output a test run answers instead of running the node.",
		Answer: "`{outputs, updatedAt, updatedBy}`: `outputs` by node id (`{}` and `updatedAt` `null` when never set). They are " +
			"kept beside the workflow's versions, never in an IR, so no deployment ever uses them.",
		Example: exPinnedOutputsGet,
	},
	"PUT /api/workflows/{workflowId}/pinned-outputs": {
		Summary: "Replaces the workflow's pinned outputs (`{}` unpins every node).",
		Answer:  "The pinned outputs as stored, as `GET` answers them.",
		Errors: []ErrorCase{
			{422, "validation_failed", "`outputs` missing, a key that is not a node id, more than 200 nodes, or over 512 KB serialized"},
		},
		BadBody: `{"outputs":{"bad id":1}}`,
		Example: exPinnedOutputsPut,
	},
	"DELETE /api/workflows/{workflowId}/versions/{versionId}": {
		Summary: "Deletes a version that is not locked, current or deployed.",
		Errors: []ErrorCase{
			{409, "conflict", "the version is locked, deployed, or the workflow's current version (`currentVersionId`)"},
		},
		Example: exVersionDelete,
	},
	"GET /api/openapi.json": {
		Summary: "This API's OpenAPI 3.1 document.",
		Answer:  "The OpenAPI 3.1 document of this API, built from the route table.",
		Example: exOpenAPI,
	},
	"GET /api/ir/schema.json": {
		Summary: "The JSON Schema (draft 2020-12) of the IR.",
		Answer:  "The IR's JSON Schema (draft 2020-12), `application/schema+json`.",
		Example: exIRSchema,
	},
	"POST /api/ir/validate": {
		Summary: "Checks an IR as a version submit would, reporting every problem at once; stores nothing.",
		Answer: "`{valid, errors: [{nodeId?, path, message, rule, field?, line?, column?}]}`: every problem a version submit " +
			"would refuse the IR for (the IR's rules of docs/ir.md, the organization's installed marketplace nodes, `kind` " +
			"against the workflow's, `sub-workflow` references outside the project, `code-syntax` of step code with " +
			"`field`, `line` and `column` inside the field's text, and `compile` when the compiler refuses it); `valid` is " +
			"`errors` being empty. With `workflowId` (a workflow or function of the active project) the IR is checked as a " +
			"version of that workflow; without it, on its own in the active project. The workflow's `triggerCode` is not " +
			"checked here (its PATCH checks it). Its rate class, `ir`, allows an editor to call it and compile about once " +
			"a second as the user types.",
		Errors: []ErrorCase{
			{422, "validation_failed", "`ir` missing or not an object (at `/ir`), `workflowId` naming no workflow of the active project (at " +
				"`/workflowId`)"},
		},
		BadBody: `{"ir":"not an object"}`,
		Example: exIRValidate,
	},
	"POST /api/ir/compile": {
		Summary: "Compiles an IR to the TypeScript a version of it gets; stores nothing.",
		Answer: "`{code}`: the generated TypeScript, as a version of the IR gets it (`GET` of a version answers the same " +
			"`code` for the version's `ir` and its `workflowId`): with `workflowId`, for that workflow (its id, name, env " +
			"vars, dependencies and trigger code); without, for a workflow with id `preview`. The header shows the IR's " +
			"`metadata.version`.",
		Errors: []ErrorCase{
			{400, "invalid_ir", "the IR has problems: `details` are the `errors` `POST /api/ir/validate` answers"},
			{422, "validation_failed", "`ir` missing or not an object (at `/ir`), `workflowId` naming no workflow of the active project (at " +
				"`/workflowId`)"},
		},
		BadBody: `{"ir":[]}`,
		Example: exIRCompile,
	},
	"GET /api/nodes": {
		Summary: "Node definitions: the builtins and the organization's installed marketplace nodes.",
		Answer: "`{data: [NodeDefinition], nextCursor}`: the builtins in the order of docs/nodes.md, then the organization's " +
			"installed marketplace nodes by id. A NodeDefinition is `{id, name, description, category, version, " +
			"configSchema, outputSchema, allowedInFunctions, builtin, ...}`.",
		Example: exNodeList,
	},
	"GET /api/nodes/templates": {
		Summary: "Node templates for editors.",
		Answer: "An object keyed by node id: `{version, builtin, defaults, required, secretEnvVars}`, what an editor needs to " +
			"fill in a node's `data`.",
		Example: exNodeTemplates,
	},
	"GET /api/nodes/{nodeId}": {
		Summary: "One node definition.",
		Answer:  "The node definition.",
		Example: exNodeGet,
	},
	"GET /api/marketplace": {
		Summary: "The marketplace catalog with installation status, searched by words and filtered by category.",
		Answer: "`{data: [CatalogNode], nextCursor}`, by node id: every catalog node with `installed`, `installedVersion` and " +
			"`updateAvailable` for the organization. A CatalogNode is `{id, name, description, category, tags, author, " +
			"license, latest, versions: [{version, checksum, changelog?}], installed, installedVersion, updateAvailable}`, " +
			"versions newest first. Filters, optional and combined: `q`, words (any case) that each occur in the node's " +
			"id, name, description or tags; `category`, one of the categories of docs/registry.md.",
		Errors: []ErrorCase{
			{422, "validation_failed", "`q` is over 100 characters, `category` is not one of the categories (the path is `?q` or " +
				"`?category`)"},
		},
		Example: exMarketplaceList,
	},
	"GET /api/marketplace/categories": {
		Summary: "The categories of marketplace nodes with how many catalog nodes each has.",
		Answer: "`{categories: [{name, nodes}]}`: every category a node may declare (docs/registry.md), in that order, with " +
			"the number of catalog nodes in it (0 included).",
		Example: exMarketplaceCategories,
	},
	"GET /api/marketplace/installed": {
		Summary: "The organization's installed nodes.",
		Answer: "`{data: [Installation], nextCursor}`, by node id. An Installation is `{id, nodeId, name, description, " +
			"category, version, checksum, latest, updateAvailable, installedBy, installedAt, updatedAt}`.",
		Example: exMarketplaceInstalled,
	},
	"GET /api/marketplace/{nodeId}": {
		Summary: "One marketplace node with its versions, their changelogs and the workflows that use it.",
		Answer: "The CatalogNode with its `versions` (each with its `changelog`, plain text, when the version has one), the " +
			"latest version's `definition` (its `configSchema` names the required secrets: `secret` fields with their " +
			"`envVarName`), the organization's `installation` (or `null`; with the installed version's `definition`) and " +
			"`usedBy`: `[{id, name, projectId}]`, the organization's workflows whose active deployment uses the node " +
			"(those an uninstall waits for; empty when it is not installed).",
		Example: exMarketplaceGet,
	},
	"POST /api/marketplace/install": {
		Summary: "Installs a marketplace node (latest or a given version).",
		Answer:  "The Installation.",
		Errors: []ErrorCase{
			{404, "not_found", "no such node or version in the catalog"},
			{409, "conflict", "the node is already installed (update it instead)"},
			{429, "rate_limited", "also: more than 10 marketplace changes by the user in a minute"},
		},
		BadBody: `{"nodeId":"","version":"not a version"}`,
		Example: exMarketplaceInstall,
	},
	"POST /api/marketplace/update": {
		Summary: "Moves an installed node to another version.",
		Answer:  "The Installation at its new version.",
		Errors: []ErrorCase{
			{404, "not_found", "the node is not installed, or no such version"},
			{409, "conflict", "the node is installed at that version already"},
			{429, "rate_limited", "also: more than 10 marketplace changes by the user in a minute"},
		},
		BadBody: `{"nodeId":"","version":""}`,
		Example: exMarketplaceUpdate,
	},
	"POST /api/marketplace/uninstall": {
		Summary: "Uninstalls a node no deployed version uses.",
		Answer:  "`{ok: true}`.",
		Errors: []ErrorCase{
			{404, "not_found", "the node is not installed"},
			{409, "conflict", "a deployed version uses the node: `details` are the workflows `[{id, name, projectId}]`, which the " +
				"message names too"},
			{429, "rate_limited", "also: more than 10 marketplace changes by the user in a minute"},
		},
		BadBody: `{"nodeId":""}`,
		Example: exMarketplaceUninstall,
	},
	"GET /api/deployments": {
		Summary: "Lists deployments of the active project.",
		Answer: "`{data: [Deployment], nextCursor}`, newest first. A Deployment is `{id, workflowId, projectId, versionId, " +
			"connectionId, status, url, scriptName, createdBy, createdAt, removedAt?}`; `status` is `active`, `replaced` " +
			"(by a later deploy) or `removed` (taken down).",
		Example: exDeploymentList,
	},
	"GET /api/workflows/{workflowId}/deployments": {
		Summary: "Lists the workflow's deployments with the state of each.",
		Answer: "`{data: [Deployment], nextCursor}`, newest first. Each has `state`: `active`, `draining` (replaced, its " +
			"worker and Workflow still serving its runs in flight, `inFlight` counts them), `retired` (its worker and " +
			"Workflow deleted once drained, or its names taken over by a later deployment) or `removed` (taken down); " +
			"`inFlight` is set for `active` and `draining`, `versionNumber` names the version (docs/releases.md).",
		Example: exWorkflowDeploymentList,
	},
	"GET /api/runs": {
		Summary: "Finds runs of the active project, newest first.",
		Answer: "`{data: [Run], nextCursor}`, newest first. A Run is `{id, workflowId, projectId, versionId, connectionId, " +
			"deploymentId, instanceId, status, statusDetail?, params?, output?, error?, usage?, restartOf?, fromStep?, " +
			"deletedWorkflow?, createdAt, startedAt, endedAt, updatedAt}` (`usage: {inputTokens, outputTokens}` on a run whose " +
			"agent nodes made model calls) (`deletedWorkflow: {name, deletedAt}` on a run " +
			"kept after its workflow was deleted; such runs are listed, also with `workflowId` set to the deleted " +
			"workflow's id); a run's `steps` are in its detail (GET /api/workflows/:workflowId/runs/:runId). Filters, all " +
			"optional and combined: `workflowId`, `status`, `versionId`, `from` (inclusive) and `to` (exclusive), RFC 3339 " +
			"times on `createdAt`, and `q`: words that the run's params, output, error, step outputs and received event " +
			"payloads must all contain together (letters and digits, any case; never a sensitive step's output; docs/runs.md).",
		Errors: []ErrorCase{
			{404, "not_found", "`workflowId` names no workflow of the project"},
			{422, "validation_failed", "`status` is not one of the six run states, `from` or `to` is not an RFC 3339 time or `to` is not " +
				"after `from`, `q` is over 200 characters"},
		},
		Example: exRunList,
	},
	"GET /api/runs/usage": {
		Summary: "Sums the token usage of the runs the run search's filters select, per workflow.",
		Answer: "`{inputTokens, outputTokens, runs, workflows: [{workflowId, workflowName, inputTokens, outputTokens, runs}], " +
			"partial}`: the tokens of the model calls of the selected runs' agent nodes (docs/runs.md, \"Token usage\"), in " +
			"all and per workflow, the most tokens first; `runs` counts the selected runs that made model calls (runs " +
			"without any are not counted). The filters are those of GET /api/runs: `workflowId`, `status`, `versionId`, " +
			"`from`, `to` and `q`. A sum reads the newest 100,000 such runs: `partial: true` says that older ones matched " +
			"too and are not in the sums (narrow with `from` and `to`).",
		Errors: []ErrorCase{
			{404, "not_found", "`workflowId` names no workflow of the project"},
			{422, "validation_failed", "`status` is not one of the six run states, `from` or `to` is not an RFC 3339 time or `to` is not " +
				"after `from`, `q` is over 200 characters"},
		},
		Example: exRunUsage,
	},
	"GET /api/runs/stream": {
		Summary: "Streams the state changes of the active project's runs as Server-Sent Events.",
		Answer: "`text/event-stream`: one `run` event per state change of a run of the project (its creation too), within 2 s " +
			"of the change, on every replica: `data: {id, workflowId, projectId, status, statusDetail?, error?, " +
			"updatedAt}` (`id` is the run's), the frame's `id:` an opaque id of the event, which shows nothing of other " +
			"projects' or organizations' activity. A comment line (`: heartbeat`) every 15 s keeps proxies from closing an " +
			"idle stream. `Last-Event-ID` (or `?after=`) replays the changes after that event that are still kept (one " +
			"hour; `0`: every change still kept); `timeoutSeconds` (1 to 86400) ends the stream after that long; in any " +
			"case it ends after the stream lifetime (30 minutes unless configured; see Streams) with the comment `: the " +
			"stream reached its lifetime; reconnect with Last-Event-ID`, or when the client or the server (at shutdown) " +
			"closes it.",
		Errors: []ErrorCase{
			{422, "validation_failed", "`after` (or `Last-Event-ID`) is neither the id of an event this server sent nor `0`, " +
				"`timeoutSeconds` is not an integer from 1 to 86400"},
		},
		Example: exRunStream,
	},
	"GET /api/runs/{runId}": {
		Summary: "One run of the active project, by its id alone: also a run kept after its workflow was deleted.",
		Answer: "The Run with its `steps`, as GET /api/workflows/:workflowId/runs/:runId answers it while the workflow exists " +
			"(refreshed from the provider while not final). A run kept after its workflow was deleted (DELETE " +
			"/api/workflows/:id?runs=keep) is answered as stored, with `deletedWorkflow: {name, deletedAt}`; its steps " +
			"keep their names, states, outputs and errors, and have `nodeId: \"\"` once the workflow's versions are gone.",
		Errors: []ErrorCase{
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		Example: exProjectRunGet,
	},
	"GET /api/workflows/{workflowId}/runs": {
		Summary: "Lists the workflow's runs, newest first.",
		Answer:  "`{data: [Run], nextCursor}`, newest first, filtered as GET /api/runs.",
		Errors: []ErrorCase{
			{422, "validation_failed", "`status` is not one of the six run states, `from` or `to` is not an RFC 3339 time or `to` is not " +
				"after `from`, `q` is over 200 characters"},
		},
		Example: exWorkflowRunList,
	},
	"POST /api/workflows/{workflowId}/deploy": {
		Summary: "Deploys a version (default the current one) to a connection.",
		Answer: "The Deployment with `success: true` and `deploymentId`. Deploys the current version unless `versionId` names " +
			"another.",
		Errors: []ErrorCase{
			{400, "deploy_failed", "a stage failed for a reason of the request: the code does not bundle, a dependency cannot be " +
				"installed, an environment variable is missing"},
			{409, "conflict", "the workflow has no version, or the version is locked; `inFlight: \"migrate\"` while the plan " +
				"is not compatible and `force` is not set (`details` is the plan)"},
			{422, "validation_failed", "`inFlight` is not `pin`, `migrate` or `drain`"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		BadBody: `{"connectionId":""}`,
		Example: exDeploy,
	},
	"POST /api/workflows/{workflowId}/deploy-stream": {
		Summary: "Deploys like /deploy, reporting each stage as Server-Sent Events.",
		Answer: "`text/event-stream`: first a `plan` event (the deploy plan of GET …/deploy-plan) for a workflow, then one " +
			"`progress` event per stage (`INITIALIZING` … `COMPLETED`), then `result` (the deploy " +
			"answer) or `error` (the error body). Refusals before the first stage are ordinary JSON errors. The stream " +
			"lasts as long as its deploy, which the server ends after 5 minutes.",
		Errors: []ErrorCase{
			{400, "deploy_failed", "a stage failed for a reason of the request (before the stream starts; later as an `error` event)"},
			{409, "conflict", "the workflow has no version, or the version is locked"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		BadBody: `{"connectionId":""}`,
		Example: exDeployStream,
	},
	"GET /api/workflows/{workflowId}/deploy-plan": {
		Summary: "Tells what deploying a version to a connection would do to the runs in flight there.",
		Answer: "`{workflowId, connectionId, versionId, number, activeVersionId, inFlight: {total, byVersion: [{versionId, " +
			"number, count}]}, changes: [{kind, nodeId, step, detail}], compatible, reasons}`. `kind` is `added`, " +
			"`removed`, `renamed`, `reordered`, `code-changed` or `config-changed`, from the active version to this one; " +
			"`compatible` is false when a run in flight of the active version has passed a step that this version renames, " +
			"removes or reorders, or that a new step now precedes (docs/releases.md, \"The deploy plan\"). `versionId` " +
			"defaults to the current version.",
		Errors: []ErrorCase{
			{422, "validation_failed", "no `connectionId`"},
			{404, "not_found", "the workflow, connection or version is unknown"},
			{409, "conflict", "the workflow has no version"},
		},
		Example: exDeployPlan,
	},
	"POST /api/workflows/{workflowId}/rollback": {
		Summary: "Deploys again the version that was active on a connection before the current one.",
		Answer: "The Deployment, as deploy answers, of the version active on `connectionId` before the active one (the " +
			"newest earlier deployment there of another version). Runs in flight of the current version stay pinned to " +
			"it unless `inFlight` says `migrate` or `drain` (docs/releases.md).",
		Errors: []ErrorCase{
			{409, "conflict", "the workflow is not deployed on the connection, or no earlier version was active there"},
			{422, "validation_failed", "no `connectionId`, or `inFlight` is not `pin`, `migrate` or `drain`"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		BadBody: `{"connectionId":""}`,
		Example: exRollback,
	},
	"POST /api/workflows/{workflowId}/takedown": {
		Summary: "Deletes the deployed worker and Workflow from a connection or an environment.",
		Answer: "The Deployment, now `status: \"removed\"` with `removedAt` (kept as history), with `success` and " +
			"`deploymentId` as deploy answers; the workflow's `activeVersionId` is cleared when no active deployment is " +
			"left. `environment` names a project environment in place of `connectionId`; a takedown from a protected " +
			"environment (named either way) needs the admin or owner role and is audited with the environment and version.",
		Errors: []ErrorCase{
			{403, "forbidden", "the environment is protected and the caller is below admin"},
			{404, "not_found", "`environment` names no environment of the project"},
			{409, "conflict", "the workflow is not deployed on this connection, or the environment is bound to no connection"},
			{422, "validation_failed", "neither `connectionId` nor `environment`"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		BadBody: `{"connectionId":""}`,
		Example: exTakedown,
	},
	"POST /api/workflows/{workflowId}/trigger": {
		Summary: "Starts a run with params, or delivers an event to a waiting run.",
		Answer: "`{id, instanceId, status: \"queued\"}`: the new run. When `params` hold `instanceId`, `eventType` and " +
			"`payload`, the event is delivered to that waiting run instead: 202 with the run's `{id, instanceId, status, " +
			"eventType}`. When the workflow's `deployConfig.concurrency` or `rateLimit` refuses a run now and the request " +
			"says `queue: true`, the run is stored held: 201 with `statusDetail: \"held\"`; it starts when the limits allow.",
		Errors: []ErrorCase{
			{400, "bad_request", "the workflow is a function (call its url instead)"},
			{404, "not_found", "an event's `instanceId` names no run of the workflow"},
			{409, "conflict", "the workflow is not deployed on this connection, or an event is sent to a finished run"},
			{413, "payload_too_large", "`params` over 100 KB serialized"},
			{422, "validation_failed", "also: an event's `eventType` is `edgeflow-admission` (any case), reserved for edgeflow's admission of " +
				"cron starts (path `/params/eventType`)"},
			{429, "rate_limited", "the workflow's `deployConfig.concurrency` or `rateLimit` refuses a run now (without " +
				"`queue: true`); `Retry-After` says when to try again"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		BadBody: `{"connectionId":""}`,
		Example: exTrigger,
	},
	"POST /api/workflows/{workflowId}/trigger/batch": {
		Summary: "Starts 1 to 100 runs at once, through the provider's batch create.",
		Answer: "`{created: [{index, id, instanceId, statusDetail?}], errors: [{index, code, message, retryAfter?}]}`, each entry of `runs` by its index " +
			"in one of the two lists. The request is `{connectionId, runs: [{params, id?}], queue?}`: `params` as the trigger's " +
			"(a JSON object of at most 100 KB, `{}` when omitted; an event-shaped object starts a run, it delivers no " +
			"event); `id` the instance id to create the run with (1 to 100 letters, digits, `-` and `_`; the run's own " +
			"id is edgeflow's). An entry is refused with `validation_failed` (bad params or id, an id named twice), " +
			"`payload_too_large` (params over 100 KB), `conflict` (an id a run of the workflow or an instance already " +
			"has) or `provider_error`; the others are created. Creates are paced to the provider's creation rate " +
			"(the connection plan's: 100/s per Workflow, 300/s per account on Paid), and a batch the provider answers " +
			"429 is sent again after its `Retry-After`. The workflow's flow control (`deployConfig.concurrency` and " +
			"`rateLimit`) applies to each entry in order as to a single trigger: an entry over a limit is an error " +
			"`rate_limited` with `retryAfter` (seconds), or, when the request says `queue: true`, created held " +
			"(`statusDetail: \"held\"` in its `created` entry; it starts when the limits allow).",
		Errors: []ErrorCase{
			{400, "bad_request", "the workflow is a function"},
			{409, "conflict", "the workflow is not deployed on this connection"},
			{413, "payload_too_large", "the body over 11 MiB"},
			{422, "validation_failed", "no `connectionId`; `runs` empty or over 100 entries"},
			{429, "rate_limited", "the creation rate stayed taken while the request waited"},
			{502, "provider_error", "the provider refused the whole batch (`provider_unavailable`: it could not be reached)"},
		},
		BadBody: `{"connectionId":"","runs":[]}`,
		Example: exTriggerBatch,
	},
	"GET /api/workflows/{workflowId}/estimate": {
		Summary: "Estimates what a month of runs of a version costs under Cloudflare's per-step pricing.",
		Answer: "`{versionId, plan, runsPerMonth, stepsPerRun: {min, max}, billedStepsPerRun: {min, max}, monthly: {steps, " +
			"included, billable, usd}, pricing: {date, source}, warnings}`. `stepsPerRun` counts a run's `step.do` calls " +
			"(steps, HTTP requests, sub-workflows, marketplace nodes, an agent's turns and tool calls), " +
			"`billedStepsPerRun` adds its sleeps and event waits, which are billed steps (and, for a workflow with a " +
			"cron trigger and flow control, the admission wait of a cron start, one more at most); loops count by their count, " +
			"a literal collection's length or `maxIterations`, and `max` is null when a loop has no bound (the month " +
			"is then priced on `min`, and `warnings` say so). The month is `runsPerMonth` runs of the most billed " +
			"steps: on Paid 500,000 steps are included, then $0.80 per 100,000; on Free 3,000 a day (90,000 over 30 " +
			"days) run and `billable` are the steps it would not run (`usd` 0). `versionId` defaults to the current " +
			"version, the plan to `connectionId`'s (Paid without one).",
		Errors: []ErrorCase{
			{404, "not_found", "`versionId` or `connectionId` names nothing the caller sees"},
			{409, "conflict", "the workflow is a function, or has no version"},
			{422, "validation_failed", "`runsPerMonth` missing, not a whole number, or outside 0 to 10^12"},
		},
		Example: exEstimate,
	},
	"POST /api/workflows/{workflowId}/invoke": {
		Summary: "Calls a deployed function's URL with a method, path, JSON body and headers, and answers the function's answer.",
		Answer: "`{status, headers, body, bodyTruncated, durationMs}`: the function's status (whatever it is), its safe answer " +
			"headers (`content-type`, `cache-control`, `content-disposition`, `content-language`, `etag`, `expires`, " +
			"`last-modified`, `location`, `retry-after`, `vary`; names in lower case), its body as text cut at 1 MiB " +
			"(`bodyTruncated: true` then) and the call's duration. The request is `{connectionId, method?, path?, body?, " +
			"headers?}`: `method` POST (default), GET, PUT or DELETE; `path` below the function's URL (default `/`, may " +
			"carry a query); `body` any JSON, sent as `application/json` (not with GET); `headers` at most 20 `{name: " +
			"value}`. Edgeflow calls the URL of the function's active deployment on the connection, follows no redirect " +
			"and waits at most the provider timeout (30 s by default).",
		Errors: []ErrorCase{
			{400, "bad_request", "the workflow is not a function (trigger it instead)"},
			{409, "conflict", "the function is not deployed on this connection"},
			{413, "payload_too_large", "`body` over 100 KB serialized"},
			{422, "validation_failed", "no `connectionId`; `method` not one of the four; `path` not starting with `/`, starting with `//`, " +
				"or holding spaces, control characters, `\\`, `#`, `//`, `.` or `..` segments, or encoded `/`, `\\`, " +
				"`.` or NUL; a GET with a `body`; a header name that is not a token, a header that may not be set " +
				"(`Host`, `Authorization`, `Proxy-Authorization`, `Cookie`, `Connection`, `Content-Length`, " +
				"`Transfer-Encoding`, `TE`, `Trailer`, `Upgrade`, `Keep-Alive`, `Expect`, `Forwarded`, `Via`, " +
				"`Max-Forwards`, `X-Real-IP`, `True-Client-IP`, and any `X-Edgeflow-*`, `X-Forwarded-*`, `Proxy-*`, " +
				"`Sec-*`, `CF-*` or `MF-*`), a value with control characters or over 4096 bytes, more than 20 " +
				"headers (`details` name the field, e.g. `/headers/Cookie`)"},
			{502, "provider_unavailable", "the function's worker could not be reached or did not answer in time"},
		},
		BadBody: `{"connectionId":"","path":"//evil.example"}`,
		Example: exInvoke,
	},
	"POST /api/workflows/{workflowId}/signed-trigger": {
		Summary: "Starts a run from a request signed with the workflow's trigger secret (its public trigger), under its flow control.",
		Answer: "201 `{id, instanceId, status, statusDetail?}` as the trigger answers. No credential: the request is signed as for " +
			"the worker's public trigger (`X-Edgeflow-Timestamp`, `X-Edgeflow-Signature: v1=<hex HMAC-SHA256(secret, timestamp + \".\" + body)>`), " +
			"the body (any content type, at most 100 KB) being the run's params, a JSON object. `?connectionId=` names the connection " +
			"of the active deployment; `?queue=true` holds a run the workflow's `deployConfig.concurrency` or `rateLimit` refuses now. " +
			"The instance id is `sig_` and the first 40 hex digits of the signature. A workflow with flow control must be triggered " +
			"here: its worker refuses signed requests (docs/deploy.md, \"Public trigger\").",
		Errors: []ErrorCase{
			{401, "unauthorized", "no signature, a wrong one, a timestamp more than 5 minutes from the server's clock, a signed event, or no public trigger on that workflow and connection (one answer for all)"},
			{409, "conflict", "the same signed request was accepted already"},
			{413, "payload_too_large", "a body over 100 KB"},
			{422, "validation_failed", "no `connectionId`, `queue` not true or false, params not a JSON object"},
			{429, "rate_limited", "the workflow's `deployConfig.concurrency` or `rateLimit` refuses a run now (without `queue=true`); `Retry-After` says when to try again"},
		},
		Example: exSignedTrigger,
	},
	"GET /api/workflows/{workflowId}/trigger-secret": {
		Summary: "The signing secret of the workflow's public trigger on a connection (deployConfig.publicTrigger).",
		Answer: "`{url, secret, timestampHeader, signatureHeader, signature, windowSeconds, viaEdgeflow}`, with `Cache-Control: no-store`: " +
			"how to sign calls to the public trigger. `url` is the worker's, or, when the workflow has flow control " +
			"(`deployConfig.concurrency` or `rateLimit`; `viaEdgeflow: true`), edgeflow's `POST …/signed-trigger`, which applies it.",
		Errors: []ErrorCase{
			{400, "bad_request", "the workflow is a function (its url is public already)"},
			{409, "conflict", "not deployed on this connection, or deployed without `deployConfig.publicTrigger`"},
			{422, "validation_failed", "no `connectionId`"},
		},
		Example: exTriggerSecret,
	},
	"GET /api/workflows/{workflowId}/runs/{runId}": {
		Summary: "One run, refreshed from the provider while not final.",
		Answer: "The Run, refreshed from the provider first while it is not final, with `steps`: its durable steps in " +
			"execution order, each `{nodeId, name, type, state, attempts, startedAt, endedAt, output, outputTruncated, " +
			"error}`. `state` is `running`, `retrying`, `waiting`, `complete`, `errored`, `terminated` or `replayed` " +
			"(taken from the original run by a restart); a rollback (`type` `rollback`, listed after the other steps in the " +
			"order it ran, named after the step it undid) is `rolled_back` or `rollback_failed`; " +
			"`error` is `{name, message}` of the last failed attempt or null; " +
			"an `output` over 64 KiB is cut to its first 64 KiB of JSON text, given as a string, with `outputTruncated: " +
			"true`. A restarted run also has `restartOf` and `fromStep`. A run with agent nodes has `usage: {inputTokens, " +
			"outputTokens}`, the tokens of the model calls it made (its `agent <node> turn N` steps; docs/runs.md). A run " +
			"triggered while OpenTelemetry tracing is on has `traceId`, and `traceUrl` when EDGEFLOW_TRACE_URL_TEMPLATE " +
			"is set (docs/observability.md).",
		Errors: []ErrorCase{
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		Example: exRunGet,
	},
	"GET /api/workflows/{workflowId}/runs/{runId}/logs": {
		Summary: "The run's console lines and exceptions; streamed as Server-Sent Events while it is active.",
		Answer: "`{data: [{timestamp, level, message}], dropped, available, reason?, status, final}`: only this run's lines, " +
			"oldest first (`level` is `debug`, `info`, `log`, `warn` or `error`; an uncaught exception is an `error` line " +
			"`Name: message`), kept with the run (at most 1,000 lines and 256 KiB; `dropped` counts older lines left out). " +
			"On a Cloudflare connection `available` is false, `data` empty and `reason` says where to read them. With " +
			"`Accept: text/event-stream`: one `log` event per line, new ones as they come while the run is active, then " +
			"`end` `{status, final}` (docs/runs.md); a stream still open after the stream lifetime (see Streams) ends with " +
			"`end` `{status, final: false}`.",
		Errors: []ErrorCase{
			{404, "not_found", "no such workflow or run in the active project"},
		},
		Example: exRunLogs,
	},
	"GET /api/workflows/{workflowId}/runs/{runId}/steps/{nodeId}/output": {
		Summary: "The full output of one step of a run, per attempt, read from the provider's step endpoint.",
		Answer: "`{runId, nodeId, name, attempt?, state, error?, output, source}`: `output` is the whole JSON value the step " +
			"returned (a `waitForEvent` node: the event's payload), not cut at 64 KiB as in the run's `steps`; a step the " +
			"provider keeps sensitive answers `\"[REDACTED]\"`. `?attempt=` (from 1) reads one attempt of a step, its " +
			"`state` and `error`; `?iteration=` (`2`, `1.3` in nested loops) picks one run of a node inside loops. `state` " +
			"is `running`, `retrying`, `waiting`, `complete`, `errored` or `replayed`; `source` is `provider` (the step " +
			"endpoint) or `run` (a replayed step, or a provider without the endpoint: the output the run stored). A step " +
			"that returned a `ReadableStream` answers its bytes as `application/octet-stream` (header " +
			"`Edgeflow-Step-State`). docs/runs.md, \"Step outputs\".",
		Errors: []ErrorCase{
			{404, "not_found", "no such workflow or run in the active project; the run has no step of the node (`/nodeId`), " +
				"no such iteration (`?iteration`) or attempt (`?attempt`)"},
			{409, "conflict", "the node ran several times in loops and no `iteration` was given; the node is a sleep (no " +
				"output); the provider cannot read one attempt; the run's connection no longer exists"},
			{422, "validation_failed", "`attempt` is not a whole number from 1 to 1000, or `iteration` is not of the form `2` or `1.3`"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		Example: exRunStepOutput,
	},
	"GET /api/workflows/{workflowId}/runs/{runId}/worker-logs": {
		Summary: "What the local edge keeps of the run's worker around the run (every invocation, not only the run's).",
		Answer: "`{data: [{timestamp, level, message, instanceId}], from, to, dropped}`: the worker's lines between the run's " +
			"creation minus `before` and its end (now while it runs) plus `after` (durations such as `30s`, default `1m`, " +
			"at most `1h`), oldest first; `instanceId` names the Workflow instance of a line written by a run (\"\" for " +
			"requests). `dropped` counts lines the edge's ring of this worker let go (docs/edge.md).",
		Errors: []ErrorCase{
			{409, "conflict", "the run is on a Cloudflare connection (the edge keeps no logs there), or its connection no longer " +
				"exists"},
			{422, "validation_failed", "`before` or `after` is not a duration between 0s and 1h"},
			{502, "provider_error", "the local edge refused the request (`provider_unavailable`: it could not be reached)"},
		},
		Example: exRunWorkerLogs,
	},
	"POST /api/workflows/{workflowId}/runs/{runId}/pause": {
		Summary: "Pauses a running run.",
		Answer:  "The Run, now `paused`.",
		Errors: []ErrorCase{
			{409, "conflict", "the run is neither running nor queued"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		Example: exRunPause,
	},
	"POST /api/workflows/{workflowId}/runs/{runId}/resume": {
		Summary: "Resumes a manually paused run.",
		Answer:  "The Run, running again.",
		Errors: []ErrorCase{
			{409, "conflict", "the run is not paused by hand (a run waiting for an event is resumed by the event)"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		Example: exRunResume,
	},
	"POST /api/workflows/{workflowId}/runs/{runId}/terminate": {
		Summary: "Terminates a running or paused run.",
		Answer:  "The Run, now `terminated`.",
		Errors: []ErrorCase{
			{409, "conflict", "the run is final already"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		Example: exRunTerminate,
	},
	"POST /api/workflows/{workflowId}/runs/{runId}/restart": {
		Summary: "Restarts a run from a step: a new run that replays the steps before `fromStep` (default), or the run's own instance in place.",
		Answer: "With `mode` `replay` (default): the new Run (`queued`) on the original run's connection, with `restartOf` " +
			"(the original run's id), `fromStep`, and the replayed steps first in `steps` (state `replayed`). `fromStep` " +
			"omitted restarts from the start; `version` is `same` (default: the run's own version) or `current` (the " +
			"version deployed now). With `mode` `in-place`: the same Run, `running` again, its instance restarted by the " +
			"provider from `fromStep` (the steps before it keep their results there); it needs the run's own version " +
			"deployed on its connection. docs/runs.md gives the rules.",
		Errors: []ErrorCase{
			{409, "conflict", "a step before `fromStep` did not complete in the original run; the chosen version lacks one of " +
				"those steps; `same` while another version is deployed (the message says to use `current`); the " +
				"workflow is not deployed on the run's connection; in place: another version is deployed, the run never " +
				"ran `fromStep`, or the provider has no native restart"},
			{422, "validation_failed", "`fromStep` is no step of the chosen version, `version` is neither `same` nor `current`, " +
				"`mode` is neither `replay` nor `in-place`, `version` `current` with `in-place`, or the replayed outputs are over 1 MiB"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		BadBody: `{"version":"older"}`,
		Example: exRunRestart,
	},
	"GET /api/resources/kv/namespaces": {
		Summary: "Lists the connection's KV namespaces.",
		Answer:  "`{data: [{id, title}], nextCursor}`.",
		Errors: []ErrorCase{
			{422, "validation_failed", "no `connectionId`"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		Example: exKVNamespaces,
	},
	"GET /api/resources/kv/namespaces/{namespaceId}/keys": {
		Summary: "Lists keys of a KV namespace.",
		Answer:  "`{data: [{name, expiration?, metadata?}], nextCursor}`; `limit` may go up to 1000.",
		Errors: []ErrorCase{
			{422, "validation_failed", "no `connectionId`"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		Example: exKVKeys,
	},
	"GET /api/resources/kv/namespaces/{namespaceId}/values/{key...}": {
		Summary: "Reads one KV value.",
		Answer: "`{key, value, encoding, size}`: the value as text (`encoding: \"utf-8\"`) or, when it is not UTF-8, as base64 " +
			"(`encoding: \"base64\"`).",
		Errors: []ErrorCase{
			{422, "validation_failed", "no `connectionId`"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		Example: exKVValue,
	},
	"GET /api/resources/d1/databases": {
		Summary: "Lists the connection's D1 databases.",
		Answer:  "`{data: [{id, name, createdAt?, numTables, fileSize}], nextCursor}`.",
		Errors: []ErrorCase{
			{422, "validation_failed", "no `connectionId`"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		Example: exD1Databases,
	},
	"POST /api/resources/d1/databases/{databaseId}/query": {
		Summary: "Runs a SQL statement on a D1 database.",
		Answer: "`{columns, rows, meta}`: the column names, the rows as arrays of values, and `{duration, changes, lastRowId, " +
			"rowsRead, rowsWritten}`.",
		Errors: []ErrorCase{
			{403, "forbidden", "a key with `read` only sends a statement that would write"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		BadBody: `{"connectionId":"","sql":""}`,
		Example: exD1Query,
	},
	"GET /api/resources/r2/buckets": {
		Summary: "Lists the connection's R2 buckets.",
		Answer:  "`{data: [{name, createdAt?}], nextCursor}`.",
		Errors: []ErrorCase{
			{422, "validation_failed", "no `connectionId`"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		Example: exR2Buckets,
	},
	"GET /api/resources/r2/buckets/{bucketName}/objects": {
		Summary: "Lists objects of an R2 bucket.",
		Answer: "`{data: [{key, size, etag?, lastModified?, contentType?}], delimitedPrefixes, nextCursor}`: objects in key " +
			"order. With `delimiter` (e.g. `/`), a key that goes on past the delimiter after `prefix` is not listed; its " +
			"part up to and including the delimiter is in `delimitedPrefixes` once (the \"folders\" below `prefix`). " +
			"`limit` may go up to 1000.",
		Errors: []ErrorCase{
			{422, "validation_failed", "no `connectionId`; `delimiter` empty, over 16 bytes or with control characters"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		Example: exR2Objects,
	},
	"GET /api/resources/r2/buckets/{bucketName}/objects/{key...}": {
		Summary: "Downloads one object of an R2 bucket.",
		Answer: "The object's bytes with its stored `Content-Type` (`application/octet-stream` when it has none), " +
			"`Content-Length`, `ETag`, `Last-Modified` and `Content-Disposition: attachment` naming the key's last `/` " +
			"segment as the file name. The key is the rest of the path, percent-encoded where needed (`/` may stay). " +
			"Objects up to 64 MiB are read.",
		Errors: []ErrorCase{
			{404, "not_found", "no such object or bucket"},
			{413, "payload_too_large", "the object is over 64 MiB"},
			{422, "validation_failed", "no `connectionId`"},
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		Example: exR2Object,
	},
}
