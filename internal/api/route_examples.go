package api

// One example request for every route, with its answer, for the endpoint
// reference in docs/api.md (apidoc.go renders it) and the OpenAPI document;
// routeDocs (route_docs.go) names each route's. The examples are checked:
// every body decodes strictly into the route's Body type
// (apidoc_internal_test.go), every answer fits the route's response schema
// (TestReplySchemas), and TestRouteExamples (and, for the routes that need
// a deployed workflow or a provider, the e2e test TestRouteExamplesLive)
// sends each request to a real server, with the ids below replaced by the
// test world's, and compares the status and the answer's shape (its field
// names, at every depth) with the example, and the answer with the
// response schema.

// The ids the examples use. Tests map each to a record of their world.
const (
	exUser       = "usr_4f7kq2m9x1c8v3b6n0zt"
	exOrg        = "org_8d2hw5k1r7m3q9x4c6vb"
	exProject    = "prj_2n6c9x4v1m8k3q7w5hzr"
	exProject2   = "prj_5t1z8b3n6m2x9c4v7kqa"
	exWorkflow   = "wf_9k3m7x2c5v8b1n4q6wze"
	exVersion    = "ver_3q8w1e6r4t9y2u7i5opa"
	exEnvVar     = "env_6b2n9m4x7c1v5k8q3wsd"
	exConnection = "con_1x7c4v9b2n6m3k8q5wfg"
	exAPIKey     = "key_7v3b8n1m5x2c9k4q6whj"
	exRun        = "run_4m8x2c6v1b9n3k7q5wkl"
	exDeployment = "dep_8c3v6b1n9m4x2k7q5wzx"
	exNamespace  = "0f3c9a1b7d2e4f6a8b0c1d2e3f4a5b6c"
	exDatabase   = "5b1e7c2a-9d3f-4e8a-b6c0-1d2e3f4a5b6c"
	exAccount    = "7c4e1a9b3d5f2e8a6c0b1d2e3f4a5b6c"
	exCFToken    = "Zk3nV8qW2xR7tY5uI1oP9aS4dF6gH0jK_lM2"
	exInstall    = "ins_2k9x4c7v1b6n3m8q5wrt"
	exSessionID  = "ses_5r9t2y7u4i1o8p3a6sdf"
	exMember     = "usr_6q1w8e3r5t2y9u4i7ozx"
	exInvitation = "inv_5r8t1y4u7i2o9p3a6sdf"
	exInvToken   = "inv_cGxlYXNlLWpvaW4tdXMtYXQtdGhlLXNob3AtdG9kYXk"
	exWebhook    = "wh_3k8x1c6v9b2n5m7q4wtp"
	exDelivery   = "dlv_6n1m8x3c5v2b9k4q7wyu"
	exMessage    = "msg_9x2c7v4b1n6m3k8q5wrd"
	exCursor     = "Z-rLySTkbsIxi_5r7_kpl9LTsMB3f9YSTVRjNU5UYzJNVEUyTURBek1qSXpOeDlq"
)

// ExampleCloudflareToken is the Cloudflare API token of the examples.
const ExampleCloudflareToken = exCFToken

// ExampleIDs lists the ids the examples use, by what they name, for the
// tests that map them to a world's records.
func ExampleIDs() map[string]string {
	return map[string]string{
		"user": exUser, "organization": exOrg, "project": exProject, "otherProject": exProject2,
		"workflow": exWorkflow, "version": exVersion, "envVar": exEnvVar, "connection": exConnection,
		"apiKey": exAPIKey, "run": exRun, "deployment": exDeployment, "namespace": exNamespace,
		"database": exDatabase, "account": exAccount, "install": exInstall, "session": exSessionID,
		"member": exMember, "invitation": exInvitation, "invitationToken": exInvToken,
		"webhook": exWebhook, "delivery": exDelivery, "bulk": exBulk, "event": exEvent,
	}
}

const exIR = `{"ir": {"metadata": {"name": "Order confirmation"},
 "nodes": [{"id": "load", "type": "step", "name": "Load order", "data": {"code": "return { id: event.payload.orderId, total: 42 };"}},
  {"id": "confirm", "type": "step", "name": "Confirm", "data": {"code": "return { sent: true, total: {{load.total}} };"}}],
 "edges": [{"id": "e1", "source": "load", "target": "confirm"}],
 "entryNodeId": "load"}}`

