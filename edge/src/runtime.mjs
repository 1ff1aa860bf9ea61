// The runtime: the deployed scripts of every account, spread over groups of workerd (plan.mjs works out the groups,
// groups.mjs runs them), plus the D1 databases' own workerds (d1host.mjs). Every change of configuration goes
// through apply(), which serializes the changes, works out which groups the change touches (a group whose
// configuration is the same as before is left running), holds new requests to those groups while they restart,
// rolls the registry and the groups back when the new configuration does not start, and afterwards revives the
// workflow instances that the restart stranded in them (decision 259). The API reaches into workerd through the
// runtime: control (the control worker of the group that holds a resource), explorer (miniflare's local explorer),
// scheduled (a worker's cron trigger) and d1Query, each over the group's entry socket (entry.mjs).

import { randomUUID } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { D1Hosts } from "./d1host.mjs";
import { D1Transfers } from "./d1transfer.mjs";
import { EdgeError, INTERNAL_ERROR, SCRIPT_INVALID, WORKFLOW_NOT_FOUND } from "./errors.mjs";
import { GATE_HEADER, newGateSecret } from "./gate.mjs";
import { CONTROL_WORKER, Groups, TOO_MANY_TO_SETTLE } from "./groups.mjs";
import { WorkerLogs } from "./logs.mjs";
import { OutboundGuard } from "./outbound.mjs";
import { EngineUse } from "./engineuse.mjs";
import { HOME_GROUP, planGroups, shardOf } from "./plan.mjs";
import { storeBinding } from "./storebinding.mjs";
import { workflowBinding } from "./wfbinding.mjs";
import { SHARD_WINDOW_MS, ShardPolicy } from "./shards.mjs";

// FORCED_SHARDS is EDGEFLOW_EDGE_SHARDS: an integer of at least 1 gives every Workflow that many shards (workerd
// processes); unset, the shard policy decides (docs/edge.md, "Shards").
export const FORCED_SHARDS = forcedShards(process.env.EDGEFLOW_EDGE_SHARDS);

// forcedShards reads EDGEFLOW_EDGE_SHARDS: its integer when it is one of at least 1, else null (a bad value is
// refused at start, edge.mjs).
export function forcedShards(v) {
  if (v === undefined || v === "") return null;
  const n = Number(v);
  return Number.isInteger(n) && n >= 1 ? n : null;
}

