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

export interface RunAttempt {
  start?: string;
  end?: string | null;
  success?: boolean | null;
  error?: unknown;
}

export interface RunStep {
  type?: string;
  name: string;
  start?: string | null;
  end?: string | null;
  success?: boolean | null;
  output?: unknown;
  error?: unknown;
  attempts?: RunAttempt[];
  [key: string]: unknown;
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
  createdAt: string;
  startedAt?: string | null;
  endedAt?: string | null;
  updatedAt: string;
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
