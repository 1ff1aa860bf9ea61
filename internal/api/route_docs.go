package api

// The documentation of every route, keyed by "METHOD PATTERN" as in the
// route table (routes.go): what docs/api.md's endpoint reference and the
// OpenAPI document say about it besides what the table says.
// The entries are in two maps by subject, each in the order of the route
// table: the accounts and the organization's records here, workflows and
// what runs them in route_docs_workflows.go. TestRouteDocsKeyed fails for
// a route without an entry and for an entry that names no route.

// RouteDoc documents one route.
type RouteDoc struct {
	// Summary says what the route does (the OpenAPI document's summary).
	Summary string
	// Answer describes the successful answer's body, in Markdown ("" for
	// 204).
	Answer string
	// Errors are the refusals particular to the route; those every route of
	// its kind can answer (a bad body, credentials, scope, a missing record,
	// rate limits) are added by Route.Refusals (apidoc.go).
	Errors []ErrorCase
	// BadBody is, for a route that reads a body, a JSON object with fields of
	// the right types that validation must refuse with 422 (bad-input test).
	BadBody string
	// Example is one request with its answer (route_examples.go).
	Example Example
}

// routeDocs are the routes' documentation.
var routeDocs = joinRouteDocs(accountRouteDocs, workflowRouteDocs, mcpRouteDocs, importRouteDocs, runOpsRouteDocs, environmentRouteDocs, eventRouteDocs)

// joinRouteDocs is one map of the entries of several; a key in two of them
// panics, which any test shows.
func joinRouteDocs(parts ...map[string]RouteDoc) map[string]RouteDoc {
	out := map[string]RouteDoc{}
	for _, part := range parts {
		for key, doc := range part {
			if _, dup := out[key]; dup {
				panic("api: two entries in routeDocs for " + key)
			}
			out[key] = doc
		}
	}
	return out
}

