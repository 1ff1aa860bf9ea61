package api

import (
	"net/http"

	deploysvc "github.com/edgeflow/edgeflow/internal/deploy"
	"github.com/edgeflow/edgeflow/internal/edgeflow"
	"github.com/edgeflow/edgeflow/internal/ir"
	"github.com/edgeflow/edgeflow/internal/marketplace"
	"github.com/edgeflow/edgeflow/internal/mcp"
)

// Every route of the API is listed in routeTable below, one line each, and
// nowhere else. The line says how the route is called and what it answers;
// its documentation is in route_docs.go, keyed by "METHOD PATTERN".
//
// Adding a route (for example in a new versions.go):
//  1. write the handler as a Server method `func(w http.ResponseWriter, r *http.Request) error`
//     in the file of its resource; read the caller with PrincipalFrom(r), the
//     body with decode(r, &req), list parameters with parsePage(r); return an
//     *edgeflow.Error (errors.go maps its code to the status) or nil after
//     writing the answer with writeJSON, a value of a named type (a list:
//     edgeflow.ListPage of its items);
//  2. add its line to routeTable: the method's constructor (get, post, put,
//     patch, del) with the pattern (net/http ServeMux syntax, "{name}" for a
//     path parameter) and the handler; who may call it (public, session, or
//     scope for an API key with that scope or a session), role when not the
//     method's default, personal, limit when not the method's default; for a
//     route that reads a body its type (body) or noBody; query for the query
//     parameters it reads; what it answers: ok, created or accepted with a
//     value of the type the handler writes (the OpenAPI document's response
//     schema is derived from it), noContent, stream/events for Server-Sent
//     Events; for a route that changes something its audit action
//     ("<type>.<verb>", see audit.go) and the path parameter of its target;
//  3. add its entry to routeDocs (route_docs.go): Summary, Answer, the
//     route's own Errors, a BadBody for a route that reads a body (a JSON
//     object of the right shape that validation must refuse with 422), and
//     an Example (route_examples.go); then run `make apidoc`, which rewrites
//     docs/api.md's endpoint reference and Studio's API types
//     (web/src/api/schema.gen.ts) from the table (TestAPIDocCurrent and
//     TestStudioTypesCurrent fail until they are regenerated).
//     TestRouteExamples sends the example to a test world and checks its
//     answer against the example and the route's response schema; a route
//     that needs a deployed workflow or a provider goes in its liveExamples
//     and in the e2e TestRouteExamplesLive instead;
//  4. the tests in routes_test.go go over this table: the authorization
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

// Rate limit classes (docs/api.md, "Rate limits").
const (
	// LimitGlobal: only the per-IP limit (reads).
	LimitGlobal LimitClass = iota
	// LimitWrite: create, update, delete, trigger, run control.
	LimitWrite
	// LimitDeploy: deploy, deploy-stream, takedown.
	LimitDeploy
	// LimitVerify: credential verification.
	LimitVerify
	// LimitIR: IR validation and compilation, which editors call as the
	// user types (decision 150).
	LimitIR
)

func (c LimitClass) String() string {
	return [...]string{"global", "write", "deploy", "verify", "ir"}[c]
}

// Route is one entry of the route table: how the route is called and what
// it answers. Its documentation (RouteDoc) is kept beside it in
// route_docs.go.
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
	// MaxBody is the largest body the handler reads, when not MaxBodyBytes.
	MaxBody int64
	// Body is, for a route that reads a body, a value of the type the
	// handler decodes it into; the OpenAPI document's request schema is
	// derived from its JSON fields.
	Body any
	// Query names the query parameters the handler reads (besides the
	// organizationId/projectId overrides of every authenticated route). A
	// list must name "cursor": its cursors are bound to it (query.go).
	Query   []string
	Handler func(w http.ResponseWriter, r *http.Request) error
	// Status is the status of a successful answer (200, 201, 202 or 204).
	Status int
	// CreatedWith names a query flag with which the route also creates a
	// record and answers 201 (same answer type) instead of Status, such as
	// ?create=true of the imports.
	CreatedWith string
	// Reply is, for a route that answers a body, a value of the Go type
	// the handler writes with writeJSON (a list: edgeflow.ListPage of its items), or
	// a Media for a body that is not JSON of a Go type; nil for 204 and
	// for a route that only streams. The OpenAPI document's response
	// schema is derived from it (openapi_reply.go).
	Reply any
	// Events are, for a route that answers Server-Sent Events (always, or
	// when the request accepts text/event-stream), a value of each event's
	// data type by event name.
	Events map[string]any
	// Audit is the action every request of a state-changing route records
	// in the audit log, allowed or refused: "<target type>.<verb>", such as
	// "workflow.create" (audit.go). Every POST, PUT, PATCH and DELETE route
	// names one, except those that change nothing (IR validation and
	// compilation, token verification).
	Audit string
	// AuditTarget is the path parameter holding the id of the audit entry's
	// target; without it the target is what the handler names or the "id"
	// of the answer (a created record).
	AuditTarget string
	// Role is the least role in the organization the route needs
	// (docs/security.md, "Roles"); "" means the default: viewer for GET,
	// member for other methods. A key acts with its creator's current role.
	Role edgeflow.Role
	// Protocol names the protocol a route speaks instead of the API's JSON
	// ("MCP"): its bodies, answers and errors are the protocol's, which the
	// package serving it tests (internal/mcp); the bad-input tests of the
	// API's bodies leave it out.
	Protocol string
	// Personal marks a session route about the signed-in user itself (its
	// session, its organizations, accepting an invitation): it needs no role
	// in an organization.
	Personal bool
	// RouteDoc is the route's documentation, from routeDocs.
	RouteDoc
}

