// Archiving finished Workflow instances (docs/edge.md, "Finished instances are archived"; decision 470). workerd keeps
// the SQLite database of every instance of a Workflow open for as long as the instance exists (miniflare never evicts
// the engine's Durable Objects), three file descriptors and some SQLite heap each: past a few thousand instances a
// workerd cannot open another. So once an instance has ended, the edge keeps what the API answers about it (its
// details, rollback and whole event history) in its archive (../archive.mjs) and deletes it from the engine, which
// closes its database. Reads (describe, list, step output, the event stream) of an archived instance are answered
// from the archive; the index record says `archived` (and `purged` once the engine's copy is gone). Instances that
// run, wait or sleep are never touched.

import { INSTANCE_MISSING } from "../errors.mjs";
import { TERMINAL, liveRollback } from "./rollback.mjs";

// ARCHIVE_CONCURRENCY bounds the instances one account archives at once.
const ARCHIVE_CONCURRENCY = 8;

// ARCHIVING is false when EDGEFLOW_EDGE_ARCHIVE=off: finished instances then stay in the engine, as before issue 39
// (for the soak test and bench/edge/soak.mjs to show what archiving changes; never for real use).
export const ARCHIVING = process.env.EDGEFLOW_EDGE_ARCHIVE !== "off";

// ARCHIVE_BACKLOG bounds the finished instances of an account that wait to be archived (EDGEFLOW_EDGE_ARCHIVE_BACKLOG,
// default 64): while it is reached, creates wait (at most BACKLOG_WAIT_MS) until archiving drains it, so that
// instances cannot end faster than they leave the engine and their open databases pile up in workerd (decision 474).
export const ARCHIVE_BACKLOG =
  Number(process.env.EDGEFLOW_EDGE_ARCHIVE_BACKLOG) > 0 ? Number(process.env.EDGEFLOW_EDGE_ARCHIVE_BACKLOG) : 64;
const BACKLOG_WAIT_MS = 30000;

