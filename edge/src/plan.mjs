// Planning the groups: which group of workerd runs each deployed worker and opens each KV namespace, R2 bucket and
// Workflow, and what each group's configuration is, worked out from the registry's state alone (pure: no process is
// started, no file read). groups.mjs brings the running groups to a plan; runtime.mjs takes a plan at every start and
// every change.
//
// Workers that reach each other inside workerd (service bindings, Workflows or Durable Objects of another script) or
// share a KV namespace or R2 bucket form one component and always share a group, since those bindings and the storage
// files work only within one workerd. Components are packed into groups of up to GROUP_SIZE workers; a worker keeps
// its group for as long as the edge runs. Each KV namespace, R2 bucket and Workflow is opened by exactly one group
// (the one whose workers bind it, else the home group), whose control worker serves the REST API for it. D1
// databases run in workerds of their own (d1host.mjs) and are reached from every group.

import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { Naming, accountStates } from "./accounts.mjs";
import { USER_IO_WORKER } from "./outbound.mjs";

// GROUP_SIZE is the number of workers a group is filled to before a new group starts (a component of workers bound
// to each other may make a group larger).
export const GROUP_SIZE =
  Number(process.env.EDGEFLOW_EDGE_GROUP_SIZE) > 0 ? Math.floor(Number(process.env.EDGEFLOW_EDGE_GROUP_SIZE)) : 4;
export const HOME_GROUP = "home";
// GONE_PLUGIN is the miniflare plugin that gives a worker the bindings of deleted KV namespaces, D1 databases and
// R2 buckets (goneplugin.mjs, gone.worker.js), named by its module's path.
export const GONE_PLUGIN = {
  package: fileURLToPath(new URL("./goneplugin.mjs", import.meta.url)),
  name: "edgeflow-gone",
};
// SHARDWF_PLUGIN is the miniflare plugin that gives a worker the Workflow binding of a Workflow that may run in
// shards (shardwfplugin.mjs, shardwf.worker.js; decision 776), named by its module's path.
export const SHARDWF_PLUGIN = {
  package: fileURLToPath(new URL("./shardwfplugin.mjs", import.meta.url)),
  name: "edgeflow-shardwf",
};
// EDGEFLOW_WORKER is the binding that marks a worker edgeflow deployed (its deployment token, codegen's
// WorkerTokenBinding).
const EDGEFLOW_WORKER = "EDGEFLOW_WORKER_TOKEN";
// MAX_COMPAT_DATE is the newest compatibility date the pinned workerd knows (its release date, the date in its
// version 1.YYYYMMDD.n): workerd refuses newer dates, so a worker uploaded with one runs with this date
// (docs/edge.md, "Moving to the next workerd and miniflare").
export const MAX_COMPAT_DATE = "2026-11-17";