export class Runtime {
  constructor({ registry, persistDir, pidFile, d1PidFile, logger, outbound, shards = FORCED_SHARDS }) {
    // how many shards (workerds) each Workflow runs in (shards.mjs, plan.mjs)
    this.shardPolicy = new ShardPolicy({ forced: shards, onChange: () => this.#reshard() });
    this.shardsOf = (rt) => this.shardPolicy.count(rt);
    this.resharding = null; // a reshard queued in the chain
    this.reshardRuns = false; // a reshard under way
    // "<workflow>\n<id>" -> shard, of instances a worker created in a shard that the index does not hold yet
    this.shardHints = new Map();
    this.pidFile = pidFile;
    this.outbound = outbound ?? new OutboundGuard({ logger });
    // Every worker's console output and uncaught exceptions (logs.mjs).
    this.logs = new WorkerLogs({ logger });
    this.gateSecret = newGateSecret();
    this.registry = registry;
    this.persistDir = persistDir;
    this.logger = logger;
    this.chain = Promise.resolve();
    // the engine calls under way per instance, so that the archive deletes an instance nothing uses (engineuse.mjs)
    this.engineUse = new EngineUse();
    this.engineUse.gone = (workflow, id) => Boolean(registry.instanceRecord(workflow, id)?.archived);
    // the running groups of workerd and the plan they run (groups.mjs, plan.mjs)
    this.groups = new Groups({
      registry,
      persistDir,
      pidFile,
      logger,
      gateSecret: this.gateSecret,
      outbound: this.outbound,
      logs: this.logs,
    });
    this.closed = false;
    // kept-alive connections to the groups' workerds for control and explorer calls (#request)
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
    this.lastRestartMs = null;
    this.onWorkerdStarted = null; // called after a group's workerd (re)started (the edge's loopback gate)
    // unfinishedInstances(workflow) lists the ids of a Workflow's instances the revive sweep revives: by default
    // those miniflare lists as unfinished; the gateway has it read the owning account's index (api/statuses.mjs).
    this.unfinishedInstances = (workflow) => this.#unfinishedFromExplorer(workflow);
    // steppingOf(workflow, ids) counts those of the unfinished instances ids that run a step now (the gateway reads
    // the owning account's index and the instances' details, api/statuses.mjs); a change lets them end their step
    // before it restarts their group (groups.mjs, #settle)
    this.steppingOf = null;
    this.groups.stepping = (g) => this.#stepping(g);
    // D1 databases run in workerds of their own (d1host.mjs), so that a slow query stops only its database.
    this.d1 = new D1Hosts({ persistDir, logger, gateSecret: this.gateSecret, pidFile: d1PidFile });
    // a shard's KV and R2 bindings come through the D1 hosts' binding proxy to the group that holds the store, and
    // the binding of a Workflow that may shard to the edge (wfbinding.mjs)
    this.d1.storeBinding = (entry, req, res) =>
      typeof entry.wf === "string" ? workflowBinding(this, entry, req, res) : storeBinding(this, entry, req, res);
    // D1 imports' and exports' files and jobs (d1transfer.mjs), beside the persist dir.
    this.d1transfers = new D1Transfers({ dir: path.join(path.dirname(persistDir), "d1-transfers"), logger });
  }

  // entryPath is the path of the home group's entry socket.
  get entryPath() {
    return this.groups.get(HOME_GROUP)?.entry?.path ?? null;
  }

  // start starts the D1 proxy and every group of the registry's state.
  async start() {
    await this.d1.start();
    // a Workflow whose instances are in more shards than one keeps them (ShardPolicy.floor)
    for (const rt of this.registry.instances.workflows()) this.shardPolicy.floor(rt, this.#heldShard(rt));
    const plan = this.#plan(this.registry.state);
    try {
      await this.#realize(plan);
    } catch (err) {
      throw new Error(`workerd failed to start: ${err.message}`, { cause: err });
    }
    this.shardTimer = setInterval(() => this.#shardWatch(), Math.min(1000, SHARD_WINDOW_MS));
    this.shardTimer.unref();
  }

  // #heldShard is the highest shard that holds an instance of Workflow rt whose engine copy is not deleted (-1 for
  // none).
  #heldShard(rt) {
    return this.registry.instances.heldShard(rt);
  }

  // #shardWatch grows a Workflow whose shard 0 is busy on its core and shrinks an idle one to the shards that hold
  // its instances (shards.mjs); a change brings the groups to the new counts.
  #shardWatch() {
    if (this.closed) return;
    const seen = new Map(); // group id -> its workerd's share of a core
    for (const [rt, gid] of this.groups.owner.wf) {
      const g = this.groups.get(gid);
      if (!g?.pid || gid === HOME_GROUP || this.shardPolicy.count(rt) >= this.shardPolicy.max) continue;
      if (!seen.has(gid)) seen.set(gid, this.shardPolicy.cpuShare(g.pid));
      const share = seen.get(gid);
      if (share !== null) this.shardPolicy.busy(rt, share);
    }
    let changed = false;
    // no shrink while the groups are brought to new counts
    for (const rt of this.resharding || this.reshardRuns ? [] : this.shardPolicy.idle()) {
      // the finished instances an idle Workflow keeps in the engine past shard 0 are archived now, so that those
      // shards empty; unfinished ones hold their shard
      const done = this.registry.instances.archivable(rt, 1);
      if (done.length > 0) this.archiveNow?.(rt, done);
      if (this.shardPolicy.shrink(rt, this.#heldShard(rt))) changed = true;
    }
    if (changed) this.#reshard();
  }

  // #reshard brings the groups to the shard counts (in turn with deploys): a shard that still holds an instance is
  // kept, whatever the count says.
  #reshard() {
    if (this.resharding) return this.resharding;
    const run = async () => {
      this.resharding = null;
      if (this.closed) return;
      this.reshardRuns = true;
      try {
        await this.#reshardNow();
      } finally {
        this.reshardRuns = false;
      }
    };
    const p = this.chain.then(run, run);
    this.chain = p.catch((err) => this.logger(`resharding failed: ${cleanError(err)}`));
    this.resharding = p.catch(() => {});
    return this.resharding;
  }

  // #reshardNow brings the groups to the shard counts, keeping every shard that holds an instance.
  async #reshardNow() {
    for (const rt of this.shardPolicy.want.keys()) this.shardPolicy.floor(rt, this.#heldShard(rt));
    for (const rt of this.groups.shards.keys()) this.shardPolicy.floor(rt, this.#heldShard(rt));
    const before = new Map([...this.groups.shards].map(([rt, ids]) => [rt, ids.length]));
    await this.#realize(await this.#planKeeping(this.registry.state));
    for (const [rt, ids] of this.groups.shards) {
      if (before.get(rt) === ids.length) continue;
      this.logger(`workflow ${rt} runs in ${ids.length} shards`);
      // a Workflow's idle time counts from when its new shards run
      if (ids.length > (before.get(rt) ?? 1)) this.shardPolicy.touch(rt);
    }
    for (const [rt, n] of before)
      if (!this.groups.shards.has(rt) && n > 1) this.logger(`workflow ${rt} runs in 1 shard`);
  }

  async close() {
    this.closed = true;
    clearInterval(this.shardTimer);
    await this.groups.close();
    await this.d1.close();
    this.d1transfers.close();
    await this.outbound.close();
    this.agent.destroy();
  }

  // workerdPid is the home group's workerd pid (the D1 hosts' and other groups' workerds are children of this
  // process too).
  workerdPid() {
    return this.groups.get(HOME_GROUP)?.pid ?? null;
  }

  // workerdPids lists every group's workerd: [{group, pid, workers}], the home group first.
  workerdPids() {
    return this.groups.pids();
  }

  // groupOf is the group that runs the worker with runtime name `name` (the home group for one that does not run).
  groupOf(name) {
    return this.groups.of(name);
  }

  // enter waits until the group of worker `name` is up and counts a request in flight there; it answers the group,
  // which leave must be given back.
  async enter(name) {
    return this.groups.enter(() => this.groups.of(name));
  }

  leave(g) {
    this.groups.leave(g);
  }

  // apply runs change(state) on the registry and restarts the groups whose configuration it changed. A change that
  // throws leaves everything as it was; a configuration that workerd refuses is rolled back and reported as 10021.
  apply(change, { restart = true } = {}) {
    const run = async () => {
      const before = this.registry.snapshot();
      let result;
      try {
        result = await change(this.registry.state);
      } catch (err) {
        this.registry.restore(before);
        throw err;
      }
      if (!restart) {
        this.registry.save();
        return result;
      }
      const started = Date.now();
      const keep = { placement: new Map(this.groups.placement), nextGroup: this.groups.nextGroup };
      try {
        await this.#realize(await this.#planKeeping(this.registry.state));
      } catch (err) {
        const detail = err.detail ?? "";
        this.registry.restore(before);
        this.groups.placement = keep.placement;
        try {
          await this.#realize(this.#plan(before));
        } catch (err2) {
          this.logger(`rollback failed: ${err2.message}`);
        }
        throw new EdgeError(
          400,
          SCRIPT_INVALID,
          `the new configuration failed to start on workerd: ${cleanError(err)}${detail}`,
        );
      } finally {
        this.lastRestartMs = Date.now() - started;
      }
      this.registry.save();
      return result;
    };
    const p = this.chain.then(run, run);
    this.chain = p.catch(() => {});
    return p;
  }

  // cycle restarts group gid's workerd on the configuration it runs (bounds.mjs), in turn with deploys: requests
  // to the group wait, its log deliveries are flushed, and afterwards the revive sweep has its unfinished instances
  // go on from their last completed step. A start that fails is tried once more. With ifPid, only a group whose
  // workerd is still that pid is cycled (one that died). It answers whether it cycled.
  cycle(gid, reason, ifPid) {
    const run = async () => {
      const g = this.groups.get(gid);
      if (this.closed || !g || !g.mf || !g.spec) return false;
      if (ifPid !== undefined && g.pid !== ifPid) return false;
      this.logger(`cycling workerd group ${gid} (pid ${g.pid}): ${reason}`);
      const started = Date.now();
      const fresh = ifPid !== undefined;
      try {
        await this.groups.cycle(g, { fresh });
      } catch (err) {
        this.logger(
          `cycling workerd group ${gid}: the new workerd failed to start (${cleanError(err)}${err.detail ?? ""}); trying once more`,
        );
        await this.groups.cycle(g, { fresh });
      }
      this.logger(`cycled workerd group ${gid} in ${Date.now() - started} ms (pid ${g.pid})`);
      this.sweep(g);
      this.onWorkerdStarted?.();
      return true;
    };
    const p = this.chain.then(run, run);
    this.chain = p.catch(() => {});
    return p;
  }

  // instanceEnded notes that instance id of Workflow rt ended at endMs: the group that ran it (its shard's, for a
  // Workflow in shards) runs instances (health.mjs), so a shard that met a blocking error clears once one of its own
  // instances ends after it.
  instanceEnded(rt, endMs, id) {
    const gids = this.shardGroups(rt);
    const gid =
      gids !== null && id !== undefined ? gids[this.shardIndex(rt, id, gids.length)] : this.groups.owner.wf.get(rt);
    if (gid !== undefined) this.groups.health.ran(gid, endMs);
  }

  // hold runs fn in turn with configuration changes (a deploy waits for it) while deletes of Workflow instances wait
  // (EngineUse.freeze), for a backup's copy (backup.mjs): the workerds go on serving, and the copy takes each store's
  // SQLite file through SQLite's online backup. fn is given stopped(f), which runs f with every workerd stopped, for
  // a store that could not be copied while it was written.
  hold(fn) {
    const run = async () => {
      await this.engineUse.freeze();
      try {
        // what a delete that just ended does after it (dropping the instance from the index) runs before the copy
        await new Promise((resolve) => setImmediate(resolve));
        await fn({ stopped: (f) => this.#stopped(f) });
      } finally {
        this.engineUse.thaw();
      }
    };
    const p = this.chain.then(run, run);
    this.chain = p.catch(() => {});
    return p;
  }

  // #stopped runs fn with every workerd stopped, from inside the chain: it holds the requests of every group (they
  // wait, as during a restart), stops the groups' and the D1 databases' workerds, runs fn, and starts the groups
  // again (whose revive sweep resumes their unfinished instances). D1 databases start again on their next request.
  async #stopped(fn) {
    const releases = [];
    for (const g of this.groups.list()) {
      let release;
      const wait = new Promise((r) => (release = r));
      g.restarting = wait;
      releases.push(() => {
        if (g.restarting === wait) g.restarting = null;
        release();
      });
    }
    try {
      await this.d1.pause(async () => {
        await this.groups.stopAll();
        await fn();
      });
    } finally {
      try {
        await this.#realize(this.#plan(this.registry.state));
      } finally {
        for (const r of releases) r();
      }
    }
  }

  // #plan works out the groups of a registry state (plan.mjs), from the placement the groups have now.
  #plan(state) {
    return planGroups(state, this.groups, {
      d1URL: (databases) => this.d1.bindingURL(databases),
      logger: this.logger,
      shardsOf: (rt) => this.shardsOf(rt),
      // a Workflow that may run in shards: workers bind it through the edge (decision 776)
      mayShard: (rt) => this.shardPolicy.max > 1 || this.shardsOf(rt) > 1,
    });
  }

  // #planKeeping is #plan(state), made sure first that no shard it would stop holds an instance the index does not
  // know of yet: one created a moment ago whose answer has not come back, or one a worker made whose answer was lost
  // (the index is what keeps a shard that holds an instance: #heldShard). The shards to stop take no new create
  // (#running), the requests under way in them end (a bounded wait, as before a restart), and the index learns of
  // every instance their engines hold (this.syncShard, a full list of each); a Workflow with one there keeps the
  // shard (ShardPolicy.floor), and the plan is made again. Those still to stop take no create until they have.
  async #planKeeping(state) {
    const plan = this.#plan(state);
    const leaving = [];
    for (const [rt, gids] of this.groups.shards) {
      // (a Workflow the change deletes loses its shards with its instances)
      if (!plan.owner.wf.has(rt)) continue;
      gids.forEach((gid, k) => {
        if (k > 0 && !plan.groups.has(gid) && this.groups.get(gid)?.entry) leaving.push({ rt, gid, k });
      });
    }
    if (leaving.length === 0 || this.syncShard === undefined) return plan;
    const gs = [...new Set(leaving.map((x) => x.gid))].map((gid) => this.groups.get(gid));
    for (const g of gs) g.leaving = true;
    await Promise.all(gs.map((g) => this.groups.drained(g)));
    await Promise.all(
      leaving.map(({ rt, k }) =>
        this.syncShard(rt, k).catch((err) => this.logger(`workflow ${rt}: listing shard ${k}: ${cleanError(err)}`)),
      ),
    );
    for (const { rt } of leaving) this.shardPolicy.floor(rt, this.#heldShard(rt));
    const again = this.#plan(state);
    for (const g of gs) if (again.groups.has(g.id)) g.leaving = false;
    return again;
  }

  // #realize brings the groups to plan (Groups.realize) and then revives the instances of the groups it started or
  // restarted and tells the edge's loopback gate of their workerds.
  async #realize(plan) {
    try {
      await this.#realizeNow(plan);
    } finally {
      // a shard that #planKeeping kept from creates and then did not stop (the change failed) takes them again
      for (const g of this.groups.list()) g.leaving = false;
    }
  }

  async #realizeNow(plan) {
    const changed = await this.groups.realize(plan);
    for (const g of changed) if (g.mf) this.sweep(g);
    if (changed.length > 0) this.onWorkerdStarted?.();
  }

  // #controlGroup finds the group whose control worker holds what a control request is about: the KV namespace
  // (ns), R2 bucket (bucket) or Workflow (workflow) it names; the home group otherwise.
  // The query is parsed only when the body does not name the resource: most calls name it there, and building a URL
  // for every control call showed in profiles of the soak test.
  #controlGroup(pathname, body) {
    const q = () => new URL(pathname, "http://control").searchParams;
    let gid;
    if (pathname.startsWith("/kv/")) gid = this.groups.owner.kv.get(body?.ns ?? q().get("ns"));
    else if (pathname.startsWith("/r2/")) gid = this.groups.owner.r2.get(body?.bucket ?? q().get("bucket"));
    else if (pathname.startsWith("/wf/")) gid = this.groups.owner.wf.get(body?.workflow);
    return gid ?? HOME_GROUP;
  }

  // control calls a control worker inside workerd (the one of the group holding what the request names); with
  // init.response it answers the Response itself (a stream, read after the group is left: it does not hold a restart
  // back), which init.signal may abort. A request that dies on the socket before any response (a keep-alive connection workerd closed at that moment, or a
  // restart) is sent once more; the result says so in `retried` for callers that must tell their own earlier
  // attempt from someone else's.
  async control(pathname, body, init = {}) {
    // the instances this call asks the engine about: archived ones are left out (or refused) and the others are in
    // use until it answers, so that the archive never deletes an instance under it nor a call re-creates a deleted
    // one (engineuse.mjs)
    // a delete waits while a backup copies (EngineUse.freeze)
    if (pathname === "/wf/delete") return await this.engineUse.deleteCall(() => this.#routed(pathname, body, init));
    const ids = instanceIds(pathname, body);
    if (ids === null) return await this.#routed(pathname, body, init);
    const kept = this.engineUse.keep(body.workflow, ids);
    try {
      if (body.ids !== undefined) return await this.#routed(pathname, { ...body, ids: kept }, init);
      if (kept.length === 0)
        throw new EdgeError(404, 10201, `Workflow instance '${body.id}' not found: it was archived meanwhile`);
      return await this.#routed(pathname, body, init);
    } finally {
      this.engineUse.release(body.workflow, kept);
    }
  }

  // hasRoom tells whether every workerd that runs Workflow rt (its group, or each of its shards) is within half its
  // bounds (bounds.mjs): the archive lets finished instances wait a little then (api/archive.mjs).
  hasRoom(rt) {
    const gids = this.shardGroups(rt) ?? [this.groups.owner.wf.get(rt)];
    return this.bounds !== undefined && gids.every((g) => g !== undefined && this.bounds.hasRoom(g));
  }

  // shardGroups is the group ids of Workflow rt's shards, shard 0 first, or null when it runs in one workerd.
  shardGroups(rt) {
    const ids = this.groups.shards.get(rt);
    return ids && ids.length > 1 ? ids : null;
  }

  // shardIndex is the shard that holds instance id of Workflow rt: the one its index record names (the edge records
  // the shard of every instance it creates in a sharded Workflow), else shard 0, where the instances that workers
  // create through their bindings live (worker requests go to shard 0). A shard that no longer runs counts as 0.
  shardIndex(rt, id, n) {
    const rec = this.registry.instanceRecord(rt, id);
    const k = rec ? (rec.shard ?? 0) : (this.shardHints.get(`${rt}\n${id}`) ?? 0);
    return k < n ? k : 0;
  }

  // noteShard notes that instance id of Workflow rt was created in shard k, until the index records it.
  noteShard(rt, id, k) {
    this.shardHints.set(`${rt}\n${id}`, k);
    if (this.shardHints.size > SHARD_HINTS) this.shardHints.delete(this.shardHints.keys().next().value);
  }

  // enterCreate is enter for a request to worker `name`'s create path (POST /__edgeflow/instances, decision 200)
  // naming instance ids: for a worker whose group runs in shards, the shard the first id picks, where the worker's
  // Workflow binding creates every instance of the request; the runtime notes that shard for each id until the index
  // records it (a batch goes whole to one shard, whose answer the worker gives as one). With read, the request reads
  // instance ids[0] and goes to its shard. With count false the creates are not counted for the shard policy (the
  // caller counts those that were made: countCreated).
  async enterCreate(name, ids, { read = false, count = true } = {}) {
    const gid = this.groups.placement.get(name);
    const rts = [...this.groups.shards].filter(([, gids]) => gids[0] === gid);
    if (rts.length === 0 || ids.length === 0) return this.enter(name);
    // a read of one instance (the generated worker's `?instanceId=` status, an event) goes to the shard that holds
    // it: the one the index (or a hint) gives under whichever of the group's Workflows knows the id, else shard 0
    if (read) {
      const [rt, gids] =
        rts.find(([w]) => this.registry.instanceRecord(w, ids[0]) || this.shardHints.has(`${w}\n${ids[0]}`)) ?? rts[0];
      const k = this.shardIndex(rt, ids[0], gids.length);
      return this.groups.enter(() => this.groups.get(gids[k]) ?? this.groups.of(name));
    }
    const gids = rts[0][1];
    const k = this.#createShard(rts, gids, ids[0]);
    for (const [rt] of rts) {
      if (count) this.shardPolicy.created(rt, ids.length);
      for (const id of ids) this.noteShard(rt, id, k);
    }
    return this.groups.enter(() => this.groups.get(gids[k]) ?? this.groups.of(name));
  }

  // countCreated counts n instances created through worker `name`'s create path for the shard policy of every
  // Workflow its group runs, in shards or not yet (only creates that were made: a refused request does not grow a
  // Workflow).
  countCreated(name, n) {
    const gid = this.groups.placement.get(name);
    if (gid === undefined || n <= 0) return;
    for (const [rt, owner] of this.groups.owner.wf) if (owner === gid) this.shardPolicy.created(rt, n);
  }

  // #createShard is the shard of gids (a group's shards, for its Workflows rts) that a create of instance id goes to:
  // the one a record or a note gives (an id sent before: a batch that failed is created again one by one), else the
  // one its id picks, unless that shard's workerd is starting (a Workflow that just grew) while another runs: then
  // the first that runs, so that creates do not wait for a workerd to start (decision 796). Where an instance lives
  // is recorded (a note, then the index), so every later call finds it.
  #createShard(rts, gids, id) {
    const known = rts.find(([w]) => this.registry.instanceRecord(w, id) || this.shardHints.has(`${w}\n${id}`));
    if (known) return this.shardIndex(known[0], id, gids.length);
    return this.#running(gids, shardOf(id, gids.length));
  }

  // #running answers shard k of gids if its workerd runs and it is not about to stop (#planKeeping), else the first
  // shard that is so (k when none is).
  #running(gids, k) {
    const up = (gid) => {
      const g = this.groups.get(gid);
      return g !== undefined && Boolean(g.entry) && !g.restarting && !g.leaving;
    };
    if (up(gids[k])) return k;
    const j = gids.findIndex(up);
    return j >= 0 ? j : k;
  }

