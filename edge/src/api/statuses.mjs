// What the edge knows of each Workflow instance: its index of instances (registry.mjs) kept in step with miniflare,
// which knows only its own statuses, Cloudflare's statuses derived from miniflare's details, and the retention after
// which a finished instance is gone.

import fs from "node:fs";
import path from "node:path";
import { EdgeError, INSTANCE_NOT_FOUND, INTERNAL_ERROR, INVALID_REQUEST } from "../errors.mjs";
import { workflowsDir } from "../mfconfig.mjs";
import { now } from "../registry.mjs";
import { archiveSoon, archived } from "./archive.mjs";
import { mapLimit } from "./common.mjs";
import { TERMINAL } from "./rollback.mjs";

export { TERMINAL };

// refreshIndex brings a workflow's index up to date before it is read: instances workers created through their
// bindings are added, and those whose last known status is not final are asked again (in one call to the control
// worker per 100).
export async function refreshIndex(ctx, name) {
  await syncIndex(ctx, name);
  await refreshStatuses(ctx, name, ctx.registry.unfinishedOf(name));
}

// deriveRunning gives the items ({id, status}) that miniflare reports `running` Cloudflare's status: miniflare reports
// `running` while an instance sleeps, waits for an event or backs off before a retry, which Cloudflare reports as
// `waiting`.
export async function deriveRunning(ctx, name, items) {
  await mapLimit(
    items.filter((it) => it.status === "running"),
    16,
    async (it) => {
      const d = await details(ctx, name, it.id).catch(() => null);
      if (d) it.status = deriveStatus(d);
    },
  );
}

// derivedInstances lists a workflow's instances of one of the statuses (Cloudflare's; all when none) from the index
// (refreshIndex first), each {id, status, created_on}, with Cloudflare's statuses: those miniflare reports `running`
// are looked at closer (deriveRunning), and an item of another status than asked is left out.
export async function derivedInstances(ctx, name, statuses = null) {
  await refreshIndex(ctx, name);
  const stored = statuses?.flatMap((st) => (st === "waiting" ? ["running"] : [st]));
  const list = ctx.registry.instances.summaries(name, stored ? [...new Set(stored)] : null);
  await deriveRunning(ctx, name, list);
  return statuses ? list.filter((it) => statuses.includes(it.status)) : list;
}

async function refreshStatuses(ctx, name, ids) {
  const ended = [];
  for (let i = 0; i < ids.length; i += 100) {
    const got = await ctx.runtime.control("/wf/statuses", { workflow: name, ids: ids.slice(i, i + 100) });
    for (const { id, status } of got) {
      if (status) ctx.registry.setStatus(name, id, status);
      if (TERMINAL.has(status)) ended.push(id);
    }
  }
  // an instance seen finished for the first time: its end time is read once and kept in the index, and it is
  // archived (archive.mjs)
  await mapLimit(ended, 8, async (id) => {
    const d = await details(ctx, name, id).catch(() => null);
    if (d?.end) {
      ctx.registry.setEnded(name, id, d.end);
      ctx.runtime.instanceEnded(name, Date.parse(d.end), id);
    }
    archiveSoon(ctx, name, id);
  });
}

// ownsWorkflow reports whether the workerd name rtName is one of the account's Workflows.
export function ownsWorkflow(ctx, rtName) {
  return Object.keys(ctx.state.workflows).some((n) => ctx.names.workflow(n) === rtName);
}

// unfinished returns the instances of a workflow that may need reviving: those not final and not paused.
export async function unfinished(ctx, name) {
  await syncIndex(ctx, name);
  await refreshStatuses(ctx, name, ctx.registry.unfinishedOf(name));
  return ctx.registry.unfinishedOf(name).filter((id) => ctx.registry.instanceRecord(name, id).status !== "paused");
}