// MinRole is the least role in the organization the route needs, "" for a
// public or personal route.
func (rt Route) MinRole() edgeflow.Role {
	switch {
	case rt.Auth == AuthNone || rt.Personal:
		return ""
	case rt.Role != "":
		return rt.Role
	case rt.Method == http.MethodGet:
		return edgeflow.RoleViewer
	}
	return edgeflow.RoleMember
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

	viewer = edgeflow.RoleViewer
	admin  = edgeflow.RoleAdmin
	owner  = edgeflow.RoleOwner
)

// The route table's constructors: a route of the method at pattern,
// answered by h. A route that may change something counts against
// LimitWrite unless limit says otherwise; a GET only against the per-IP
// limit.
func get(pattern string, h handlerFunc) Route {
	return Route{Method: http.MethodGet, Pattern: pattern, Handler: h}
}

func post(pattern string, h handlerFunc) Route  { return writeRoute(http.MethodPost, pattern, h) }
func put(pattern string, h handlerFunc) Route   { return writeRoute(http.MethodPut, pattern, h) }
func patch(pattern string, h handlerFunc) Route { return writeRoute(http.MethodPatch, pattern, h) }
func del(pattern string, h handlerFunc) Route   { return writeRoute(http.MethodDelete, pattern, h) }

type handlerFunc = func(w http.ResponseWriter, r *http.Request) error

func writeRoute(method, pattern string, h handlerFunc) Route {
	return Route{Method: method, Pattern: pattern, Handler: h, Limit: LimitWrite}
}

// The route table's settings, each returning the route changed.

// public: anyone may call the route (AuthNone).
func (rt Route) public() Route {
	rt.Auth = AuthNone
	return rt
}

// session: a session only; an API key gets 403 (AuthSession).
func (rt Route) session() Route {
	rt.Auth = AuthSession
	return rt
}

// apiKey: an API key with scope s only; a session gets 403 (AuthKey).
func (rt Route) apiKey(s edgeflow.Scope) Route {
	rt.Auth, rt.Scope = AuthKey, s
	return rt
}

// scope: an API key with scope s, or a session (AuthAny).
func (rt Route) scope(s edgeflow.Scope) Route {
	rt.Auth, rt.Scope = AuthAny, s
	return rt
}

// role sets the least role in the organization, when not the method's
// default (Route.Role).
func (rt Route) role(r edgeflow.Role) Route {
	rt.Role = r
	return rt
}

// protocol marks a route that speaks a protocol (Route.Protocol).
func (rt Route) protocol(name string) Route {
	rt.Protocol = name
	return rt
}

// personal marks a route about the signed-in user itself (Route.Personal).
func (rt Route) personal() Route {
	rt.Personal = true
	return rt
}

// limit sets the rate-limit class, when not the method's default.
func (rt Route) limit(c LimitClass) Route {
	rt.Limit = c
	return rt
}

// body is a value of the type the handler decodes the body into.
func (rt Route) body(v any) Route {
	rt.Body = v
	return rt
}

// noBody marks a POST, PUT or PATCH that reads no body.
func (rt Route) noBody() Route {
	rt.NoBody = true
	return rt
}

// maxBody is the largest body the handler reads, when not MaxBodyBytes.
func (rt Route) maxBody(n int64) Route {
	rt.MaxBody = n
	return rt
}

// query names the query parameters the handler reads.
func (rt Route) query(names ...string) Route {
	rt.Query = names
	return rt
}