  // enterCreateParts is enterCreate for a batch of creates (ids in order) that the edge splits by shard, so that each
  // shard creates its own instances at the same time (decision 793): it answers [{group, indexes, k}], each shard's
  // entered group with the positions of the ids it creates and its shard, and notes each id's shard until the index
  // records it. The creates are not counted for the shard policy (the caller counts those made: countCreated).
  // It answers null when the worker's group does not run in shards or every id picks one shard (enterCreate then).
  async enterCreateParts(name, ids) {
    const gid = this.groups.placement.get(name);
    const rts = [...this.groups.shards].filter(([, gids]) => gids[0] === gid);
    if (rts.length === 0 || ids.length < 2) return null;
    const gids = rts[0][1];
    const parts = new Map();
    ids.forEach((id, i) => {
      const k = this.#createShard(rts, gids, id);
      if (!parts.has(k)) parts.set(k, []);
      parts.get(k).push(i);
    });
    if (parts.size < 2) return null;
    for (const [rt] of rts) for (const [k, indexes] of parts) for (const i of indexes) this.noteShard(rt, ids[i], k);
    const out = [];
    try {
      for (const [k, indexes] of parts)
        out.push({
          group: await this.groups.enter(() => this.groups.get(gids[k]) ?? this.groups.of(name)),
          indexes,
          k,
        });
    } catch (err) {
      for (const part of out) this.leave(part.group);
      throw err;
    }
    return out;
  }

