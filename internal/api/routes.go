package api

import (
	"net/http"

	"github.com/edgeflow/edgeflow/internal/edgeflow"
)

// Every route of the API is listed in routeTable below, and nowhere else.
//
// Adding a route (for example in a new versions.go):
//  1. write the handler as a Server method `func(w http.ResponseWriter, r *http.Request) error`
//     in the file of its resource; read the caller with PrincipalFrom(r), the
//     body with decode(r, &req), list parameters with parsePage(r); return an
//     *edgeflow.Error (errors.go maps its code to the status) or nil after
//     writing the response with writeJSON;
//  2. add one entry to routeTable: Method, Pattern (net/http ServeMux syntax,
//     "{name}" for a path parameter), Auth, Scope, Limit, and for a route
//     that reads a body either BadBody (a JSON object of the right shape that
//     validation must refuse with 422) or NoBody: true;
//  3. the tests in routes_test.go go over this table: the authorization
//     matrix (no credentials, revoked, expired, other tenant's key, key
//     without the scope, session of a non-member) and the bad-input test
//     (malformed JSON, wrong types, unknown fields, oversized body, BadBody,
//     invalid pagination) run for the new route automatically. A pattern with
//     a path parameter needs a fixture: add the pattern to fixturePaths in
//     world_test.go with the path of a record that exists in the test world.
//     A route without one fails the test with a message saying so.

// AuthMode says which credentials a route accepts.
type AuthMode int

// Authentication modes.
const (
	// AuthNone is a public route (sign-up, sign-in, health).
	AuthNone AuthMode = iota
	// AuthSession accepts only a session cookie; an API key gets 403.
	AuthSession
	// AuthKey accepts only an API key; a session gets 403.
	AuthKey
	// AuthAny accepts a session cookie or an API key.
	AuthAny
)

func (a AuthMode) String() string {
	return [...]string{"none", "session", "key", "session|key"}[a]
}

// LimitClass is the per-user rate limit a route counts against, on top of
// the per-IP global limit every request counts against.
type LimitClass int

// Rate limit classes (SPEC.md, Limits).
const (
	// LimitGlobal: only the per-IP limit (reads).
	LimitGlobal LimitClass = iota
	// LimitWrite: create, update, delete, trigger, run control.
	LimitWrite
	// LimitDeploy: deploy, deploy-stream, takedown.
	LimitDeploy
	// LimitVerify: credential verification.
	LimitVerify
)

func (c LimitClass) String() string { return [...]string{"global", "write", "deploy", "verify"}[c] }

// Route is one entry of the route table; it describes itself completely.
type Route struct {
	Method  string
	Pattern string
	Auth    AuthMode
	// Scope is the API key scope the route needs ("" for AuthNone and
	// AuthSession routes). Sessions hold every scope.
	Scope edgeflow.Scope
	Limit LimitClass
	// NoBody marks a POST/PUT/PATCH that reads no request body.
	NoBody bool
	// BadBody is, for a route that reads a body, a JSON object with fields of
	// the right types that validation must refuse with 422 (bad-input test).
	BadBody string
	// MaxBody is the largest body the handler reads, when not MaxBodyBytes.
	MaxBody int64
	// Summary says what the route does (the OpenAPI document's summary).
	Summary string
	// Body is, for a route that reads a body, a value of the type the
	// handler decodes it into; the OpenAPI document's request schema is
	// derived from its JSON fields.
	Body any
	// Query names the query parameters the handler reads (besides the
	// organizationId/projectId overrides of every authenticated route). A
	// list must name "cursor": its cursors are bound to it (query.go).
	Query   []string
	Handler func(w http.ResponseWriter, r *http.Request) error
}

// BodyLimit is the largest request body the route reads (413 above).
func (rt Route) BodyLimit() int64 {
	if rt.MaxBody > 0 {
		return rt.MaxBody
	}
	return MaxBodyBytes
}

// ReadsBody reports whether the route decodes a request body.
func (rt Route) ReadsBody() bool {
	switch rt.Method {
	case http.MethodPost, http.MethodPut, http.MethodPatch:
		return !rt.NoBody
	}
	return false
}

const (
	read   = edgeflow.ScopeRead
	write  = edgeflow.ScopeWrite
	deploy = edgeflow.ScopeDeploy
)

