// Bulk actions on runs from the runs screen (/runs): which runs are chosen (ticked on the page, or all the runs the
// filters match), the request POST /api/runs/bulk takes for them, and how a job's progress reads.
import type { components } from "../api/schema.gen";
import { localToRfc3339, type RunFilters } from "./filters";

export type BulkFilter = components["schemas"]["BulkFilter"];
export type BulkJob = components["schemas"]["BulkJob"];
export type BulkAction = "restart" | "replay" | "terminate" | "delete";

// BULK_ACTIONS are the actions of the bulk API, with the verb Studio shows and what each does.
export const BULK_ACTIONS: { action: BulkAction; verb: string; does: string; danger?: boolean }[] = [
  { action: "restart", verb: "Restart", does: "starts each run again as a new run, with its own params" },
  { action: "replay", verb: "Replay", does: "replays each run as a new run, recorded as a replay of it" },
  { action: "terminate", verb: "Terminate", does: "stops each run that is still running or paused", danger: true },
  { action: "delete", verb: "Delete", does: "deletes each finished run with its instance", danger: true },
];

// Choice is what the bulk action acts on: the runs ticked on the page, or all the runs the applied filters match.
export type Choice = { kind: "ticked"; ids: string[] } | { kind: "matching" };

// toggle ticks or unticks run id of the page (ids in the page's order). With shift and an anchor (the run clicked
// last) on the page, every run between the two takes the clicked run's new state. It answers the ticked ids, in the
// page's order, and the new anchor.
export function toggle(
  ticked: string[],
  page: string[],
  id: string,
  shift: boolean,
  anchor: string,
): { ticked: string[]; anchor: string } {
  const on = !ticked.includes(id);
  const set = new Set(ticked);
  const from = page.indexOf(anchor);
  const to = page.indexOf(id);
  const range = shift && from >= 0 && to >= 0 ? page.slice(Math.min(from, to), Math.max(from, to) + 1) : [id];
  for (const r of range) {
    if (on) set.add(r);
    else set.delete(r);
  }
  // the page's runs in its order first, then ticked runs of other pages as they were
  const inPage = page.filter((r) => set.has(r));
  const elsewhere = ticked.filter((r) => set.has(r) && !page.includes(r));
  return { ticked: [...elsewhere, ...inPage], anchor: id };
}

// bulkFilter is the filter of POST /api/runs/bulk for a choice: the ticked runs by id, or the applied filters as the
// run search takes them.
export function bulkFilter(choice: Choice, f: RunFilters): BulkFilter {
  if (choice.kind === "ticked") return { runIds: choice.ids };
  const out: BulkFilter = {};
  if (f.workflowId) out.workflowId = f.workflowId;
  if (f.status) out.status = f.status;
  if (f.versionId) out.versionId = f.versionId;
  if (f.from) out.from = localToRfc3339(f.from);
  if (f.to) out.to = localToRfc3339(f.to);
  if (f.q.trim()) out.q = f.q.trim();
  return out;
}

// runsWord is "1 run" or "N runs".
export function runsWord(n: number): string {
  return n === 1 ? "1 run" : `${n.toLocaleString("en")} runs`;
}

// jobRunning reports whether a job still acts on runs.
export function jobRunning(j: Pick<BulkJob, "state">): boolean {
  return j.state === "running";
}

// progressText says how far a job is: "12 of 50 runs done, 1 failed", and its end.
export function progressText(j: Pick<BulkJob, "state" | "done" | "matched" | "failedCount">): string {
  const failed = j.failedCount > 0 ? `, ${j.failedCount} failed` : "";
  const counts = `${j.done.toLocaleString("en")} of ${runsWord(j.matched)} done${failed}`;
  if (j.state === "complete") return `Done: ${counts}.`;
  if (j.state === "cancelled") return `Cancelled: ${counts}; the others were left alone.`;
  return `${counts}…`;
}