  // #routed sends a control call to the shard of the Workflow instance(s) it names (plan.mjs): a create's items go to
  // the shards their ids pick (an item without an id gets a random UUID first, as the engine would give it), a call
  // naming several instances is split by shard and its answers merged in the order of its ids. Calls of a Workflow
  // that runs in one workerd, and all other calls, go where #controlGroup says.
  async #routed(pathname, body, init) {
    // creates count towards a Workflow's shard policy (shards.mjs)
    if (pathname === "/wf/create")
      this.shardPolicy.created(
        body.workflow,
        body.count ?? (Array.isArray(body.instances) ? body.instances.length : 0),
      );
    const gids = pathname.startsWith("/wf/") ? this.shardGroups(body?.workflow) : null;
    if (gids === null) return await this.#control(pathname, body, init);
    const n = gids.length;
    if (pathname === "/wf/create") return await this.#createSharded(body, init, gids);
    if (Array.isArray(body.ids)) {
      const parts = new Map();
      for (const id of body.ids) {
        const k = this.shardIndex(body.workflow, id, n);
        if (!parts.has(k)) parts.set(k, []);
        parts.get(k).push(id);
      }
      const answers = await Promise.all(
        [...parts].map(([k, ids]) => this.#control(pathname, { ...body, ids }, init, gids[k])),
      );
      const retried = answers.some((a) => a?.retried);
      const out = mergeById(pathname, body.ids, answers);
      if (retried && out && typeof out === "object") Object.defineProperty(out, "retried", { value: true });
      return out;
    }
    if (typeof body.id === "string")
      return await this.#control(pathname, body, init, gids[this.shardIndex(body.workflow, body.id, n)]);
    return await this.#control(pathname, body, init);
  }

