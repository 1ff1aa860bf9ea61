// The records of the settings screens (connections, environment variables, API keys, the team, the audit log), as
// docs/api.md gives them.
import type { Connection } from "../../api/types";

export type { Connection };

export interface VerifyTokenAnswer {
  valid: boolean;
  accounts: { id: string; name: string }[];
}

export interface GlobalEnvVar {
  id: string;
  organizationId: string;
  projectId?: string | null;
  name: string;
  value: string;
  isSecret: boolean;
  scope: "organization" | "project";
  createdAt: string;
  updatedAt: string;
}

export type KeyScope = "read" | "write" | "deploy";

export interface ApiKey {
  id: string;
  organizationId: string;
  projectId: string | null;
  scope: "project" | "organization";
  userId: string;
  name: string;
  prefix: string;
  scopes: KeyScope[];
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  createdAt: string;
}

// The secret mask the API answers for secret values; sent back, it keeps the stored value.
export const secretMask = "***";

export type Role = "owner" | "admin" | "member" | "viewer";

export interface Member {
  userId: string;
  email: string;
  name: string;
  role: Role;
  createdAt: string;
}

export interface Invitation {
  id: string;
  organizationId: string;
  email: string;
  role: Role;
  invitedBy: string;
  status: "pending" | "accepted" | "revoked" | "expired";
  createdAt: string;
  expiresAt: string;
  acceptedAt: string | null;
  acceptedBy: string;
  revokedAt: string | null;
}

// EnvVarUse is one workflow of the active project with the global variables it reads (GET /api/env-vars/usage).
export interface EnvVarUse {
  workflowId: string;
  workflowName: string;
  kind: "workflow" | "script";
  uses: { name: string; via: "reference" | "declared"; as?: string }[];
}

// AuditEntry is one entry of the organization's audit log (GET /api/audit).
export interface AuditEntry {
  id: string;
  organizationId: string;
  projectId: string;
  actor: { type: "user" | "key"; id: string };
  action: string;
  target: { type: string; id: string };
  outcome: number;
  requestId: string;
  time: string;
}