// planGroups works out, from a registry state, every group's workers and storage and its fingerprint: {groups (id
// -> {workers, kv, r2, wf, fingerprint}), placement (worker's workerd name -> group id), owner ({kv, r2, wf}: each
// resource -> the group that opens it), nextGroup}. previous is the placement so far ({placement, nextGroup}):
// workers keep the group they have; a component of bound workers spread over several groups (a new binding joined
// them) moves into one; new components fill the smallest group with room, or a new one. It reads no code blobs and
// starts nothing; env gives what worker options need from outside: {d1URL(databases), logger, groupSize}, where
// databases maps a worker's D1 binding names to database ids.
export function planGroups(state, previous, env) {
  const groupSize = env.groupSize ?? GROUP_SIZE;
  const entries = []; // {name, w, version}
  const all = { kv: [], r2: [], wf: [] };
  for (const [id, acct, legacy] of accountStates(state)) {
    const names = new Naming(id, legacy);
    const canonical = canonicalWorkflows(acct);
    const deployed = new Set(Object.keys(acct.scripts).filter((n) => acct.scripts[n].current));
    for (const nsId of Object.keys(acct.kv)) all.kv.push(nsId);
    for (const bucket of Object.keys(acct.r2)) all.r2.push(names.bucket(bucket));
    for (const [name, def] of Object.entries(canonical)) {
      all.wf.push({ rt: names.workflow(name), className: def.className, scriptName: names.script(def.scriptName) });
    }
    for (const name of [...deployed].sort()) {
      const script = acct.scripts[name];
      const version = script.versions.find((v) => v.id === script.current);
      // classes: the Workflow classes this script runs, which instrument() tags with their instance id.
      const classes = Object.values(canonical)
        .filter((d) => d.scriptName === name)
        .map((d) => d.className);
      entries.push({
        name: names.script(name),
        w: workerOptions(name, version, canonical, deployed, names, acct, env),
        version,
        classes,
      });
    }
  }
  // components
  const parent = new Map(entries.map((e) => [e.name, e.name]));
  const find = (x) => {
    while (parent.get(x) !== x) {
      parent.set(x, parent.get(parent.get(x)));
      x = parent.get(x);
    }
    return x;
  };
  const union = (a, b) => {
    if (!parent.has(a) || !parent.has(b)) return;
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  };
  const holder = new Map(); // "kv:id" | "r2:bucket" -> a worker binding it
  const share = (key, name) => {
    if (holder.has(key)) union(holder.get(key), name);
    else holder.set(key, name);
  };
  for (const e of entries) {
    for (const v of Object.values(e.w.serviceBindings)) union(e.name, typeof v === "string" ? v : v.name);
    for (const v of Object.values(e.w.workflows)) if (v.scriptName) union(e.name, v.scriptName);
    for (const v of Object.values(e.w.durableObjects)) if (v.scriptName) union(e.name, v.scriptName);
    for (const id of Object.values(e.w.kvNamespaces)) share(`kv:${id}`, e.name);
    for (const b of Object.values(e.w.r2Buckets)) share(`r2:${b}`, e.name);
  }
  const components = new Map();
  for (const e of entries) {
    const r = find(e.name);
    if (!components.has(r)) components.set(r, []);
    components.get(r).push(e.name);
  }
  // placement
  const placement = new Map();
  const size = new Map();
  const put = (names, gid) => {
    for (const n of names) placement.set(n, gid);
    size.set(gid, (size.get(gid) ?? 0) + names.length);
  };
  const fresh = [];
  for (const comp of components.values()) {
    const had = [
      ...new Set(comp.map((n) => previous.placement.get(n)).filter((g) => g !== undefined && g !== HOME_GROUP)),
    ].sort(byGroupId);
    if (had.length > 0) put(comp, had[0]);
    else fresh.push(comp);
  }
  let next = previous.nextGroup;
  for (const comp of fresh) {
    let best = null;
    for (const [gid, n] of size) {
      if (n + comp.length <= groupSize && (best === null || n < size.get(best))) best = gid;
    }
    put(comp, best ?? `g${next++}`);
  }
  // storage owners and every group's spec
  const groups = new Map([[HOME_GROUP, { workers: [], kv: [], r2: [], wf: [] }]]);
  const spec = (gid) => {
    if (!groups.has(gid)) groups.set(gid, { workers: [], kv: [], r2: [], wf: [] });
    return groups.get(gid);
  };
  for (const e of entries) spec(placement.get(e.name)).workers.push(e);
  const owner = { kv: new Map(), r2: new Map(), wf: new Map() };
  for (const id of all.kv) {
    const gid = holder.has(`kv:${id}`) ? placement.get(holder.get(`kv:${id}`)) : HOME_GROUP;
    owner.kv.set(id, gid);
    spec(gid).kv.push(id);
  }
  for (const b of all.r2) {
    const gid = holder.has(`r2:${b}`) ? placement.get(holder.get(`r2:${b}`)) : HOME_GROUP;
    owner.r2.set(b, gid);
    spec(gid).r2.push(b);
  }
  for (const wf of all.wf) {
    const gid = placement.get(wf.scriptName) ?? HOME_GROUP;
    owner.wf.set(wf.rt, gid);
    spec(gid).wf.push(wf);
  }
  for (const [gid, g] of groups) {
    if (!shardable(gid, g)) continue;
    const rts = new Set(g.wf.filter((wf) => env.mayShard?.(wf.rt)).map((wf) => wf.rt));
    if (rts.size > 0) g.workers = g.workers.map((e) => shardedWorkflows(e, rts, env));
  }
  const shards = planShards(groups, owner, env);
  for (const g of groups.values()) {
    if (g.shard) continue;
    const h = createHash("sha256");
    h.update(JSON.stringify({ kv: g.kv, r2: g.r2, wf: g.wf }));
    for (const e of g.workers)
      h.update(
        JSON.stringify({
          w: e.w,
          classes: e.classes,
          code: e.version.modules.map((m) => [m.name, m.type, m.blob]),
          format: e.version.format,
        }),
      );
    g.fingerprint = h.digest("hex");
  }
  // a shard runs its primary's configuration: a deploy that changes one changes every shard of it
  for (const g of groups.values()) {
    if (g.shard) g.fingerprint = `${groups.get(g.primary).fingerprint}.s${g.shard}`;
  }
  return { groups, placement, owner, shards, nextGroup: next };
}