func (s *Server) routeTable() []Route {
	return []Route{
		// Operations.
		{Method: "GET", Pattern: "/healthz", Auth: AuthNone, Summary: "Answers 200 while the process is up.", Handler: s.handleHealth},
		{Method: "GET", Pattern: "/readyz", Auth: AuthNone, Summary: "Answers 200 when the database answers, 503 otherwise.", Handler: s.handleReady},
		{Method: "GET", Pattern: "/metrics", Auth: AuthNone, Summary: "Metrics in the Prometheus text format.", Handler: s.handleMetrics},

		// Authentication and the session (auth.go).
		{Method: "POST", Pattern: "/api/auth/sign-up", Auth: AuthNone, Limit: LimitVerify,
			BadBody: `{"email":"not-an-email","password":"short"}`, Summary: "Creates a user with an organization and a default project, and signs in.", Body: signUpRequest{}, Handler: s.handleSignUp},
		{Method: "POST", Pattern: "/api/auth/sign-in", Auth: AuthNone, Limit: LimitVerify,
			BadBody: `{"email":"","password":""}`, Summary: "Signs in with email and password (sets the session cookie).", Body: signInRequest{}, Handler: s.handleSignIn},
		{Method: "POST", Pattern: "/api/auth/sign-out", Auth: AuthSession, NoBody: true, Summary: "Signs out (revokes the session).", Handler: s.handleSignOut},
		{Method: "GET", Pattern: "/api/auth/session", Auth: AuthSession, Summary: "The signed-in user, the active organization and project, and the CSRF token.", Handler: s.handleSession},
		{Method: "PUT", Pattern: "/api/session/active", Auth: AuthSession,
			BadBody: `{"organizationId":""}`, Summary: "Changes the session's active organization and project.", Body: sessionActiveRequest{}, Handler: s.handleSessionActive},

		// Projects (projects.go).
		{Method: "GET", Pattern: "/api/projects", Auth: AuthAny, Scope: read, Summary: "Lists projects of the active organization.", Query: []string{"cursor", "limit"}, Handler: s.handleProjectList},
		{Method: "POST", Pattern: "/api/projects", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"name":"","slug":"Not A Slug"}`, Summary: "Creates a project in the active organization.", Body: projectCreateRequest{}, Handler: s.handleProjectCreate},
		{Method: "PATCH", Pattern: "/api/projects/{id}", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"name":""}`, Summary: "Renames or describes a project.", Body: projectUpdateRequest{}, Handler: s.handleProjectUpdate},
		{Method: "DELETE", Pattern: "/api/projects/{id}", Auth: AuthAny, Scope: write, Limit: LimitWrite, Summary: "Deletes an empty project (an API key: only its own).", Handler: s.handleProjectDelete},

		// Workflows and functions (workflows.go).
		{Method: "GET", Pattern: "/api/workflows", Auth: AuthAny, Scope: read, Summary: "Lists workflows and functions of the active project, newest first.", Query: []string{"cursor", "limit"}, Handler: s.handleWorkflowList},
		{Method: "POST", Pattern: "/api/workflows", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"name":"","kind":"cron"}`, Summary: "Creates a workflow or a function (kind script).", Body: workflowCreateRequest{}, Handler: s.handleWorkflowCreate},
		{Method: "GET", Pattern: "/api/workflows/{id}", Auth: AuthAny, Scope: read, Summary: "One workflow.", Handler: s.handleWorkflowGet},
		{Method: "GET", Pattern: "/api/workflows/{id}/full", Auth: AuthAny, Scope: read, Summary: "The workflow with its current version (or ?version=), all version summaries and the active deployment.", Query: []string{"version"}, Handler: s.handleWorkflowFull},
		{Method: "PATCH", Pattern: "/api/workflows/{id}", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"envVars":[{"name":"lower","value":"x","isSecret":false}]}`, Summary: "Updates name, description, env vars, trigger code, dependencies or deploy config.", Body: workflowUpdateRequest{}, Handler: s.handleWorkflowUpdate},
		{Method: "PATCH", Pattern: "/api/workflows/{id}/move", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"targetProjectId":""}`, Summary: "Moves the workflow to another project of the organization.", Body: workflowMoveRequest{}, Handler: s.handleWorkflowMove},
		{Method: "DELETE", Pattern: "/api/workflows/{id}", Auth: AuthAny, Scope: write, Limit: LimitWrite, Summary: "Deletes the workflow, taking its deployments down first (?force=true skips that).", Query: []string{"force"}, Handler: s.handleWorkflowDelete},

		// Versions (versions.go).
		{Method: "GET", Pattern: "/api/workflows/{workflowId}/versions", Auth: AuthAny, Scope: read, Summary: "Lists version summaries, highest number first.", Query: []string{"cursor", "limit"}, Handler: s.handleVersionList},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/versions", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"ir":null}`, MaxBody: MaxIRBodyBytes, Summary: "Validates, compiles and stores an IR as the next version.", Body: versionSubmitRequest{}, Handler: s.handleVersionSubmit},
		{Method: "GET", Pattern: "/api/workflows/{workflowId}/versions/{versionId}", Auth: AuthAny, Scope: read, Summary: "One version with its IR and generated code.", Handler: s.handleVersionGet},
		{Method: "PATCH", Pattern: "/api/workflows/{workflowId}/versions/{versionId}", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"locked":null}`, Summary: "Locks or unlocks a version.", Body: versionUpdateRequest{}, Handler: s.handleVersionUpdate},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/versions/{versionId}/revert", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			NoBody: true, Summary: "Creates a new version holding this version's IR.", Handler: s.handleVersionRevert},
		{Method: "DELETE", Pattern: "/api/workflows/{workflowId}/versions/{versionId}", Auth: AuthAny, Scope: write, Limit: LimitWrite, Summary: "Deletes a version that is not locked, active or deployed.", Handler: s.handleVersionDelete},

		// Node definitions and the IR schema (nodes.go).
		{Method: "GET", Pattern: "/api/openapi.json", Auth: AuthNone, Summary: "This API's OpenAPI 3.1 document.", Handler: s.handleOpenAPI},
		{Method: "GET", Pattern: "/api/ir/schema.json", Auth: AuthNone, Summary: "The JSON Schema (draft 2020-12) of the IR.", Handler: s.handleIRSchema},
		{Method: "GET", Pattern: "/api/nodes", Auth: AuthAny, Scope: read, Summary: "Node definitions: the builtins and the organization's installed marketplace nodes.", Query: []string{"cursor", "limit"}, Handler: s.handleNodeList},
		{Method: "GET", Pattern: "/api/nodes/templates", Auth: AuthAny, Scope: read, Summary: "Node templates for editors.", Handler: s.handleNodeTemplates},
		{Method: "GET", Pattern: "/api/nodes/{nodeId}", Auth: AuthAny, Scope: read, Summary: "One node definition.", Handler: s.handleNodeGet},

		// Marketplace (marketplace.go); changes also count against
		// MarketplaceChangesPerMinute.
		{Method: "GET", Pattern: "/api/marketplace", Auth: AuthAny, Scope: read, Summary: "The marketplace catalog with installation status.", Query: []string{"cursor", "limit"}, Handler: s.handleMarketplaceList},
		{Method: "GET", Pattern: "/api/marketplace/installed", Auth: AuthAny, Scope: read, Summary: "The organization's installed nodes.", Query: []string{"cursor", "limit"}, Handler: s.handleMarketplaceInstalled},
		{Method: "GET", Pattern: "/api/marketplace/{nodeId}", Auth: AuthAny, Scope: read, Summary: "One marketplace node with its versions.", Handler: s.handleMarketplaceGet},
		{Method: "POST", Pattern: "/api/marketplace/install", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"nodeId":"","version":"not a version"}`, Summary: "Installs a marketplace node (latest or a given version).", Body: marketplaceChangeRequest{}, Handler: s.handleMarketplaceInstall},
		{Method: "POST", Pattern: "/api/marketplace/update", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"nodeId":"","version":""}`, Summary: "Moves an installed node to another version.", Body: marketplaceChangeRequest{}, Handler: s.handleMarketplaceUpdate},
		{Method: "POST", Pattern: "/api/marketplace/uninstall", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"nodeId":""}`, Summary: "Uninstalls a node no deployed version uses.", Body: marketplaceUninstallRequest{}, Handler: s.handleMarketplaceUninstall},

		// Deployments and runs lists (history.go).
		{Method: "GET", Pattern: "/api/deployments", Auth: AuthAny, Scope: read, Summary: "Lists deployments of the active project.", Query: []string{"cursor", "limit"}, Handler: s.handleDeploymentList},
		{Method: "GET", Pattern: "/api/workflows/{workflowId}/deployments", Auth: AuthAny, Scope: read, Summary: "Lists the workflow's deployments.", Query: []string{"cursor", "limit"}, Handler: s.handleWorkflowDeploymentList},
		{Method: "GET", Pattern: "/api/runs", Auth: AuthAny, Scope: read, Summary: "Lists runs of the active project, newest first.", Query: []string{"cursor", "limit", "status"}, Handler: s.handleRunList},
		{Method: "GET", Pattern: "/api/workflows/{workflowId}/runs", Auth: AuthAny, Scope: read, Summary: "Lists the workflow's runs, newest first.", Query: []string{"cursor", "limit", "status"}, Handler: s.handleWorkflowRunList},

		// Deploy, takedown, trigger, runs and run control (deployments.go,
		// runs.go); provider resources (resources.go); token verification
		// (verify.go).
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/deploy", Auth: AuthAny, Scope: deploy, Limit: LimitDeploy,
			BadBody: `{"connectionId":""}`, Summary: "Deploys a version (default the current one) to a connection.", Body: deployRequest{}, Handler: s.handleDeploy},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/deploy-stream", Auth: AuthAny, Scope: deploy, Limit: LimitDeploy,
			BadBody: `{"connectionId":""}`, Summary: "Deploys like /deploy, reporting each stage as Server-Sent Events.", Body: deployRequest{}, Handler: s.handleDeployStream},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/takedown", Auth: AuthAny, Scope: deploy, Limit: LimitDeploy,
			BadBody: `{"connectionId":""}`, Summary: "Deletes the deployed worker and Workflow from a connection.", Body: takedownRequest{}, Handler: s.handleTakedown},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/trigger", Auth: AuthAny, Scope: deploy, Limit: LimitWrite,
			BadBody: `{"connectionId":""}`, Summary: "Starts a run with params, or delivers an event to a waiting run.", Body: triggerRequest{}, Handler: s.handleTrigger},
		{Method: "GET", Pattern: "/api/workflows/{workflowId}/trigger-secret", Auth: AuthAny, Scope: deploy, Summary: "The signing secret of the workflow's public trigger on a connection (deployConfig.publicTrigger).", Query: []string{"connectionId"}, Handler: s.handleTriggerSecret},
		{Method: "GET", Pattern: "/api/workflows/{workflowId}/runs/{runId}", Auth: AuthAny, Scope: read, Summary: "One run, refreshed from the provider while not final.", Handler: s.handleRunGet},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/runs/{runId}/pause", Auth: AuthAny, Scope: deploy, Limit: LimitWrite,
			NoBody: true, Summary: "Pauses a running run.", Handler: s.handleRunPause},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/runs/{runId}/resume", Auth: AuthAny, Scope: deploy, Limit: LimitWrite,
			NoBody: true, Summary: "Resumes a manually paused run.", Handler: s.handleRunResume},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/runs/{runId}/terminate", Auth: AuthAny, Scope: deploy, Limit: LimitWrite,
			NoBody: true, Summary: "Terminates a running or paused run.", Handler: s.handleRunTerminate},
		{Method: "GET", Pattern: "/api/resources/kv/namespaces", Auth: AuthAny, Scope: read, Summary: "Lists the connection's KV namespaces.", Query: []string{"connectionId", "prefix", "cursor", "limit"}, Handler: s.handleKVNamespaces},
		{Method: "GET", Pattern: "/api/resources/kv/namespaces/{namespaceId}/keys", Auth: AuthAny, Scope: read, Summary: "Lists keys of a KV namespace.", Query: []string{"connectionId", "prefix", "cursor", "limit"}, Handler: s.handleKVKeys},
		{Method: "GET", Pattern: "/api/resources/kv/namespaces/{namespaceId}/values/{key...}", Auth: AuthAny, Scope: read, Summary: "Reads one KV value.", Query: []string{"connectionId"}, Handler: s.handleKVValue},
		{Method: "GET", Pattern: "/api/resources/d1/databases", Auth: AuthAny, Scope: read, Summary: "Lists the connection's D1 databases.", Query: []string{"connectionId", "prefix", "cursor", "limit"}, Handler: s.handleD1Databases},
		{Method: "POST", Pattern: "/api/resources/d1/databases/{databaseId}/query", Auth: AuthAny, Scope: read, Limit: LimitWrite,
			BadBody: `{"connectionId":"","sql":""}`, Summary: "Runs a SQL statement on a D1 database.", Body: d1QueryRequest{}, Query: []string{"connectionId"}, Handler: s.handleD1Query},
		{Method: "GET", Pattern: "/api/resources/r2/buckets", Auth: AuthAny, Scope: read, Summary: "Lists the connection's R2 buckets.", Query: []string{"connectionId", "prefix", "cursor", "limit"}, Handler: s.handleR2Buckets},
		{Method: "GET", Pattern: "/api/resources/r2/buckets/{bucketName}/objects", Auth: AuthAny, Scope: read, Summary: "Lists objects of an R2 bucket.", Query: []string{"connectionId", "prefix", "cursor", "limit"}, Handler: s.handleR2Objects},
		{Method: "POST", Pattern: "/api/connections/verify-token", Auth: AuthAny, Scope: write, Limit: LimitVerify,
			BadBody: `{"provider":"aws","credentials":{}}`, Summary: "Checks provider credentials and lists the token's accounts.", Body: verifyTokenRequest{}, Handler: s.handleVerifyToken},

		// Connections (connections.go).
		{Method: "GET", Pattern: "/api/connections", Auth: AuthAny, Scope: read, Summary: "Lists the organization's connections (credentials never shown).", Query: []string{"cursor", "limit"}, Handler: s.handleConnectionList},
		{Method: "POST", Pattern: "/api/connections", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"provider":"aws","credentials":{}}`, Summary: "Creates a connection to a provider account.", Body: connectionCreateRequest{}, Handler: s.handleConnectionCreate},
		{Method: "PATCH", Pattern: "/api/connections/{id}", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"credentials":{"apiToken":""}}`, Summary: "Renames a connection or replaces its credentials.", Body: connectionUpdateRequest{}, Handler: s.handleConnectionUpdate},
		{Method: "DELETE", Pattern: "/api/connections/{id}", Auth: AuthAny, Scope: write, Limit: LimitWrite, Summary: "Deletes a connection no deployment uses.", Handler: s.handleConnectionDelete},

		// Environment variables (envvars.go).
		{Method: "GET", Pattern: "/api/env-vars", Auth: AuthAny, Scope: read, Summary: "Lists environment variables of the organization and the active project (secret values never shown).", Query: []string{"cursor", "limit"}, Handler: s.handleEnvVarList},
		{Method: "POST", Pattern: "/api/env-vars", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"name":"lower-case","value":"v","isSecret":false}`, Summary: "Creates an environment variable or secret, for the organization or the active project.", Body: envVarCreateRequest{}, Handler: s.handleEnvVarCreate},
		{Method: "PATCH", Pattern: "/api/env-vars/{id}", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"name":"9BAD"}`, Summary: "Renames an environment variable or changes its value.", Body: envVarUpdateRequest{}, Handler: s.handleEnvVarUpdate},
		{Method: "DELETE", Pattern: "/api/env-vars/{id}", Auth: AuthAny, Scope: write, Limit: LimitWrite, Summary: "Deletes an environment variable.", Handler: s.handleEnvVarDelete},

		// API keys, session only (apikeys.go).
		{Method: "GET", Pattern: "/api/api-keys", Auth: AuthSession, Summary: "Lists the organization's API keys (never the keys themselves).", Query: []string{"cursor", "limit"}, Handler: s.handleAPIKeyList},
		{Method: "POST", Pattern: "/api/api-keys", Auth: AuthSession, Limit: LimitWrite,
			BadBody: `{"name":"k","projectId":"","scopes":["write"]}`, Summary: "Creates an API key bound to a project; the key is shown once.", Body: apiKeyCreateRequest{}, Handler: s.handleAPIKeyCreate},
		{Method: "DELETE", Pattern: "/api/api-keys/{id}", Auth: AuthSession, Limit: LimitWrite, Summary: "Revokes an API key.", Handler: s.handleAPIKeyRevoke},
	}
}