// stepping counts the instances among ids, unfinished instances of workflow name whose index statuses unfinished()
// has just refreshed, that run a step now: pausing (a pause waits for the step under way), or running and neither
// sleeping, waiting for an event nor backing off before a retry (deriveStatus). A change waits for them before it
// restarts their workerd (groups.mjs, decision 799). An instance whose latest step or attempt began or ended more than
// STEP_RECENT_MS ago is left out: a step that long is not expected to end within the wait, and one that hangs would
// otherwise cost every deploy into its group the whole wait.
export async function stepping(ctx, name, ids) {
  let n = 0;
  await mapLimit(ids, 8, async (id) => {
    const status = ctx.registry.instanceRecord(name, id)?.status;
    if (status === "waitingForPause") n++;
    if (status !== "running") return;
    const d = await details(ctx, name, id).catch(() => null);
    if (!d || deriveStatus(d) !== "running") return;
    const last = d.steps?.at(-1);
    const attempt = last?.attempts?.at(-1);
    const latest = Date.parse(attempt?.end ?? attempt?.start ?? last?.end ?? last?.start ?? d.start ?? d.queued);
    if (!(Date.now() - latest > STEP_RECENT_MS)) n++;
  });
  return n;
}

// STEP_RECENT_MS: a step under way for longer than this is not waited for (stepping).
const STEP_RECENT_MS = 10000;

// SWEEP_SETTLE_MS is how old an unfinished instance is before the archive sweep asks for its status (sweepEnded).
const SWEEP_SETTLE_MS = 5000;

// sweepEnded is the archive sweep's look at a workflow (gateway.mjs): instances workers created through their
// bindings are added to the index, and those not final asked again, which queues the ones that ended for the archive.
// An instance younger than SWEEP_SETTLE_MS is left to the reads of its creator and to the next sweeps: a status read
// costs the engine about as much as one step of a run, and in a burst most instances end within a second, read
// by edgeflow's refresher (decision 794).
export async function sweepEnded(ctx, name) {
  await syncIndex(ctx, name);
  const settled = new Date(Date.now() - SWEEP_SETTLE_MS).toISOString();
  await refreshStatuses(ctx, name, ctx.registry.unfinishedOf(name, settled));
}

