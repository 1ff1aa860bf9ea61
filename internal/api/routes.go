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
		{Method: "GET", Pattern: "/healthz", Auth: AuthNone, Handler: s.handleHealth},
		{Method: "GET", Pattern: "/readyz", Auth: AuthNone, Handler: s.handleReady},
		{Method: "GET", Pattern: "/metrics", Auth: AuthNone, Handler: s.handleMetrics},

		// Authentication and the session (auth.go).
		{Method: "POST", Pattern: "/api/auth/sign-up", Auth: AuthNone, Limit: LimitVerify,
			BadBody: `{"email":"not-an-email","password":"short"}`, Handler: s.handleSignUp},
		{Method: "POST", Pattern: "/api/auth/sign-in", Auth: AuthNone, Limit: LimitVerify,
			BadBody: `{"email":"","password":""}`, Handler: s.handleSignIn},
		{Method: "POST", Pattern: "/api/auth/sign-out", Auth: AuthSession, NoBody: true, Handler: s.handleSignOut},
		{Method: "GET", Pattern: "/api/auth/session", Auth: AuthSession, Handler: s.handleSession},
		{Method: "PUT", Pattern: "/api/session/active", Auth: AuthSession,
			BadBody: `{"organizationId":""}`, Handler: s.handleSessionActive},

		// Projects (projects.go).
		{Method: "GET", Pattern: "/api/projects", Auth: AuthAny, Scope: read, Handler: s.handleProjectList},
		{Method: "POST", Pattern: "/api/projects", Auth: AuthSession, Limit: LimitWrite,
			BadBody: `{"name":"","slug":"Not A Slug"}`, Handler: s.handleProjectCreate},
		{Method: "PATCH", Pattern: "/api/projects/{id}", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"name":""}`, Handler: s.handleProjectUpdate},
		{Method: "DELETE", Pattern: "/api/projects/{id}", Auth: AuthSession, Limit: LimitWrite, Handler: s.handleProjectDelete},

		// Workflows and functions (workflows.go).
		{Method: "GET", Pattern: "/api/workflows", Auth: AuthAny, Scope: read, Handler: s.handleWorkflowList},
		{Method: "POST", Pattern: "/api/workflows", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"name":"","kind":"cron"}`, Handler: s.handleWorkflowCreate},
		{Method: "GET", Pattern: "/api/workflows/{id}", Auth: AuthAny, Scope: read, Handler: s.handleWorkflowGet},
		{Method: "GET", Pattern: "/api/workflows/{id}/full", Auth: AuthAny, Scope: read, Handler: s.handleWorkflowFull},
		{Method: "PATCH", Pattern: "/api/workflows/{id}", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"envVars":[{"name":"lower","value":"x","isSecret":false}]}`, Handler: s.handleWorkflowUpdate},
		{Method: "PATCH", Pattern: "/api/workflows/{id}/move", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"targetProjectId":""}`, Handler: s.handleWorkflowMove},
		{Method: "DELETE", Pattern: "/api/workflows/{id}", Auth: AuthAny, Scope: write, Limit: LimitWrite, Handler: s.handleWorkflowDelete},

		// Versions (versions.go).
		{Method: "GET", Pattern: "/api/workflows/{workflowId}/versions", Auth: AuthAny, Scope: read, Handler: s.handleVersionList},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/versions", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"ir":null}`, MaxBody: MaxIRBodyBytes, Handler: s.handleVersionSubmit},
		{Method: "GET", Pattern: "/api/workflows/{workflowId}/versions/{versionId}", Auth: AuthAny, Scope: read, Handler: s.handleVersionGet},
		{Method: "PATCH", Pattern: "/api/workflows/{workflowId}/versions/{versionId}", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"locked":null}`, Handler: s.handleVersionUpdate},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/versions/{versionId}/revert", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			NoBody: true, Handler: s.handleVersionRevert},
		{Method: "DELETE", Pattern: "/api/workflows/{workflowId}/versions/{versionId}", Auth: AuthAny, Scope: write, Limit: LimitWrite, Handler: s.handleVersionDelete},

		// Node definitions and the IR schema (nodes.go).
		{Method: "GET", Pattern: "/api/ir/schema.json", Auth: AuthNone, Handler: s.handleIRSchema},
		{Method: "GET", Pattern: "/api/nodes", Auth: AuthAny, Scope: read, Handler: s.handleNodeList},
		{Method: "GET", Pattern: "/api/nodes/templates", Auth: AuthAny, Scope: read, Handler: s.handleNodeTemplates},
		{Method: "GET", Pattern: "/api/nodes/{nodeId}", Auth: AuthAny, Scope: read, Handler: s.handleNodeGet},

		// Marketplace (marketplace.go); changes also count against
		// MarketplaceChangesPerMinute.
		{Method: "GET", Pattern: "/api/marketplace", Auth: AuthAny, Scope: read, Handler: s.handleMarketplaceList},
		{Method: "GET", Pattern: "/api/marketplace/installed", Auth: AuthAny, Scope: read, Handler: s.handleMarketplaceInstalled},
		{Method: "GET", Pattern: "/api/marketplace/{nodeId}", Auth: AuthAny, Scope: read, Handler: s.handleMarketplaceGet},
		{Method: "POST", Pattern: "/api/marketplace/install", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"nodeId":"","version":"not a version"}`, Handler: s.handleMarketplaceInstall},
		{Method: "POST", Pattern: "/api/marketplace/update", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"nodeId":"","version":""}`, Handler: s.handleMarketplaceUpdate},
		{Method: "POST", Pattern: "/api/marketplace/uninstall", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"nodeId":""}`, Handler: s.handleMarketplaceUninstall},

		// Deployments and runs lists (history.go).
		{Method: "GET", Pattern: "/api/deployments", Auth: AuthAny, Scope: read, Handler: s.handleDeploymentList},
		{Method: "GET", Pattern: "/api/workflows/{workflowId}/deployments", Auth: AuthAny, Scope: read, Handler: s.handleWorkflowDeploymentList},
		{Method: "GET", Pattern: "/api/runs", Auth: AuthAny, Scope: read, Handler: s.handleRunList},
		{Method: "GET", Pattern: "/api/workflows/{workflowId}/runs", Auth: AuthAny, Scope: read, Handler: s.handleWorkflowRunList},

		// Deploy, takedown, trigger, runs and run control (deployments.go,
		// runs.go); provider resources (resources.go); token verification
		// (verify.go).
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/deploy", Auth: AuthAny, Scope: deploy, Limit: LimitDeploy,
			BadBody: `{"connectionId":""}`, Handler: s.handleDeploy},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/deploy-stream", Auth: AuthAny, Scope: deploy, Limit: LimitDeploy,
			BadBody: `{"connectionId":""}`, Handler: s.handleDeployStream},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/takedown", Auth: AuthAny, Scope: deploy, Limit: LimitDeploy,
			BadBody: `{"connectionId":""}`, Handler: s.handleTakedown},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/trigger", Auth: AuthAny, Scope: deploy, Limit: LimitWrite,
			BadBody: `{"connectionId":""}`, Handler: s.handleTrigger},
		{Method: "GET", Pattern: "/api/workflows/{workflowId}/runs/{runId}", Auth: AuthAny, Scope: read, Handler: s.handleRunGet},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/runs/{runId}/pause", Auth: AuthAny, Scope: deploy, Limit: LimitWrite,
			NoBody: true, Handler: s.handleRunPause},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/runs/{runId}/resume", Auth: AuthAny, Scope: deploy, Limit: LimitWrite,
			NoBody: true, Handler: s.handleRunResume},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/runs/{runId}/terminate", Auth: AuthAny, Scope: deploy, Limit: LimitWrite,
			NoBody: true, Handler: s.handleRunTerminate},
		{Method: "GET", Pattern: "/api/resources/kv/namespaces", Auth: AuthAny, Scope: read, Handler: s.handleKVNamespaces},
		{Method: "GET", Pattern: "/api/resources/kv/namespaces/{namespaceId}/keys", Auth: AuthAny, Scope: read, Handler: s.handleKVKeys},
		{Method: "GET", Pattern: "/api/resources/kv/namespaces/{namespaceId}/values/{key...}", Auth: AuthAny, Scope: read, Handler: s.handleKVValue},
		{Method: "GET", Pattern: "/api/resources/d1/databases", Auth: AuthAny, Scope: read, Handler: s.handleD1Databases},
		{Method: "POST", Pattern: "/api/resources/d1/databases/{databaseId}/query", Auth: AuthAny, Scope: read, Limit: LimitWrite,
			BadBody: `{"connectionId":"","sql":""}`, Handler: s.handleD1Query},
		{Method: "GET", Pattern: "/api/resources/r2/buckets", Auth: AuthAny, Scope: read, Handler: s.handleR2Buckets},
		{Method: "GET", Pattern: "/api/resources/r2/buckets/{bucketName}/objects", Auth: AuthAny, Scope: read, Handler: s.handleR2Objects},
		{Method: "POST", Pattern: "/api/connections/verify-token", Auth: AuthAny, Scope: write, Limit: LimitVerify,
			BadBody: `{"provider":"aws","credentials":{}}`, Handler: s.handleVerifyToken},

		// Connections (connections.go).
		{Method: "GET", Pattern: "/api/connections", Auth: AuthAny, Scope: read, Handler: s.handleConnectionList},
		{Method: "POST", Pattern: "/api/connections", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"provider":"aws","credentials":{}}`, Handler: s.handleConnectionCreate},
		{Method: "PATCH", Pattern: "/api/connections/{id}", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"credentials":{"apiToken":""}}`, Handler: s.handleConnectionUpdate},
		{Method: "DELETE", Pattern: "/api/connections/{id}", Auth: AuthAny, Scope: write, Limit: LimitWrite, Handler: s.handleConnectionDelete},

		// Environment variables (envvars.go).
		{Method: "GET", Pattern: "/api/env-vars", Auth: AuthAny, Scope: read, Handler: s.handleEnvVarList},
		{Method: "POST", Pattern: "/api/env-vars", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"name":"lower-case","value":"v","isSecret":false}`, Handler: s.handleEnvVarCreate},
		{Method: "PATCH", Pattern: "/api/env-vars/{id}", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"name":"9BAD"}`, Handler: s.handleEnvVarUpdate},
		{Method: "DELETE", Pattern: "/api/env-vars/{id}", Auth: AuthAny, Scope: write, Limit: LimitWrite, Handler: s.handleEnvVarDelete},

		// API keys, session only (apikeys.go).
		{Method: "GET", Pattern: "/api/api-keys", Auth: AuthSession, Handler: s.handleAPIKeyList},
		{Method: "POST", Pattern: "/api/api-keys", Auth: AuthSession, Limit: LimitWrite,
			BadBody: `{"name":"k","projectId":"","scopes":["write"]}`, Handler: s.handleAPIKeyCreate},
		{Method: "DELETE", Pattern: "/api/api-keys/{id}", Auth: AuthSession, Limit: LimitWrite, Handler: s.handleAPIKeyRevoke},
	}
}