// SHARD_SEP joins a group id and a shard number into the shard's group id ("g1~2" is shard 2 of group g1).
export const SHARD_SEP = "~";

// shardable reports whether a group's Workflows may run in more than one workerd: not in the home group, and not
// when its workers bind Durable Objects (one object lives in one workerd). A shard reaches KV namespaces and R2
// buckets through shard 0 (shardWorker; decisions 700, 703, 775).
export function shardable(gid, spec) {
  if (gid === HOME_GROUP || spec.wf.length === 0) return false;
  return spec.workers.every((e) => Object.keys(e.w.durableObjects).length === 0);
}

// shardWorker is worker entry e as a shard runs it: its KV and R2 bindings reach the namespace or bucket in the group
// that holds it, through the same remote-binding address as its D1 bindings (miniflare takes one per worker; the
// address maps each binding to its database id, or to {kv: namespace id} or {r2: bucket}), so every shard reads and
// writes one store (decisions 703, 775).
function shardWorker(e, env) {
  const kv = Object.entries(e.w.kvNamespaces);
  const r2 = Object.entries(e.w.r2Buckets);
  if (kv.length === 0 && r2.length === 0) return e;
  const map = {};
  for (const [b, v] of Object.entries(e.w.d1Databases)) map[b] = v.id;
  for (const [b, id] of kv) map[b] = { kv: id };
  for (const [b, bucket] of r2) map[b] = { r2: bucket };
  const remote = env.d1URL(map);
  const w = { ...e.w, kvNamespaces: {}, r2Buckets: {}, d1Databases: {} };
  for (const [b, v] of Object.entries(e.w.d1Databases))
    w.d1Databases[b] = { id: v.id, remoteProxyConnectionString: remote };
  for (const [b, id] of kv) w.kvNamespaces[b] = { id, remoteProxyConnectionString: remote };
  for (const [b, bucket] of r2) w.r2Buckets[b] = { id: bucket, remoteProxyConnectionString: remote };
  return { ...e, w };
}