  // #createSharded creates the items of a create call in the shards their ids pick (an existing index record's shard
  // for an id the edge knows, as for an archived instance made live again). Each shard gets one call with its items;
  // the answer is the engine's ({created, errors}, indexes into the call's items) for the whole list, plus `shards`
  // (id -> shard) for the index. A shard whose call fails refuses its items with that error; when every shard
  // fails, the call fails.
  async #createSharded(body, init, gids) {
    const n = gids.length;
    const rt = body.workflow;
    const items = (
      body.count !== undefined ? Array.from({ length: body.count }, () => ({ params: body.params })) : body.instances
    ).map((x) => (x.id !== undefined ? x : { ...x, id: randomUUID() }));
    const parts = new Map();
    items.forEach((x, i) => {
      const rec = this.registry.instanceRecord(rt, x.id);
      const k = rec ? this.shardIndex(rt, x.id, n) : this.#running(gids, shardOf(x.id, n));
      if (!parts.has(k)) parts.set(k, []);
      parts.get(k).push(i);
    });
    const settled = await Promise.allSettled(
      [...parts].map(([k, idx]) =>
        this.#control("/wf/create", { workflow: rt, instances: idx.map((i) => items[i]) }, init, gids[k]),
      ),
    );
    if (settled.every((r) => r.status === "rejected")) throw settled[0].reason;
    const refused = new Map();
    const shards = {};
    let retried = false;
    [...parts].forEach(([k, idx], j) => {
      const r = settled[j];
      if (r.status === "rejected") {
        const err = r.reason;
        for (const i of idx)
          refused.set(i, { index: i, id: items[i].id, code: err.code ?? 10001, message: String(err.message) });
        return;
      }
      if (r.value.retried) retried = true;
      for (const e of r.value.errors) refused.set(idx[e.index], { ...e, index: idx[e.index] });
      for (const id of r.value.created) shards[id] = k;
    });
    const created = items.flatMap((x, i) => (refused.has(i) ? [] : [x.id]));
    const errors = [...refused.values()].sort((a, b) => a.index - b.index);
    const out = { created, errors, shards };
    if (retried) Object.defineProperty(out, "retried", { value: true });
    return out;
  }

  // #control sends a control call to group gid, or to the group #controlGroup picks.
  async #control(pathname, body, init, gid) {
    for (let attempt = 0; ; attempt++) {
      const g = await this.groups.enter(
        () => this.groups.get(gid ?? this.#controlGroup(pathname, body)) ?? this.groups.get(HOME_GROUP),
        { draining: init.fromWorker === true },
      );
      try {
        const req = {
          method: init.method ?? "POST",
          headers: {
            "MF-Route-Override": CONTROL_WORKER,
            "accept-encoding": "identity",
            ...(init.headers ?? {}),
            [GATE_HEADER]: this.gateSecret,
          },
          body: init.raw !== undefined ? init.raw : body === undefined ? undefined : JSON.stringify(body),
          ...(init.signal ? { signal: init.signal } : {}),
        };
        if (init.response) return await g.entry.fetch(pathname, req);
        const out = JSON.parse((await this.#request(g, pathname, req)).text);
        if (!out.ok) throw new EdgeError(out.status ?? 500, out.code ?? INTERNAL_ERROR, out.message);
        if (attempt > 0 && out.result && typeof out.result === "object")
          Object.defineProperty(out.result, "retried", { value: true });
        return out.result;
      } catch (err) {
        if (attempt === 0 && isSocketError(err)) continue;
        throw err;
      } finally {
        this.leave(g);
      }
    }
  }

  // #request sends a request to group g's workerd on the runtime's kept-alive connections over its entry socket and
  // answers {status, text}. It is node:http rather than fetch: in profiles of bursts undici's fetch cost about twice
  // the CPU per call on these small local requests (decision 304). A body that is not a string or bytes (a stream)
  // goes through fetch instead. Failing before any answer (a kept-alive connection workerd closed, a restart) is a
  // socket error, which callers may retry once, as they do for fetch's "fetch failed".
  #request(g, pathname, { method = "GET", headers = {}, body } = {}) {
    if (body !== undefined && typeof body !== "string" && !(body instanceof Uint8Array)) {
      return g.entry
        .fetch(pathname, { method, headers, body })
        .then(async (res) => ({ status: res.status, text: await res.text() }));
    }
    return g.entry.request(pathname, { method, headers, body, agent: this.agent });
  }

  // scheduled runs the scheduled handler of the worker with runtime name `name` for cron expression `cron` at time
  // (a Date), through miniflare's trigger route on its group's entry socket (MF-Route-Override names the worker).
  // It answers the handler's outcome: "ok", or what went wrong ("exception", …).
  async scheduled(name, cron, time) {
    const g = await this.enter(name);
    try {
      const q = new URLSearchParams({ cron, time: String(time.getTime()) });
      const res = await this.#request(g, `/cdn-cgi/local/scheduled?${q}`, {
        method: "GET",
        headers: { "MF-Route-Override": name },
      });
      // 200 "ok", or 500 with the outcome; anything else did not reach the handler
      if (res.status !== 200 && !(res.status === 500 && /^[a-zA-Z]+$/.test(res.text))) {
        throw new Error(`workerd answered ${res.status} ${res.text.slice(0, 200)}`);
      }
      return res.text;
    } finally {
      this.leave(g);
    }
  }

  // d1Query runs an API query on a D1 database ({db, sql, params, batch, raw, readOnly}); see d1host.mjs.
  async d1Query(body) {
    try {
      return await this.d1.query(body);
    } catch (err) {
      if (err?.code !== undefined && err?.status !== undefined) throw new EdgeError(err.status, err.code, err.message);
      throw err;
    }
  }

  // explorer calls miniflare's local explorer API (workflow instance listing and details) of the group that runs
  // the Workflow the path names.
  async explorer(pathname, init = {}) {
    const one = /^\/workflows\/([^/?]+)\/instances\/([^/?]+)$/.exec(pathname);
    if (one) {
      const [workflow, id] = [decodeURIComponent(one[1]), decodeURIComponent(one[2])];
      const kept = this.engineUse.keep(workflow, [id]);
      if (kept.length === 0)
        return {
          status: 404,
          body: { success: false, errors: [{ code: 10201, message: `instance '${id}' was archived` }] },
        };
      try {
        return await this.#explorer(pathname, init);
      } finally {
        this.engineUse.release(workflow, kept);
      }
    }
    // a list page opens every instance file of the Workflow in workerd: never while one of its instances is deleted
    const list = /^\/workflows\/([^/?]+)\/instances(\?|$)/.exec(pathname);
    if (list) return await this.engineUse.list(decodeURIComponent(list[1]), () => this.#explorer(pathname, init));
    return await this.#explorer(pathname, init);
  }

  // #explorer asks the explorer of the group that runs the Workflow the path names: for a sharded Workflow, the shard
  // of the instance the path names, every shard (once each) for a delete of the Workflow, else shard init.shard (0 by
  // default).
  async #explorer(pathname, init) {
    const m = /^\/workflows\/([^/?]+)(?:\/instances\/([^/?]+))?/.exec(pathname);
    const rt = m ? decodeURIComponent(m[1]) : null;
    let gid = rt !== null ? this.groups.owner.wf.get(rt) : undefined;
    const gids = rt !== null ? this.shardGroups(rt) : null;
    if (gids !== null) {
      if (m[2] !== undefined) gid = gids[this.shardIndex(rt, decodeURIComponent(m[2]), gids.length)];
      else if (init.method === "DELETE" && init.shard === undefined) {
        const all = await Promise.all(gids.map((g) => this.#explorerAt(pathname, init, g)));
        return all.find((r) => r.status !== 200) ?? all[0];
      } else gid = gids[init.shard ?? 0] ?? gids[0];
    }
    return await this.#explorerAt(pathname, init, gid);
  }

  async #explorerAt(pathname, init, gid) {
    for (let attempt = 0; ; attempt++) {
      const g = await this.groups.enter(() => this.groups.get(gid ?? HOME_GROUP) ?? this.groups.get(HOME_GROUP));
      try {
        // a group that runs no Workflow has no explorer (groups.mjs): no Workflow the path names is there
        if (g.workflows.length === 0) return { status: 404, body: NO_WORKFLOW };
        const res = await this.#request(g, `/cdn-cgi/local/explorer/api${pathname}`, {
          method: init.method,
          headers: { "accept-encoding": "identity" },
        });
        return { status: res.status, body: JSON.parse(res.text) };
      } catch (err) {
        if (attempt === 0 && isSocketError(err)) continue;
        throw err;
      } finally {
        this.leave(g);
      }
    }
  }

  // sweep revives every unfinished instance of every workflow group g runs (every group's without g). It runs after
  // each start and restart of a group; a sweep requested while one runs starts again when that one ends.
  sweep(g) {
    if (g === undefined) return Promise.all(this.groups.list().map((x) => this.sweep(x)));
    if (g.sweeping) {
      g.sweepAgain = true;
      return g.sweeping;
    }
    g.sweeping = (async () => {
      do {
        g.sweepAgain = false;
        try {
          const n = await this.#sweepOnce(g);
          if (n > 0) this.logger(`revived ${n} in-flight workflow instance(s)`);
          // a restarted group with nothing left to run has nothing to prove (health.mjs)
          else this.groups.health.idle(g.id);
        } catch (err) {
          if (!this.closed) this.logger(`revive sweep failed: ${err.message}`);
        }
      } while (g.sweepAgain && !this.closed);
      g.sweeping = null;
    })();
    return g.sweeping;
  }

  async #sweepOnce(g) {
    let total = 0;
    for (const wf of g.workflows) {
      const ids = await this.#unfinishedIn(g, wf);
      for (let i = 0; i < ids.length; i += 100) {
        const r = await this.control("/wf/revive", { workflow: wf, ids: ids.slice(i, i + 100) });
        total += r.revived;
      }
    }
    return total;
  }

  // #unfinishedIn lists the unfinished instances of Workflow wf that group g runs: a shard runs its own (the calls on
  // them reach each instance's shard).
  async #unfinishedIn(g, wf) {
    const ids = await this.unfinishedInstances(wf);
    const gids = this.shardGroups(wf);
    return gids === null ? ids : ids.filter((id) => this.shardIndex(wf, id, gids.length) === g.shard);
  }

  // #stepping counts group g's Workflow instances that run a step now, for the settle before a restart (groups.mjs,
  // decision 799); TOO_MANY_TO_SETTLE when one of its Workflows holds more than SETTLE_MAX unfinished instances in
  // the group, which it does not wait for.
  async #stepping(g) {
    if (this.steppingOf === null) return 0;
    const all = [];
    for (const wf of g.workflows) {
      const ids = await this.#unfinishedIn(g, wf);
      if (ids.length > SETTLE_MAX) return TOO_MANY_TO_SETTLE;
      all.push([wf, ids]);
    }
    let n = 0;
    for (const [wf, ids] of all) if (ids.length > 0) n += await this.steppingOf(wf, ids);
    return n;
  }

  // listInstances returns [{id, status, created_on}] of a workflow (miniflare's statuses), newest first.
  async listInstances(workflow, { status } = {}) {
    const all = [];
    for (let page = 1; ; page++) {
      const q = new URLSearchParams({ page: String(page), per_page: "100" });
      if (status) q.set("status", status);
      const { status: code, body } = await this.explorer(`/workflows/${encodeURIComponent(workflow)}/instances?${q}`);
      if (code !== 200 || !body.success) break;
      for (const it of body.result) if (it.status !== undefined) all.push(it);
      const info = body.result_info ?? {};
      if (page >= (info.total_pages ?? 1) || body.result.length === 0) break;
    }
    return all;
  }

  async #unfinishedFromExplorer(workflow) {
    const unfinished = new Set(["queued", "running", "waiting", "waitingForPause"]);
    return (await this.listInstances(workflow)).filter((it) => unfinished.has(it.status)).map((it) => it.id);
  }
}