var (
	exHealth = Example{Path: "/healthz",
		Answer: `{"status": "ok"}`}
	exReady = Example{Path: "/readyz",
		Answer: `{"status": "ok", "database": "ok", "edge": "ok"}`}
	exMetrics = Example{Path: "/metrics",
		Answer: `# HELP edgeflow_http_requests_total HTTP requests answered, by method, route pattern and status code.
# TYPE edgeflow_http_requests_total counter
edgeflow_http_requests_total{method="GET",route="/api/workflows",code="200"} 12`, Partial: true}

	exSignUp = Example{Path: "/api/auth/sign-up",
		Body:   `{"email": "carol@example.com", "password": "blue-harbor-lantern", "name": "Carol", "organizationName": "Carol's shop"}`,
		Answer: `{"user": {"id": "usr_9s2k4m7x1c8v3b6n0qzt", "email": "carol@example.com", "name": "Carol", "createdAt": "2026-11-27T06:40:12.123456Z"}, "organizations": [{"id": "org_3c7v1b9n4m2x8k6q5wrt", "name": "Carol's shop", "slug": "carol-s-shop-x0btla", "role": "owner", "createdAt": "2026-11-27T06:40:12.123456Z"}], "activeOrganizationId": "org_3c7v1b9n4m2x8k6q5wrt", "activeProjectId": "prj_6m1x8c3v9b2n7k4q5wyu", "csrfToken": "Q2h4dGN0aGVmcm9nc2FuZHRoZXBpZ3NhbmRjb3dzMQ", "expiresAt": "2026-12-27T06:40:12.123456Z"}`}
	exSignIn = Example{Path: "/api/auth/sign-in", Body: `{"email": "alice@example.com", "password": "password-1"}`,
		Answer: `{"user": {"id": "` + exUser + `", "email": "alice@example.com", "name": "Alice", "createdAt": "2026-11-27T06:40:12.123456Z"}, "organizations": [{"id": "` + exOrg + `", "name": "alice's organization", "slug": "alice-s-organization-xpgsaz", "role": "owner", "createdAt": "2026-11-27T06:40:12.123456Z"}], "activeOrganizationId": "` + exOrg + `", "activeProjectId": "` + exProject + `", "csrfToken": "Q2h4dGN0aGVmcm9nc2FuZHRoZXBpZ3NhbmRjb3dzMQ", "expiresAt": "2026-12-27T06:40:12.123456Z"}`}
	exSignOut       = Example{Path: "/api/auth/sign-out"}
	exSignUpOptions = Example{Path: "/api/auth/sign-up", Answer: `{"mode": "invite", "firstUser": false}`}

	exPasswordChange = Example{Path: "/api/auth/password", Body: `{"currentPassword": "password-1", "newPassword": "correct horse battery staple"}`}
	exSessionList    = Example{Path: "/api/auth/sessions?limit=10",
		Answer: `{"data": [{"id": "` + exSessionID + `", "createdAt": "2026-11-27T06:40:12.123456Z", "lastSeenAt": "2026-11-27T09:12:45.678901Z", "expiresAt": "2026-12-27T06:40:12.123456Z", "userAgent": "Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0", "ip": "203.0.113.24", "current": true}], "nextCursor": null}`}
	exSessionRevoke = Example{Path: "/api/auth/sessions/" + exSessionID}
	exAuditList     = Example{Path: "/api/audit?action=workflow.create&limit=1",
		Answer: `{"data": [{"id": "aud_6y1t8r3e5w9q2u7i4oza", "organizationId": "` + exOrg + `", "projectId": "` + exProject + `", "actor": {"type": "key", "id": "` + exAPIKey + `"}, "action": "workflow.create", "target": {"type": "workflow", "id": "` + exWorkflow + `"}, "outcome": 201, "requestId": "5f0c2b9e8d7a6c4b3a291807", "time": "2026-11-27T06:40:12.123456Z"}], "nextCursor": null}`}
	exSession = Example{Path: "/api/auth/session",
		Answer: `{"user": {"id": "` + exUser + `", "email": "alice@example.com", "name": "Alice", "createdAt": "2026-11-27T06:40:12.123456Z"}, "organizations": [{"id": "` + exOrg + `", "name": "alice's organization", "slug": "alice-s-organization-xpgsaz", "role": "owner", "createdAt": "2026-11-27T06:40:12.123456Z"}], "activeOrganizationId": "` + exOrg + `", "activeProjectId": "` + exProject + `", "csrfToken": "Q2h4dGN0aGVmcm9nc2FuZHRoZXBpZ3NhbmRjb3dzMQ", "expiresAt": "2026-12-27T06:40:12.123456Z"}`}
	exWhoami = Example{Path: "/api/whoami",
		Answer: `{"user": {"id": "` + exUser + `", "email": "alice@example.com", "name": "Alice"}, "apiKey": {"id": "` + exAPIKey + `", "name": "ci", "prefix": "ask_7Qm2", "scope": "project", "scopes": ["read", "write"], "expiresAt": null}, "organization": {"id": "` + exOrg + `", "name": "alice's organization", "slug": "alice-s-organization-xpgsaz", "role": "owner"}, "project": {"id": "` + exProject + `", "name": "Default", "slug": "default"}}`}
	exSessionActive = Example{Path: "/api/session/active", Body: `{"organizationId": "` + exOrg + `", "projectId": "` + exProject2 + `"}`,
		Answer: `{"user": {"id": "` + exUser + `", "email": "alice@example.com", "name": "Alice", "createdAt": "2026-11-27T06:40:12.123456Z"}, "organizations": [{"id": "` + exOrg + `", "name": "alice's organization", "slug": "alice-s-organization-xpgsaz", "role": "owner", "createdAt": "2026-11-27T06:40:12.123456Z"}], "activeOrganizationId": "` + exOrg + `", "activeProjectId": "` + exProject2 + `", "csrfToken": "Q2h4dGN0aGVmcm9nc2FuZHRoZXBpZ3NhbmRjb3dzMQ", "expiresAt": "2026-12-27T06:40:12.123456Z"}`}

	exOrganizationList = Example{Path: "/api/organizations",
		Answer: `{"data": [{"id": "` + exOrg + `", "name": "alice's organization", "slug": "alice-s-organization-xpgsaz", "role": "owner", "createdAt": "2026-11-27T06:40:12.123456Z"}]}`}
	exOrganizationCreate = Example{Path: "/api/organizations", Body: `{"name": "Shop staging"}`,
		Answer: `{"id": "org_7n2m5x8c1v4b9k3q6wop", "name": "Shop staging", "slug": "shop-staging-r4k8zt", "role": "owner", "createdAt": "2026-11-27T06:40:12.123456Z", "project": {"id": "prj_1c6v3b8n5m9x2k7q4wer", "organizationId": "org_7n2m5x8c1v4b9k3q6wop", "name": "Default", "slug": "default", "description": "", "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z"}}`}
	exOrganizationUpdate = Example{Path: "/api/organizations/" + exOrg, Body: `{"name": "Alice's shop", "runRetentionDays": 30}`,
		Answer: `{"id": "` + exOrg + `", "name": "Alice's shop", "slug": "alice-s-organization-xpgsaz", "role": "owner", "createdAt": "2026-11-27T06:40:12.123456Z", "runRetentionDays": 30}`}
	exOrganizationDelete = Example{Path: "/api/organizations/" + exOrg}
	exMemberList         = Example{Path: "/api/organizations/" + exOrg + "/members?limit=2",
		Answer: `{"data": [{"userId": "` + exUser + `", "email": "alice@example.com", "name": "Alice", "role": "owner", "createdAt": "2026-11-27T06:40:12.123456Z"}, {"userId": "` + exMember + `", "email": "dave@example.com", "name": "Dave", "role": "member", "createdAt": "2026-11-27T06:40:12.123456Z"}], "nextCursor": "` + exCursor + `"}`}
	exMemberUpdate = Example{Path: "/api/organizations/" + exOrg + "/members/" + exMember, Body: `{"role": "viewer"}`,
		Answer: `{"userId": "` + exMember + `", "email": "dave@example.com", "name": "Dave", "role": "viewer", "createdAt": "2026-11-27T06:40:12.123456Z"}`}
	exMemberRemove      = Example{Path: "/api/organizations/" + exOrg + "/members/" + exMember}
	exTransferOwnership = Example{Path: "/api/organizations/" + exOrg + "/transfer-ownership", Body: `{"userId": "` + exMember + `"}`,
		Answer: `{"userId": "` + exMember + `", "email": "dave@example.com", "name": "Dave", "role": "owner", "createdAt": "2026-11-27T06:40:12.123456Z"}`}
	exInvitationCreate = Example{Path: "/api/organizations/" + exOrg + "/invitations", Body: `{"email": "erin@example.com", "role": "member"}`,
		Answer: `{"id": "` + exInvitation + `", "organizationId": "` + exOrg + `", "email": "erin@example.com", "role": "member", "invitedBy": "` + exUser + `", "createdAt": "2026-11-27T06:40:12.123456Z", "expiresAt": "2026-12-04T06:40:12.123456Z", "acceptedAt": null, "acceptedBy": "", "revokedAt": null, "status": "pending", "token": "` + exInvToken + `", "acceptUrl": "https://edgeflow.example.com/invite?token=` + exInvToken + `"}`}
	exInvitationList = Example{Path: "/api/organizations/" + exOrg + "/invitations?limit=1",
		Answer: `{"data": [{"id": "` + exInvitation + `", "organizationId": "` + exOrg + `", "email": "erin@example.com", "role": "member", "invitedBy": "` + exUser + `", "createdAt": "2026-11-27T06:40:12.123456Z", "expiresAt": "2026-12-04T06:40:12.123456Z", "acceptedAt": null, "acceptedBy": "", "revokedAt": null, "status": "pending"}], "nextCursor": "` + exCursor + `"}`}
	exInvitationRevoke = Example{Path: "/api/organizations/" + exOrg + "/invitations/" + exInvitation}
	exInvitationAccept = Example{Path: "/api/invitations/accept", Body: `{"token": "` + exInvToken + `"}`,
		Answer: `{"user": {"id": "` + exUser + `", "email": "alice@example.com", "name": "Alice", "createdAt": "2026-11-27T06:40:12.123456Z"}, "organizations": [{"id": "` + exOrg + `", "name": "alice's organization", "slug": "alice-s-organization-xpgsaz", "role": "owner", "createdAt": "2026-11-27T06:40:12.123456Z"}, {"id": "org_4v9b2n7m1x6c3k8q5wty", "name": "Bob's team", "slug": "bob-s-team-k2m9qa", "role": "member", "createdAt": "2026-11-27T06:40:12.123456Z"}], "activeOrganizationId": "org_4v9b2n7m1x6c3k8q5wty", "activeProjectId": "prj_3x8c1v6b9n2m7k4q5wui", "csrfToken": "Q2h4dGN0aGVmcm9nc2FuZHRoZXBpZ3NhbmRjb3dzMQ", "expiresAt": "2026-12-27T06:40:12.123456Z"}`}

	exProjectList = Example{Path: "/api/projects?limit=2", Session: true,
		Answer: `{"data": [{"id": "` + exProject + `", "organizationId": "` + exOrg + `", "name": "Default", "slug": "default", "description": "", "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z"}, {"id": "` + exProject2 + `", "organizationId": "` + exOrg + `", "name": "Staging", "slug": "staging", "description": "", "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z"}], "nextCursor": "` + exCursor + `"}`}
	exProjectCreate = Example{Path: "/api/projects", Session: true,
		Body:   `{"name": "Billing", "slug": "billing", "description": "Invoices and reminders"}`,
		Answer: `{"id": "prj_8w3e6r1t9y4u2i7o5pas", "organizationId": "` + exOrg + `", "name": "Billing", "slug": "billing", "description": "Invoices and reminders", "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z"}`}
	exProjectUpdate = Example{Path: "/api/projects/" + exProject2, Session: true, Body: `{"description": "Staging copies of the shop's workflows"}`,
		Answer: `{"id": "` + exProject2 + `", "organizationId": "` + exOrg + `", "name": "Staging", "slug": "staging", "description": "Staging copies of the shop's workflows", "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:41:30.654321Z"}`}
	exProjectDelete = Example{Path: "/api/projects/" + exProject2, Session: true}

	exWorkflowList = Example{Path: "/api/workflows?limit=1",
		Answer: `{"data": [{"id": "` + exWorkflow + `", "organizationId": "` + exOrg + `", "projectId": "` + exProject + `", "name": "Order confirmation", "description": "Confirms a paid order", "kind": "workflow", "envVars": [{"name": "SHOP_URL", "value": "https://shop.example.com", "isSecret": false}, {"name": "SMTP_PASSWORD", "value": "***", "isSecret": true}], "triggerCode": "", "dependencies": {"zod": "^3.23.0"}, "deployConfig": {"publicTrigger": true}, "currentVersionId": "` + exVersion + `", "activeVersionId": "` + exVersion + `", "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:41:30.654321Z"}], "nextCursor": "` + exCursor + `"}`}
	exWorkflowCreate = Example{Path: "/api/workflows",
		Body:   `{"name": "Order confirmation", "description": "Confirms a paid order", "kind": "workflow"}`,
		Answer: `{"id": "wf_2b7n4m9x1c6v3k8q5wty", "organizationId": "` + exOrg + `", "projectId": "` + exProject + `", "name": "Order confirmation", "description": "Confirms a paid order", "kind": "workflow", "envVars": [], "triggerCode": "", "dependencies": {}, "deployConfig": null, "currentVersionId": "", "activeVersionId": "", "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z"}`}
	exWorkflowGet = Example{Path: "/api/workflows/" + exWorkflow,
		Answer: `{"id": "` + exWorkflow + `", "organizationId": "` + exOrg + `", "projectId": "` + exProject + `", "name": "Order confirmation", "description": "Confirms a paid order", "kind": "workflow", "envVars": [{"name": "SHOP_URL", "value": "https://shop.example.com", "isSecret": false}, {"name": "SMTP_PASSWORD", "value": "***", "isSecret": true}], "triggerCode": "", "dependencies": {"zod": "^3.23.0"}, "deployConfig": {"publicTrigger": true}, "currentVersionId": "` + exVersion + `", "activeVersionId": "` + exVersion + `", "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:41:30.654321Z"}`}
	exWorkflowFull = Example{Path: "/api/workflows/" + exWorkflow + "/full",
		Answer: `{"workflow": {"id": "` + exWorkflow + `", "organizationId": "` + exOrg + `", "projectId": "` + exProject + `", "name": "Order confirmation", "description": "Confirms a paid order", "kind": "workflow", "envVars": [{"name": "SHOP_URL", "value": "https://shop.example.com", "isSecret": false}, {"name": "SMTP_PASSWORD", "value": "***", "isSecret": true}], "triggerCode": "", "dependencies": {"zod": "^3.23.0"}, "deployConfig": {"publicTrigger": true}, "currentVersionId": "` + exVersion + `", "activeVersionId": "` + exVersion + `", "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:41:30.654321Z"}, "currentVersion": {"id": "` + exVersion + `", "workflowId": "` + exWorkflow + `", "version": 3, "locked": false, "createdBy": "` + exUser + `", "createdAt": "2026-11-27T06:40:12.123456Z", "ir": {"metadata": {"name": "Order confirmation", "version": 3, "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z"}, "nodes": [{"id": "load", "type": "step", "name": "Load order", "position": {"x": 0, "y": 0}, "version": "1.0.0", "provider": "cloudflare", "data": {"code": "return { id: event.payload.orderId, total: 42 };"}}, {"id": "confirm", "type": "step", "name": "Confirm", "position": {"x": 0, "y": 0}, "version": "1.0.0", "provider": "cloudflare", "data": {"code": "return { sent: true, total: {{load.total}} };"}}], "edges": [{"id": "e1", "source": "load", "target": "confirm"}], "entryNodeId": "load"}, "code": "// Order confirmation: workflow ` + exWorkflow + `, version 3.\n// Generated by edgeflow from the workflow's IR. Edit the IR, not this file: it is rewritten on each compile.\n\nimport { WorkflowEntrypoint } from \"cloudflare:workers\";\n…"}, "versions": [{"id": "` + exVersion + `", "workflowId": "` + exWorkflow + `", "version": 3, "locked": false, "createdBy": "` + exUser + `", "createdAt": "2026-11-27T06:40:12.123456Z"}, {"id": "ver_1a6s3d8f2g7h4j9k5lqw", "workflowId": "` + exWorkflow + `", "version": 2, "locked": true, "createdBy": "` + exUser + `", "createdAt": "2026-11-27T06:40:12.123456Z"}], "activeDeployment": {"id": "` + exDeployment + `", "workflowId": "` + exWorkflow + `", "projectId": "` + exProject + `", "versionId": "` + exVersion + `", "connectionId": "` + exConnection + `", "status": "active", "url": "https://ef-wf-9k3m7x2c5v8b1n4q6wze.shop.workers.dev", "scriptName": "ef-wf-9k3m7x2c5v8b1n4q6wze", "workflowName": "ef-wf-9k3m7x2c5v8b1n4q6wze", "createdBy": "` + exUser + `", "createdAt": "2026-11-27T06:40:12.123456Z"}}`}
	exWorkflowUpdate = Example{Path: "/api/workflows/" + exWorkflow,
		Body:   `{"description": "Confirms a paid order by email", "envVars": [{"name": "SHOP_URL", "value": "https://shop.example.com", "isSecret": false}], "dependencies": {"zod": "^3.23.0"}, "deployConfig": {"publicTrigger": true}}`,
		Answer: `{"id": "` + exWorkflow + `", "organizationId": "` + exOrg + `", "projectId": "` + exProject + `", "name": "Order confirmation", "description": "Confirms a paid order by email", "kind": "workflow", "envVars": [{"name": "SHOP_URL", "value": "https://shop.example.com", "isSecret": false}], "triggerCode": "", "dependencies": {"zod": "^3.23.0"}, "deployConfig": {"publicTrigger": true}, "currentVersionId": "` + exVersion + `", "activeVersionId": "` + exVersion + `", "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:41:30.654321Z"}`}
	exWorkflowMove = Example{Path: "/api/workflows/" + exWorkflow + "/move", Session: true, Body: `{"targetProjectId": "` + exProject2 + `"}`,
		Answer: `{"id": "` + exWorkflow + `", "organizationId": "` + exOrg + `", "projectId": "` + exProject2 + `", "name": "Order confirmation", "description": "Confirms a paid order", "kind": "workflow", "envVars": [{"name": "SHOP_URL", "value": "https://shop.example.com", "isSecret": false}, {"name": "SMTP_PASSWORD", "value": "***", "isSecret": true}], "triggerCode": "", "dependencies": {"zod": "^3.23.0"}, "deployConfig": {"publicTrigger": true}, "currentVersionId": "` + exVersion + `", "activeVersionId": "", "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:41:30.654321Z"}`}
	exWorkflowDelete = Example{Path: "/api/workflows/" + exWorkflow + "?runs=keep"}

	exVersionList = Example{Path: "/api/workflows/" + exWorkflow + "/versions?limit=10",
		Answer: `{"data": [{"id": "` + exVersion + `", "workflowId": "` + exWorkflow + `", "version": 3, "locked": false, "nodeTypes": [], "createdBy": "` + exUser + `", "createdAt": "2026-11-27T06:40:12.123456Z"}, {"id": "ver_1a6s3d8f2g7h4j9k5lqw", "workflowId": "` + exWorkflow + `", "version": 2, "locked": true, "nodeTypes": [], "createdBy": "` + exUser + `", "createdAt": "2026-11-27T06:40:12.123456Z"}], "nextCursor": null}`}
	exVersionSubmit = Example{Path: "/api/workflows/" + exWorkflow + "/versions", Body: exIR,
		Answer: `{"id": "ver_7z2x5c8v1b4n9m3k6qpo", "workflowId": "` + exWorkflow + `", "version": 4, "locked": false, "nodeTypes": [], "createdBy": "` + exUser + `", "createdAt": "2026-11-27T06:40:12.123456Z"}`}
	exVersionGet = Example{Path: "/api/workflows/" + exWorkflow + "/versions/" + exVersion,
		Answer: `{"id": "` + exVersion + `", "workflowId": "` + exWorkflow + `", "version": 3, "locked": false, "nodeTypes": [], "createdBy": "` + exUser + `", "createdAt": "2026-11-27T06:40:12.123456Z", "ir": {"metadata": {"name": "Order confirmation", "version": 3, "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z"}, "nodes": [{"id": "load", "type": "step", "name": "Load order", "position": {"x": 0, "y": 0}, "version": "1.0.0", "provider": "cloudflare", "data": {"code": "return { id: event.payload.orderId, total: 42 };"}}, {"id": "confirm", "type": "step", "name": "Confirm", "position": {"x": 0, "y": 0}, "version": "1.0.0", "provider": "cloudflare", "data": {"code": "return { sent: true, total: {{load.total}} };"}}], "edges": [{"id": "e1", "source": "load", "target": "confirm"}], "entryNodeId": "load"}, "code": "// Order confirmation: workflow ` + exWorkflow + `, version 3.\n// Generated by edgeflow from the workflow's IR. Edit the IR, not this file: it is rewritten on each compile.\n\nimport { WorkflowEntrypoint } from \"cloudflare:workers\";\n…"}`}
	exVersionUpdate = Example{Path: "/api/workflows/" + exWorkflow + "/versions/" + exVersion, Body: `{"locked": true}`,
		Answer: `{"id": "` + exVersion + `", "workflowId": "` + exWorkflow + `", "version": 3, "locked": true, "nodeTypes": [], "createdBy": "` + exUser + `", "createdAt": "2026-11-27T06:40:12.123456Z"}`}
	exVersionRevert = Example{Path: "/api/workflows/" + exWorkflow + "/versions/" + exVersion + "/revert",
		Answer: `{"id": "ver_7z2x5c8v1b4n9m3k6qpo", "workflowId": "` + exWorkflow + `", "version": 4, "locked": false, "nodeTypes": [], "createdBy": "` + exUser + `", "createdAt": "2026-11-27T06:40:12.123456Z"}`}
	exVersionTest = Example{Path: "/api/workflows/" + exWorkflow + "/versions/" + exVersion + "/test", Body: `{"params": {"orderId": "A-1001"}, "mocks": {"load": {"id": "A-1001", "total": 42}}}`, Partial: true,
		Answer: `{"status": "complete", "output": {"sent": true, "total": 42}, "error": null, "steps": [{"nodeId": "load", "name": "load", "type": "step", "state": "mocked", "attempts": 0, "startedAt": null, "endedAt": null, "output": {"id": "A-1001", "total": 42}, "outputTruncated": false, "error": null}], "logs": [], "durationMs": 412}`}
	exDraftTest = Example{Path: "/api/workflows/" + exWorkflow + "/test", Body: `{"ir": {"metadata": {"name": "Order confirmation"},
 "nodes": [{"id": "load", "type": "step", "name": "Load order", "data": {"code": "return { id: event.payload.orderId, total: 42 };"}},
  {"id": "notify", "type": "step", "name": "Notify", "data": {"code": "return { sent: true, total: {{load.total}} };"}}],
 "edges": [{"id": "e1", "source": "load", "target": "notify"}],
 "entryNodeId": "load"}, "params": {"orderId": "A-1001"}, "mocks": {"load": {"id": "A-1001", "total": 42}}}`, Partial: true,
		Answer: `{"status": "complete", "output": {"sent": true, "total": 42}, "error": null, "steps": [{"nodeId": "load", "name": "load", "type": "step", "state": "mocked", "attempts": 0, "startedAt": null, "endedAt": null, "output": {"id": "A-1001", "total": 42}, "outputTruncated": false, "error": null}], "logs": [], "durationMs": 412}`}
	exPinnedOutputsGet = Example{Path: "/api/workflows/" + exWorkflow + "/pinned-outputs",
		Answer: `{"outputs": {"load": {"id": "A-1001", "total": 42}}, "updatedAt": "2026-11-27T06:40:12.123456Z", "updatedBy": "` + exUser + `"}`}
	exPinnedOutputsPut = Example{Path: "/api/workflows/" + exWorkflow + "/pinned-outputs", Body: `{"outputs": {"load": {"id": "A-1001", "total": 42}}}`,
		Answer: `{"outputs": {"load": {"id": "A-1001", "total": 42}}, "updatedAt": "2026-11-27T06:40:12.123456Z", "updatedBy": "` + exUser + `"}`}
	exVersionDelete = Example{Path: "/api/workflows/" + exWorkflow + "/versions/" + exVersion}

	exOpenAPI = Example{Path: "/api/openapi.json",
		Answer: `{"openapi": "3.1.0", "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base", "info": {"title": "edgeflow API", "version": "1"}, "paths": {"/api/workflows": {"get": {"operationId": "workflowList", "summary": "Lists workflows and functions of the active project, newest first."}}}, "components": {"schemas": {}}}`, Partial: true}
	exIRSchema = Example{Path: "/api/ir/schema.json",
		Answer: `{"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "edgeflow artifact IR", "type": "object"}`, Partial: true}
	exIRValidate = Example{Path: "/api/ir/validate", Body: `{"ir": {"metadata": {"name": "Order confirmation"},
 "nodes": [{"id": "load", "type": "step", "name": "Load order", "data": {"code": "return { id: event.payload.orderId "}},
  {"id": "wait", "type": "sleep", "name": "Wait", "data": {}}],
 "edges": [{"id": "e1", "source": "load", "target": "wait"}],
 "entryNodeId": "load"}}`,
		Answer: `{"valid": false, "errors": [{"nodeId": "wait", "path": "/nodes/1/data/duration", "message": "duration is required", "rule": "node-data"}, {"nodeId": "load", "path": "/nodes/0/data/code", "message": "node \"load\", data.code: syntax error at line 1, column 36: Unexpected end of file", "rule": "code-syntax", "field": "data.code", "line": 1, "column": 36}]}`}
	exIRCompile = Example{Path: "/api/ir/compile", Body: exIR,
		Answer: `{"code": "// Order confirmation: workflow preview, version 0.\n// Generated by edgeflow from the workflow's IR. Edit the IR, not this file: it is rewritten on each compile.\n\nimport { WorkflowEntrypoint } from \"cloudflare:workers\";\n…"}`}
	exNodeList = Example{Path: "/api/nodes?limit=1",
		Answer: `{"data": [{"id": "step", "name": "Step", "description": "Runs a block of JavaScript/TypeScript as a durable step; its return value is the node's value.", "category": "Code", "author": "edgeflow", "license": "MIT", "version": "1.0.0", "configSchema": {"code": {"type": "code", "label": "Code", "description": "Body of an async function. Expressions ({{node.path}}) become JavaScript values.", "required": true, "placeholder": "return { ok: true };"}}, "outputSchema": {"$": {"type": "any", "description": "whatever the code returns"}}, "allowedInFunctions": true, "builtin": true}], "nextCursor": "` + exCursor + `"}`, Partial: true}
	exNodeTemplates = Example{Path: "/api/nodes/templates",
		Answer: `{"http_request": {"version": "1.0.0", "builtin": true, "defaults": {"allowErrorStatus": false, "method": "GET"}, "required": ["url"], "secretEnvVars": []}}`, Partial: true}
	exNodeGet = Example{Path: "/api/nodes/sleep",
		Answer: `{"id": "sleep", "name": "Sleep", "description": "Pauses the workflow for a duration (at most 365 days).", "category": "Timing", "author": "edgeflow", "license": "MIT", "version": "1.0.0", "configSchema": {"duration": {"type": "string", "label": "Duration", "description": "Seconds or e.g. \"10 minutes\", \"1 day\".", "required": true, "placeholder": "30 seconds", "validation": {"format": "duration"}}}, "outputSchema": {}, "allowedInFunctions": false, "builtin": true}`}

	exMarketplaceList = Example{Path: "/api/marketplace?q=openai&category=AI&limit=1",
		Answer: `{"data": [{"id": "openai-chat", "name": "OpenAI Chat", "description": "Generate a reply with an OpenAI chat model (Chat Completions API), optionally as a JSON object.", "category": "AI", "tags": ["openai", "llm", "gpt"], "author": "edgeflow", "license": "Apache-2.0", "latest": "1.1.0", "versions": [{"version": "1.1.0", "checksum": "sha256:fc8f…", "changelog": "Adds Max tokens (sent as max_completion_tokens) and Response format…"}, {"version": "1.0.0", "checksum": "sha256:b6e7…", "changelog": "First release: generate a reply with an OpenAI chat model (Chat Completions API)."}], "installed": true, "installedVersion": "1.0.0", "updateAvailable": true}], "nextCursor": "` + exCursor + `"}`, Partial: true}
	exMarketplaceCategories = Example{Path: "/api/marketplace/categories",
		Answer: `{"categories": [{"name": "AI", "nodes": 2}, {"name": "Messaging", "nodes": 4}, {"name": "Email", "nodes": 2}, {"name": "Developer Tools", "nodes": 1}]}`, Partial: true}
	exMarketplaceInstalled = Example{Path: "/api/marketplace/installed",
		Answer: `{"data": [{"id": "` + exInstall + `", "nodeId": "openai-chat", "name": "OpenAI Chat", "description": "Generate a reply with an OpenAI chat model (Chat Completions API).", "category": "AI", "version": "1.0.0", "checksum": "sha256:…", "latest": "1.1.0", "updateAvailable": true, "installedBy": "` + exUser + `", "installedAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z"}], "nextCursor": null}`}
	exMarketplaceGet = Example{Path: "/api/marketplace/openai-chat",
		Answer: `{"id": "openai-chat", "name": "OpenAI Chat", "description": "Generate a reply with an OpenAI chat model (Chat Completions API), optionally as a JSON object.", "category": "AI", "tags": ["openai", "llm", "gpt"], "author": "edgeflow", "license": "Apache-2.0", "latest": "1.1.0", "versions": [{"version": "1.1.0", "checksum": "sha256:fc8f…", "changelog": "Adds Max tokens (sent as max_completion_tokens) and Response format…"}, {"version": "1.0.0", "checksum": "sha256:b6e7…", "changelog": "First release: generate a reply with an OpenAI chat model (Chat Completions API)."}], "installed": false, "installedVersion": null, "updateAvailable": false, "definition": {"id": "openai-chat", "name": "OpenAI Chat", "version": "1.1.0", "changelog": "Adds Max tokens…", "configSchema": {"model": {"type": "string", "label": "Model", "required": true, "default": "gpt-4o-mini"}, "apiKey": {"type": "secret", "label": "API key", "required": true, "envVarName": "OPENAI_API_KEY"}}, "outputSchema": {"text": {"type": "string", "description": "The reply."}}, "allowedInFunctions": true}, "installation": null, "usedBy": []}`, Partial: true}
	exMarketplaceInstall = Example{Path: "/api/marketplace/install", Body: `{"nodeId": "slack-message", "version": "2.0.0"}`,
		Answer: `{"id": "ins_5r8t1y4u7i2o9p3a6sdf", "nodeId": "slack-message", "name": "Slack Message", "description": "Post a message to a Slack channel or thread with a bot token, with optional Block Kit blocks (chat.postMessage).", "category": "Messaging", "version": "2.0.0", "checksum": "sha256:…", "latest": "2.0.0", "updateAvailable": false, "installedBy": "` + exUser + `", "installedAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z"}`}
	exMarketplaceUpdate = Example{Path: "/api/marketplace/update", Body: `{"nodeId": "openai-chat", "version": "1.1.0"}`,
		Answer: `{"id": "` + exInstall + `", "nodeId": "openai-chat", "name": "OpenAI Chat", "description": "Generate a reply with an OpenAI chat model (Chat Completions API), optionally as a JSON object.", "category": "AI", "version": "1.1.0", "checksum": "sha256:…", "latest": "1.1.0", "updateAvailable": false, "installedBy": "` + exUser + `", "installedAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:41:30.654321Z"}`}
	exMarketplaceUninstall = Example{Path: "/api/marketplace/uninstall", Body: `{"nodeId": "openai-chat"}`,
		Answer: `{"ok": true}`}

	exDeploymentList = Example{Path: "/api/deployments?limit=1",
		Answer: `{"data": [{"id": "` + exDeployment + `", "workflowId": "` + exWorkflow + `", "projectId": "` + exProject + `", "versionId": "` + exVersion + `", "connectionId": "` + exConnection + `", "status": "active", "url": "https://ef-wf-9k3m7x2c5v8b1n4q6wze.shop.workers.dev", "scriptName": "ef-wf-9k3m7x2c5v8b1n4q6wze", "workflowName": "ef-wf-9k3m7x2c5v8b1n4q6wze", "createdBy": "` + exUser + `", "createdAt": "2026-11-27T06:40:12.123456Z", "state": "active", "inFlight": 0, "versionNumber": 3}], "nextCursor": "` + exCursor + `"}`}
	exWorkflowDeploymentList = Example{Path: "/api/workflows/" + exWorkflow + "/deployments",
		Answer: `{"data": [{"id": "` + exDeployment + `", "workflowId": "` + exWorkflow + `", "projectId": "` + exProject + `", "versionId": "` + exVersion + `", "connectionId": "` + exConnection + `", "status": "active", "url": "https://ef-wf-9k3m7x2c5v8b1n4q6wze.shop.workers.dev", "scriptName": "ef-wf-9k3m7x2c5v8b1n4q6wze", "workflowName": "ef-wf-9k3m7x2c5v8b1n4q6wze", "createdBy": "` + exUser + `", "createdAt": "2026-11-27T06:40:12.123456Z", "state": "active", "inFlight": 0, "versionNumber": 3}], "nextCursor": null}`}
	exDeployPlan = Example{Path: "/api/workflows/" + exWorkflow + "/deploy-plan?connectionId=" + exConnection,
		Answer: `{"workflowId": "` + exWorkflow + `", "connectionId": "` + exConnection + `", "versionId": "` + exVersion + `", "number": 3, "activeVersionId": "ver_2b8d5f1h4k7m9p3r6twq", "inFlight": {"total": 1, "byVersion": [{"versionId": "ver_2b8d5f1h4k7m9p3r6twq", "number": 2, "count": 1}]}, "changes": [{"kind": "renamed", "nodeId": "fetch", "step": "Fetch order", "detail": "renamed from \"Fetch\" to \"Fetch order\""}], "compatible": false, "reasons": ["run run_5c7e9g2j4l6n8q1s3uwx has passed step \"Fetch\", which the new version renames: on resuming it would run again or its cached result land on another step"]}`}
	exRunList = Example{Path: "/api/runs?status=complete&limit=1",
		Answer: `{"data": [{"id": "` + exRun + `", "workflowId": "` + exWorkflow + `", "projectId": "` + exProject + `", "versionId": "` + exVersion + `", "connectionId": "` + exConnection + `", "deploymentId": "` + exDeployment + `", "instanceId": "` + exRun + `", "status": "complete", "params": {"orderId": "A-1001"}, "output": {"sent": true, "total": 42}, "createdAt": "2026-11-27T06:40:12.123456Z", "startedAt": "2026-11-27T06:40:12.123456Z", "endedAt": "2026-11-27T06:41:30.654321Z", "updatedAt": "2026-11-27T06:41:30.654321Z"}], "nextCursor": "` + exCursor + `"}`}
	exRunUsage = Example{Path: "/api/runs/usage?from=2026-11-01T00:00:00Z",
		Answer: `{"inputTokens": 15230, "outputTokens": 3120, "runs": 41, "workflows": [{"workflowId": "` + exWorkflow + `", "workflowName": "Support triage", "inputTokens": 15230, "outputTokens": 3120, "runs": 41}], "partial": false}`}
	exWorkflowRunList = Example{Path: "/api/workflows/" + exWorkflow + "/runs?limit=1",
		Answer: `{"data": [{"id": "` + exRun + `", "workflowId": "` + exWorkflow + `", "projectId": "` + exProject + `", "versionId": "` + exVersion + `", "connectionId": "` + exConnection + `", "deploymentId": "` + exDeployment + `", "instanceId": "` + exRun + `", "status": "complete", "params": {"orderId": "A-1001"}, "output": {"sent": true, "total": 42}, "createdAt": "2026-11-27T06:40:12.123456Z", "startedAt": "2026-11-27T06:40:12.123456Z", "endedAt": "2026-11-27T06:41:30.654321Z", "updatedAt": "2026-11-27T06:41:30.654321Z"}], "nextCursor": "` + exCursor + `"}`}

	exDeploy = Example{Path: "/api/workflows/" + exWorkflow + "/deploy", Body: `{"connectionId": "` + exConnection + `"}`,
		Answer: `{"id": "` + exDeployment + `", "workflowId": "` + exWorkflow + `", "projectId": "` + exProject + `", "versionId": "` + exVersion + `", "connectionId": "` + exConnection + `", "status": "active", "url": "https://ef-wf-9k3m7x2c5v8b1n4q6wze.shop.workers.dev", "scriptName": "ef-wf-9k3m7x2c5v8b1n4q6wze", "workflowName": "ef-wf-9k3m7x2c5v8b1n4q6wze", "createdBy": "` + exUser + `", "createdAt": "2026-11-27T06:40:12.123456Z", "success": true, "deploymentId": "` + exDeployment + `"}`}
	exDeployStream = Example{Path: "/api/workflows/" + exWorkflow + "/deploy-stream", Body: `{"connectionId": "` + exConnection + `", "versionId": "` + exVersion + `"}`,
		Answer: `event: plan
id: 0
data: {"workflowId":"` + exWorkflow + `","connectionId":"` + exConnection + `","versionId":"` + exVersion + `","number":3,"activeVersionId":"` + exVersion + `","inFlight":{"total":0,"byVersion":[]},"changes":[],"compatible":true,"reasons":[]}

event: progress
id: 1
data: {"stage":"INITIALIZING","message":"Checking the connection's credentials","progress":5}

event: progress
id: 2
data: {"stage":"GENERATING_CODE","message":"Generating and bundling the code of version 3","progress":15}

…

event: progress
id: 10
data: {"stage":"COMPLETED","message":"Deployment complete","progress":100}

event: result
id: 11
data: {"id":"` + exDeployment + `","workflowId":"` + exWorkflow + `","projectId":"` + exProject + `","versionId":"` + exVersion + `","connectionId":"` + exConnection + `","status":"active","url":"https://ef-wf-9k3m7x2c5v8b1n4q6wze.shop.workers.dev","scriptName":"ef-wf-9k3m7x2c5v8b1n4q6wze","workflowName":"ef-wf-9k3m7x2c5v8b1n4q6wze","createdBy":"` + exUser + `","createdAt":"2026-11-27T06:40:12.123456Z","success":true,"deploymentId":"` + exDeployment + `"}`, Partial: true}
	exRollback = Example{Path: "/api/workflows/" + exWorkflow + "/rollback", Body: `{"connectionId": "` + exConnection + `"}`,
		Answer: `{"id": "` + exDeployment + `", "workflowId": "` + exWorkflow + `", "projectId": "` + exProject + `", "versionId": "` + exVersion + `", "connectionId": "` + exConnection + `", "status": "active", "url": "https://ef-wf-9k3m7x2c5v8b1n4q6wze.shop.workers.dev", "scriptName": "ef-wf-9k3m7x2c5v8b1n4q6wze", "workflowName": "ef-wf-9k3m7x2c5v8b1n4q6wze", "createdBy": "` + exUser + `", "createdAt": "2026-11-27T06:40:12.123456Z", "success": true, "deploymentId": "` + exDeployment + `"}`}
	exTakedown = Example{Path: "/api/workflows/" + exWorkflow + "/takedown", Body: `{"connectionId": "` + exConnection + `"}`,
		Answer: `{"id": "` + exDeployment + `", "workflowId": "` + exWorkflow + `", "projectId": "` + exProject + `", "versionId": "` + exVersion + `", "connectionId": "` + exConnection + `", "status": "removed", "url": "https://ef-wf-9k3m7x2c5v8b1n4q6wze.shop.workers.dev", "scriptName": "ef-wf-9k3m7x2c5v8b1n4q6wze", "workflowName": "ef-wf-9k3m7x2c5v8b1n4q6wze", "createdBy": "` + exUser + `", "createdAt": "2026-11-27T06:40:12.123456Z", "removedAt": "2026-11-27T06:41:30.654321Z", "success": true, "deploymentId": "` + exDeployment + `"}`}
	exTrigger = Example{Path: "/api/workflows/" + exWorkflow + "/trigger", Body: `{"connectionId": "` + exConnection + `", "params": {"orderId": "A-1001"}}`,
		Answer: `{"id": "` + exRun + `", "instanceId": "` + exRun + `", "status": "queued"}`}
	exTriggerBatch = Example{Path: "/api/workflows/" + exWorkflow + "/trigger/batch", Body: `{"connectionId": "` + exConnection + `", "runs": [{"params": {"orderId": "A-1001"}}, {"params": "A-1002"}, {"params": {"orderId": "A-1003"}, "id": "order-A-1003"}]}`,
		Answer: `{"created": [{"index": 0, "id": "` + exRun + `", "instanceId": "` + exRun + `"}, {"index": 2, "id": "run_2b7n5c8x1z4v6m9q3wke", "instanceId": "order-A-1003"}], "errors": [{"index": 1, "code": "validation_failed", "message": "/runs/1/params: params must be a JSON object"}]}`, Partial: true}
	exEstimate = Example{Path: "/api/workflows/" + exWorkflow + "/estimate?runsPerMonth=1000000",
		Answer: `{"versionId": "` + exVersion + `", "plan": "paid", "runsPerMonth": 1000000, "stepsPerRun": {"min": 2, "max": 2}, "billedStepsPerRun": {"min": 2, "max": 2}, "monthly": {"steps": 2000000, "included": 500000, "billable": 1500000, "usd": 12}, "pricing": {"date": "2026-07-07", "source": "Cloudflare Workflows pricing …"}, "warnings": []}`, Partial: true}
	exInvoke = Example{Path: "/api/workflows/" + exWorkflow + "/invoke", Body: `{"connectionId": "` + exConnection + `", "method": "POST", "path": "/", "body": {"a": 2, "b": 3}}`,
		Answer: `{"status": 200, "headers": {"content-type": "application/json"}, "body": "{\"sum\":5}", "bodyTruncated": false, "durationMs": 12}`, Partial: true}
	exSignedTrigger = Example{Path: "/api/workflows/" + exWorkflow + "/signed-trigger?connectionId=" + exConnection,
		Answer: `{"id": "` + exRun + `", "instanceId": "sig_3f9a0c1d2e4b5a6978877665544332211000ffee", "status": "queued"}`}
	exTriggerSecret = Example{Path: "/api/workflows/" + exWorkflow + "/trigger-secret?connectionId=" + exConnection,
		Answer: `{"url": "https://ef-wf-9k3m7x2c5v8b1n4q6wze.shop.workers.dev", "secret": "whsec_…", "timestampHeader": "X-Edgeflow-Timestamp", "signatureHeader": "X-Edgeflow-Signature", "signature": "…", "windowSeconds": 300, "viaEdgeflow": false}`}
	exRunGet = Example{Path: "/api/workflows/" + exWorkflow + "/runs/" + exRun,
		Answer: `{"id": "` + exRun + `", "workflowId": "` + exWorkflow + `", "projectId": "` + exProject + `", "versionId": "` + exVersion + `", "connectionId": "` + exConnection + `", "deploymentId": "` + exDeployment + `", "instanceId": "` + exRun + `", "status": "complete", "params": {"orderId": "A-1001"}, "output": {"sent": true, "total": 42}, "steps": [{"nodeId": "load", "name": "Load order", "type": "step", "state": "complete", "attempts": 1, "startedAt": "2026-11-27T06:40:12.2Z", "endedAt": "2026-11-27T06:40:12.3Z", "output": {"id": "A-1001", "total": 42}, "outputTruncated": false, "error": null}, {"nodeId": "confirm", "name": "Confirm", "type": "step", "state": "complete", "attempts": 1, "startedAt": "2026-11-27T06:40:12.3Z", "endedAt": "2026-11-27T06:40:12.4Z", "output": {"sent": true, "total": 42}, "outputTruncated": false, "error": null}], "createdAt": "2026-11-27T06:40:12.123456Z", "startedAt": "2026-11-27T06:40:12.123456Z", "endedAt": "2026-11-27T06:41:30.654321Z", "updatedAt": "2026-11-27T06:41:30.654321Z"}`}
	exRunLogs = Example{Path: "/api/workflows/" + exWorkflow + "/runs/" + exRun + "/logs",
		Answer: `{"data": [{"timestamp": "2026-11-27T06:40:12.201Z", "level": "log", "message": "loading order A-1001"}, {"timestamp": "2026-11-27T06:40:12.350Z", "level": "error", "message": "TypeError: total is not a number"}], "dropped": 0, "available": true, "status": "errored", "final": true}`}
	exRunStepOutput = Example{Path: "/api/workflows/" + exWorkflow + "/runs/" + exRun + "/steps/load/output?attempt=1",
		Answer: `{"runId": "` + exRun + `", "nodeId": "load", "name": "load", "attempt": 1, "state": "complete", "output": {"id": "A-1001", "total": 42}, "source": "provider"}`}
	exRunWorkerLogs = Example{Path: "/api/workflows/" + exWorkflow + "/runs/" + exRun + "/worker-logs?before=30s&after=30s",
		Answer: `{"data": [{"timestamp": "2026-11-27T06:40:12.100Z", "level": "log", "message": "POST / from the public trigger", "instanceId": ""}, {"timestamp": "2026-11-27T06:40:12.201Z", "level": "log", "message": "loading order A-1001", "instanceId": "` + exRun + `"}], "from": "2026-11-27T06:39:42.123456Z", "to": "2026-11-27T06:42:00.654321Z", "dropped": 0}`}
	exProjectRunGet = Example{Path: "/api/runs/" + exRun,
		Answer: `{"id": "` + exRun + `", "workflowId": "` + exWorkflow + `", "projectId": "` + exProject + `", "versionId": "` + exVersion + `", "connectionId": "` + exConnection + `", "deploymentId": "` + exDeployment + `", "instanceId": "` + exRun + `", "status": "complete", "params": {"orderId": "A-1001"}, "output": {"sent": true, "total": 42}, "deletedWorkflow": {"name": "Orders", "deletedAt": "2026-11-27T09:12:44.5Z"}, "createdAt": "2026-11-27T06:40:12.123456Z", "startedAt": "2026-11-27T06:40:12.123456Z", "endedAt": "2026-11-27T06:41:30.654321Z", "updatedAt": "2026-11-27T06:41:30.654321Z"}`, Partial: true}
	exRunPause = Example{Path: "/api/workflows/" + exWorkflow + "/runs/" + exRun + "/pause",
		Answer: `{"id": "` + exRun + `", "workflowId": "` + exWorkflow + `", "projectId": "` + exProject + `", "versionId": "` + exVersion + `", "connectionId": "` + exConnection + `", "deploymentId": "` + exDeployment + `", "instanceId": "` + exRun + `", "status": "paused", "statusDetail": "paused", "params": {"orderId": "A-1001"}, "steps": [{"nodeId": "load", "name": "Load order", "type": "step", "state": "running", "attempts": 1, "startedAt": "2026-11-27T06:40:12.2Z", "endedAt": null, "output": null, "outputTruncated": false, "error": null}], "createdAt": "2026-11-27T06:40:12.123456Z", "startedAt": "2026-11-27T06:40:12.123456Z", "endedAt": null, "updatedAt": "2026-11-27T06:41:30.654321Z"}`, Partial: true}
	exRunResume = Example{Path: "/api/workflows/" + exWorkflow + "/runs/" + exRun + "/resume",
		Answer: `{"id": "` + exRun + `", "workflowId": "` + exWorkflow + `", "projectId": "` + exProject + `", "versionId": "` + exVersion + `", "connectionId": "` + exConnection + `", "deploymentId": "` + exDeployment + `", "instanceId": "` + exRun + `", "status": "running", "params": {"orderId": "A-1001"}, "steps": [{"nodeId": "load", "name": "Load order", "type": "step", "state": "running", "attempts": 1, "startedAt": "2026-11-27T06:40:12.2Z", "endedAt": null, "output": null, "outputTruncated": false, "error": null}], "createdAt": "2026-11-27T06:40:12.123456Z", "startedAt": "2026-11-27T06:40:12.123456Z", "endedAt": null, "updatedAt": "2026-11-27T06:41:30.654321Z"}`, Partial: true}
	exRunTerminate = Example{Path: "/api/workflows/" + exWorkflow + "/runs/" + exRun + "/terminate",
		Answer: `{"id": "` + exRun + `", "workflowId": "` + exWorkflow + `", "projectId": "` + exProject + `", "versionId": "` + exVersion + `", "connectionId": "` + exConnection + `", "deploymentId": "` + exDeployment + `", "instanceId": "` + exRun + `", "status": "terminated", "params": {"orderId": "A-1001"}, "steps": [{"nodeId": "load", "name": "Load order", "type": "step", "state": "terminated", "attempts": 1, "startedAt": "2026-11-27T06:40:12.2Z", "endedAt": null, "output": null, "outputTruncated": false, "error": null}], "createdAt": "2026-11-27T06:40:12.123456Z", "startedAt": "2026-11-27T06:40:12.123456Z", "endedAt": "2026-11-27T06:41:30.654321Z", "updatedAt": "2026-11-27T06:41:30.654321Z"}`, Partial: true}
	exRunRestart = Example{Path: "/api/workflows/" + exWorkflow + "/runs/" + exRun + "/restart", Body: `{"fromStep": "confirm", "version": "same"}`,
		Answer: `{"id": "run_7c2x9v4b1n8m5q3w6e0rtz", "workflowId": "` + exWorkflow + `", "projectId": "` + exProject + `", "versionId": "` + exVersion + `", "connectionId": "` + exConnection + `", "deploymentId": "` + exDeployment + `", "instanceId": "run_7c2x9v4b1n8m5q3w6e0rtz", "status": "queued", "params": {"orderId": "A-1001"}, "steps": [{"nodeId": "load", "name": "Load order", "type": "step", "state": "replayed", "attempts": 1, "startedAt": "2026-11-27T06:40:12.2Z", "endedAt": "2026-11-27T06:40:12.3Z", "output": {"id": "A-1001", "total": 42}, "outputTruncated": false, "error": null}], "restartOf": "` + exRun + `", "fromStep": "confirm", "createdAt": "2026-11-27T06:45:02.123456Z", "startedAt": null, "endedAt": null, "updatedAt": "2026-11-27T06:45:02.123456Z"}`, Partial: true}
	exKVNamespaces = Example{Path: "/api/resources/kv/namespaces?connectionId=" + exConnection,
		Answer: `{"data": [{"id": "` + exNamespace + `", "title": "orders"}], "nextCursor": null}`}
	exKVKeys = Example{Path: "/api/resources/kv/namespaces/" + exNamespace + "/keys?connectionId=" + exConnection + "&prefix=order:&limit=2",
		Answer: `{"data": [{"name": "order:A-1001"}, {"name": "order:A-1002", "expiration": 1798761600}], "nextCursor": "` + exCursor + `"}`}
	exKVValue = Example{Path: "/api/resources/kv/namespaces/" + exNamespace + "/values/order:A-1001?connectionId=" + exConnection,
		Answer: `{"key": "order:A-1001", "value": "{\"total\":42}", "encoding": "utf-8", "size": 12}`}
	exD1Databases = Example{Path: "/api/resources/d1/databases?connectionId=" + exConnection,
		Answer: `{"data": [{"id": "` + exDatabase + `", "name": "shop", "createdAt": "2026-11-27T06:40:12.123456Z", "numTables": 3, "fileSize": 65536}], "nextCursor": null}`}
	exD1Query = Example{Path: "/api/resources/d1/databases/" + exDatabase + "/query?connectionId=" + exConnection,
		Body:   `{"connectionId": "` + exConnection + `", "sql": "SELECT id, total FROM orders WHERE id = ?", "params": ["A-1001"]}`,
		Answer: `{"columns": ["id", "total"], "rows": [["A-1001", 42]], "meta": {"duration": 0.21, "changes": 0, "lastRowId": 0, "rowsRead": 1, "rowsWritten": 0}}`}
	exR2Buckets = Example{Path: "/api/resources/r2/buckets?connectionId=" + exConnection,
		Answer: `{"data": [{"name": "invoices", "createdAt": "2026-11-27T06:40:12.123456Z"}], "nextCursor": null}`}
	exR2Objects = Example{Path: "/api/resources/r2/buckets/invoices/objects?connectionId=" + exConnection + "&prefix=2026/&delimiter=/&limit=2",
		Answer: `{"data": [{"key": "2026/A-1001.pdf", "size": 8, "etag": "9b2cf535f27731c974343645a3985328", "lastModified": "2026-11-27T06:40:12.123456Z", "contentType": "application/pdf"}], "delimitedPrefixes": [], "nextCursor": null}`, Partial: true}
	exR2Object = Example{Path: "/api/resources/r2/buckets/invoices/objects/2026/A-1001.pdf?connectionId=" + exConnection,
		Answer: "%PDF-1.7"}
	exVerifyToken = Example{Path: "/api/connections/verify-token", Body: `{"provider": "cloudflare", "credentials": {"apiToken": "` + exCFToken + `"}}`,
		Answer: `{"valid": true, "accounts": [{"id": "` + exAccount + `", "name": "Shop"}]}`}

	exConnectionList = Example{Path: "/api/connections?limit=1",
		Answer: `{"data": [{"id": "` + exConnection + `", "organizationId": "` + exOrg + `", "scope": "organization", "provider": "cloudflare", "name": "Production", "accountId": "…5b6c", "credentials": {"accountId": "…5b6c", "apiToken": "***"}, "plan": "paid", "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z"}], "nextCursor": "` + exCursor + `"}`}
	exConnectionCreate = Example{Path: "/api/connections",
		Body:   `{"provider": "cloudflare", "name": "Production", "credentials": {"apiToken": "` + exCFToken + `", "accountId": "` + exAccount + `"}}`,
		Answer: `{"id": "` + exConnection + `", "organizationId": "` + exOrg + `", "projectId": "` + exProject + `", "scope": "project", "provider": "cloudflare", "name": "Production", "accountId": "…5b6c", "credentials": {"accountId": "…5b6c", "apiToken": "***"}, "plan": "paid", "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z"}`}
	exConnectionUpdate = Example{Path: "/api/connections/" + exConnection, Body: `{"name": "Production (EU)", "plan": "paid", "limits": {"steps": 20000}}`,
		Answer: `{"id": "` + exConnection + `", "organizationId": "` + exOrg + `", "projectId": "` + exProject + `", "scope": "project", "provider": "cloudflare", "name": "Production (EU)", "accountId": "…5b6c", "credentials": {"accountId": "…5b6c", "apiToken": "***"}, "plan": "paid", "limits": {"steps": 20000}, "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:41:30.654321Z"}`}
	exConnectionDelete = Example{Path: "/api/connections/" + exConnection}

	exEnvVarList = Example{Path: "/api/env-vars",
		Answer: `{"data": [{"id": "env_2q7w4e9r1t6y3u8i5opz", "organizationId": "` + exOrg + `", "name": "API_TOKEN", "value": "***", "isSecret": true, "scope": "organization", "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z"}, {"id": "` + exEnvVar + `", "organizationId": "` + exOrg + `", "projectId": "` + exProject + `", "name": "REGION", "value": "eu", "isSecret": false, "scope": "project", "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z"}], "nextCursor": null}`}
	exEnvVarUsage = Example{Path: "/api/env-vars/usage?limit=1",
		Answer: `{"data": [{"workflowId": "` + exWorkflow + `", "workflowName": "Order sync", "kind": "workflow", "uses": [{"name": "API_TOKEN", "via": "declared", "as": "TOKEN"}, {"name": "REGION", "via": "reference"}]}], "nextCursor": null}`}
	exEnvVarCreate = Example{Path: "/api/env-vars",
		Body:   `{"name": "SLACK_WEBHOOK_URL", "value": "https://hooks.slack.com/services/T000/B000/XXXX", "isSecret": true, "scope": "project"}`,
		Answer: `{"id": "env_9o4i7u2y5t8r1e6w3qxc", "organizationId": "` + exOrg + `", "projectId": "` + exProject + `", "name": "SLACK_WEBHOOK_URL", "value": "***", "isSecret": true, "scope": "project", "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z"}`}
	exEnvVarUpdate = Example{Path: "/api/env-vars/" + exEnvVar, Body: `{"value": "us"}`,
		Answer: `{"id": "` + exEnvVar + `", "organizationId": "` + exOrg + `", "projectId": "` + exProject + `", "name": "REGION", "value": "us", "isSecret": false, "scope": "project", "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:41:30.654321Z"}`}
	exEnvVarDelete = Example{Path: "/api/env-vars/" + exEnvVar}

	exAPIKeyList = Example{Path: "/api/api-keys?limit=1",
		Answer: `{"data": [{"id": "` + exAPIKey + `", "organizationId": "` + exOrg + `", "projectId": "` + exProject + `", "userId": "` + exUser + `", "name": "CI deploys", "prefix": "ask_xRhS", "scopes": ["read", "deploy"], "expiresAt": "2027-06-30T00:00:00Z", "lastUsedAt": null, "revokedAt": null, "createdAt": "2026-11-27T06:40:12.123456Z", "scope": "project"}], "nextCursor": "` + exCursor + `"}`}
	exAPIKeyCreate = Example{Path: "/api/api-keys",
		Body:   `{"name": "CI deploys", "projectId": "` + exProject + `", "scopes": ["read", "deploy"], "expiresAt": "2027-06-30T00:00:00Z"}`,
		Answer: `{"id": "key_3e8r5t2y9u6i1o4p7asx", "organizationId": "` + exOrg + `", "projectId": "` + exProject + `", "userId": "` + exUser + `", "name": "CI deploys", "prefix": "ask_xRhS", "scopes": ["read", "deploy"], "expiresAt": "2027-06-30T00:00:00Z", "lastUsedAt": null, "revokedAt": null, "createdAt": "2026-11-27T06:40:12.123456Z", "scope": "project", "key": "ask_xRhSG35W7tL5zYyAj_Brnkvqp1S4toFXeMEMk6mV0E4"}`}
	exAPIKeyRevoke = Example{Path: "/api/api-keys/" + exAPIKey}

	exRunStream = Example{Path: "/api/runs/stream?after=0&timeoutSeconds=1",
		Answer: `event: run
id: xi4VP53UYoisI8xrNhDeGg
data: {"id":"` + exRun + `","workflowId":"` + exWorkflow + `","projectId":"` + exProject + `","status":"queued","updatedAt":"2026-11-27T06:40:12.123456Z"}

event: run
id: c4DzkhTLiRUbPsotFf0x1w
data: {"id":"` + exRun + `","workflowId":"` + exWorkflow + `","projectId":"` + exProject + `","status":"complete","updatedAt":"2026-11-27T06:41:30.654321Z"}`}

	exWebhookList = Example{Path: "/api/webhooks?limit=1",
		Answer: `{"data": [{"id": "` + exWebhook + `", "organizationId": "` + exOrg + `", "projectId": "` + exProject + `", "url": "https://93.184.215.14/edgeflow", "events": ["run.completed", "run.errored"], "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z"}], "nextCursor": null}`}
	exWebhookCreate = Example{Path: "/api/webhooks", Body: `{"url": "https://93.184.215.14/edgeflow", "events": ["run.completed", "run.errored"]}`,
		Answer: `{"id": "` + exWebhook + `", "organizationId": "` + exOrg + `", "projectId": "` + exProject + `", "url": "https://93.184.215.14/edgeflow", "events": ["run.completed", "run.errored"], "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z", "secret": "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD"}`}
	exWebhookGet = Example{Path: "/api/webhooks/" + exWebhook,
		Answer: `{"id": "` + exWebhook + `", "organizationId": "` + exOrg + `", "projectId": "` + exProject + `", "url": "https://93.184.215.14/edgeflow", "events": ["run.completed", "run.errored"], "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z"}`}
	exWebhookUpdate = Example{Path: "/api/webhooks/" + exWebhook, Body: `{"events": ["run.completed", "run.errored", "deploy.failed"]}`,
		Answer: `{"id": "` + exWebhook + `", "organizationId": "` + exOrg + `", "projectId": "` + exProject + `", "url": "https://93.184.215.14/edgeflow", "events": ["run.completed", "run.errored", "deploy.failed"], "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z"}`}
	exWebhookDelete = Example{Path: "/api/webhooks/" + exWebhook}
	exWebhookRotate = Example{Path: "/api/webhooks/" + exWebhook + "/rotate-secret",
		Answer: `{"id": "` + exWebhook + `", "organizationId": "` + exOrg + `", "projectId": "` + exProject + `", "url": "https://93.184.215.14/edgeflow", "events": ["run.completed", "run.errored"], "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:12.123456Z", "secret": "whsec_Qm9uZCBzZWNyZXQgZm9yIHRoZSBleGFt"}`}
	exWebhookDeliveries = Example{Path: "/api/webhooks/" + exWebhook + "/deliveries?limit=1",
		Answer: `{"data": [{"id": "` + exDelivery + `", "webhookId": "` + exWebhook + `", "projectId": "` + exProject + `", "messageId": "` + exMessage + `", "eventType": "deploy.completed", "payload": {"type": "deploy.completed", "timestamp": "2026-11-27T06:40:12.123456Z", "data": {"deploymentId": "` + exDeployment + `", "workflowId": "` + exWorkflow + `", "projectId": "` + exProject + `", "versionId": "` + exVersion + `", "connectionId": "` + exConnection + `", "url": "https://ef-wf-9k3m7x2c5v8b1n4q6wze.shop.workers.dev"}}, "status": "delivered", "responseStatus": 204, "attempts": [{"at": "2026-11-27T06:40:12.123456Z", "responseStatus": 503, "error": "the endpoint answered 503", "responseBody": "busy", "durationMs": 41}, {"at": "2026-11-27T06:40:17.123456Z", "responseStatus": 204, "durationMs": 12}], "nextAttemptAt": null, "createdAt": "2026-11-27T06:40:12.123456Z", "updatedAt": "2026-11-27T06:40:17.135001Z"}], "nextCursor": null}`}
	exWebhookRedeliver = Example{Path: "/api/webhooks/" + exWebhook + "/deliveries/" + exDelivery + "/redeliver",
		Answer: `{"id": "` + exDelivery + `", "webhookId": "` + exWebhook + `", "projectId": "` + exProject + `", "messageId": "` + exMessage + `", "eventType": "deploy.completed", "payload": {"type": "deploy.completed", "timestamp": "2026-11-27T06:40:12.123456Z", "data": {"deploymentId": "` + exDeployment + `", "workflowId": "` + exWorkflow + `", "projectId": "` + exProject + `", "versionId": "` + exVersion + `", "connectionId": "` + exConnection + `", "url": "https://ef-wf-9k3m7x2c5v8b1n4q6wze.shop.workers.dev"}}, "status": "pending", "responseStatus": 0, "attempts": [], "nextAttemptAt": "2026-11-27T07:02:00.000001Z", "redeliveryOf": "` + exDelivery + `", "createdAt": "2026-11-27T07:02:00.000001Z", "updatedAt": "2026-11-27T07:02:00.000001Z"}`}
)
