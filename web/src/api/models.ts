// The records of the public API that Studio shows, by name. Every type here comes from the OpenAPI document of the
// route table (schema.gen.ts, written by `make apidoc`), so that a field the server renames or drops fails Studio's
// type check; nothing here is written by hand except names for parts of those types and the few values Studio needs
// at run time (lists of enum values), which are checked against the generated types.
import type { components } from "./schema.gen";

type Schemas = components["schemas"];

// Accounts, organizations and projects.
export type SignedIn = Schemas["SignedIn"];
export type User = Schemas["User"];
export type OrganizationMembership = Schemas["OrganizationMembership"];
export type Project = Schemas["Project"];
export type Role = Schemas["Role"];
export type Member = Schemas["Member"];
export type Invitation = Schemas["Invitation"];
export type InvitationCreated = Schemas["InvitationCreated"];
export type APIKey = Schemas["APIKey"];
export type APIKeyCreated = Schemas["APIKeyCreated"];
export type Scope = Schemas["Scope"];
export type AuditEntry = Schemas["AuditEntry"];
// How an assistant reaches the MCP server (GET /api/mcp/connect).
export type MCPConnect = Schemas["MCPConnect"];
export type MCPClientConfig = Schemas["MCPClientConfig"];

// Workflows, versions and deployments.
export type Workflow = Schemas["Workflow"];
export type WorkflowKind = Workflow["kind"];
export type WorkflowEnvVar = Schemas["WorkflowEnvVar"];
export type WorkflowFull = Schemas["WorkflowFull"];
// ImportResult is an import's answer: the IR, the report of what became of each source node and, with ?create=true,
// the workflow and version created.
export type ImportResult = Schemas["ImportResult"];
// Version is a version as the versions routes answer it (with its node types); VersionDetail one read by its id,
// with its IR and code; StoredVersion a version in a workflow's full record.
export type Version = Schemas["Version"];
export type VersionDetail = Schemas["VersionDetail"];
export type StoredVersion = Schemas["StoredVersion"];
export type Deployment = Schemas["Deployment"];
export type DeployPlan = Schemas["DeployPlan"];
export type Environment = Schemas["Environment"];
export type DeployProgress = Schemas["DeployProgress"];
export type DeployResult = Schemas["DeployResult"];
export type InvokeResult = Schemas["InvokeResult"];
export type IRProblem = Schemas["IRProblem"];

// Runs and their logs.
export type Run = Schemas["Run"];
export type RunStatus = Run["status"];
export type RunStep = Schemas["RunStep"];
export type RunStepState = RunStep["state"];
export type RunEvent = Schemas["RunEvent"];
export type LogLine = Schemas["LogLine"];

// Connections, environment variables and webhooks.
export type Connection = Schemas["Connection"];
export type VerifyResult = Schemas["VerifyResult"];
export type EnvVar = Schemas["EnvVar"];
export type EnvVarUsage = Schemas["EnvVarUsage"];
export type Webhook = Schemas["Webhook"];
export type WebhookWithSecret = Schemas["WebhookWithSecret"];
export type WebhookEventType = Webhook["events"][number];
export type WebhookDelivery = Schemas["WebhookDelivery"];

// Events sent by type to the project's waiting runs.
export type SentEvent = Schemas["SentEvent"];

// The resources of a connection's account.
export type KVNamespace = Schemas["KVNamespace"];
export type KVKey = Schemas["KVKey"];
export type KVValue = Schemas["KVValue"];
export type D1Database = Schemas["D1Database"];
export type D1Result = Schemas["D1Result"];
export type R2Bucket = Schemas["R2Bucket"];
export type R2Object = Schemas["R2Object"];
export type R2ObjectList = Schemas["R2ObjectList"];

// The marketplace and node definitions.
export type CatalogNode = Schemas["CatalogNode"];
export type CatalogVersion = Schemas["CatalogVersion"];
export type CategoryCount = Schemas["CategoryCount"];
export type MarketplaceNode = Schemas["MarketplaceNode"];
export type Installation = Schemas["Installation"];
export type InstallationDetails = Schemas["InstallationDetails"];
export type WorkflowRef = Schemas["WorkflowRef"];
export type NodeDefinition = Schemas["NodeDefinition"];

// isFinalRun reports whether a run can no longer change.
export function isFinalRun(status: RunStatus): boolean {
  return status === "complete" || status === "errored" || status === "terminated";
}

// everyValue checks a list of a union's values at compile time: a value the union lacks, or one of the union's values
// left out, fails the type check (the generated enums change with the server).
function everyValue<T extends string>() {
  type Missing<L extends readonly T[]> = Exclude<T, L[number]>;
  return <const L extends readonly T[]>(list: L & ([Missing<L>] extends [never] ? unknown : { missing: Missing<L> })) =>
    list;
}

// The event types a webhook can subscribe to (docs/runs.md, "Webhooks"), in the order Studio offers them.
export const webhookEventTypes = everyValue<WebhookEventType>()([
  "run.started",
  "run.completed",
  "run.errored",
  "run.waiting",
  "run.terminated",
  "run.stuck",
  "run.rolled_back",
  "deploy.completed",
  "deploy.failed",
]);

// The secret mask the API answers for secret values; sent back, it keeps the stored value.
export const secretMask = "***";

// Test runs of the editor's IR and pinned outputs.
export type TestResult = Schemas["TestResult"];
export type PinnedOutputs = Schemas["PinnedOutputs"];