// NO_WORKFLOW is the explorer's answer for a Workflow that no group runs.
const NO_WORKFLOW = Object.freeze({
  success: false,
  errors: [{ code: WORKFLOW_NOT_FOUND, message: "Workflow not found" }],
  messages: [],
  result: null,
});

// SETTLE_MAX is the most unfinished instances a Workflow may hold in a group for a change to wait for the group's
// running steps before restarting it (#stepping): each look reads the details of the running ones, and so many would
// not all reach a step's end within the bound.
const SETTLE_MAX = 64;

// SHARD_HINTS bounds the shards noted for instances the index does not hold yet (Runtime.enterCreate).
const SHARD_HINTS = 100000;

// INSTANCE_CALLS are the control worker's calls that address instances of a Workflow (body.id or body.ids); creates
// and deletes are left to their callers (the archive orders its deletes itself, engineuse.mjs).
const INSTANCE_CALLS = new Set([
  "/wf/status",
  "/wf/statuses",
  "/wf/action",
  "/wf/event",
  "/wf/revive",
  "/wf/rollback",
  "/wf/events",
  "/wf/step",
  "/wf/subscribe",
]);

// instanceIds answers the instance ids a control call addresses, or null for a call that addresses none.
function instanceIds(pathname, body) {
  if (!INSTANCE_CALLS.has(pathname) || typeof body?.workflow !== "string") return null;
  if (Array.isArray(body.ids)) return body.ids;
  return typeof body.id === "string" ? [body.id] : null;
}

// mergeById merges the answers of one call split by shard (Runtime.#routed) in the order of ids: statuses as one list,
// revives as one count, deletes as one {deleted, errors}.
function mergeById(pathname, ids, answers) {
  const order = new Map(ids.map((id, i) => [id, i]));
  const byOrder = (a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0);
  if (pathname === "/wf/revive") return { revived: answers.reduce((n, a) => n + (a.revived ?? 0), 0) };
  if (pathname === "/wf/delete")
    return {
      deleted: answers.flatMap((a) => a.deleted ?? []).sort(byOrder),
      errors: answers.flatMap((a) => a.errors ?? []).sort(byOrder),
    };
  if (answers.every((a) => Array.isArray(a))) return answers.flat().sort(byOrder);
  return answers[0];
}

function isSocketError(err) {
  return (err instanceof TypeError && err.message === "fetch failed") || err?.beforeAnswer === true;
}

function cleanError(err) {
  return String(err?.message ?? err).split("\n")[0];
}