// syncIndex adds to the index the instances that workers created through their bindings (the edge does not see
// those calls). It counts the instance files in miniflare's storage of the workflow, a directory listing, and
// only when there are more than the index holds reads miniflare's instance list, newest first, until it has
// found them all. Files that hold no instance (ctx.emptyFiles: miniflare opens an engine's storage for any id it is
// asked about, also one that was deleted) are left out of the count once seen.
function syncIndex(ctx, name) {
  const running = ctx.syncing.get(name);
  if (running) return running;
  const p = (async () => {
    // a sharded Workflow keeps each shard's instances in a directory of its own (mfconfig.mjs); a worker's binding
    // creates in the shard that runs the worker (shard 0 for worker requests)
    const n = ctx.runtime.shardGroups(name)?.length ?? 1;
    const knownIn = new Array(n).fill(0);
    // archived instances deleted from the engine have no file
    for (const [k, count] of ctx.registry.instances.inEngine(name)) knownIn[k < n ? k : 0] += count;
    let empty = ctx.emptyFiles.get(name);
    if (!empty) ctx.emptyFiles.set(name, (empty = new Map()));
    const shards = [];
    for (let k = 0; k < n; k++) {
      const dir = path.join(ctx.runtime.persistDir, workflowsDir(k), `miniflare-workflows-${name}`);
      let files;
      try {
        files = fs.readdirSync(dir);
      } catch {
        continue;
      }
      if (!empty.has(k)) empty.set(k, new Set());
      const gone = empty.get(k);
      const present = new Set(files.filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite"));
      for (const f of gone) if (!present.has(f)) gone.delete(f);
      shards.push({ k, dir, present, gone, missing: present.size - gone.size - knownIn[k] });
    }
    let missing = shards.reduce((m, sh) => m + sh.missing, 0) - (ctx.creating.get(name) ?? 0);
    const versionId = ctx.state.workflows[name.slice(ctx.names.prefix.length)]?.versions.at(-1).id;
    for (const sh of shards) {
      if (missing <= 0) break;
      if (sh.missing <= 0) continue;
      for (let page = 1; missing > 0; page++) {
        const q = new URLSearchParams({ page: String(page), per_page: "100" });
        const { status, body } = await ctx.runtime.explorer(`/workflows/${encodeURIComponent(name)}/instances?${q}`, {
          shard: sh.k,
        });
        if (status !== 200 || !body.success || body.result.length === 0) break;
        for (const it of body.result) {
          if (it.status === undefined) {
            // A file without an instance: miniflare opens the engine's storage for any id it is asked about, one
            // that does not exist (or no longer does) too. One older than a minute is no instance being created.
            const file = `${it.id}.sqlite`;
            if (
              sh.present.has(file) &&
              !sh.gone.has(file) &&
              Date.now() - fileTime(path.join(sh.dir, file)) > EMPTY_AFTER_MS
            ) {
              sh.gone.add(file);
              missing--;
            }
            continue;
          }
          // (looked up afresh: an instance created through the API while the page was read is known by now)
          if (ctx.registry.instanceRecord(name, it.id)) continue;
          recordFound(ctx, name, it, sh.k, versionId);
          missing--;
        }
        if (page >= (body.result_info?.total_pages ?? 1)) break;
      }
    }
  })().finally(() => ctx.syncing.delete(name));
  ctx.syncing.set(name, p);
  return p;
}

// syncShard adds to the index every instance that shard k of sharded Workflow name holds and the index does not know
// of, from a full list of the shard (page by page): an instance created a moment ago whose create has not answered
// yet, or one a worker made whose answer was lost. The runtime runs it before the shard stops (runtime.mjs,
// #planKeeping), so that no instance is left in a stopped shard; the shard then holds few (its finished ones were
// archived first).
export async function syncShard(ctx, name, k) {
  const versionId = ctx.state.workflows[name.slice(ctx.names.prefix.length)]?.versions.at(-1).id;
  for (let page = 1; ; page++) {
    const q = new URLSearchParams({ page: String(page), per_page: "100" });
    const { status, body } = await ctx.runtime.explorer(`/workflows/${encodeURIComponent(name)}/instances?${q}`, {
      shard: k,
    });
    if (status !== 200 || !body.success || body.result.length === 0) return;
    for (const it of body.result) {
      // a file without an instance (miniflare opens the engine's storage for any id it is asked about), or one the
      // index knows
      if (it.status === undefined || ctx.registry.instanceRecord(name, it.id)) continue;
      recordFound(ctx, name, it, k, versionId);
    }
    if (page >= (body.result_info?.total_pages ?? 1)) return;
  }
}

// recordFound adds to the index instance it (an item of miniflare's list) of Workflow name that shard k holds and the
// edge did not create itself: a worker made it (trigger source binding).
function recordFound(ctx, name, it, k, versionId) {
  ctx.registry.recordInstance({
    workflow: name,
    id: it.id,
    source: "binding",
    created_on: it.created_on ?? now(),
    version_id: versionId,
    status: it.status,
    ...(k > 0 ? { shard: k } : {}),
  });
}

// EMPTY_AFTER_MS is how old a storage file without an instance must be to count as no instance (syncIndex).
const EMPTY_AFTER_MS = 60000;

function fileTime(f) {
  try {
    return fs.statSync(f).mtimeMs;
  } catch {
    return Date.now();
  }
}

// details is miniflare's view of instance id of the Workflow named workflow in workerd (from the archive once it is
// archived, archive.mjs): 404 10201 when it has none, 502 10001 when the lookup fails.
export async function details(ctx, workflow, id) {
  const kept = archived(ctx, workflow, id);
  if (kept) return kept.details;
  const { status, body } = await ctx.runtime.explorer(
    `/workflows/${encodeURIComponent(workflow)}/instances/${encodeURIComponent(id)}`,
  );
  if (status === 404) {
    // archived while it was asked about (the runtime does not ask the engine about an archived instance)
    const now = archived(ctx, workflow, id);
    if (now) return now.details;
    throw new EdgeError(404, INSTANCE_NOT_FOUND, `Workflow instance '${id}' not found in workflow '${workflow}'`);
  }
  if (!body.success) throw new EdgeError(502, INTERNAL_ERROR, body.errors?.[0]?.message ?? "instance lookup failed");
  return body.result;
}

// noteTimes keeps in the index when an instance started, last changed (its latest step or status event) and
// ended, from its details d.
export function noteTimes(ctx, rt, id, d, status) {
  const stamps = [
    d.queued,
    d.start,
    d.end,
    ...(d.steps ?? []).flatMap((st) => [st.start, st.end, ...(st.attempts ?? []).flatMap((a) => [a.start, a.end])]),
  ];
  const latest = stamps
    .filter((x) => typeof x === "string" && x !== "")
    .sort()
    .at(-1);
  ctx.registry.noteInstance(rt, id, {
    started_on: d.start ?? undefined,
    modified_on: latest,
    ended_on: TERMINAL.has(status) ? (d.end ?? latest) : undefined,
  });
}

// retentionOf is how long a finished instance (index record rec) of workflow wf is kept, in milliseconds: its own
// instance_retention, else its Workflow's default_retention, for its outcome (success: complete; error: errored or
// terminated); undefined when neither says (it is kept).
export function retentionOf(rec, wf) {
  const pick = (r) => (r ? (rec.status === "complete" ? r.success_ms : r.error_ms) : undefined);
  return pick(rec.retention) ?? pick(wf?.default_retention);
}

// defaultKeep is a workflow's default retention as the index's queries take it: {success, error} in ms, or null.
export function defaultKeep(wf) {
  const r = wf?.default_retention;
  return r ? { success: r.success_ms ?? null, error: r.error_ms ?? null } : null;
}

// expired reports whether an instance finished longer ago than its retention (retentionOf): such an instance is gone
// from lists and answers 404, as on Cloudflare once its retention ran out, until the retention sweep deletes it
// (retention.mjs).
export function expired(rec, wf) {
  if (!rec?.ended_on || !TERMINAL.has(rec.status)) return false;
  const keep = retentionOf(rec, wf);
  return keep !== undefined && Date.now() > Date.parse(rec.ended_on) + keep;
}

// deriveStatus maps miniflare's instance details onto Cloudflare's statuses.
export function deriveStatus(d) {
  if (d.status !== "running") return d.status;
  const last = d.steps.at(-1);
  if (!last) return "running";
  if ((last.type === "sleep" || last.type === "waitForEvent") && !last.finished) return "waiting";
  if (last.type === "step" && last.success === null) {
    const a = last.attempts ?? [];
    const lastAttempt = a.at(-1);
    if (lastAttempt && lastAttempt.success === false) return "waiting"; // backing off before the next retry
  }
  return "running";
}

// RETENTION_MAX is the longest instance_retention Cloudflare allows (30 days, the paid plan's limit).
const RETENTION_MAX = 30 * 24 * 3600 * 1000;

// UNIT_MS are the milliseconds of each unit of a duration such as "5 minutes".
export const UNIT_MS = { millisecond: 1, second: 1000, minute: 60000, hour: 3600000, day: 86400000, week: 604800000 };

// retentionParam reads an instance's instance_retention (or a Workflow's default_retention: field) {success_retention?,
// error_retention?}, each a number of milliseconds or a duration such as "5 minutes", into {success_ms?, error_ms?}
// (decision 267); at is where the object sits in the body, for the error's message.
export function retentionParam(v, at, field = "instance_retention") {
  if (v === undefined || v === null) return null;
  const where = at === undefined ? field : `${at}.${field}`;
  if (typeof v !== "object" || Array.isArray(v))
    throw new EdgeError(400, INVALID_REQUEST, `${where} must be an object {success_retention?, error_retention?}`);
  const out = {};
  for (const [field, key] of [
    ["success_retention", "success_ms"],
    ["error_retention", "error_ms"],
  ]) {
    const x = v[field];
    if (x === undefined || x === null) continue;
    let ms;
    if (typeof x === "number" && Number.isInteger(x) && x >= 0) ms = x;
    else if (typeof x === "string") {
      const m = /^\s*(\d+)\s*(millisecond|second|minute|hour|day|week)s?\s*$/i.exec(x);
      if (m) ms = Number(m[1]) * UNIT_MS[m[2].toLowerCase()];
    }
    if (ms === undefined)
      throw new EdgeError(
        400,
        INVALID_REQUEST,
        `${where}.${field} must be milliseconds or a duration such as "5 minutes", got ${JSON.stringify(x)}`,
      );
    if (ms > RETENTION_MAX)
      throw new EdgeError(400, INVALID_REQUEST, `${where}.${field} is longer than the 30 days an instance can be kept`);
    out[key] = ms;
  }
  for (const k of Object.keys(v)) {
    if (k !== "success_retention" && k !== "error_retention")
      throw new EdgeError(400, INVALID_REQUEST, `${where}: unknown field '${k}'`);
  }
  return out;
}
