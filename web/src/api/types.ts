// The records of the public API that Studio shows (docs/api.md, "Endpoint reference").
import type { WorkflowIR } from "../ir/types";

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export interface User {
  id: string;
  email: string;
  name: string;
  createdAt: string;
}

export interface Organization {
  id: string;
  name: string;
  slug: string;
  role: string;
  createdAt: string;
}

export interface Session {
  user: User;
  organizations: Organization[];
  activeOrganizationId: string;
  activeProjectId: string;
  csrfToken: string;
  expiresAt: string;
}

export interface Project {
  id: string;
  organizationId: string;
  name: string;
  slug: string;
  description: string;
  createdAt: string;
  updatedAt: string;
}

export interface EnvVar {
  name: string;
  value: string;
  isSecret: boolean;
}

export interface DeployConfig {
  route?: { pattern: string; zoneName: string } | null;
  publicTrigger?: boolean | null;
}

export type WorkflowKind = "workflow" | "script";

export interface Workflow {
  id: string;
  organizationId: string;
  projectId: string;
  name: string;
  description: string;
  kind: WorkflowKind;
  envVars: EnvVar[];
  triggerCode: string;
  dependencies: Record<string, string>;
  deployConfig: DeployConfig | null;
  currentVersionId: string;
  activeVersionId: string;
  createdAt: string;
  updatedAt: string;
}

export interface VersionSummary {
  id: string;
  workflowId: string;
  version: number;
  locked: boolean;
  nodeTypes?: string[];
  createdBy: string;
  createdAt: string;
}

export interface Version extends VersionSummary {
  ir: WorkflowIR;
  code: string;
}

export interface Deployment {
  id: string;
  workflowId: string;
  projectId: string;
  versionId: string;
  connectionId: string;
  status: "active" | "replaced" | "removed";
  url: string;
  scriptName: string;
  workflowName?: string;
  createdBy: string;
  createdAt: string;
  removedAt?: string;
}

export interface WorkflowFull {
  workflow: Workflow;
  currentVersion: Version | null;
  versions: VersionSummary[];
  activeDeployment: Deployment | null;
}

export interface Connection {
  id: string;
  organizationId: string;
  projectId?: string;
  scope: "organization" | "project";
  provider: "cloudflare" | "local";
  name: string;
  accountId: string;
  createdAt: string;
  updatedAt: string;
}

export type RunStatus = "queued" | "running" | "paused" | "complete" | "errored" | "terminated";

// RunStep is one durable step of a run's detail (GET …/runs/:runId), in execution order (docs/runs.md).
export type RunStepState = "running" | "retrying" | "waiting" | "complete" | "errored" | "terminated" | "replayed";

export interface RunStep {
  nodeId: string;
  name: string;
  type: string;
  state: RunStepState;
  attempts: number;
  startedAt?: string | null;
  endedAt?: string | null;
  output?: unknown;
  outputTruncated?: boolean;
  error?: { name: string; message: string } | null;
}

export interface Run {
  id: string;
  workflowId: string;
  projectId: string;
  versionId: string;
  connectionId: string;
  deploymentId: string;
  instanceId: string;
  status: RunStatus;
  statusDetail?: string;
  params?: unknown;
  output?: unknown;
  error?: unknown;
  steps?: RunStep[];
  restartOf?: string;
  fromStep?: string;
  // set on a run kept after its workflow was deleted (DELETE /api/workflows/:id?runs=keep)
  deletedWorkflow?: { name: string; deletedAt: string };
  createdAt: string;
  startedAt?: string | null;
  endedAt?: string | null;
  updatedAt: string;
}

// RunChange is one event of GET /api/runs/stream: a run of the project changed state.
export interface RunChange {
  id: string;
  workflowId: string;
  status: RunStatus;
  updatedAt: string;
}

// LogLine is one line of GET …/runs/:runId/logs.
export interface LogLine {
  timestamp: string;
  level: string;
  message: string;
}

// isFinalRun reports whether a run can no longer change.
export function isFinalRun(status: RunStatus): boolean {
  return status === "complete" || status === "errored" || status === "terminated";
}

// The event types a webhook can subscribe to (docs/runs.md, "Webhooks").
export const webhookEventTypes = [
  "run.started",
  "run.completed",
  "run.errored",
  "run.waiting",
  "run.terminated",
  "run.stuck",
  "deploy.completed",
  "deploy.failed",
] as const;

export interface Webhook {
  id: string;
  organizationId: string;
  projectId: string;
  url: string;
  // Empty means every type.
  events: string[];
  createdAt: string;
  updatedAt: string;
}

// A webhook as created or after its secret was rotated: the secret is shown this once.
export interface WebhookWithSecret extends Webhook {
  secret: string;
}

export interface DeliveryAttempt {
  at: string;
  responseStatus: number;
  error?: string;
  responseBody?: string;
  durationMs: number;
}

export interface WebhookDelivery {
  id: string;
  webhookId: string;
  projectId: string;
  messageId: string;
  eventType: string;
  payload: unknown;
  status: "pending" | "delivered" | "failed";
  responseStatus: number;
  attempts: DeliveryAttempt[];
  nextAttemptAt: string | null;
  redeliveryOf?: string;
  createdAt: string;
  updatedAt: string;
}
