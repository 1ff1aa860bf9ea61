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
//     validation must refuse with 422) or NoBody: true; for a route that
//     changes something, its Audit action ("<type>.<verb>", see audit.go)
//     and, when the target's id is a path parameter, AuditTarget; for the reference of
//     docs/api.md and the OpenAPI document: Summary, Status, Answer, the
//     route's own Errors, and an Example (route_examples.go), then run
//     `go run ./internal/api/cmd/apidoc` (TestAPIDocCurrent fails until
//     docs/api.md is regenerated). TestRouteExamples sends the example to a
//     test world; a route that needs a deployed workflow or a provider goes
//     in its liveExamples and in the e2e TestRouteExamplesLive instead;
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
	// Status is the status of a successful answer (200, 201, 202 or 204).
	Status int
	// Answer describes the successful answer's body, in Markdown ("" for
	// 204).
	Answer string
	// Errors are the refusals particular to the route; those every route of
	// its kind can answer (a bad body, credentials, scope, a missing record,
	// rate limits) are added by Route.Refusals (apidoc.go).
	Errors []ErrorCase
	// Example is one request with its answer (route_examples.go).
	Example Example
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
	// Personal marks a session route about the signed-in user itself (its
	// session, its organizations, accepting an invitation): it needs no role
	// in an organization.
	Personal bool
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