// accountRouteDocs document the routes of operations, users and sessions,
// organizations and projects, connections, environment variables, webhooks,
// API keys and the audit log.
var accountRouteDocs = map[string]RouteDoc{
	"GET /healthz": {
		Summary: "Answers 200 while the process is up.",
		Answer:  "`{status: \"ok\"}`.",
		Example: exHealth,
	},
	"GET /readyz": {
		Summary: "Answers 200 when the database and the edge answer, 503 naming the dependency that is down.",
		Answer: "`{status: \"ok\", database: \"ok\", edge: \"ok\"|\"off\"}` (`edge` is `off` when serve runs without a local " +
			"edge).",
		Errors: []ErrorCase{
			{503, "unavailable", "the database or the edge does not answer: `{status: \"unavailable\", database: \"ok\"|\"down\", " +
				"edge: \"ok\"|\"down\"|\"off\", error, code, details, requestId}`, with `Retry-After`"},
		},
		Example: exReady,
	},
	"GET /metrics": {
		Summary: "Metrics in the Prometheus text format.",
		Answer:  "The metrics in the Prometheus text format (docs/operations.md lists them).",
		Example: exMetrics,
	},
	"POST /api/auth/sign-up": {
		Summary: "Creates a user and signs in: with the setup token (the first user), an invitation token, or (sign-up mode " +
			"open) anyone.",
		Answer: "The session body: `{user, organizations, activeOrganizationId, activeProjectId, csrfToken, expiresAt}`; sets " +
			"the session cookie. With `invitationToken` the user joins the invitation's organization with its role (the " +
			"email must be the invited one); otherwise the user gets an organization it owns (`organizationName`, default " +
			"`\"<name>'s organization\"`) and a project `Default`.",
		Errors: []ErrorCase{
			{403, "forbidden", "the sign-up mode refuses it: `invite` (the default) without a valid invitation or setup token, " +
				"`closed` without the setup token; a setup token that is used, expired or sent once a user exists; " +
				"an invitation for another email"},
			{404, "not_found", "no invitation has this `invitationToken`"},
			{409, "conflict", "the email is already registered (compared case-insensitively), or the invitation is accepted, " +
				"revoked or expired"},
			{422, "validation_failed", "a password under 8 characters or over 1024 bytes, only whitespace, the email or its local part, or " +
				"a common password (at `/password`)"},
		},
		BadBody: `{"email":"not-an-email","password":"short"}`,
		Example: exSignUp,
	},
	"GET /api/auth/sign-up": {
		Summary: "How this server signs people up, for a sign-up page to say before its form.",
		Answer: "`{mode, firstUser}`: `mode` is `open`, `invite` or `closed` (`edgeflow serve --sign-up`); `firstUser` is " +
			"true while the server has no user, whose first account (the owner) is then made with the one-time setup link " +
			"`edgeflow serve` printed (`edgeflow admin setup-link` prints a new one).",
		Example: exSignUpOptions,
	},
	"POST /api/auth/sign-in": {
		Summary: "Signs in with email and password (sets the session cookie).",
		Answer:  "The session body (as sign-up); sets the session cookie.",
		Errors: []ErrorCase{
			{401, "unauthorized", "a wrong password or an unknown email (the same answer for both)"},
			{429, "rate_limited", "10 failures for one email: further attempts wait (`Retry-After`, 30 s doubling to 15 min; a success " +
				"clears it)"},
		},
		BadBody: `{"email":"","password":""}`,
		Example: exSignIn,
	},
	"POST /api/auth/sign-out": {
		Summary: "Signs out (revokes the session).",
		Example: exSignOut,
	},
	"GET /api/auth/session": {
		Summary: "The signed-in user, the active organization and project, and the CSRF token.",
		Answer:  "The session body: `{user, organizations, activeOrganizationId, activeProjectId, csrfToken, expiresAt}`.",
		Example: exSession,
	},
	"GET /api/whoami": {
		Summary: "Who the caller is: the user, the API key (when a key calls), the organization with the caller's role, and the " +
			"project requests act in.",
		Answer: "`{user: {id, email, name}, apiKey, organization, project}`: `apiKey` is `{id, name, prefix, scope, scopes, " +
			"expiresAt}` for a key (never the key), `null` for a session; `organization` is `{id, name, slug, role}` and " +
			"`project` `{id, name, slug}`, each `null` when there is none. Command-line clients use it for `whoami`.",
		Example: exWhoami,
	},
	"PUT /api/session/active": {
		Summary: "Changes the session's active organization and project.",
		Answer: "The session body with the new active organization and project (without `projectId`: the organization's first " +
			"project).",
		Errors: []ErrorCase{
			{404, "not_found", "an organization the user is not a member of, or a project of another organization"},
		},
		BadBody: `{"organizationId":""}`,
		Example: exSessionActive,
	},
	"POST /api/auth/password": {
		Summary: "Changes the signed-in user's password and signs out every other session.",
		Errors: []ErrorCase{
			{422, "validation_failed", "a wrong `currentPassword` (at `/currentPassword`; wrong attempts count toward the sign-in back-off " +
				"of the user's email), or a `newPassword` that sign-up would refuse or that equals the current one " +
				"(at `/newPassword`)"},
			{429, "rate_limited", "10 wrong passwords (sign-in and this route together) for the user's email: further attempts wait " +
				"(`Retry-After`)"},
		},
		BadBody: `{"currentPassword":"","newPassword":"short"}`,
		Example: exPasswordChange,
	},
	"GET /api/auth/sessions": {
		Summary: "Lists the signed-in user's sessions that are still valid, newest first.",
		Answer: "`{data: [Session], nextCursor}`, newest first. A Session is `{id, createdAt, lastSeenAt, expiresAt, " +
			"userAgent, ip, current}`: `lastSeenAt` is the last request made with it (recorded at most once a minute; " +
			"`null` before the first), `userAgent` (at most 256 bytes) and `ip` are those of the sign-in, `current` marks " +
			"the session of this request.",
		Example: exSessionList,
	},
	"DELETE /api/auth/sessions/{id}": {
		Summary: "Signs out one of the signed-in user's sessions.",
		Errors: []ErrorCase{
			{404, "not_found", "a session of another user, or one that is unknown, signed out or expired"},
		},
		Example: exSessionRevoke,
	},
	"GET /api/organizations": {
		Summary: "Lists the signed-in user's organizations with the user's role in each.",
		Answer: "`{data: [{id, name, slug, role, createdAt}]}`, oldest first (all of them: not paginated). `role` is `owner`, " +
			"`admin`, `member` or `viewer`.",
		Example: exOrganizationList,
	},
	"POST /api/organizations": {
		Summary: "Creates an organization the caller owns, with a first project.",
		Answer: "`{id, name, slug, role: \"owner\", createdAt, project}`: the organization and its first Project (`Default`). " +
			"`PUT /api/session/active` switches to it.",
		BadBody: `{"name":""}`,
		Example: exOrganizationCreate,
	},
	"PATCH /api/organizations/{organizationId}": {
		Summary: "Renames an organization or changes its settings (`runRetentionDays`).",
		Answer: "`{id, name, slug, role, createdAt, runRetentionDays}` with the caller's role; the slug does not change. " +
			"`runRetentionDays`: finished runs are deleted this many days after their creation (default 90; docs/runs.md).",
		Errors: []ErrorCase{
			{422, "validation_failed", "neither `name` nor `runRetentionDays` given, a blank `name`, or `runRetentionDays` not between 1 " +
				"and 3650"},
		},
		BadBody: `{"name":"","runRetentionDays":0}`,
		Example: exOrganizationUpdate,
	},
	"DELETE /api/organizations/{organizationId}": {
		Summary: "Deletes an organization with its projects, workflows, keys and records.",
		Errors: []ErrorCase{
			{409, "conflict", "deployments of the organization are active: the message and `details` (`[{deploymentId}]`) list " +
				"them; take them down first"},
		},
		Example: exOrganizationDelete,
	},
	"GET /api/organizations/{organizationId}/members": {
		Summary: "Lists the organization's members with their roles.",
		Answer:  "`{data: [Member], nextCursor}`, oldest membership first. A Member is `{userId, email, name, role, createdAt}`.",
		Example: exMemberList,
	},
	"PATCH /api/organizations/{organizationId}/members/{userId}": {
		Summary: "Changes a member's role; the member's API keys shrink with it at once.",
		Answer:  "The Member with the new role.",
		Errors: []ErrorCase{
			{403, "forbidden", "also: an admin changing the owner's role"},
			{409, "conflict", "the member is the last owner"},
			{422, "validation_failed", "`role` is not `admin`, `member` or `viewer` (the owner role moves only by transfer-ownership)"},
		},
		BadBody: `{"role":"boss"}`,
		Example: exMemberUpdate,
	},
	"DELETE /api/organizations/{organizationId}/members/{userId}": {
		Summary: "Removes a member (their API keys of the organization are revoked); a member removing itself leaves.",
		Errors: []ErrorCase{
			{403, "forbidden", "removing another member without the admin role, or an admin removing the owner"},
			{409, "conflict", "the member is the last owner"},
		},
		Example: exMemberRemove,
	},
	"POST /api/organizations/{organizationId}/transfer-ownership": {
		Summary: "Makes another member the owner; the former owner becomes an admin.",
		Answer:  "The Member who is now the owner.",
		Errors: []ErrorCase{
			{422, "validation_failed", "`userId` is not another member of the organization"},
		},
		BadBody: `{"userId":""}`,
		Example: exTransferOwnership,
	},
	"POST /api/organizations/{organizationId}/invitations": {
		Summary: "Invites an email address to the organization; the token is shown once.",
		Answer: "The Invitation plus `token` and `acceptUrl` (`<base URL>/invite?token=…`), shown this once. An Invitation is " +
			"`{id, organizationId, email, role, invitedBy, status, createdAt, expiresAt, acceptedAt, acceptedBy, " +
			"revokedAt}` (`acceptedBy`: the user id, `\"\"` until accepted); `status` is `pending`, `accepted`, `revoked` " +
			"or `expired` (after 7 days). It is accepted once, by the user with that email.",
		Errors: []ErrorCase{
			{409, "conflict", "the email belongs to a member already"},
			{422, "validation_failed", "`role` is not `admin`, `member` or `viewer`"},
		},
		BadBody: `{"email":"not-an-email","role":"owner"}`,
		Example: exInvitationCreate,
	},
	"GET /api/organizations/{organizationId}/invitations": {
		Summary: "Lists the organization's invitations (never their tokens).",
		Answer:  "`{data: [Invitation], nextCursor}`, newest first.",
		Example: exInvitationList,
	},
	"DELETE /api/organizations/{organizationId}/invitations/{invitationId}": {
		Summary: "Revokes an invitation.",
		Errors: []ErrorCase{
			{409, "conflict", "the invitation was accepted already"},
		},
		Example: exInvitationRevoke,
	},
	"POST /api/invitations/accept": {
		Summary: "Accepts an invitation: the signed-in user joins its organization, which becomes the active one.",
		Answer:  "The session body with the joined organization active.",
		Errors: []ErrorCase{
			{403, "forbidden", "the invitation was sent to another email address"},
			{404, "not_found", "no invitation has this token"},
			{409, "conflict", "the invitation is accepted, revoked or expired, or the user is a member already"},
		},
		BadBody: `{"token":""}`,
		Example: exInvitationAccept,
	},
	"GET /api/projects": {
		Summary: "Lists projects of the active organization.",
		Answer: "`{data: [Project], nextCursor}`, oldest first. A Project is `{id, organizationId, name, slug, description, " +
			"createdAt, updatedAt}`. An API key sees every project of its organization, as a session does.",
		Example: exProjectList,
	},
	"POST /api/projects": {
		Summary: "Creates a project in the active organization.",
		Answer:  "The Project. `slug` defaults to one made from the name.",
		Errors: []ErrorCase{
			{409, "conflict", "the slug is taken in the organization"},
		},
		BadBody: `{"name":"","slug":"Not A Slug"}`,
		Example: exProjectCreate,
	},
	"PATCH /api/projects/{id}": {
		Summary: "Renames or describes a project of the organization.",
		Answer:  "The Project. `slug` cannot change (an unknown field).",
		BadBody: `{"name":""}`,
		Example: exProjectUpdate,
	},
	"DELETE /api/projects/{id}": {
		Summary: "Deletes an empty project of the organization (an API key: not its own).",
		Errors: []ErrorCase{
			{409, "conflict", "the project still holds workflows, an active deployment uses one of its connections, or an API key " +
				"asks to delete its own project"},
		},
		Example: exProjectDelete,
	},
	"POST /api/connections/verify-token": {
		Summary: "Checks provider credentials and lists the token's accounts.",
		Answer:  "`{valid, accounts: [{id, name}]}`; `valid: false` with no accounts when the provider refuses the token.",
		Errors: []ErrorCase{
			{502, "provider_error", "the provider refused the request (`provider_unavailable`: it could not be reached)"},
		},
		BadBody: `{"provider":"aws","credentials":{}}`,
		Example: exVerifyToken,
	},
	"GET /api/connections": {
		Summary: "Lists the organization's connections (credentials never shown).",
		Answer: "`{data: [Connection], nextCursor}`, newest first: the organization-wide connections and the project's. A " +
			"Connection is `{id, organizationId, projectId?, scope, provider, name, accountId, credentials, createdAt, " +
			"updatedAt}`; credentials are redacted (`apiToken: \"***\"`).",
		Example: exConnectionList,
	},
	"POST /api/connections": {
		Summary: "Creates a connection to a provider account.",
		Answer:  "The Connection (redacted). `scope` defaults to `organization` for a session, `project` for an API key.",
		Errors: []ErrorCase{
			{403, "forbidden", "also: an API key asking for `scope: organization`"},
			{422, "validation_failed", "also: an `accountId` that is not 32 lowercase hex digits, an `apiToken` that is not 20 or more of " +
				"`[A-Za-z0-9_-]`"},
		},
		BadBody: `{"provider":"aws","credentials":{}}`,
		Example: exConnectionCreate,
	},
	"PATCH /api/connections/{id}": {
		Summary: "Renames a connection or replaces its credentials.",
		Answer:  "The Connection (redacted). Credential fields sent replace the stored ones; the others are kept.",
		Errors: []ErrorCase{
			{403, "forbidden", "also: an API key changing an organization-wide connection"},
		},
		BadBody: `{"credentials":{"apiToken":""}}`,
		Example: exConnectionUpdate,
	},
	"DELETE /api/connections/{id}": {
		Summary: "Deletes a connection no deployment uses.",
		Errors: []ErrorCase{
			{403, "forbidden", "also: an API key deleting an organization-wide connection"},
			{409, "conflict", "an active deployment uses the connection; `details` name each one: `{path, message, deploymentId, " +
				"workflowId, workflowName, projectId}`"},
		},
		Example: exConnectionDelete,
	},
	"GET /api/env-vars": {
		Summary: "Lists environment variables of the organization and the active project (secret values never shown).",
		Answer: "`{data: [EnvVar], nextCursor}`, by name: the organization's variables and the project's. An EnvVar is `{id, " +
			"organizationId, projectId?, name, value, isSecret, scope, createdAt, updatedAt}`; a secret's `value` is " +
			"`\"***\"`.",
		Example: exEnvVarList,
	},
	"GET /api/env-vars/usage": {
		Summary: "Lists the project's workflows with the global environment variables each one reads.",
		Answer: "`{data: [{workflowId, workflowName, kind, uses: [{name, via, as?}]}], nextCursor}`, in the order of the " +
			"workflow list: every workflow of the active project with the global variables a deploy of its current version " +
			"would read, by name. `via` is `reference` (the version's IR or the trigger code reads `{{env.NAME}}` and the " +
			"workflow declares no variable of that name) or `declared` (the workflow's variable `as` has the value " +
			"`{{global.env.NAME}}`). The project's variable of that name is read when there is one, else the " +
			"organization's. Values are never shown.",
		Example: exEnvVarUsage,
	},
	"POST /api/env-vars": {
		Summary: "Creates an environment variable or secret, for the organization or the active project.",
		Answer:  "The EnvVar. `scope` defaults to `organization` for a session, `project` for an API key.",
		Errors: []ErrorCase{
			{403, "forbidden", "also: an API key asking for `scope: organization`"},
			{409, "conflict", "the name is taken in that scope"},
		},
		BadBody: `{"name":"lower-case","value":"v","isSecret":false}`,
		Example: exEnvVarCreate,
	},
	"PATCH /api/env-vars/{id}": {
		Summary: "Renames an environment variable or changes its value.",
		Answer:  "The EnvVar. For a secret, `value: \"***\"` keeps the stored value; making a secret plain needs a new `value`.",
		Errors: []ErrorCase{
			{403, "forbidden", "also: an API key changing an organization-scope variable"},
			{409, "conflict", "the new name is taken in the scope"},
		},
		BadBody: `{"name":"9BAD"}`,
		Example: exEnvVarUpdate,
	},
	"DELETE /api/env-vars/{id}": {
		Summary: "Deletes an environment variable.",
		Errors: []ErrorCase{
			{403, "forbidden", "also: an API key deleting an organization-scope variable"},
		},
		Example: exEnvVarDelete,
	},
	"GET /api/webhooks": {
		Summary: "Lists the active project's webhooks (never their secrets).",
		Answer: "`{data: [Webhook], nextCursor}`, newest first. A Webhook is `{id, organizationId, projectId, url, events, " +
			"createdAt, updatedAt}`; `events` empty means every type.",
		Example: exWebhookList,
	},
	"POST /api/webhooks": {
		Summary: "Creates a webhook of the active project; its signing secret is shown once.",
		Answer: "The Webhook plus `secret` (`whsec_` and base64), shown this once: it signs every delivery (docs/runs.md, " +
			"\"Webhooks\"). `events` are some of `run.started`, `run.completed`, `run.errored`, `run.waiting`, " +
			"`run.terminated`, `run.stuck`, `run.rolled_back`, `deploy.completed`, `deploy.failed`; omitted or empty: all.",
		Errors: []ErrorCase{
			{422, "validation_failed", "`url` is not an absolute http(s) URL without credentials, or its host is or resolves to a loopback, " +
				"link-local or private address that `serve --allow-hosts` does not allow; an unknown or repeated " +
				"event type"},
		},
		BadBody: `{"url":"ftp://example.com/hook","events":["run.exploded"]}`,
		Example: exWebhookCreate,
	},
	"GET /api/webhooks/{id}": {
		Summary: "Reads a webhook (never its secret).",
		Answer:  "The Webhook.",
		Example: exWebhookGet,
	},
	"PATCH /api/webhooks/{id}": {
		Summary: "Changes a webhook's URL or events.",
		Answer:  "The Webhook. Fields left out are kept; the secret does not change.",
		Errors: []ErrorCase{
			{422, "validation_failed", "neither `url` nor `events` given, or either refused as at creation"},
		},
		BadBody: `{"url":"http://127.0.0.1/hook"}`,
		Example: exWebhookUpdate,
	},
	"DELETE /api/webhooks/{id}": {
		Summary: "Deletes a webhook with its deliveries.",
		Example: exWebhookDelete,
	},
	"POST /api/webhooks/{id}/rotate-secret": {
		Summary: "Replaces a webhook's signing secret; the new one is shown once.",
		Answer: "The Webhook plus the new `secret`, shown this once; every attempt from now on, retries of earlier messages " +
			"too, is signed with it.",
		Example: exWebhookRotate,
	},
	"GET /api/webhooks/{id}/deliveries": {
		Summary: "Lists a webhook's deliveries with their attempts.",
		Answer: "`{data: [Delivery], nextCursor}`, newest first. A Delivery is `{id, webhookId, projectId, messageId, " +
			"eventType, payload, status, responseStatus, attempts, nextAttemptAt, redeliveryOf?, createdAt, updatedAt}`: " +
			"`messageId` is the `webhook-id` header of every attempt, `payload` the body sent (`{type, timestamp, data}`), " +
			"`status` `pending`, `delivered` (a 2xx answer) or `failed` (no attempt left), `responseStatus` the last " +
			"answer's status (0: none), each attempt `{at, responseStatus, error?, responseBody?, durationMs}`.",
		Example: exWebhookDeliveries,
	},
	"POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver": {
		Summary: "Sends a delivery's message again, as a new delivery.",
		Answer: "The new Delivery (`pending`, due now, `redeliveryOf` the original): the same `messageId` and payload, with " +
			"its own attempts and retries.",
		Example: exWebhookRedeliver,
	},
	"GET /api/api-keys": {
		Summary: "Lists the organization's API keys (admins: every key; others: their own), never the keys themselves.",
		Answer: "`{data: [APIKey], nextCursor}`, newest first. An APIKey is `{id, organizationId, projectId, scope, userId, " +
			"name, prefix, scopes, expiresAt, lastUsedAt, revokedAt, createdAt}` (`projectId: null` and `scope: " +
			"\"organization\"` for an organization key); never the key. A key acts with at most its creator's current role.",
		Example: exAPIKeyList,
	},
	"POST /api/api-keys": {
		Summary: "Creates an API key bound to a project, or (without projectId, admins) to the whole organization; the key is " +
			"shown once.",
		Answer: "The APIKey plus `key` (`ask_` and 43 URL-safe characters), shown this once. Without `projectId` the key is an " +
			"organization key (`projectId: null`, `scope: \"organization\"`): it acts in the project named by the " +
			"`X-Edgeflow-Project` header (default the organization's first project) and may change organization-wide " +
			"records and projects.",
		Errors: []ErrorCase{
			{403, "forbidden", "scopes beyond the caller's role (a viewer's keys only read), or an organization key asked for " +
				"without the admin role"},
			{422, "validation_failed", "also: `projectId` is not a project of the organization, `scopes` lacks `read` or holds an unknown " +
				"scope, `expiresAt` is not in the future"},
		},
		BadBody: `{"name":"k","projectId":"","scopes":["write"]}`,
		Example: exAPIKeyCreate,
	},
	"DELETE /api/api-keys/{id}": {
		Summary: "Revokes an API key (another user's: admins).",
		Errors: []ErrorCase{
			{403, "forbidden", "the key is another user's and the caller is not an admin"},
		},
		Example: exAPIKeyRevoke,
	},
	"GET /api/audit": {
		Summary: "Lists the organization's audit log, newest first (owners and admins).",
		Answer: "`{data: [AuditEntry], nextCursor}`, newest first. An AuditEntry is `{id, organizationId, projectId, actor: " +
			"{type: \"user\"|\"key\", id}, action, target: {type, id}, outcome, requestId, time}`: one state-changing " +
			"request, allowed or refused; `outcome` is its status code. A project's API key gets only the entries recorded " +
			"in its project and those whose target is its project. Filters: `actor` (a user or key id), `action` (such as " +
			"`workflow.create`), `target` (a record id), `since` (inclusive) and `until` (exclusive), RFC 3339 times. " +
			"Request bodies are never recorded.",
		Errors: []ErrorCase{
			{403, "forbidden", "the caller (the key's creator, for an API key) is not an owner or admin of the organization"},
			{422, "validation_failed", "`since` or `until` not an RFC 3339 time, `until` not after `since`, a filter over 200 characters or " +
				"given twice"},
		},
		Example: exAuditList,
	},
}