// archiveRoom resolves once the account's archive backlog is below ARCHIVE_BACKLOG, or after BACKLOG_WAIT_MS (a
// create is slowed, never refused, by a backlog that does not drain).
export async function archiveRoom(ctx) {
  if (!ARCHIVING) return;
  const deadline = Date.now() + BACKLOG_WAIT_MS;
  while (ctx.archiving.size >= ARCHIVE_BACKLOG && Date.now() < deadline) {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.max(1, deadline - Date.now()));
      ctx.archiveWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

// archived answers the archive of instance id of workerd Workflow rt, or null when it is not archived.
export function archived(ctx, rt, id) {
  const rec = ctx.registry.instanceRecord(rt, id);
  if (!rec?.archived) return null;
  return ctx.registry.archive.get(rt, id);
}

// ARCHIVE_KEEP is how many of the most recently finished instances of each Workflow stay in the engine
// (EDGEFLOW_EDGE_ARCHIVE_KEEP, default 16; 0 archives at once): what a client does right after an instance ends,
// such as a restart from one of its steps, which needs the engine's copy, works as on Cloudflare; the older ones
// are archived, so the open databases stay bounded all the same (decision 484).
export const ARCHIVE_KEEP =
  Number(process.env.EDGEFLOW_EDGE_ARCHIVE_KEEP) >= 0 && process.env.EDGEFLOW_EDGE_ARCHIVE_KEEP !== undefined
    ? Number(process.env.EDGEFLOW_EDGE_ARCHIVE_KEEP)
    : 16;

// ARCHIVE_BUSY_KEEP is how many finished instances of an account may wait in the engine beyond ARCHIVE_KEEP per
// Workflow while their Workflows are busy (EDGEFLOW_EDGE_ARCHIVE_BUSY_KEEP; by default 1,024, or 0 when
// EDGEFLOW_EDGE_ARCHIVE_KEEP is given and this is not). Archiving an instance costs its workerd about what its run
// did (reading its details and history, deleting it): while instances of a Workflow keep ending (one ended less than
// BUSY_MS ago, EDGEFLOW_EDGE_ARCHIVE_BUSY_MS, default 2 s) and every workerd that runs it is within half its bounds of
// descriptors and memory (bounds.mjs), the ones beyond ARCHIVE_KEEP wait, and are archived once the Workflow is quiet
// (the archive sweep), past this count, or once a workerd passes half its bounds (decision 795).
export const ARCHIVE_BUSY_KEEP =
  Number(process.env.EDGEFLOW_EDGE_ARCHIVE_BUSY_KEEP) >= 0 && process.env.EDGEFLOW_EDGE_ARCHIVE_BUSY_KEEP !== undefined
    ? Number(process.env.EDGEFLOW_EDGE_ARCHIVE_BUSY_KEEP)
    : process.env.EDGEFLOW_EDGE_ARCHIVE_KEEP !== undefined
      ? 0
      : 1024;
const BUSY_MS =
  Number(process.env.EDGEFLOW_EDGE_ARCHIVE_BUSY_MS) > 0 ? Number(process.env.EDGEFLOW_EDGE_ARCHIVE_BUSY_MS) : 2000;

// archiveSoon queues the archiving of a finished instance (archiveInstance) once ARCHIVE_KEEP instances of its
// Workflow have finished after it (more while the Workflow is busy: ARCHIVE_BUSY_KEEP); any number of calls archive it
// once.
export function archiveSoon(ctx, rt, id) {
  if (!ARCHIVING) return;
  let recent = ctx.recentlyEnded.get(rt);
  if (!recent) ctx.recentlyEnded.set(rt, (recent = new Set()));
  if (recent.has(id)) return;
  recent.add(id); // a Set keeps the order of insertion: its first id is the one that ended longest ago
  ctx.endedAt.set(rt, Date.now());
  trimEnded(ctx, rt);
}

// trimEnded queues the archiving of Workflow rt's finished instances that may not wait any longer, the oldest first
// (the archive sweep calls it for every Workflow, so that those that waited while it was busy go once it is quiet).
export function trimEnded(ctx, rt) {
  const recent = ctx.recentlyEnded.get(rt);
  if (!recent) return;
  while (recent.size > ARCHIVE_KEEP && !mayWait(ctx, rt)) {
    const [oldest] = recent;
    recent.delete(oldest);
    archiveNow(ctx, rt, oldest);
  }
}

// mayWait tells whether Workflow rt's finished instances beyond ARCHIVE_KEEP may wait in the engine now.
function mayWait(ctx, rt) {
  if (ARCHIVE_BUSY_KEEP === 0 || Date.now() - (ctx.endedAt.get(rt) ?? 0) >= BUSY_MS) return false;
  let waiting = 0;
  for (const set of ctx.recentlyEnded.values()) waiting += Math.max(0, set.size - ARCHIVE_KEEP);
  return waiting <= ARCHIVE_BUSY_KEEP && ctx.runtime.hasRoom?.(rt) === true;
}

// archiveNow queues the archiving of a finished instance at once, whatever ARCHIVE_KEEP says (for a shard that is
// to stop, decision 704).
export function archiveNow(ctx, rt, id) {
  if (!ARCHIVING) return;
  const key = `${rt}\n${id}`;
  if (ctx.archiving.has(key) || ctx.registry.instanceRecord(rt, id)?.purged) return;
  ctx.archiving.set(key, null);
  ctx.archiveQueue.push([rt, id]);
  pump(ctx);
}

function pump(ctx) {
  while (ctx.archiveActive < ARCHIVE_CONCURRENCY && ctx.archiveQueue.length > 0) {
    const [rt, id] = ctx.archiveQueue.shift();
    ctx.archiveActive++;
    archiveInstance(ctx, rt, id)
      .catch((err) => ctx.noteArchiveFailure(`${rt} instance ${id}: ${err.message}`))
      .finally(() => {
        ctx.archiveActive--;
        ctx.archiving.delete(`${rt}\n${id}`);
        pump(ctx);
        if (ctx.archiving.size < ARCHIVE_BACKLOG) for (const wake of ctx.archiveWaiters.splice(0)) wake();
      });
  }
}

// FINAL_EVENT maps the event that ends an instance's run to the status it leaves (a rollback's events may follow it).
const FINAL_EVENT = { workflow_completed: "complete", workflow_errored: "errored", workflow_terminated: "terminated" };

// archiveInstance archives instance id of workerd Workflow rt if it has ended: its details, its rollback (for one
// that errored or was terminated) and its events go to the archive, its index record is marked archived, then it is
// deleted from the engine (marked purged). An instance whose step output is a stream stays in the engine. It answers
// whether the instance is archived now.
export async function archiveInstance(ctx, rt, id) {
  const rec = ctx.registry.instanceRecord(rt, id);
  if (!rec || rec.purged || rec.streamed) return Boolean(rec?.purged);
  if (!rec.archived) {
    const { status, body } = await ctx.runtime.explorer(
      `/workflows/${encodeURIComponent(rt)}/instances/${encodeURIComponent(id)}`,
    );
    if (status !== 200 || !body.success) return false;
    const details = body.result;
    if (!TERMINAL.has(details.status)) return false;
    const rollback =
      details.status === "errored" || details.status === "terminated" ? await liveRollback(ctx, rt, id) : null;
    const got = await ctx.runtime.control("/wf/events", { workflow: rt, id });
    if (got.stream) {
      ctx.registry.noteInstance(rt, id, { streamed: true });
      return false;
    }
    // a restart between the read of its details and now makes it run again: its history then does not end with the
    // end its details say (it is archived when it ends again). The history is read last, so that it stands for the
    // instance as it is deleted (a status read here cost the engine as much again as the details).
    if (FINAL_EVENT[got.events.findLast((e) => FINAL_EVENT[e.type] !== undefined)?.type] !== details.status)
      return false;
    ctx.registry.archive.put(rt, id, { details, rollback, events: got.events });
    ctx.registry.setStatus(rt, id, details.status);
    ctx.registry.noteInstance(rt, id, {
      archived: true,
      ...(details.end ? { ended_on: rec.ended_on ?? details.end } : {}),
    });
    ctx.onInstanceEnded?.(rt, details.end);
  }
  // an event stream open on the engine's copy would be cut: the archive sweep deletes it once the stream is closed
  if (ctx.subscribed.has(`${rt}\n${id}`)) return false;
  // deleted once nothing else asks the engine about it, and never under a list of the Workflow (engineuse.mjs):
  // miniflare would open its database again and keep it open
  const r = await ctx.runtime.engineUse.deleting(rt, id, () =>
    ctx.runtime.control("/wf/delete", { workflow: rt, ids: [id] }),
  );
  const e = r.errors.find((x) => x.id === id);
  if (e && e.code !== INSTANCE_MISSING) throw new Error(`the engine did not delete it: ${e.message}`);
  ctx.registry.noteInstance(rt, id, { purged: true });
  return true;
}

// unarchive makes an archived instance an engine instance again, for a restart (from its start: the engine's copy of
// an archived instance is gone, so it is created anew with the same id and params).
export async function unarchive(ctx, rt, id, entry) {
  const answer = await ctx.runtime.control("/wf/create", {
    workflow: rt,
    instances: [{ id, params: entry.details.params ?? {} }],
  });
  const e = answer.errors[0];
  if (e && e.code !== 10405) throw new Error(`recreating archived instance '${id}' failed: ${e.message}`);
  ctx.registry.archive.drop(rt, id);
  // created anew in the shard the runtime picked for it (runtime.mjs), which the index keeps
  ctx.registry.noteInstance(rt, id, {
    archived: false,
    purged: false,
    ended_on: null,
    rollback: null,
    shard: answer.shards?.[id] ?? 0,
  });
  ctx.registry.setStatus(rt, id, "queued");
}