// shardedWorkflows is worker entry e with its bindings to the Workflows rts (of its group, which may run in shards)
// served by the edge (shardwf.worker.js): whatever shard a request of the worker runs in, its binding reaches every
// instance of the Workflow, in the shard that holds it, and creates each in the shard its id picks (decision 776).
// A service-worker script cannot have wrapped bindings and keeps miniflare's. So does a worker edgeflow deployed (it
// binds EDGEFLOW_WORKER_TOKEN): the edge routes each of its requests that names an instance (a create, a status read,
// an event) to that instance's shard itself (api.mjs), and its create path, the busiest, keeps miniflare's cost.
function shardedWorkflows(e, rts, env) {
  const mine = Object.entries(e.w.workflows).filter(([, def]) => rts.has(def.name));
  if (mine.length === 0 || e.version.format === "service-worker") return e;
  if ((e.version.metadata.bindings ?? []).some((b) => b.name === EDGEFLOW_WORKER)) return e;
  const w = { ...e.w, workflows: { ...e.w.workflows }, unsafeBindings: [...e.w.unsafeBindings] };
  for (const [b, def] of mine) {
    delete w.workflows[b];
    const url = env.d1URL({ [b]: { wf: def.name } });
    w.unsafeBindings.push({
      name: b,
      type: SHARDWF_PLUGIN.name,
      plugin: SHARDWF_PLUGIN,
      options: { workflow: def.name, address: url.host, path: url.pathname },
    });
  }
  return { ...e, w };
}

// planShards adds to groups, for each group whose Workflows run sharded, its shard groups 1..n-1 (shard 0 is the
// group itself), each running the same workers and Workflows with no KV namespace or R2 bucket of its own, and answers
// the shards of each Workflow (runtime name -> [group id of shard 0, of shard 1, ...]). Their workers' KV bindings
// reach shard 0's namespaces and buckets (shardWorker). env.shardsOf(rt) is how
// many shards Workflow rt should have (1 when it is not given); a group runs as many shards as its busiest Workflow.
function planShards(groups, owner, env) {
  const out = new Map();
  for (const [gid, spec] of [...groups]) {
    if (!shardable(gid, spec)) continue;
    const n = Math.max(1, ...spec.wf.map((wf) => Math.floor(env.shardsOf?.(wf.rt) ?? 1)));
    if (n < 2) continue;
    const ids = [gid];
    const workers = spec.workers.map((e) => shardWorker(e, env));
    for (let k = 1; k < n; k++) {
      const sid = `${gid}${SHARD_SEP}${k}`;
      groups.set(sid, { workers, kv: [], r2: [], wf: spec.wf, shard: k, primary: gid });
      ids.push(sid);
    }
    for (const wf of spec.wf) if (owner.wf.get(wf.rt) === gid) out.set(wf.rt, ids);
  }
  return out;
}

// shardOf picks the shard of instance id among n shards: a stable hash (FNV-1a, 32 bits) of the id, modulo n.
export function shardOf(id, n) {
  if (n < 2) return 0;
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % n;
}

