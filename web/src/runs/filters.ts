// The filters of the runs screen (/runs), kept in its URL so that a search is a link: workflowId, status,
// versionId, from, to (date-times in the browser's zone, sent as RFC 3339) and q.
import type { RunStatus } from "../api/models";

export const RUN_STATUSES: RunStatus[] = ["queued", "running", "paused", "complete", "errored", "terminated"];

export interface RunFilters {
  workflowId: string;
  status: string;
  versionId: string;
  from: string; // datetime-local value ("2026-11-27T06:40"), "" = unbounded
  to: string;
  q: string;
}

export const NO_FILTERS: RunFilters = { workflowId: "", status: "", versionId: "", from: "", to: "", q: "" };

const KEYS = ["workflowId", "status", "versionId", "from", "to", "q"] as const;

// filtersFromSearch reads the filters from a URL query string.
export function filtersFromSearch(search: string): RunFilters {
  const p = new URLSearchParams(search);
  const f = { ...NO_FILTERS };
  for (const k of KEYS) f[k] = p.get(k) ?? "";
  return f;
}

// searchFromFilters writes the set filters as a URL query string (without "?").
export function searchFromFilters(f: RunFilters): string {
  const p = new URLSearchParams();
  for (const k of KEYS) if (f[k].trim() !== "") p.set(k, f[k].trim());
  return p.toString();
}

// localToRfc3339 turns a datetime-local value into an RFC 3339 time; "" for an empty or unreadable value.
export function localToRfc3339(v: string): string {
  if (v.trim() === "") return "";
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? "" : d.toISOString();
}

// filterProblem names what is wrong with the filters before they are sent, or returns "".
export function filterProblem(f: RunFilters): string {
  if (f.from && !localToRfc3339(f.from)) return "From is not a date and time.";
  if (f.to && !localToRfc3339(f.to)) return "To is not a date and time.";
  if (f.from && f.to && localToRfc3339(f.from) >= localToRfc3339(f.to)) return "To must be after From.";
  if (f.q.length > 200) return "Search at most 200 characters.";
  return "";
}

// runsQuery is the query string of GET /api/runs for the filters and a page cursor.
// usageQuery is the query string of GET /api/runs/usage for the filters: the same filters, no page.
export function usageQuery(f: RunFilters): string {
  const p = new URLSearchParams(runsQuery(f, ""));
  p.delete("limit");
  return p.toString();
}

export function runsQuery(f: RunFilters, cursor: string, limit = 25): string {
  const p = new URLSearchParams();
  p.set("limit", String(limit));
  if (f.workflowId) p.set("workflowId", f.workflowId);
  if (f.status) p.set("status", f.status);
  if (f.versionId) p.set("versionId", f.versionId);
  if (f.from) p.set("from", localToRfc3339(f.from));
  if (f.to) p.set("to", localToRfc3339(f.to));
  if (f.q.trim()) p.set("q", f.q.trim());
  if (cursor) p.set("cursor", cursor);
  return p.toString();
}
