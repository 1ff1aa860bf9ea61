// The small pure helpers of the marketplace's screens (docs/marketplace.md); its records are in api/models.ts.
import type { ConfigField } from "../../ir/nodeDefs";

// The longest search the API takes (GET /api/marketplace ?q=).
export const maxQuery = 100;

export interface CatalogFilters {
  q: string;
  category: string;
}

// filtersFromSearch reads the catalog's filters from the page's query string (?q=…&category=…).
export function filtersFromSearch(search: string): CatalogFilters {
  const p = new URLSearchParams(search);
  return { q: p.get("q") ?? "", category: p.get("category") ?? "" };
}

// searchFromFilters is the query string of the catalog page and of its API request (without cursor and limit).
export function searchFromFilters(f: CatalogFilters): string {
  const p = new URLSearchParams();
  const q = f.q.trim().replace(/\s+/g, " ");
  if (q) p.set("q", q);
  if (f.category) p.set("category", f.category);
  return p.toString();
}

// queryProblem checks a search before it is sent, as the API would.
export function queryProblem(q: string): string | undefined {
  const n = [...q.trim()].length;
  if (n > maxQuery) return `Use at most ${maxQuery} characters (this search has ${n}).`;
  return undefined;
}

// compareVersions orders semantic versions (MAJOR.MINOR.PATCH with an optional pre-release), as the registry does.
export function compareVersions(a: string, b: string): number {
  const split = (v: string) => {
    const [core = "", pre] = v.split(/-(.*)/s, 2);
    return { nums: core.split(".").map((x) => Number(x)), pre };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < 3; i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  const xs = x.pre.split(".");
  const ys = y.pre.split(".");
  for (let i = 0; i < Math.max(xs.length, ys.length); i++) {
    const p = xs[i];
    const q = ys[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    if (p === q) continue;
    const pn = /^\d+$/.test(p);
    const qn = /^\d+$/.test(q);
    if (pn && qn) return Number(p) < Number(q) ? -1 : 1;
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return 0;
}

// changeVerb names moving an installed node from one version to another: Update to a newer one, Downgrade to an
// older one.
export function changeVerb(installed: string, target: string): "Update" | "Downgrade" {
  return compareVersions(target, installed) > 0 ? "Update" : "Downgrade";
}

export interface RequiredSecret {
  envVarName: string;
  label: string;
  description?: string;
  required: boolean;
}

// requiredSecrets lists the secret fields of a definition: the env vars a deploy must provide, by name. The API
// answers a marketplace node's definition as its node.json as published, any JSON to the OpenAPI document, so only
// an object's configSchema is read.
export function requiredSecrets(def: unknown): RequiredSecret[] {
  const out: RequiredSecret[] = [];
  const schema = isObject(def) ? def.configSchema : undefined;
  for (const f of Object.values(isObject(schema) ? (schema as Record<string, ConfigField>) : {})) {
    if (f.type !== "secret" || !f.envVarName) continue;
    out.push({ envVarName: f.envVarName, label: f.label, description: f.description, required: f.required === true });
  }
  return out.sort((a, b) => a.envVarName.localeCompare(b.envVarName));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

// isAdminRole: only owners and admins install, update and uninstall nodes (the API refuses everyone else).
export function isAdminRole(role: string | undefined): boolean {
  return role === "owner" || role === "admin";
}