func (s *Server) routeTable() []Route {
	return []Route{
		// Operations.
		{Method: "GET", Pattern: "/healthz", Auth: AuthNone, Summary: "Answers 200 while the process is up.", Handler: s.handleHealth,
			Status: 200, Answer: "`{status: \"ok\"}`.", Example: exHealth},
		{Method: "GET", Pattern: "/readyz", Auth: AuthNone, Summary: "Answers 200 when the database and the edge answer, 503 naming the dependency that is down.", Handler: s.handleReady,
			Status: 200, Answer: "`{status: \"ok\", database: \"ok\", edge: \"ok\"|\"off\"}` (`edge` is `off` when serve runs without a local edge).",
			Errors: []ErrorCase{{503, "unavailable", "the database or the edge does not answer: `{status: \"unavailable\", database: \"ok\"|\"down\", edge: \"ok\"|\"down\"|\"off\", error, code, details, requestId}`, with `Retry-After`"}}, Example: exReady},
		{Method: "GET", Pattern: "/metrics", Auth: AuthNone, Summary: "Metrics in the Prometheus text format.", Handler: s.handleMetrics,
			Status: 200, Answer: "The metrics in the Prometheus text format (docs/operations.md lists them).", Example: exMetrics},

		// Authentication and the session (auth.go).
		{Method: "POST", Pattern: "/api/auth/sign-up", Audit: "user.sign_up", Auth: AuthNone, Limit: LimitVerify,
			BadBody: `{"email":"not-an-email","password":"short"}`, Summary: "Creates a user and signs in: with the setup token (the first user), an invitation token, or (sign-up mode open) anyone.", Body: signUpRequest{}, Handler: s.handleSignUp,
			Status: 201, Answer: "The session body: `{user, organizations, activeOrganizationId, activeProjectId, csrfToken, expiresAt}`; sets the session cookie. With `invitationToken` the user joins the invitation's organization with its role (the email must be the invited one); otherwise the user gets an organization it owns (`organizationName`, default `\"<name>'s organization\"`) and a project `Default`.",
			Errors: []ErrorCase{{403, "forbidden", "the sign-up mode refuses it: `invite` (the default) without a valid invitation or setup token, `closed` without the setup token; a setup token that is used, expired or sent once a user exists; an invitation for another email"}, {404, "not_found", "no invitation has this `invitationToken`"}, {409, "conflict", "the email is already registered (compared case-insensitively), or the invitation is accepted, revoked or expired"}, {422, "validation_failed", "a password under 8 characters or over 1024 bytes, only whitespace, the email or its local part, or a common password (at `/password`)"}}, Example: exSignUp},
		{Method: "POST", Pattern: "/api/auth/sign-in", Audit: "session.sign_in", Auth: AuthNone, Limit: LimitVerify,
			BadBody: `{"email":"","password":""}`, Summary: "Signs in with email and password (sets the session cookie).", Body: signInRequest{}, Handler: s.handleSignIn,
			Status: 200, Answer: "The session body (as sign-up); sets the session cookie.",
			Errors: []ErrorCase{{401, "unauthorized", "a wrong password or an unknown email (the same answer for both)"}, {429, "rate_limited", "10 failures for one email: further attempts wait (`Retry-After`, 30 s doubling to 15 min; a success clears it)"}}, Example: exSignIn},
		{Method: "POST", Pattern: "/api/auth/sign-out", Audit: "session.sign_out", Personal: true, Auth: AuthSession, NoBody: true, Summary: "Signs out (revokes the session).", Handler: s.handleSignOut,
			Status: 204, Example: exSignOut},
		{Method: "GET", Pattern: "/api/auth/session", Personal: true, Auth: AuthSession, Summary: "The signed-in user, the active organization and project, and the CSRF token.", Handler: s.handleSession,
			Status: 200, Answer: "The session body: `{user, organizations, activeOrganizationId, activeProjectId, csrfToken, expiresAt}`.", Example: exSession},
		{Method: "GET", Pattern: "/api/whoami", Auth: AuthAny, Scope: read, Summary: "Who the caller is: the user, the API key (when a key calls), the organization with the caller's role, and the project requests act in.", Handler: s.handleWhoami,
			Status: 200, Answer: "`{user: {id, email, name}, apiKey, organization, project}`: `apiKey` is `{id, name, prefix, scope, scopes, expiresAt}` for a key (never the key), `null` for a session; `organization` is `{id, name, slug, role}` and `project` `{id, name, slug}`, each `null` when there is none. Command-line clients use it for `whoami`.", Example: exWhoami},
		{Method: "PUT", Pattern: "/api/session/active", Audit: "session.switch", Personal: true, Auth: AuthSession,
			BadBody: `{"organizationId":""}`, Summary: "Changes the session's active organization and project.", Body: sessionActiveRequest{}, Handler: s.handleSessionActive,
			Status: 200, Answer: "The session body with the new active organization and project (without `projectId`: the organization's first project).",
			Errors: []ErrorCase{{404, "not_found", "an organization the user is not a member of, or a project of another organization"}}, Example: exSessionActive},

		// The user's password and sessions (sessions.go).
		{Method: "POST", Pattern: "/api/auth/password", Personal: true, Audit: "user.password_change", Auth: AuthSession, Limit: LimitVerify,
			BadBody: `{"currentPassword":"","newPassword":"short"}`, Summary: "Changes the signed-in user's password and signs out every other session.", Body: passwordChangeRequest{}, Handler: s.handlePasswordChange,
			Status: 204,
			Errors: []ErrorCase{{422, "validation_failed", "a wrong `currentPassword` (at `/currentPassword`; wrong attempts count toward the sign-in back-off of the user's email), or a `newPassword` that sign-up would refuse or that equals the current one (at `/newPassword`)"}, {429, "rate_limited", "10 wrong passwords (sign-in and this route together) for the user's email: further attempts wait (`Retry-After`)"}}, Example: exPasswordChange},
		{Method: "GET", Pattern: "/api/auth/sessions", Personal: true, Auth: AuthSession, Summary: "Lists the signed-in user's sessions that are still valid, newest first.", Query: []string{"cursor", "limit"}, Handler: s.handleSessionList,
			Status: 200, Answer: "`{data: [Session], nextCursor}`, newest first. A Session is `{id, createdAt, lastSeenAt, expiresAt, userAgent, ip, current}`: `lastSeenAt` is the last request made with it (recorded at most once a minute; `null` before the first), `userAgent` (at most 256 bytes) and `ip` are those of the sign-in, `current` marks the session of this request.", Example: exSessionList},
		{Method: "DELETE", Pattern: "/api/auth/sessions/{id}", Personal: true, Audit: "session.revoke", AuditTarget: "id", Auth: AuthSession, Limit: LimitWrite, Summary: "Signs out one of the signed-in user's sessions.", Handler: s.handleSessionRevoke,
			Status: 204, Answer: "",
			Errors: []ErrorCase{{404, "not_found", "a session of another user, or one that is unknown, signed out or expired"}}, Example: exSessionRevoke},
		// Organizations, members and roles, invitations (teams.go).
		{Method: "GET", Pattern: "/api/organizations", Auth: AuthSession, Personal: true, Summary: "Lists the signed-in user's organizations with the user's role in each.", Handler: s.handleOrganizationList,
			Status: 200, Answer: "`{data: [{id, name, slug, role, createdAt}]}`, oldest first (all of them: not paginated). `role` is `owner`, `admin`, `member` or `viewer`.", Example: exOrganizationList},
		{Method: "POST", Pattern: "/api/organizations", Audit: "organization.create", Auth: AuthSession, Personal: true, Limit: LimitWrite,
			BadBody: `{"name":""}`, Summary: "Creates an organization the caller owns, with a first project.", Body: organizationRequest{}, Handler: s.handleOrganizationCreate,
			Status: 201, Answer: "`{id, name, slug, role: \"owner\", createdAt, project}`: the organization and its first Project (`Default`). `PUT /api/session/active` switches to it.", Example: exOrganizationCreate},
		{Method: "PATCH", Pattern: "/api/organizations/{organizationId}", Audit: "organization.update", AuditTarget: "organizationId", Auth: AuthSession, Role: admin, Limit: LimitWrite,
			BadBody: `{"name":"","runRetentionDays":0}`, Summary: "Renames an organization or changes its settings (`runRetentionDays`).", Body: organizationUpdateRequest{}, Handler: s.handleOrganizationUpdate,
			Status: 200, Answer: "`{id, name, slug, role, createdAt, runRetentionDays}` with the caller's role; the slug does not change. `runRetentionDays`: finished runs are deleted this many days after their creation (default 90; docs/runs.md).",
			Errors: []ErrorCase{{422, "validation_failed", "neither `name` nor `runRetentionDays` given, a blank `name`, or `runRetentionDays` not between 1 and 3650"}}, Example: exOrganizationUpdate},
		{Method: "DELETE", Pattern: "/api/organizations/{organizationId}", Audit: "organization.delete", AuditTarget: "organizationId", Auth: AuthSession, Role: owner, Limit: LimitWrite, Summary: "Deletes an organization with its projects, workflows, keys and records.", Handler: s.handleOrganizationDelete,
			Status: 204,
			Errors: []ErrorCase{{409, "conflict", "deployments of the organization are active: the message and `details` (`[{deploymentId}]`) list them; take them down first"}}, Example: exOrganizationDelete},
		{Method: "GET", Pattern: "/api/organizations/{organizationId}/members", Auth: AuthSession, Summary: "Lists the organization's members with their roles.", Query: []string{"cursor", "limit"}, Handler: s.handleMemberList,
			Status: 200, Answer: "`{data: [Member], nextCursor}`, oldest membership first. A Member is `{userId, email, name, role, createdAt}`.", Example: exMemberList},
		{Method: "PATCH", Pattern: "/api/organizations/{organizationId}/members/{userId}", Audit: "member.role_change", AuditTarget: "userId", Auth: AuthSession, Role: admin, Limit: LimitWrite,
			BadBody: `{"role":"boss"}`, Summary: "Changes a member's role; the member's API keys shrink with it at once.", Body: memberRoleRequest{}, Handler: s.handleMemberUpdate,
			Status: 200, Answer: "The Member with the new role.",
			Errors: []ErrorCase{{403, "forbidden", "also: an admin changing the owner's role"}, {409, "conflict", "the member is the last owner"}, {422, "validation_failed", "`role` is not `admin`, `member` or `viewer` (the owner role moves only by transfer-ownership)"}}, Example: exMemberUpdate},
		{Method: "DELETE", Pattern: "/api/organizations/{organizationId}/members/{userId}", Audit: "member.remove", AuditTarget: "userId", Auth: AuthSession, Role: viewer, Limit: LimitWrite, Summary: "Removes a member (their API keys of the organization are revoked); a member removing itself leaves.", Handler: s.handleMemberRemove,
			Status: 204,
			Errors: []ErrorCase{{403, "forbidden", "removing another member without the admin role, or an admin removing the owner"}, {409, "conflict", "the member is the last owner"}}, Example: exMemberRemove},
		{Method: "POST", Pattern: "/api/organizations/{organizationId}/transfer-ownership", Audit: "organization.transfer_ownership", AuditTarget: "organizationId", Auth: AuthSession, Role: owner, Limit: LimitWrite,
			BadBody: `{"userId":""}`, Summary: "Makes another member the owner; the former owner becomes an admin.", Body: transferRequest{}, Handler: s.handleTransferOwnership,
			Status: 200, Answer: "The Member who is now the owner.",
			Errors: []ErrorCase{{422, "validation_failed", "`userId` is not another member of the organization"}}, Example: exTransferOwnership},
		{Method: "POST", Pattern: "/api/organizations/{organizationId}/invitations", Audit: "invitation.create", Auth: AuthSession, Role: admin, Limit: LimitWrite,
			BadBody: `{"email":"not-an-email","role":"owner"}`, Summary: "Invites an email address to the organization; the token is shown once.", Body: invitationRequest{}, Handler: s.handleInvitationCreate,
			Status: 201, Answer: "The Invitation plus `token` and `acceptUrl` (`<base URL>/invite?token=…`), shown this once. An Invitation is `{id, organizationId, email, role, invitedBy, status, createdAt, expiresAt, acceptedAt, acceptedBy, revokedAt}` (`acceptedBy`: the user id, `\"\"` until accepted); `status` is `pending`, `accepted`, `revoked` or `expired` (after 7 days). It is accepted once, by the user with that email.",
			Errors: []ErrorCase{{409, "conflict", "the email belongs to a member already"}, {422, "validation_failed", "`role` is not `admin`, `member` or `viewer`"}}, Example: exInvitationCreate},
		{Method: "GET", Pattern: "/api/organizations/{organizationId}/invitations", Auth: AuthSession, Role: admin, Summary: "Lists the organization's invitations (never their tokens).", Query: []string{"cursor", "limit"}, Handler: s.handleInvitationList,
			Status: 200, Answer: "`{data: [Invitation], nextCursor}`, newest first.", Example: exInvitationList},
		{Method: "DELETE", Pattern: "/api/organizations/{organizationId}/invitations/{invitationId}", Audit: "invitation.revoke", AuditTarget: "invitationId", Auth: AuthSession, Role: admin, Limit: LimitWrite, Summary: "Revokes an invitation.", Handler: s.handleInvitationRevoke,
			Status: 204,
			Errors: []ErrorCase{{409, "conflict", "the invitation was accepted already"}}, Example: exInvitationRevoke},
		{Method: "POST", Pattern: "/api/invitations/accept", Audit: "invitation.accept", Auth: AuthSession, Personal: true, Limit: LimitVerify,
			BadBody: `{"token":""}`, Summary: "Accepts an invitation: the signed-in user joins its organization, which becomes the active one.", Body: invitationAcceptRequest{}, Handler: s.handleInvitationAccept,
			Status: 200, Answer: "The session body with the joined organization active.",
			Errors: []ErrorCase{{403, "forbidden", "the invitation was sent to another email address"}, {404, "not_found", "no invitation has this token"}, {409, "conflict", "the invitation is accepted, revoked or expired, or the user is a member already"}}, Example: exInvitationAccept},

		// Projects (projects.go).
		{Method: "GET", Pattern: "/api/projects", Auth: AuthAny, Scope: read, Summary: "Lists projects of the active organization.", Query: []string{"cursor", "limit"}, Handler: s.handleProjectList,
			Status: 200, Answer: "`{data: [Project], nextCursor}`, oldest first. A Project is `{id, organizationId, name, slug, description, createdAt, updatedAt}`. An API key sees every project of its organization, as a session does.", Example: exProjectList},
		{Method: "POST", Pattern: "/api/projects", Audit: "project.create", Role: admin, Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"name":"","slug":"Not A Slug"}`, Summary: "Creates a project in the active organization.", Body: projectCreateRequest{}, Handler: s.handleProjectCreate,
			Status: 201, Answer: "The Project. `slug` defaults to one made from the name.",
			Errors: []ErrorCase{{409, "conflict", "the slug is taken in the organization"}}, Example: exProjectCreate},
		{Method: "PATCH", Pattern: "/api/projects/{id}", Audit: "project.update", AuditTarget: "id", Role: admin, Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"name":""}`, Summary: "Renames or describes a project of the organization.", Body: projectUpdateRequest{}, Handler: s.handleProjectUpdate,
			Status: 200, Answer: "The Project. `slug` cannot change (an unknown field).", Example: exProjectUpdate},
		{Method: "DELETE", Pattern: "/api/projects/{id}", Audit: "project.delete", AuditTarget: "id", Role: admin, Auth: AuthAny, Scope: write, Limit: LimitWrite, Summary: "Deletes an empty project of the organization (an API key: not its own).", Handler: s.handleProjectDelete,
			Status: 204,
			Errors: []ErrorCase{{409, "conflict", "the project still holds workflows, an active deployment uses one of its connections, or an API key asks to delete its own project"}}, Example: exProjectDelete},

		// Workflows and functions (workflows.go).
		{Method: "GET", Pattern: "/api/workflows", Auth: AuthAny, Scope: read, Summary: "Lists workflows and functions of the active project, newest first.", Query: []string{"cursor", "limit"}, Handler: s.handleWorkflowList,
			Status: 200, Answer: "`{data: [Workflow], nextCursor}`, newest first. A Workflow is `{id, organizationId, projectId, name, description, kind, envVars, triggerCode, dependencies, deployConfig, currentVersionId, activeVersionId, createdAt, updatedAt}`; secret values of `envVars` are `\"***\"`.", Example: exWorkflowList},
		{Method: "POST", Pattern: "/api/workflows", Audit: "workflow.create", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"name":"","kind":"cron"}`, Summary: "Creates a workflow or a function (kind script).", Body: workflowCreateRequest{}, Handler: s.handleWorkflowCreate,
			Status: 201, Answer: "The Workflow. `kind` is `workflow` (the default) or `script` (a function).", Example: exWorkflowCreate},
		{Method: "GET", Pattern: "/api/workflows/{id}", Auth: AuthAny, Scope: read, Summary: "One workflow.", Handler: s.handleWorkflowGet,
			Status: 200, Answer: "The Workflow.", Example: exWorkflowGet},
		{Method: "GET", Pattern: "/api/workflows/{id}/full", Auth: AuthAny, Scope: read, Summary: "The workflow with its current version (or ?version=), all version summaries and the active deployment.", Query: []string{"version"}, Handler: s.handleWorkflowFull,
			Status: 200, Answer: "`{workflow, currentVersion, versions, activeDeployment}`: the Workflow; the current version (or the one `?version=` names) with its `ir` and `code`, `null` when there is none; version summaries, highest first; the newest active Deployment or `null`.", Example: exWorkflowFull},
		{Method: "PATCH", Pattern: "/api/workflows/{id}", Audit: "workflow.update", AuditTarget: "id", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"envVars":[{"name":"lower","value":"x","isSecret":false}]}`, Summary: "Updates name, description, env vars, trigger code, dependencies or deploy config.", Body: workflowUpdateRequest{}, Handler: s.handleWorkflowUpdate,
			Status: 200, Answer: "The Workflow. `envVars` replaces the list; `deployConfig` replaces the stored object; `kind` cannot change.",
			Errors: []ErrorCase{{422, "validation_failed", "also: `triggerCode` that does not parse (`details` give `line` and `column` in its text), a dependency that is not a registry package with a semver range or dist-tag"}}, Example: exWorkflowUpdate},
		{Method: "PATCH", Pattern: "/api/workflows/{id}/move", Audit: "workflow.move", AuditTarget: "id", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"targetProjectId":""}`, Summary: "Moves the workflow to another project of the organization.", Body: workflowMoveRequest{}, Handler: s.handleWorkflowMove,
			Status: 200, Answer: "The Workflow, now in the target project; its versions, deployments and runs move with it.",
			Errors: []ErrorCase{{404, "not_found", "the target project is not in the organization (for an API key: any project but its own)"}, {409, "conflict", "the workflow is deployed on a connection of its current project"}}, Example: exWorkflowMove},
		{Method: "DELETE", Pattern: "/api/workflows/{id}", Audit: "workflow.delete", AuditTarget: "id", Auth: AuthAny, Scope: write, Limit: LimitWrite, Summary: "Deletes the workflow, taking its deployments down first (?force=true skips that), with its runs (?runs=delete, the default) or keeping them (?runs=keep).", Query: []string{"force", "runs"}, Handler: s.handleWorkflowDelete,
			Status: 204,
			Errors: []ErrorCase{{422, "validation_failed", "`runs` is neither `keep` nor `delete`"}, {502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exWorkflowDelete},

		// Versions (versions.go).
		{Method: "GET", Pattern: "/api/workflows/{workflowId}/versions", Auth: AuthAny, Scope: read, Summary: "Lists version summaries, highest number first.", Query: []string{"cursor", "limit"}, Handler: s.handleVersionList,
			Status: 200, Answer: "`{data: [VersionSummary], nextCursor}`, highest number first. A VersionSummary is `{id, workflowId, version, locked, nodeTypes, createdBy, createdAt}` (`nodeTypes`: the marketplace nodes the IR uses).", Example: exVersionList},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/versions", Audit: "version.create", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"ir":null}`, MaxBody: MaxIRBodyBytes, Summary: "Validates, compiles and stores an IR as the next version.", Body: versionSubmitRequest{}, Handler: s.handleVersionSubmit,
			Status: 201, Answer: "The VersionSummary of the new version. The stored IR has its defaults filled in and `metadata.version` set to the version's number.",
			Errors: []ErrorCase{{400, "invalid_ir", "the IR fails validation; `details` hold one entry per problem: `{path, message, nodeId?, rule}`"}, {422, "validation_failed", "also: step code or `triggerCode` that does not parse (`details`: `{path, message, nodeId?, field, line, column}`)"}}, Example: exVersionSubmit},
		{Method: "GET", Pattern: "/api/workflows/{workflowId}/versions/{versionId}", Auth: AuthAny, Scope: read, Summary: "One version with its IR and generated code.", Handler: s.handleVersionGet,
			Status: 200, Answer: "The version: the VersionSummary's fields plus `ir` (with its defaults filled in) and `code` (the generated TypeScript).", Example: exVersionGet},
		{Method: "PATCH", Pattern: "/api/workflows/{workflowId}/versions/{versionId}", Audit: "version.update", AuditTarget: "versionId", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"locked":null}`, Summary: "Locks or unlocks a version.", Body: versionUpdateRequest{}, Handler: s.handleVersionUpdate,
			Status: 200, Answer: "The VersionSummary.", Example: exVersionUpdate},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/versions/{versionId}/revert", Audit: "version.revert", AuditTarget: "versionId", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			NoBody: true, Summary: "Creates a new version holding this version's IR.", Handler: s.handleVersionRevert,
			Status: 201, Answer: "The VersionSummary of the new version, which holds the reverted version's IR; the reverted version is unchanged.", Example: exVersionRevert},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/versions/{versionId}/test", Audit: "version.test", AuditTarget: "versionId", Auth: AuthAny, Scope: deploy, Limit: LimitDeploy,
			BadBody: `{"params":[1]}`, Summary: "Runs the version once on the local edge, without a connection or a deployment, and answers how it went.", Body: versionTestRequest{}, Handler: s.handleVersionTest,
			Status: 200, Answer: "`{status, output, error, steps, logs, durationMs}` when the run ends (`complete`, `errored`, or `terminated` after `timeoutSeconds`, default 120, at most 600), also for a run that errored: `error` is `null` when it completed; `steps` as in a run's detail, a mocked step with state `mocked`; `logs` `[{timestamp, level, message}]`. `mocks` maps node ids to outputs that those steps answer instead of running. The run uses a temporary worker and Workflow in the organization's local edge account (binding the KV, D1 and R2 a local deployment binds) and leaves no workflow, deployment, run, worker or Workflow behind.",
			Errors: []ErrorCase{{400, "bad_request", "the workflow is a function (invoke it instead)"}, {400, "deploy_failed", "a variable or secret the version needs is not set"}, {413, "payload_too_large", "`params` over 100 KB serialized"}, {502, "provider_unavailable", "the server runs without the local edge (`--no-edge`)"}}, Example: exVersionTest},
		{Method: "DELETE", Pattern: "/api/workflows/{workflowId}/versions/{versionId}", Audit: "version.delete", AuditTarget: "versionId", Auth: AuthAny, Scope: write, Limit: LimitWrite, Summary: "Deletes a version that is not locked, current or deployed.", Handler: s.handleVersionDelete,
			Status: 204,
			Errors: []ErrorCase{{409, "conflict", "the version is locked, deployed, or the workflow's current version (`currentVersionId`)"}}, Example: exVersionDelete},

		// Node definitions and the IR schema (nodes.go).
		{Method: "GET", Pattern: "/api/openapi.json", Auth: AuthNone, Summary: "This API's OpenAPI 3.1 document.", Handler: s.handleOpenAPI,
			Status: 200, Answer: "The OpenAPI 3.1 document of this API, built from the route table.", Example: exOpenAPI},
		{Method: "GET", Pattern: "/api/ir/schema.json", Auth: AuthNone, Summary: "The JSON Schema (draft 2020-12) of the IR.", Handler: s.handleIRSchema,
			Status: 200, Answer: "The IR's JSON Schema (draft 2020-12), `application/schema+json`.", Example: exIRSchema},
		{Method: "POST", Pattern: "/api/ir/validate", Role: viewer, Auth: AuthAny, Scope: read, Limit: LimitIR,
			BadBody: `{"ir":"not an object"}`, MaxBody: MaxIRBodyBytes, Summary: "Checks an IR as a version submit would, reporting every problem at once; stores nothing.", Body: irToolRequest{}, Handler: s.handleIRValidate,
			Status: 200, Answer: "`{valid, errors: [{nodeId?, path, message, rule, field?, line?, column?}]}`: every problem a version submit would refuse the IR for (the IR's rules of docs/ir.md, the organization's installed marketplace nodes, `kind` against the workflow's, `sub-workflow` references outside the project, `code-syntax` of step code with `field`, `line` and `column` inside the field's text, and `compile` when the compiler refuses it); `valid` is `errors` being empty. With `workflowId` (a workflow or function of the active project) the IR is checked as a version of that workflow; without it, on its own in the active project. The workflow's `triggerCode` is not checked here (its PATCH checks it). Its rate class, `ir`, allows an editor to call it and compile about once a second as the user types.",
			Errors: []ErrorCase{{422, "validation_failed", "`ir` missing or not an object (at `/ir`), `workflowId` naming no workflow of the active project (at `/workflowId`)"}}, Example: exIRValidate},
		{Method: "POST", Pattern: "/api/ir/compile", Role: viewer, Auth: AuthAny, Scope: read, Limit: LimitIR,
			BadBody: `{"ir":[]}`, MaxBody: MaxIRBodyBytes, Summary: "Compiles an IR to the TypeScript a version of it gets; stores nothing.", Body: irToolRequest{}, Handler: s.handleIRCompile,
			Status: 200, Answer: "`{code}`: the generated TypeScript, as a version of the IR gets it (`GET` of a version answers the same `code` for the version's `ir` and its `workflowId`): with `workflowId`, for that workflow (its id, name, env vars, dependencies and trigger code); without, for a workflow with id `preview`. The header shows the IR's `metadata.version`.",
			Errors: []ErrorCase{{400, "invalid_ir", "the IR has problems: `details` are the `errors` `POST /api/ir/validate` answers"}, {422, "validation_failed", "`ir` missing or not an object (at `/ir`), `workflowId` naming no workflow of the active project (at `/workflowId`)"}}, Example: exIRCompile},
		{Method: "GET", Pattern: "/api/nodes", Auth: AuthAny, Scope: read, Summary: "Node definitions: the builtins and the organization's installed marketplace nodes.", Query: []string{"cursor", "limit"}, Handler: s.handleNodeList,
			Status: 200, Answer: "`{data: [NodeDefinition], nextCursor}`: the builtins in the order of docs/nodes.md, then the organization's installed marketplace nodes by id. A NodeDefinition is `{id, name, description, category, version, configSchema, outputSchema, allowedInFunctions, builtin, ...}`.", Example: exNodeList},
		{Method: "GET", Pattern: "/api/nodes/templates", Auth: AuthAny, Scope: read, Summary: "Node templates for editors.", Handler: s.handleNodeTemplates,
			Status: 200, Answer: "An object keyed by node id: `{version, builtin, defaults, required, secretEnvVars}`, what an editor needs to fill in a node's `data`.", Example: exNodeTemplates},
		{Method: "GET", Pattern: "/api/nodes/{nodeId}", Auth: AuthAny, Scope: read, Summary: "One node definition.", Handler: s.handleNodeGet,
			Status: 200, Answer: "The node definition.", Example: exNodeGet},

		// Marketplace (marketplace.go); changes also count against
		// MarketplaceChangesPerMinute.
		{Method: "GET", Pattern: "/api/marketplace", Auth: AuthAny, Scope: read, Summary: "The marketplace catalog with installation status, searched by words and filtered by category.", Query: []string{"cursor", "limit", "q", "category"}, Handler: s.handleMarketplaceList,
			Status: 200, Answer: "`{data: [CatalogNode], nextCursor}`, by node id: every catalog node with `installed`, `installedVersion` and `updateAvailable` for the organization. A CatalogNode is `{id, name, description, category, tags, author, license, latest, versions: [{version, checksum, changelog?}], installed, installedVersion, updateAvailable}`, versions newest first. Filters, optional and combined: `q`, words (any case) that each occur in the node's id, name, description or tags; `category`, one of the categories of docs/registry.md.",
			Errors: []ErrorCase{{422, "validation_failed", "`q` is over 100 characters, `category` is not one of the categories (the path is `?q` or `?category`)"}}, Example: exMarketplaceList},
		{Method: "GET", Pattern: "/api/marketplace/categories", Auth: AuthAny, Scope: read, Summary: "The categories of marketplace nodes with how many catalog nodes each has.", Handler: s.handleMarketplaceCategories,
			Status: 200, Answer: "`{categories: [{name, nodes}]}`: every category a node may declare (docs/registry.md), in that order, with the number of catalog nodes in it (0 included).", Example: exMarketplaceCategories},
		{Method: "GET", Pattern: "/api/marketplace/installed", Auth: AuthAny, Scope: read, Summary: "The organization's installed nodes.", Query: []string{"cursor", "limit"}, Handler: s.handleMarketplaceInstalled,
			Status: 200, Answer: "`{data: [Installation], nextCursor}`, by node id. An Installation is `{id, nodeId, name, description, category, version, checksum, latest, updateAvailable, installedBy, installedAt, updatedAt}`.", Example: exMarketplaceInstalled},
		{Method: "GET", Pattern: "/api/marketplace/{nodeId}", Auth: AuthAny, Scope: read, Summary: "One marketplace node with its versions, their changelogs and the workflows that use it.", Handler: s.handleMarketplaceGet,
			Status: 200, Answer: "The CatalogNode with its `versions` (each with its `changelog`, plain text, when the version has one), the latest version's `definition` (its `configSchema` names the required secrets: `secret` fields with their `envVarName`), the organization's `installation` (or `null`; with the installed version's `definition`) and `usedBy`: `[{id, name, projectId}]`, the organization's workflows whose active deployment uses the node (those an uninstall waits for; empty when it is not installed).", Example: exMarketplaceGet},
		{Method: "POST", Pattern: "/api/marketplace/install", Audit: "node.install", Role: admin, Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"nodeId":"","version":"not a version"}`, Summary: "Installs a marketplace node (latest or a given version).", Body: marketplaceChangeRequest{}, Handler: s.handleMarketplaceInstall,
			Status: 201, Answer: "The Installation.",
			Errors: []ErrorCase{{404, "not_found", "no such node or version in the catalog"}, {409, "conflict", "the node is already installed (update it instead)"}, {429, "rate_limited", "also: more than 10 marketplace changes by the user in a minute"}}, Example: exMarketplaceInstall},
		{Method: "POST", Pattern: "/api/marketplace/update", Audit: "node.update", Role: admin, Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"nodeId":"","version":""}`, Summary: "Moves an installed node to another version.", Body: marketplaceChangeRequest{}, Handler: s.handleMarketplaceUpdate,
			Status: 200, Answer: "The Installation at its new version.",
			Errors: []ErrorCase{{404, "not_found", "the node is not installed, or no such version"}, {409, "conflict", "the node is installed at that version already"}, {429, "rate_limited", "also: more than 10 marketplace changes by the user in a minute"}}, Example: exMarketplaceUpdate},
		{Method: "POST", Pattern: "/api/marketplace/uninstall", Audit: "node.uninstall", Role: admin, Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"nodeId":""}`, Summary: "Uninstalls a node no deployed version uses.", Body: marketplaceUninstallRequest{}, Handler: s.handleMarketplaceUninstall,
			Status: 200, Answer: "`{ok: true}`.",
			Errors: []ErrorCase{{404, "not_found", "the node is not installed"}, {409, "conflict", "a deployed version uses the node: `details` are the workflows `[{id, name, projectId}]`, which the message names too"}, {429, "rate_limited", "also: more than 10 marketplace changes by the user in a minute"}}, Example: exMarketplaceUninstall},

		// Deployments and runs lists (history.go).
		{Method: "GET", Pattern: "/api/deployments", Auth: AuthAny, Scope: read, Summary: "Lists deployments of the active project.", Query: []string{"cursor", "limit"}, Handler: s.handleDeploymentList,
			Status: 200, Answer: "`{data: [Deployment], nextCursor}`, newest first. A Deployment is `{id, workflowId, projectId, versionId, connectionId, status, url, scriptName, createdBy, createdAt, removedAt?}`; `status` is `active`, `replaced` (by a later deploy) or `removed` (taken down).", Example: exDeploymentList},
		{Method: "GET", Pattern: "/api/workflows/{workflowId}/deployments", Auth: AuthAny, Scope: read, Summary: "Lists the workflow's deployments.", Query: []string{"cursor", "limit"}, Handler: s.handleWorkflowDeploymentList,
			Status: 200, Answer: "`{data: [Deployment], nextCursor}`, newest first.", Example: exWorkflowDeploymentList},
		{Method: "GET", Pattern: "/api/runs", Auth: AuthAny, Scope: read, Summary: "Finds runs of the active project, newest first.", Query: []string{"cursor", "limit", "status", "workflowId", "versionId", "from", "to", "q"}, Handler: s.handleRunList,
			Status: 200, Answer: "`{data: [Run], nextCursor}`, newest first. A Run is `{id, workflowId, projectId, versionId, connectionId, deploymentId, instanceId, status, statusDetail?, params?, output?, error?, restartOf?, fromStep?, deletedWorkflow?, createdAt, startedAt, endedAt, updatedAt}` (`deletedWorkflow: {name, deletedAt}` on a run kept after its workflow was deleted; such runs are listed, also with `workflowId` set to the deleted workflow's id); a run's `steps` are in its detail (GET /api/workflows/:workflowId/runs/:runId). Filters, all optional and combined: `workflowId`, `status`, `versionId`, `from` (inclusive) and `to` (exclusive), RFC 3339 times on `createdAt`, and `q`: words that the run's params, output or error must all contain (letters and digits, any case; docs/runs.md).",
			Errors: []ErrorCase{{404, "not_found", "`workflowId` names no workflow of the project"}, {422, "validation_failed", "`status` is not one of the six run states, `from` or `to` is not an RFC 3339 time or `to` is not after `from`, `q` is over 200 characters"}}, Example: exRunList},
		{Method: "GET", Pattern: "/api/runs/stream", Auth: AuthAny, Scope: read, Summary: "Streams the state changes of the active project's runs as Server-Sent Events.", Query: []string{"after", "timeoutSeconds"}, Handler: s.handleRunStream,
			Status: 200, Answer: "`text/event-stream`: one `run` event per state change of a run of the project (its creation too), within 2 s of the change, on every replica: `data: {id, workflowId, projectId, status, statusDetail?, error?, updatedAt}` (`id` is the run's), the frame's `id:` an opaque id of the event, which shows nothing of other projects' or organizations' activity. A comment line (`: heartbeat`) every 15 s keeps proxies from closing an idle stream. `Last-Event-ID` (or `?after=`) replays the changes after that event that are still kept (one hour; `0`: every change still kept); `timeoutSeconds` (1 to 86400) ends the stream after that long; in any case it ends after the stream lifetime (30 minutes unless configured; see Streams) with the comment `: the stream reached its lifetime; reconnect with Last-Event-ID`, or when the client or the server (at shutdown) closes it.",
			Errors: []ErrorCase{{422, "validation_failed", "`after` (or `Last-Event-ID`) is neither the id of an event this server sent nor `0`, `timeoutSeconds` is not an integer from 1 to 86400"}}, Example: exRunStream},
		{Method: "GET", Pattern: "/api/runs/{runId}", Auth: AuthAny, Scope: read, Summary: "One run of the active project, by its id alone: also a run kept after its workflow was deleted.", Handler: s.handleProjectRunGet,
			Status: 200, Answer: "The Run with its `steps`, as GET /api/workflows/:workflowId/runs/:runId answers it while the workflow exists (refreshed from the provider while not final). A run kept after its workflow was deleted (DELETE /api/workflows/:id?runs=keep) is answered as stored, with `deletedWorkflow: {name, deletedAt}`; its steps keep their names, states, outputs and errors, and have `nodeId: \"\"` once the workflow's versions are gone.",
			Errors: []ErrorCase{{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exProjectRunGet},
		{Method: "GET", Pattern: "/api/workflows/{workflowId}/runs", Auth: AuthAny, Scope: read, Summary: "Lists the workflow's runs, newest first.", Query: []string{"cursor", "limit", "status", "versionId", "from", "to", "q"}, Handler: s.handleWorkflowRunList,
			Status: 200, Answer: "`{data: [Run], nextCursor}`, newest first, filtered as GET /api/runs.",
			Errors: []ErrorCase{{422, "validation_failed", "`status` is not one of the six run states, `from` or `to` is not an RFC 3339 time or `to` is not after `from`, `q` is over 200 characters"}}, Example: exWorkflowRunList},

		// Deploy, takedown, trigger, runs and run control (deployments.go,
		// runs.go); provider resources (resources.go); token verification
		// (verify.go).
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/deploy", Audit: "workflow.deploy", AuditTarget: "workflowId", Auth: AuthAny, Scope: deploy, Limit: LimitDeploy,
			BadBody: `{"connectionId":""}`, Summary: "Deploys a version (default the current one) to a connection.", Body: deployRequest{}, Handler: s.handleDeploy,
			Status: 200, Answer: "The Deployment with `success: true` and `deploymentId`. Deploys the current version unless `versionId` names another.",
			Errors: []ErrorCase{{400, "deploy_failed", "a stage failed for a reason of the request: the code does not bundle, a dependency cannot be installed, an environment variable is missing"}, {409, "conflict", "the workflow has no version, or the version is locked"}, {502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exDeploy},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/deploy-stream", Audit: "workflow.deploy", AuditTarget: "workflowId", Auth: AuthAny, Scope: deploy, Limit: LimitDeploy,
			BadBody: `{"connectionId":""}`, Summary: "Deploys like /deploy, reporting each stage as Server-Sent Events.", Body: deployRequest{}, Handler: s.handleDeployStream,
			Status: 200, Answer: "`text/event-stream`: one `progress` event per stage (`INITIALIZING` … `COMPLETED`), then `result` (the deploy answer) or `error` (the error body). Refusals before the first stage are ordinary JSON errors. The stream lasts as long as its deploy, which the server ends after 5 minutes.",
			Errors: []ErrorCase{{400, "deploy_failed", "a stage failed for a reason of the request (before the stream starts; later as an `error` event)"}, {409, "conflict", "the workflow has no version, or the version is locked"}, {502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exDeployStream},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/takedown", Audit: "workflow.takedown", AuditTarget: "workflowId", Auth: AuthAny, Scope: deploy, Limit: LimitDeploy,
			BadBody: `{"connectionId":""}`, Summary: "Deletes the deployed worker and Workflow from a connection.", Body: takedownRequest{}, Handler: s.handleTakedown,
			Status: 200, Answer: "The Deployment, now `status: \"removed\"` with `removedAt` (kept as history), with `success` and `deploymentId` as deploy answers; the workflow's `activeVersionId` is cleared when no active deployment is left.",
			Errors: []ErrorCase{{409, "conflict", "the workflow is not deployed on this connection"}, {502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exTakedown},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/trigger", Audit: "workflow.trigger", AuditTarget: "workflowId", Auth: AuthAny, Scope: deploy, Limit: LimitWrite,
			BadBody: `{"connectionId":""}`, Summary: "Starts a run with params, or delivers an event to a waiting run.", Body: triggerRequest{}, Handler: s.handleTrigger,
			Status: 201, Answer: "`{id, instanceId, status: \"queued\"}`: the new run. When `params` hold `instanceId`, `eventType` and `payload`, the event is delivered to that waiting run instead: 202 with the run's `{id, instanceId, status, eventType}`.",
			Errors: []ErrorCase{{400, "bad_request", "the workflow is a function (call its url instead)"}, {404, "not_found", "an event's `instanceId` names no run of the workflow"}, {409, "conflict", "the workflow is not deployed on this connection, or an event is sent to a finished run"}, {413, "payload_too_large", "`params` over 100 KB serialized"}, {502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exTrigger},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/invoke", Audit: "function.invoke", AuditTarget: "workflowId", Auth: AuthAny, Scope: deploy, Limit: LimitWrite,
			BadBody: `{"connectionId":"","path":"//evil.example"}`, Summary: "Calls a deployed function's URL with a method, path, JSON body and headers, and answers the function's answer.", Body: invokeRequest{}, Handler: s.handleInvoke,
			Status: 200, Answer: "`{status, headers, body, bodyTruncated, durationMs}`: the function's status (whatever it is), its safe answer headers (`content-type`, `cache-control`, `content-disposition`, `content-language`, `etag`, `expires`, `last-modified`, `location`, `retry-after`, `vary`; names in lower case), its body as text cut at 1 MiB (`bodyTruncated: true` then) and the call's duration. The request is `{connectionId, method?, path?, body?, headers?}`: `method` POST (default), GET, PUT or DELETE; `path` below the function's URL (default `/`, may carry a query); `body` any JSON, sent as `application/json` (not with GET); `headers` at most 20 `{name: value}`. Edgeflow calls the URL of the function's active deployment on the connection, follows no redirect and waits at most the provider timeout (30 s by default).",
			Errors: []ErrorCase{{400, "bad_request", "the workflow is not a function (trigger it instead)"}, {409, "conflict", "the function is not deployed on this connection"}, {413, "payload_too_large", "`body` over 100 KB serialized"}, {422, "validation_failed", "no `connectionId`; `method` not one of the four; `path` not starting with `/`, starting with `//`, or holding spaces, control characters, `\\`, `#`, `//`, `.` or `..` segments, or encoded `/`, `\\`, `.` or NUL; a GET with a `body`; a header name that is not a token, a header that may not be set (`Host`, `Authorization`, `Proxy-Authorization`, `Cookie`, `Connection`, `Content-Length`, `Transfer-Encoding`, `TE`, `Trailer`, `Upgrade`, `Keep-Alive`, `Expect`, `Forwarded`, `Via`, `Max-Forwards`, `X-Real-IP`, `True-Client-IP`, and any `X-Edgeflow-*`, `X-Forwarded-*`, `Proxy-*`, `Sec-*`, `CF-*` or `MF-*`), a value with control characters or over 4096 bytes, more than 20 headers (`details` name the field, e.g. `/headers/Cookie`)"}, {502, "provider_unavailable", "the function's worker could not be reached or did not answer in time"}}, Example: exInvoke},
		{Method: "GET", Pattern: "/api/workflows/{workflowId}/trigger-secret", Auth: AuthAny, Scope: deploy, Summary: "The signing secret of the workflow's public trigger on a connection (deployConfig.publicTrigger).", Query: []string{"connectionId"}, Handler: s.handleTriggerSecret,
			Status: 200, Answer: "`{url, secret, timestampHeader, signatureHeader, signature, windowSeconds}`, with `Cache-Control: no-store`: how to sign calls to the public trigger.",
			Errors: []ErrorCase{{400, "bad_request", "the workflow is a function (its url is public already)"}, {409, "conflict", "not deployed on this connection, or deployed without `deployConfig.publicTrigger`"}, {422, "validation_failed", "no `connectionId`"}}, Example: exTriggerSecret},
		{Method: "GET", Pattern: "/api/workflows/{workflowId}/runs/{runId}", Auth: AuthAny, Scope: read, Summary: "One run, refreshed from the provider while not final.", Handler: s.handleRunGet,
			Status: 200, Answer: "The Run, refreshed from the provider first while it is not final, with `steps`: its durable steps in execution order, each `{nodeId, name, type, state, attempts, startedAt, endedAt, output, outputTruncated, error}`. `state` is `running`, `retrying`, `waiting`, `complete`, `errored`, `terminated` or `replayed` (taken from the original run by a restart); `error` is `{name, message}` of the last failed attempt or null; an `output` over 64 KiB is cut to its first 64 KiB of JSON text, given as a string, with `outputTruncated: true`. A restarted run also has `restartOf` and `fromStep`.",
			Errors: []ErrorCase{{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exRunGet},
		{Method: "GET", Pattern: "/api/workflows/{workflowId}/runs/{runId}/logs", Auth: AuthAny, Scope: read, Summary: "The run's console lines and exceptions; streamed as Server-Sent Events while it is active.", Handler: s.handleRunLogs,
			Status: 200, Answer: "`{data: [{timestamp, level, message}], dropped, available, reason?, status, final}`: only this run's lines, oldest first (`level` is `debug`, `info`, `log`, `warn` or `error`; an uncaught exception is an `error` line `Name: message`), kept with the run (at most 1,000 lines and 256 KiB; `dropped` counts older lines left out). On a Cloudflare connection `available` is false, `data` empty and `reason` says where to read them. With `Accept: text/event-stream`: one `log` event per line, new ones as they come while the run is active, then `end` `{status, final}` (docs/runs.md); a stream still open after the stream lifetime (see Streams) ends with `end` `{status, final: false}`.",
			Errors: []ErrorCase{{404, "not_found", "no such workflow or run in the active project"}}, Example: exRunLogs},
		{Method: "GET", Pattern: "/api/workflows/{workflowId}/runs/{runId}/worker-logs", Auth: AuthAny, Scope: read, Summary: "What the local edge keeps of the run's worker around the run (every invocation, not only the run's).", Query: []string{"before", "after"}, Handler: s.handleRunWorkerLogs,
			Status: 200, Answer: "`{data: [{timestamp, level, message, instanceId}], from, to, dropped}`: the worker's lines between the run's creation minus `before` and its end (now while it runs) plus `after` (durations such as `30s`, default `1m`, at most `1h`), oldest first; `instanceId` names the Workflow instance of a line written by a run (\"\" for requests). `dropped` counts lines the edge's ring of this worker let go (docs/edge.md).",
			Errors: []ErrorCase{{409, "conflict", "the run is on a Cloudflare connection (the edge keeps no logs there), or its connection no longer exists"}, {422, "validation_failed", "`before` or `after` is not a duration between 0s and 1h"}, {502, "provider_error", "the local edge refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exRunWorkerLogs},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/runs/{runId}/pause", Audit: "run.pause", AuditTarget: "runId", Auth: AuthAny, Scope: deploy, Limit: LimitWrite,
			NoBody: true, Summary: "Pauses a running run.", Handler: s.handleRunPause,
			Status: 200, Answer: "The Run, now `paused`.",
			Errors: []ErrorCase{{409, "conflict", "the run is neither running nor queued"}, {502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exRunPause},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/runs/{runId}/resume", Audit: "run.resume", AuditTarget: "runId", Auth: AuthAny, Scope: deploy, Limit: LimitWrite,
			NoBody: true, Summary: "Resumes a manually paused run.", Handler: s.handleRunResume,
			Status: 200, Answer: "The Run, running again.",
			Errors: []ErrorCase{{409, "conflict", "the run is not paused by hand (a run waiting for an event is resumed by the event)"}, {502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exRunResume},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/runs/{runId}/terminate", Audit: "run.terminate", AuditTarget: "runId", Auth: AuthAny, Scope: deploy, Limit: LimitWrite,
			NoBody: true, Summary: "Terminates a running or paused run.", Handler: s.handleRunTerminate,
			Status: 200, Answer: "The Run, now `terminated`.",
			Errors: []ErrorCase{{409, "conflict", "the run is final already"}, {502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exRunTerminate},
		{Method: "POST", Pattern: "/api/workflows/{workflowId}/runs/{runId}/restart", Audit: "run.restart", AuditTarget: "runId", Auth: AuthAny, Scope: deploy, Limit: LimitWrite,
			BadBody: `{"version":"older"}`, Summary: "Starts a new run that replays the run's steps before `fromStep` and executes from it.", Body: restartRequest{}, Handler: s.handleRunRestart,
			Status: 201, Answer: "The new Run (`queued`) on the original run's connection, with `restartOf` (the original run's id), `fromStep`, and the replayed steps first in `steps` (state `replayed`). `fromStep` omitted restarts from the start; `version` is `same` (default: the run's own version) or `current` (the version deployed now). docs/runs.md gives the rules.",
			Errors: []ErrorCase{{409, "conflict", "a step before `fromStep` did not complete in the original run; the chosen version lacks one of those steps; `same` while another version is deployed (the message says to use `current`); the workflow is not deployed on the run's connection"}, {422, "validation_failed", "`fromStep` is no step of the chosen version, `version` is neither `same` nor `current`, or the replayed outputs are over 1 MiB"}, {502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exRunRestart},
		{Method: "GET", Pattern: "/api/resources/kv/namespaces", Auth: AuthAny, Scope: read, Summary: "Lists the connection's KV namespaces.", Query: []string{"connectionId", "prefix", "cursor", "limit"}, Handler: s.handleKVNamespaces,
			Status: 200, Answer: "`{data: [{id, title}], nextCursor}`.",
			Errors: []ErrorCase{{422, "validation_failed", "no `connectionId`"}, {502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exKVNamespaces},
		{Method: "GET", Pattern: "/api/resources/kv/namespaces/{namespaceId}/keys", Auth: AuthAny, Scope: read, Summary: "Lists keys of a KV namespace.", Query: []string{"connectionId", "prefix", "cursor", "limit"}, Handler: s.handleKVKeys,
			Status: 200, Answer: "`{data: [{name, expiration?, metadata?}], nextCursor}`; `limit` may go up to 1000.",
			Errors: []ErrorCase{{422, "validation_failed", "no `connectionId`"}, {502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exKVKeys},
		{Method: "GET", Pattern: "/api/resources/kv/namespaces/{namespaceId}/values/{key...}", Auth: AuthAny, Scope: read, Summary: "Reads one KV value.", Query: []string{"connectionId"}, Handler: s.handleKVValue,
			Status: 200, Answer: "`{key, value, encoding, size}`: the value as text (`encoding: \"utf-8\"`) or, when it is not UTF-8, as base64 (`encoding: \"base64\"`).",
			Errors: []ErrorCase{{422, "validation_failed", "no `connectionId`"}, {502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exKVValue},
		{Method: "GET", Pattern: "/api/resources/d1/databases", Auth: AuthAny, Scope: read, Summary: "Lists the connection's D1 databases.", Query: []string{"connectionId", "prefix", "cursor", "limit"}, Handler: s.handleD1Databases,
			Status: 200, Answer: "`{data: [{id, name, createdAt?, numTables, fileSize}], nextCursor}`.",
			Errors: []ErrorCase{{422, "validation_failed", "no `connectionId`"}, {502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exD1Databases},
		{Method: "POST", Pattern: "/api/resources/d1/databases/{databaseId}/query", Audit: "d1_database.query", AuditTarget: "databaseId", Role: viewer, Auth: AuthAny, Scope: read, Limit: LimitWrite,
			BadBody: `{"connectionId":"","sql":""}`, Summary: "Runs a SQL statement on a D1 database.", Body: d1QueryRequest{}, Query: []string{"connectionId"}, Handler: s.handleD1Query,
			Status: 200, Answer: "`{columns, rows, meta}`: the column names, the rows as arrays of values, and `{duration, changes, lastRowId, rowsRead, rowsWritten}`.",
			Errors: []ErrorCase{{403, "forbidden", "a key with `read` only sends a statement that would write"}, {502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exD1Query},
		{Method: "GET", Pattern: "/api/resources/r2/buckets", Auth: AuthAny, Scope: read, Summary: "Lists the connection's R2 buckets.", Query: []string{"connectionId", "prefix", "cursor", "limit"}, Handler: s.handleR2Buckets,
			Status: 200, Answer: "`{data: [{name, createdAt?}], nextCursor}`.",
			Errors: []ErrorCase{{422, "validation_failed", "no `connectionId`"}, {502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exR2Buckets},
		{Method: "GET", Pattern: "/api/resources/r2/buckets/{bucketName}/objects", Auth: AuthAny, Scope: read, Summary: "Lists objects of an R2 bucket.", Query: []string{"connectionId", "prefix", "delimiter", "cursor", "limit"}, Handler: s.handleR2Objects,
			Status: 200, Answer: "`{data: [{key, size, etag?, lastModified?, contentType?}], delimitedPrefixes, nextCursor}`: objects in key order. With `delimiter` (e.g. `/`), a key that goes on past the delimiter after `prefix` is not listed; its part up to and including the delimiter is in `delimitedPrefixes` once (the \"folders\" below `prefix`). `limit` may go up to 1000.",
			Errors: []ErrorCase{{422, "validation_failed", "no `connectionId`; `delimiter` empty, over 16 bytes or with control characters"}, {502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exR2Objects},
		{Method: "GET", Pattern: "/api/resources/r2/buckets/{bucketName}/objects/{key...}", Auth: AuthAny, Scope: read, Summary: "Downloads one object of an R2 bucket.", Query: []string{"connectionId"}, Handler: s.handleR2Object,
			Status: 200, Answer: "The object's bytes with its stored `Content-Type` (`application/octet-stream` when it has none), `Content-Length`, `ETag`, `Last-Modified` and `Content-Disposition: attachment` naming the key's last `/` segment as the file name. The key is the rest of the path, percent-encoded where needed (`/` may stay). Objects up to 64 MiB are read.",
			Errors: []ErrorCase{{404, "not_found", "no such object or bucket"}, {413, "payload_too_large", "the object is over 64 MiB"}, {422, "validation_failed", "no `connectionId`"}, {502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exR2Object},
		{Method: "POST", Pattern: "/api/connections/verify-token", Auth: AuthAny, Scope: write, Limit: LimitVerify,
			BadBody: `{"provider":"aws","credentials":{}}`, Summary: "Checks provider credentials and lists the token's accounts.", Body: verifyTokenRequest{}, Handler: s.handleVerifyToken,
			Status: 200, Answer: "`{valid, accounts: [{id, name}]}`; `valid: false` with no accounts when the provider refuses the token.",
			Errors: []ErrorCase{{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"}}, Example: exVerifyToken},

		// Connections (connections.go).
		{Method: "GET", Pattern: "/api/connections", Auth: AuthAny, Scope: read, Summary: "Lists the organization's connections (credentials never shown).", Query: []string{"cursor", "limit"}, Handler: s.handleConnectionList,
			Status: 200, Answer: "`{data: [Connection], nextCursor}`, newest first: the organization-wide connections and the project's. A Connection is `{id, organizationId, projectId?, scope, provider, name, accountId, credentials, createdAt, updatedAt}`; credentials are redacted (`apiToken: \"***\"`).", Example: exConnectionList},
		{Method: "POST", Pattern: "/api/connections", Audit: "connection.create", Role: admin, Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"provider":"aws","credentials":{}}`, Summary: "Creates a connection to a provider account.", Body: connectionCreateRequest{}, Handler: s.handleConnectionCreate,
			Status: 201, Answer: "The Connection (redacted). `scope` defaults to `organization` for a session, `project` for an API key.",
			Errors: []ErrorCase{{403, "forbidden", "also: an API key asking for `scope: organization`"}, {422, "validation_failed", "also: an `accountId` that is not 32 lowercase hex digits, an `apiToken` that is not 20 or more of `[A-Za-z0-9_-]`"}}, Example: exConnectionCreate},
		{Method: "PATCH", Pattern: "/api/connections/{id}", Audit: "connection.update", AuditTarget: "id", Role: admin, Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"credentials":{"apiToken":""}}`, Summary: "Renames a connection or replaces its credentials.", Body: connectionUpdateRequest{}, Handler: s.handleConnectionUpdate,
			Status: 200, Answer: "The Connection (redacted). Credential fields sent replace the stored ones; the others are kept.",
			Errors: []ErrorCase{{403, "forbidden", "also: an API key changing an organization-wide connection"}}, Example: exConnectionUpdate},
		{Method: "DELETE", Pattern: "/api/connections/{id}", Audit: "connection.delete", AuditTarget: "id", Role: admin, Auth: AuthAny, Scope: write, Limit: LimitWrite, Summary: "Deletes a connection no deployment uses.", Handler: s.handleConnectionDelete,
			Status: 204,
			Errors: []ErrorCase{{403, "forbidden", "also: an API key deleting an organization-wide connection"}, {409, "conflict", "an active deployment uses the connection; `details` name each one: `{path, message, deploymentId, workflowId, workflowName, projectId}`"}}, Example: exConnectionDelete},

		// Environment variables (envvars.go).
		{Method: "GET", Pattern: "/api/env-vars", Auth: AuthAny, Scope: read, Summary: "Lists environment variables of the organization and the active project (secret values never shown).", Query: []string{"cursor", "limit"}, Handler: s.handleEnvVarList,
			Status: 200, Answer: "`{data: [EnvVar], nextCursor}`, by name: the organization's variables and the project's. An EnvVar is `{id, organizationId, projectId?, name, value, isSecret, scope, createdAt, updatedAt}`; a secret's `value` is `\"***\"`.", Example: exEnvVarList},
		{Method: "GET", Pattern: "/api/env-vars/usage", Auth: AuthAny, Scope: read, Summary: "Lists the project's workflows with the global environment variables each one reads.", Query: []string{"cursor", "limit"}, Handler: s.handleEnvVarUsage,
			Status: 200, Answer: "`{data: [{workflowId, workflowName, kind, uses: [{name, via, as?}]}], nextCursor}`, in the order of the workflow list: every workflow of the active project with the global variables a deploy of its current version would read, by name. `via` is `reference` (the version's IR or the trigger code reads `{{env.NAME}}` and the workflow declares no variable of that name) or `declared` (the workflow's variable `as` has the value `{{global.env.NAME}}`). The project's variable of that name is read when there is one, else the organization's. Values are never shown.", Example: exEnvVarUsage},
		{Method: "POST", Pattern: "/api/env-vars", Audit: "env_var.create", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"name":"lower-case","value":"v","isSecret":false}`, Summary: "Creates an environment variable or secret, for the organization or the active project.", Body: envVarCreateRequest{}, Handler: s.handleEnvVarCreate,
			Status: 201, Answer: "The EnvVar. `scope` defaults to `organization` for a session, `project` for an API key.",
			Errors: []ErrorCase{{403, "forbidden", "also: an API key asking for `scope: organization`"}, {409, "conflict", "the name is taken in that scope"}}, Example: exEnvVarCreate},
		{Method: "PATCH", Pattern: "/api/env-vars/{id}", Audit: "env_var.update", AuditTarget: "id", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"name":"9BAD"}`, Summary: "Renames an environment variable or changes its value.", Body: envVarUpdateRequest{}, Handler: s.handleEnvVarUpdate,
			Status: 200, Answer: "The EnvVar. For a secret, `value: \"***\"` keeps the stored value; making a secret plain needs a new `value`.",
			Errors: []ErrorCase{{403, "forbidden", "also: an API key changing an organization-scope variable"}, {409, "conflict", "the new name is taken in the scope"}}, Example: exEnvVarUpdate},
		{Method: "DELETE", Pattern: "/api/env-vars/{id}", Audit: "env_var.delete", AuditTarget: "id", Auth: AuthAny, Scope: write, Limit: LimitWrite, Summary: "Deletes an environment variable.", Handler: s.handleEnvVarDelete,
			Status: 204,
			Errors: []ErrorCase{{403, "forbidden", "also: an API key deleting an organization-scope variable"}}, Example: exEnvVarDelete},

		// Outbound webhooks (webhooks.go).
		{Method: "GET", Pattern: "/api/webhooks", Auth: AuthAny, Scope: read, Summary: "Lists the active project's webhooks (never their secrets).", Query: []string{"cursor", "limit"}, Handler: s.handleWebhookList,
			Status: 200, Answer: "`{data: [Webhook], nextCursor}`, newest first. A Webhook is `{id, organizationId, projectId, url, events, createdAt, updatedAt}`; `events` empty means every type.", Example: exWebhookList},
		{Method: "POST", Pattern: "/api/webhooks", Audit: "webhook.create", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"url":"ftp://example.com/hook","events":["run.exploded"]}`, Summary: "Creates a webhook of the active project; its signing secret is shown once.", Body: webhookCreateRequest{}, Handler: s.handleWebhookCreate,
			Status: 201, Answer: "The Webhook plus `secret` (`whsec_` and base64), shown this once: it signs every delivery (docs/runs.md, \"Webhooks\"). `events` are some of `run.started`, `run.completed`, `run.errored`, `run.waiting`, `run.terminated`, `deploy.completed`, `deploy.failed`; omitted or empty: all.",
			Errors: []ErrorCase{{422, "validation_failed", "`url` is not an absolute http(s) URL without credentials, or its host is or resolves to a loopback, link-local or private address that `serve --allow-hosts` does not allow; an unknown or repeated event type"}}, Example: exWebhookCreate},
		{Method: "GET", Pattern: "/api/webhooks/{id}", Auth: AuthAny, Scope: read, Summary: "Reads a webhook (never its secret).", Handler: s.handleWebhookGet,
			Status: 200, Answer: "The Webhook.", Example: exWebhookGet},
		{Method: "PATCH", Pattern: "/api/webhooks/{id}", Audit: "webhook.update", AuditTarget: "id", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			BadBody: `{"url":"http://127.0.0.1/hook"}`, Summary: "Changes a webhook's URL or events.", Body: webhookUpdateRequest{}, Handler: s.handleWebhookUpdate,
			Status: 200, Answer: "The Webhook. Fields left out are kept; the secret does not change.",
			Errors: []ErrorCase{{422, "validation_failed", "neither `url` nor `events` given, or either refused as at creation"}}, Example: exWebhookUpdate},
		{Method: "DELETE", Pattern: "/api/webhooks/{id}", Audit: "webhook.delete", AuditTarget: "id", Auth: AuthAny, Scope: write, Limit: LimitWrite, Summary: "Deletes a webhook with its deliveries.", Handler: s.handleWebhookDelete,
			Status: 204, Example: exWebhookDelete},
		{Method: "POST", Pattern: "/api/webhooks/{id}/rotate-secret", Audit: "webhook.rotate_secret", AuditTarget: "id", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			NoBody: true, Summary: "Replaces a webhook's signing secret; the new one is shown once.", Handler: s.handleWebhookRotateSecret,
			Status: 200, Answer: "The Webhook plus the new `secret`, shown this once; every attempt from now on, retries of earlier messages too, is signed with it.", Example: exWebhookRotate},
		{Method: "GET", Pattern: "/api/webhooks/{id}/deliveries", Auth: AuthAny, Scope: read, Summary: "Lists a webhook's deliveries with their attempts.", Query: []string{"cursor", "limit"}, Handler: s.handleWebhookDeliveries,
			Status: 200, Answer: "`{data: [Delivery], nextCursor}`, newest first. A Delivery is `{id, webhookId, projectId, messageId, eventType, payload, status, responseStatus, attempts, nextAttemptAt, redeliveryOf?, createdAt, updatedAt}`: `messageId` is the `webhook-id` header of every attempt, `payload` the body sent (`{type, timestamp, data}`), `status` `pending`, `delivered` (a 2xx answer) or `failed` (no attempt left), `responseStatus` the last answer's status (0: none), each attempt `{at, responseStatus, error?, responseBody?, durationMs}`.", Example: exWebhookDeliveries},
		{Method: "POST", Pattern: "/api/webhooks/{id}/deliveries/{deliveryId}/redeliver", Audit: "webhook.redeliver", AuditTarget: "id", Auth: AuthAny, Scope: write, Limit: LimitWrite,
			NoBody: true, Summary: "Sends a delivery's message again, as a new delivery.", Handler: s.handleWebhookRedeliver,
			Status: 202, Answer: "The new Delivery (`pending`, due now, `redeliveryOf` the original): the same `messageId` and payload, with its own attempts and retries.", Example: exWebhookRedeliver},

		// API keys, session only (apikeys.go).
		{Method: "GET", Pattern: "/api/api-keys", Auth: AuthSession, Summary: "Lists the organization's API keys (admins: every key; others: their own), never the keys themselves.", Query: []string{"cursor", "limit"}, Handler: s.handleAPIKeyList,
			Status: 200, Answer: "`{data: [APIKey], nextCursor}`, newest first. An APIKey is `{id, organizationId, projectId, scope, userId, name, prefix, scopes, expiresAt, lastUsedAt, revokedAt, createdAt}` (`projectId: null` and `scope: \"organization\"` for an organization key); never the key. A key acts with at most its creator's current role.", Example: exAPIKeyList},
		{Method: "POST", Pattern: "/api/api-keys", Audit: "api_key.create", Role: viewer, Auth: AuthSession, Limit: LimitWrite,
			BadBody: `{"name":"k","projectId":"","scopes":["write"]}`, Summary: "Creates an API key bound to a project, or (without projectId, admins) to the whole organization; the key is shown once.", Body: apiKeyCreateRequest{}, Handler: s.handleAPIKeyCreate,
			Status: 201, Answer: "The APIKey plus `key` (`ask_` and 43 URL-safe characters), shown this once. Without `projectId` the key is an organization key (`projectId: null`, `scope: \"organization\"`): it acts in the project named by the `X-Edgeflow-Project` header (default the organization's first project) and may change organization-wide records and projects.",
			Errors: []ErrorCase{{403, "forbidden", "scopes beyond the caller's role (a viewer's keys only read), or an organization key asked for without the admin role"}, {422, "validation_failed", "also: `projectId` is not a project of the organization, `scopes` lacks `read` or holds an unknown scope, `expiresAt` is not in the future"}}, Example: exAPIKeyCreate},
		{Method: "DELETE", Pattern: "/api/api-keys/{id}", Audit: "api_key.revoke", AuditTarget: "id", Role: viewer, Auth: AuthSession, Limit: LimitWrite, Summary: "Revokes an API key (another user's: admins).", Handler: s.handleAPIKeyRevoke,
			Status: 204, Errors: []ErrorCase{{403, "forbidden", "the key is another user's and the caller is not an admin"}}, Example: exAPIKeyRevoke},
		// The audit log (audit.go).
		{Method: "GET", Pattern: "/api/audit", Role: admin, Auth: AuthAny, Scope: read, Summary: "Lists the organization's audit log, newest first (owners and admins).", Query: []string{"cursor", "limit", "actor", "action", "target", "since", "until"}, Handler: s.handleAuditList,
			Status: 200, Answer: "`{data: [AuditEntry], nextCursor}`, newest first. An AuditEntry is `{id, organizationId, projectId, actor: {type: \"user\"|\"key\", id}, action, target: {type, id}, outcome, requestId, time}`: one state-changing request, allowed or refused; `outcome` is its status code. A project's API key gets only the entries recorded in its project and those whose target is its project. Filters: `actor` (a user or key id), `action` (such as `workflow.create`), `target` (a record id), `since` (inclusive) and `until` (exclusive), RFC 3339 times. Request bodies are never recorded.",
			Errors: []ErrorCase{{403, "forbidden", "the caller (the key's creator, for an API key) is not an owner or admin of the organization"}, {422, "validation_failed", "`since` or `until` not an RFC 3339 time, `until` not after `since`, a filter over 200 characters or given twice"}}, Example: exAuditList},
	}
}