// ok, created and accepted: the route answers 200, 201 or 202 with a value
// of reply's type (Route.Reply).
func (rt Route) ok(reply any) Route       { return rt.answers(http.StatusOK, reply) }
func (rt Route) created(reply any) Route  { return rt.answers(http.StatusCreated, reply) }
func (rt Route) accepted(reply any) Route { return rt.answers(http.StatusAccepted, reply) }

// createdWith: with ?<flag>=true the route creates a record and answers
// 201 with the same type (Route.CreatedWith); the flag is one of its query
// parameters.
func (rt Route) createdWith(flag string) Route {
	rt.CreatedWith = flag
	rt.Query = append(append([]string(nil), rt.Query...), flag)
	return rt
}

// noContent: the route answers 204 without a body.
func (rt Route) noContent() Route { return rt.answers(http.StatusNoContent, nil) }

func (rt Route) answers(status int, reply any) Route {
	rt.Status, rt.Reply = status, reply
	return rt
}

// stream: the route answers 200 with Server-Sent Events only, events
// holding a value of each event's data type by event name.
func (rt Route) stream(events map[string]any) Route {
	rt.Status, rt.Events = http.StatusOK, events
	return rt
}

// events: the route also answers Server-Sent Events, when asked.
func (rt Route) events(events map[string]any) Route {
	rt.Events = events
	return rt
}

// audit names the audit action and the path parameter holding its
// target's id ("" when the path has none).
func (rt Route) audit(action, targetParam string) Route {
	rt.Audit, rt.AuditTarget = action, targetParam
	return rt
}

// key is the route's key in routeDocs: "METHOD PATTERN".
func (rt Route) key() string { return rt.Method + " " + rt.Pattern }

// The query parameters of lists.
var (
	paged        = []string{"cursor", "limit"}
	providerList = []string{"connectionId", "prefix", "cursor", "limit"}
)

// The answers that are not JSON of a Go type, and the events of streams.
var (
	prometheusText = Media{Type: "text/plain", Schema: map[string]any{"type": "string"}}
	jsonSchemaDoc  = Media{Type: "application/schema+json", Schema: map[string]any{"type": "object"}}
	objectBytes    = Media{Type: "application/octet-stream", Schema: map[string]any{"type": "string", "format": "binary"}}

	runStreamEvents    = map[string]any{"run": edgeflow.RunEvent{}}
	deployStreamEvents = map[string]any{"plan": deploysvc.DeployPlan{}, "progress": deploysvc.Progress{}, "result": edgeflow.DeployResult{}, "error": edgeflow.StreamError{}}
	runLogEvents       = map[string]any{"log": edgeflow.LogLine{}, "end": runLogsEnd{}, "error": edgeflow.StreamError{}}
)