// workerOptions builds a user worker's Miniflare options from its version, without its code (groups.mjs adds it);
// acct is its account's state (for the resources it binds).
function workerOptions(userName, version, canonical, deployed, names, acct, { d1URL, logger }) {
  const md = version.metadata;
  const name = names.script(userName);
  const w = {
    name,
    compatibilityDate: clampDate(md.compatibility_date ?? "2021-11-02"),
    compatibilityFlags: md.compatibility_flags ?? [],
    bindings: {},
    kvNamespaces: {},
    d1Databases: {},
    r2Buckets: {},
    serviceBindings: {},
    workflows: {},
    durableObjects: {},
    unsafeBindings: [],
    outboundService: USER_IO_WORKER,
  };
  // A binding to a resource deleted since the deploy fails every operation, as on Cloudflare (gone.worker.js).
  // Service-worker scripts cannot have wrapped bindings: there the binding is left out.
  const gone = (b, kind, id) => {
    if (version.format !== "service-worker")
      w.unsafeBindings.push({
        name: b.name,
        type: GONE_PLUGIN.name,
        plugin: GONE_PLUGIN,
        options: { kind, id: String(id) },
      });
    logger(`script ${name}: binding ${b.name} names ${kind} '${id}', which was deleted; its operations fail`);
  };
  const d1 = {}; // binding name -> database id, of the databases that exist
  const sqliteClasses = new Set(md.migrations?.new_sqlite_classes ?? []);
  for (const b of md.bindings ?? []) {
    switch (b.type) {
      case "plain_text":
      case "secret_text":
        w.bindings[b.name] = b.text;
        break;
      case "json":
        w.bindings[b.name] = b.json;
        break;
      case "kv_namespace":
        if (!acct.kv[b.namespace_id]) gone(b, "kv", b.namespace_id);
        else w.kvNamespaces[b.name] = b.namespace_id;
        break;
      case "d1":
        // The database runs in its own workerd; the binding reaches it through the D1 proxy (d1host.mjs).
        if (!acct.d1[b.id ?? b.database_id]) gone(b, "d1", b.id ?? b.database_id);
        else d1[b.name] = b.id ?? b.database_id;
        break;
      case "r2_bucket":
        if (!acct.r2[b.bucket_name]) gone(b, "r2", b.bucket_name);
        else w.r2Buckets[b.name] = names.bucket(b.bucket_name);
        break;
      case "service":
        if (b.service === userName || deployed.has(b.service)) {
          const svc = names.script(b.service);
          w.serviceBindings[b.name] = b.entrypoint ? { name: svc, entrypoint: b.entrypoint } : svc;
        } else {
          logger(`script ${name}: service binding ${b.name} waits for script ${b.service} to be deployed`);
        }
        break;
      case "workflow": {
        const def = canonical[b.workflow_name];
        if (def) {
          w.workflows[b.name] = {
            name: names.workflow(b.workflow_name),
            className: def.className,
            scriptName: names.script(def.scriptName),
          };
        } else {
          logger(`script ${name}: workflow binding ${b.name} waits for script ${b.script_name} to be deployed`);
        }
        break;
      }
      case "durable_object_namespace": {
        const owner = b.script_name ?? userName;
        if (owner === userName || deployed.has(owner)) {
          w.durableObjects[b.name] = {
            className: b.class_name,
            scriptName: owner === userName ? undefined : names.script(owner),
            useSQLite: sqliteClasses.has(b.class_name) || undefined,
          };
        }
        break;
      }
      default:
        break;
    }
  }
  // miniflare gives a worker one remote-binding address for all its remote bindings; the address names the
  // worker's databases by binding, and the D1 proxy picks the database by the binding each request names.
  if (Object.keys(d1).length > 0) {
    const remote = d1URL(d1);
    for (const [binding, id] of Object.entries(d1))
      w.d1Databases[binding] = { id, remoteProxyConnectionString: remote };
  }
  return w;
}

// canonicalWorkflows decides, for every workflow name, which class of which deployed script runs it: the
// registry's workflow (from PUT /workflows/{name}) first, then a binding in the owning script, then a binding
// naming another script.
export function canonicalWorkflows(state) {
  const deployed = (n) => state.scripts[n]?.current !== undefined && state.scripts[n]?.current !== null;
  const out = {};
  for (const [name, wf] of Object.entries(state.workflows)) {
    if (deployed(wf.script_name)) out[name] = { className: wf.class_name, scriptName: wf.script_name };
  }
  const bindings = [];
  for (const [sname, s] of Object.entries(state.scripts)) {
    if (!deployed(sname)) continue;
    const v = s.versions.find((x) => x.id === s.current);
    for (const b of v.metadata.bindings ?? []) if (b.type === "workflow") bindings.push([sname, b]);
  }
  for (const [sname, b] of bindings) {
    if (!out[b.workflow_name] && (!b.script_name || b.script_name === sname)) {
      out[b.workflow_name] = { className: b.class_name, scriptName: sname };
    }
  }
  for (const [, b] of bindings) {
    if (!out[b.workflow_name] && b.script_name && deployed(b.script_name)) {
      out[b.workflow_name] = { className: b.class_name, scriptName: b.script_name };
    }
  }
  return out;
}

function clampDate(d) {
  return typeof d === "string" && d > MAX_COMPAT_DATE ? MAX_COMPAT_DATE : d;
}

// byGroupId orders group ids by their number (g2 before g10).
function byGroupId(a, b) {
  return Number(a.slice(1)) - Number(b.slice(1));
}