// routeTable is every route of the API, its documentation attached.
func (s *Server) routeTable() []Route {
	routes := []Route{
		// Operations.
		get("/healthz", s.handleHealth).public().ok(healthBody{}),
		get("/readyz", s.handleReady).public().ok(readyBody{}),
		get("/metrics", s.handleMetrics).public().ok(prometheusText),

		// Authentication and the session (auth.go).
		get("/api/auth/sign-up", s.handleSignUpOptions).public().ok(signUpOptions{}),
		post("/api/auth/sign-up", s.handleSignUp).public().limit(LimitVerify).body(signUpRequest{}).created(edgeflow.SignedIn{}).audit("user.sign_up", ""),
		post("/api/auth/sign-in", s.handleSignIn).public().limit(LimitVerify).body(signInRequest{}).ok(edgeflow.SignedIn{}).audit("session.sign_in", ""),
		post("/api/auth/sign-out", s.handleSignOut).session().personal().limit(LimitGlobal).noBody().noContent().audit("session.sign_out", ""),
		get("/api/auth/session", s.handleSession).session().personal().ok(edgeflow.SignedIn{}),
		get("/api/whoami", s.handleWhoami).scope(read).ok(edgeflow.Whoami{}),
		put("/api/session/active", s.handleSessionActive).session().personal().limit(LimitGlobal).body(sessionActiveRequest{}).ok(edgeflow.SignedIn{}).audit("session.switch", ""),

		// The user's password and sessions (sessions.go).
		post("/api/auth/password", s.handlePasswordChange).session().personal().limit(LimitVerify).body(passwordChangeRequest{}).noContent().audit("user.password_change", ""),
		get("/api/auth/sessions", s.handleSessionList).session().personal().query(paged...).ok(edgeflow.ListPage[sessionView]{}),
		del("/api/auth/sessions/{id}", s.handleSessionRevoke).session().personal().noContent().audit("session.revoke", "id"),
		// Organizations, members and roles, invitations (teams.go).
		get("/api/organizations", s.handleOrganizationList).session().personal().ok(edgeflow.OrganizationList{}),
		post("/api/organizations", s.handleOrganizationCreate).session().personal().body(organizationRequest{}).created(organizationCreated{}).audit("organization.create", ""),
		patch("/api/organizations/{organizationId}", s.handleOrganizationUpdate).session().role(admin).body(organizationUpdateRequest{}).ok(organizationUpdated{}).audit("organization.update", "organizationId"),
		del("/api/organizations/{organizationId}", s.handleOrganizationDelete).session().role(owner).noContent().audit("organization.delete", "organizationId"),
		get("/api/organizations/{organizationId}/members", s.handleMemberList).session().query(paged...).ok(edgeflow.ListPage[edgeflow.Member]{}),
		patch("/api/organizations/{organizationId}/members/{userId}", s.handleMemberUpdate).session().role(admin).body(memberRoleRequest{}).ok(edgeflow.Member{}).audit("member.role_change", "userId"),
		del("/api/organizations/{organizationId}/members/{userId}", s.handleMemberRemove).session().role(viewer).noContent().audit("member.remove", "userId"),
		post("/api/organizations/{organizationId}/transfer-ownership", s.handleTransferOwnership).session().role(owner).body(transferRequest{}).ok(edgeflow.Member{}).audit("organization.transfer_ownership", "organizationId"),
		post("/api/organizations/{organizationId}/invitations", s.handleInvitationCreate).session().role(admin).body(invitationRequest{}).created(invitationCreated{}).audit("invitation.create", ""),
		get("/api/organizations/{organizationId}/invitations", s.handleInvitationList).session().role(admin).query(paged...).ok(edgeflow.ListPage[invitationBody]{}),
		del("/api/organizations/{organizationId}/invitations/{invitationId}", s.handleInvitationRevoke).session().role(admin).noContent().audit("invitation.revoke", "invitationId"),
		post("/api/invitations/accept", s.handleInvitationAccept).session().personal().limit(LimitVerify).body(invitationAcceptRequest{}).ok(edgeflow.SignedIn{}).audit("invitation.accept", ""),

		// Projects (projects.go).
		get("/api/projects", s.handleProjectList).scope(read).query(paged...).ok(edgeflow.ListPage[edgeflow.Project]{}),
		post("/api/projects", s.handleProjectCreate).scope(write).role(admin).body(projectCreateRequest{}).created(edgeflow.Project{}).audit("project.create", ""),
		patch("/api/projects/{id}", s.handleProjectUpdate).scope(write).role(admin).body(projectUpdateRequest{}).ok(edgeflow.Project{}).audit("project.update", "id"),
		del("/api/projects/{id}", s.handleProjectDelete).scope(write).role(admin).noContent().audit("project.delete", "id"),
		// Environments of a project (environments.go).
		get("/api/projects/{id}/environments", s.handleEnvironmentList).scope(read).query(paged...).ok(edgeflow.ListPage[edgeflow.Environment]{}),
		post("/api/projects/{id}/environments", s.handleEnvironmentCreate).scope(write).role(admin).body(environmentCreateRequest{}).created(edgeflow.Environment{}).audit("environment.create", ""),
		patch("/api/projects/{id}/environments/{name}", s.handleEnvironmentUpdate).scope(write).role(admin).body(environmentUpdateRequest{}).ok(edgeflow.Environment{}).audit("environment.update", "name"),
		del("/api/projects/{id}/environments/{name}", s.handleEnvironmentDelete).scope(write).role(admin).noContent().audit("environment.delete", "name"),

		// Workflows and functions (workflows.go).
		get("/api/workflows", s.handleWorkflowList).scope(read).query(paged...).ok(edgeflow.ListPage[edgeflow.Workflow]{}),
		post("/api/workflows", s.handleWorkflowCreate).scope(write).body(workflowCreateRequest{}).created(edgeflow.Workflow{}).audit("workflow.create", ""),
		get("/api/workflows/{id}", s.handleWorkflowGet).scope(read).ok(edgeflow.Workflow{}),
		get("/api/workflows/{id}/full", s.handleWorkflowFull).scope(read).query("version").ok(edgeflow.WorkflowFull{}),
		patch("/api/workflows/{id}", s.handleWorkflowUpdate).scope(write).body(workflowUpdateRequest{}).ok(edgeflow.Workflow{}).audit("workflow.update", "id"),
		patch("/api/workflows/{id}/move", s.handleWorkflowMove).scope(write).body(workflowMoveRequest{}).ok(edgeflow.Workflow{}).audit("workflow.move", "id"),
		del("/api/workflows/{id}", s.handleWorkflowDelete).scope(write).query("force", "runs").noContent().audit("workflow.delete", "id"),

		// Imports and exports (imports.go, exports.go).
		post("/api/import/n8n", s.handleImportN8n).scope(read).role(viewer).body(importN8nRequest{}).maxBody(MaxImportBytes).ok(importResult{}).createdWith("create").audit("workflow.import", ""),
		post("/api/import/awaitstep", s.handleImportAwaitStep).scope(read).role(viewer).body(importAwaitStepRequest{}).maxBody(MaxImportBytes).ok(importResult{}).createdWith("create").audit("workflow.import", ""),
		get("/api/workflows/{workflowId}/versions/{versionId}/export", s.handleVersionExport).scope(read).query("format").ok(gzipArchive),

		// Versions (versions.go).
		get("/api/workflows/{workflowId}/versions", s.handleVersionList).scope(read).query(paged...).ok(edgeflow.ListPage[edgeflow.VersionSummary]{}),
		post("/api/workflows/{workflowId}/versions", s.handleVersionSubmit).scope(write).body(versionSubmitRequest{}).maxBody(MaxIRBodyBytes).created(edgeflow.VersionSummary{}).audit("version.create", ""),
		get("/api/workflows/{workflowId}/versions/{versionId}", s.handleVersionGet).scope(read).ok(edgeflow.VersionDetail{}),
		patch("/api/workflows/{workflowId}/versions/{versionId}", s.handleVersionUpdate).scope(write).body(versionUpdateRequest{}).ok(edgeflow.VersionSummary{}).audit("version.update", "versionId"),
		post("/api/workflows/{workflowId}/versions/{versionId}/revert", s.handleVersionRevert).scope(write).noBody().created(edgeflow.VersionSummary{}).audit("version.revert", "versionId"),
		post("/api/workflows/{workflowId}/versions/{versionId}/test", s.handleVersionTest).scope(deploy).limit(LimitDeploy).body(versionTestRequest{}).ok(deploysvc.TestResult{}).audit("version.test", "versionId"),
		// Test runs of the editor's IR and pinned outputs (testrun.go, pinned.go).
		post("/api/workflows/{workflowId}/test", s.handleDraftTest).scope(deploy).limit(LimitDeploy).body(draftTestRequest{}).maxBody(maxDraftTestBody).ok(deploysvc.TestResult{}).audit("workflow.test", "workflowId"),
		get("/api/workflows/{workflowId}/pinned-outputs", s.handlePinnedOutputsGet).scope(read).ok(edgeflow.PinnedOutputs{}),
		put("/api/workflows/{workflowId}/pinned-outputs", s.handlePinnedOutputsPut).scope(write).body(pinnedOutputsRequest{}).ok(edgeflow.PinnedOutputs{}).audit("workflow.pin_outputs", "workflowId"),
		del("/api/workflows/{workflowId}/versions/{versionId}", s.handleVersionDelete).scope(write).noContent().audit("version.delete", "versionId"),

		// Node definitions and the IR schema (nodes.go).
		get("/api/openapi.json", s.handleOpenAPI).public().ok(map[string]any{}),
		get("/api/ir/schema.json", s.handleIRSchema).public().ok(jsonSchemaDoc),
		post("/api/ir/validate", s.handleIRValidate).scope(read).role(viewer).limit(LimitIR).body(irToolRequest{}).maxBody(MaxIRBodyBytes).ok(edgeflow.IRValidation{}),
		post("/api/ir/compile", s.handleIRCompile).scope(read).role(viewer).limit(LimitIR).body(irToolRequest{}).maxBody(MaxIRBodyBytes).ok(irCompileResponse{}),
		get("/api/nodes", s.handleNodeList).scope(read).query(paged...).ok(edgeflow.ListPage[ir.NodeDefinition]{}),
		get("/api/nodes/templates", s.handleNodeTemplates).scope(read).ok(map[string]nodeTemplateView{}),
		get("/api/nodes/{nodeId}", s.handleNodeGet).scope(read).ok(ir.NodeDefinition{}),

		// Marketplace (marketplace.go); changes also count against
		// MarketplaceChangesPerMinute.
		get("/api/marketplace", s.handleMarketplaceList).scope(read).query("cursor", "limit", "q", "category").ok(edgeflow.ListPage[marketplace.CatalogNode]{}),
		get("/api/marketplace/categories", s.handleMarketplaceCategories).scope(read).ok(categoryList{}),
		get("/api/marketplace/installed", s.handleMarketplaceInstalled).scope(read).query(paged...).ok(edgeflow.ListPage[marketplace.Installation]{}),
		get("/api/marketplace/{nodeId}", s.handleMarketplaceGet).scope(read).ok(marketplace.Details{}),
		post("/api/marketplace/install", s.handleMarketplaceInstall).scope(write).role(admin).body(marketplaceChangeRequest{}).created(marketplace.Installation{}).audit("node.install", ""),
		post("/api/marketplace/update", s.handleMarketplaceUpdate).scope(write).role(admin).body(marketplaceChangeRequest{}).ok(marketplace.Installation{}).audit("node.update", ""),
		post("/api/marketplace/uninstall", s.handleMarketplaceUninstall).scope(write).role(admin).body(marketplaceUninstallRequest{}).ok(uninstallResult{}).audit("node.uninstall", ""),

		// Deployments and runs lists (history.go).
		get("/api/deployments", s.handleDeploymentList).scope(read).query(paged...).ok(edgeflow.ListPage[edgeflow.Deployment]{}),
		get("/api/workflows/{workflowId}/deployments", s.handleWorkflowDeploymentList).scope(read).query(paged...).ok(edgeflow.ListPage[edgeflow.Deployment]{}),
		get("/api/runs", s.handleRunList).scope(read).query("cursor", "limit", "status", "workflowId", "versionId", "from", "to", "q", "environment").ok(edgeflow.ListPage[edgeflow.Run]{}),
		get("/api/runs/usage", s.handleRunUsage).scope(read).query("workflowId", "status", "versionId", "from", "to", "q", "environment").ok(edgeflow.RunUsage{}),
		get("/api/runs/stream", s.handleRunStream).scope(read).query("after", "timeoutSeconds").stream(runStreamEvents),
		get("/api/runs/{runId}", s.handleProjectRunGet).scope(read).ok(edgeflow.Run{}),
		post("/api/runs/bulk", s.handleBulkStart).scope(deploy).body(bulkRequest{}).accepted(deploysvc.BulkStarted{}).audit("run.bulk", ""),
		get("/api/runs/bulk/{bulkId}", s.handleBulkGet).scope(read).ok(edgeflow.BulkJob{}),
		del("/api/runs/bulk/{bulkId}", s.handleBulkCancel).scope(deploy).noBody().ok(edgeflow.BulkJob{}).audit("run.bulk_cancel", "bulkId"),
		get("/api/workflows/{workflowId}/runs", s.handleWorkflowRunList).scope(read).query("cursor", "limit", "status", "versionId", "from", "to", "q", "environment").ok(edgeflow.ListPage[edgeflow.Run]{}),
		// Events sent by type to the project's waiting runs (sentevents.go).
		post("/api/events", s.handleEventSend).scope(deploy).body(sendEventRequest{}).created(edgeflow.SentEvent{}).audit("event.send", ""),
		get("/api/events", s.handleEventList).scope(read).query(paged...).ok(edgeflow.ListPage[edgeflow.SentEvent]{}),
		get("/api/events/{eventId}", s.handleEventGet).scope(read).ok(edgeflow.SentEvent{}),
		post("/api/events/{eventId}/replay", s.handleEventReplay).scope(deploy).noBody().created(edgeflow.SentEvent{}).audit("event.replay", "eventId"),

		// Deploy, takedown, trigger, runs and run control (deployments.go,
		// runs.go); provider resources (resources.go); token verification
		// (verify.go).
		post("/api/workflows/{workflowId}/deploy", s.handleDeploy).scope(deploy).limit(LimitDeploy).body(deployRequest{}).ok(edgeflow.DeployResult{}).audit("workflow.deploy", "workflowId"),
		post("/api/workflows/{workflowId}/deploy-stream", s.handleDeployStream).scope(deploy).limit(LimitDeploy).body(deployRequest{}).stream(deployStreamEvents).audit("workflow.deploy", "workflowId"),
		get("/api/workflows/{workflowId}/deploy-plan", s.handleDeployPlan).scope(read).query("connectionId", "environment", "versionId").ok(deploysvc.DeployPlan{}),
		post("/api/workflows/{workflowId}/rollback", s.handleRollback).scope(deploy).limit(LimitDeploy).body(rollbackRequest{}).ok(edgeflow.DeployResult{}).audit("workflow.rollback", "workflowId"),
		post("/api/workflows/{workflowId}/promote", s.handlePromote).scope(deploy).limit(LimitDeploy).body(promoteRequest{}).ok(promoteResult{}).audit("workflow.promote", "workflowId"),
		post("/api/workflows/{workflowId}/takedown", s.handleTakedown).scope(deploy).limit(LimitDeploy).body(takedownRequest{}).ok(edgeflow.DeployResult{}).audit("workflow.takedown", "workflowId"),
		post("/api/workflows/{workflowId}/trigger", s.handleTrigger).scope(deploy).body(triggerRequest{}).created(deploysvc.TriggerResult{}).audit("workflow.trigger", "workflowId"),
		post("/api/workflows/{workflowId}/trigger/batch", s.handleTriggerBatch).scope(deploy).body(triggerBatchRequest{}).maxBody(MaxBatchBody).created(edgeflow.BatchTriggerResult{}).audit("workflow.trigger", "workflowId"),
		post("/api/workflows/{workflowId}/invoke", s.handleInvoke).scope(deploy).body(invokeRequest{}).ok(deploysvc.InvokeResult{}).audit("function.invoke", "workflowId"),
		get("/api/workflows/{workflowId}/estimate", s.handleEstimate).scope(read).query("versionId", "runsPerMonth", "connectionId").ok(edgeflow.Estimate{}),
		post("/api/workflows/{workflowId}/signed-trigger", s.handleSignedTrigger).public().protocol("signed request").noBody().query("connectionId", "queue").created(deploysvc.TriggerResult{}).audit("run.signed_trigger", ""),
		get("/api/workflows/{workflowId}/trigger-secret", s.handleTriggerSecret).scope(deploy).query("connectionId").ok(deploysvc.TriggerSecret{}),
		get("/api/workflows/{workflowId}/runs/{runId}", s.handleRunGet).scope(read).ok(edgeflow.Run{}),
		get("/api/workflows/{workflowId}/runs/{runId}/logs", s.handleRunLogs).scope(read).ok(deploysvc.RunLogsView{}).events(runLogEvents),
		get("/api/workflows/{workflowId}/runs/{runId}/steps/{nodeId}/output", s.handleRunStepOutput).scope(read).query("attempt", "iteration").ok(deploysvc.StepOutput{}),
		get("/api/workflows/{workflowId}/runs/{runId}/worker-logs", s.handleRunWorkerLogs).scope(read).query("before", "after").ok(deploysvc.WorkerLogsView{}),
		post("/api/workflows/{workflowId}/runs/{runId}/pause", s.handleRunPause).scope(deploy).noBody().ok(edgeflow.Run{}).audit("run.pause", "runId"),
		post("/api/workflows/{workflowId}/runs/{runId}/resume", s.handleRunResume).scope(deploy).noBody().ok(edgeflow.Run{}).audit("run.resume", "runId"),
		post("/api/workflows/{workflowId}/runs/{runId}/terminate", s.handleRunTerminate).scope(deploy).noBody().ok(edgeflow.Run{}).audit("run.terminate", "runId"),
		post("/api/workflows/{workflowId}/runs/{runId}/restart", s.handleRunRestart).scope(deploy).body(restartRequest{}).created(edgeflow.Run{}).audit("run.restart", "runId"),
		post("/api/workflows/{workflowId}/runs/{runId}/replay", s.handleRunReplay).scope(deploy).body(replayRequest{}).created(edgeflow.Run{}).audit("run.replay", "runId"),
		get("/api/resources/kv/namespaces", s.handleKVNamespaces).scope(read).query(providerList...).ok(edgeflow.ListPage[deploysvc.KVNamespace]{}),
		get("/api/resources/kv/namespaces/{namespaceId}/keys", s.handleKVKeys).scope(read).query(providerList...).ok(edgeflow.ListPage[deploysvc.KVKey]{}),
		get("/api/resources/kv/namespaces/{namespaceId}/values/{key...}", s.handleKVValue).scope(read).query("connectionId").ok(deploysvc.KVValue{}),
		get("/api/resources/d1/databases", s.handleD1Databases).scope(read).query(providerList...).ok(edgeflow.ListPage[deploysvc.D1Database]{}),
		post("/api/resources/d1/databases/{databaseId}/query", s.handleD1Query).scope(read).role(viewer).body(d1QueryRequest{}).query("connectionId").ok(deploysvc.D1Result{}).audit("d1_database.query", "databaseId"),
		get("/api/resources/r2/buckets", s.handleR2Buckets).scope(read).query(providerList...).ok(edgeflow.ListPage[deploysvc.R2Bucket]{}),
		get("/api/resources/r2/buckets/{bucketName}/objects", s.handleR2Objects).scope(read).query("connectionId", "prefix", "delimiter", "cursor", "limit").ok(r2ObjectsBody{}),
		get("/api/resources/r2/buckets/{bucketName}/objects/{key...}", s.handleR2Object).scope(read).query("connectionId").ok(objectBytes),
		post("/api/connections/verify-token", s.handleVerifyToken).scope(write).limit(LimitVerify).body(verifyTokenRequest{}).ok(deploysvc.VerifyResult{}),

		// Connections (connections.go).
		get("/api/connections", s.handleConnectionList).scope(read).query(paged...).ok(edgeflow.ListPage[edgeflow.ConnectionView]{}),
		post("/api/connections", s.handleConnectionCreate).scope(write).role(admin).body(connectionCreateRequest{}).created(edgeflow.ConnectionView{}).audit("connection.create", ""),
		patch("/api/connections/{id}", s.handleConnectionUpdate).scope(write).role(admin).body(connectionUpdateRequest{}).ok(edgeflow.ConnectionView{}).audit("connection.update", "id"),
		del("/api/connections/{id}", s.handleConnectionDelete).scope(write).role(admin).noContent().audit("connection.delete", "id"),

		// Environment variables (envvars.go).
		get("/api/env-vars", s.handleEnvVarList).scope(read).query(paged...).ok(edgeflow.ListPage[envVarView]{}),
		get("/api/env-vars/usage", s.handleEnvVarUsage).scope(read).query(paged...).ok(edgeflow.ListPage[envVarUsage]{}),
		post("/api/env-vars", s.handleEnvVarCreate).scope(write).body(envVarCreateRequest{}).created(envVarView{}).audit("env_var.create", ""),
		patch("/api/env-vars/{id}", s.handleEnvVarUpdate).scope(write).body(envVarUpdateRequest{}).ok(envVarView{}).audit("env_var.update", "id"),
		del("/api/env-vars/{id}", s.handleEnvVarDelete).scope(write).noContent().audit("env_var.delete", "id"),

		// Outbound webhooks (webhooks.go).
		get("/api/webhooks", s.handleWebhookList).scope(read).query(paged...).ok(edgeflow.ListPage[edgeflow.Webhook]{}),
		post("/api/webhooks", s.handleWebhookCreate).scope(write).body(webhookCreateRequest{}).created(webhookWithSecret{}).audit("webhook.create", ""),
		get("/api/webhooks/{id}", s.handleWebhookGet).scope(read).ok(edgeflow.Webhook{}),
		patch("/api/webhooks/{id}", s.handleWebhookUpdate).scope(write).body(webhookUpdateRequest{}).ok(edgeflow.Webhook{}).audit("webhook.update", "id"),
		del("/api/webhooks/{id}", s.handleWebhookDelete).scope(write).noContent().audit("webhook.delete", "id"),
		post("/api/webhooks/{id}/rotate-secret", s.handleWebhookRotateSecret).scope(write).noBody().ok(webhookWithSecret{}).audit("webhook.rotate_secret", "id"),
		get("/api/webhooks/{id}/deliveries", s.handleWebhookDeliveries).scope(read).query(paged...).ok(edgeflow.ListPage[edgeflow.WebhookDelivery]{}),
		post("/api/webhooks/{id}/deliveries/{deliveryId}/redeliver", s.handleWebhookRedeliver).scope(write).noBody().accepted(edgeflow.WebhookDelivery{}).audit("webhook.redeliver", "id"),

		// The MCP endpoint, API keys only (mcp.go, internal/mcp); its tools'
		// requests count against their own routes' limits.
		post("/api/mcp", s.handleMCPMessage).protocol("MCP").apiKey(read).role(viewer).limit(LimitGlobal).body(mcpMessage{}).stream(mcpEvents),
		get("/api/mcp", s.handleMCPStream).protocol("MCP").apiKey(read).stream(mcpEvents),
		del("/api/mcp", s.handleMCPEnd).protocol("MCP").apiKey(read).role(viewer).limit(LimitGlobal).noContent(),
		get("/api/mcp/connect", s.handleMCPConnect).scope(read).ok(mcp.Connect{}),

		// API keys, session only (apikeys.go).
		get("/api/api-keys", s.handleAPIKeyList).session().query(paged...).ok(edgeflow.ListPage[apiKeyView]{}),
		post("/api/api-keys", s.handleAPIKeyCreate).session().role(viewer).body(apiKeyCreateRequest{}).created(apiKeyCreated{}).audit("api_key.create", ""),
		del("/api/api-keys/{id}", s.handleAPIKeyRevoke).session().role(viewer).noContent().audit("api_key.revoke", "id"),
		// The audit log (audit.go).
		get("/api/audit", s.handleAuditList).scope(read).role(admin).query("cursor", "limit", "actor", "action", "target", "since", "until").ok(edgeflow.ListPage[auditView]{}),
	}
	for i := range routes {
		routes[i].RouteDoc = routeDocs[routes[i].key()]
	}
	return routes
}
