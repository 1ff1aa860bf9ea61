// Worker logs: what the edge keeps of each worker's console output and uncaught exceptions, and the tail sessions
// that `wrangler tail` opens (docs/edge.md, "Logs and wrangler tail"; docs/decisions.md 237-239).
//
// Capture: every user worker gets the log tail below as a streaming tail (workerd's tailStream; the tail handler is
// carried by the group's USER_IO_WORKER, outbound.mjs). workerd sends it each invocation's events as they happen
// (onset, log, exception, return, outcome); the tail worker forwards them, in order, to WorkerLogs.ingest in this
// process through a Node service binding. The tail binding carries the worker's workerd name in its props, so one
// tail worker serves every worker of its Miniflare instance, and each Miniflare instance (the edge may run several)
// gets its own copy of the tail worker wired to the same WorkerLogs.
//
// Workflow instances: the edge runs each Workflow class of a module worker through a subclass (instrument) whose
// run() first logs a marker line with the instance id, and logs a second marker with the error that escapes run()
// (workerd reports such an invocation's outcome as "exception" but without the exception). WorkerLogs removes the
// markers and tags every line of that invocation with the instance id and turns the error marker into an
// exception: the lines of overlapping instances of one workflow stay apart.

import { USER_IO_WORKER } from "./outbound.mjs";

// Limits of what the edge keeps per worker (docs/edge.md).
export const RING_LINES = 2000; // lines per worker; the oldest go first
export const RING_BYTES = 1 << 20; // bytes of messages per worker
export const LINE_BYTES = 8 * 1024; // one message is cut beyond this (marked with "… [cut]")
export const MAX_WORKERS = 1000; // workers with a ring; the ring of the worker quiet the longest goes first
const OPEN_INVOCATIONS = 1000; // invocations whose events are still being collected (for tail sessions)
const INVOCATION_LOGS = 200; // log lines kept per invocation for a tail event (Cloudflare caps them too)

const INSTANCE_MARK = "\u0000edgeflow:instance";
const ERROR_MARK = "\u0000edgeflow:exception";

// The tail worker holds an invocation's events and sends them together (one request to SINK), in order: at the
// first log line or exception (and from then on at every later one and at the outcome), or at the outcome when
// the worker has a tail session; an invocation with neither logs nor exceptions of a worker nobody tails is not
// sent at all. Every request of workerd to this process is a new TCP connection (workerd keeps none open to the
// loopback server) that the loopback gate traces through /proc, so one per event cost the edge more CPU than the
// runs themselves (decision 300). SINK answers which workers have a tail session; what it said is trusted for
// TRACED_FRESH_MS, after which the next finished invocation is sent anyway and its answer refreshes it (the
// invocations that end meanwhile are judged by the answer before).
//
// Only the events WorkerLogs reads are kept (SENT_EVENTS): the spans of the invocation's subrequests (a fetch, a
// D1 query, a KV read, a binding's RPC) are not, and their attributes carry BigInts (a status code, a body size)
// that JSON cannot write, which made the whole request fail and its lines, often every line after the first
// subrequest, be lost (decision 321). Each event is written alone, BigInts as numbers, so that one event that
// cannot be written loses only itself. The tail worker remembers the instance id of a Workflow run from its
// marker and sends it with every request of the invocation, so that a line is tagged with its run even when
// WorkerLogs no longer holds the invocation (it holds at most OPEN_INVOCATIONS open ones).
export const TRACED_FRESH_MS = 1000;
const SENT_EVENTS = ["onset", "attributes", "log", "exception", "return", "outcome"];

const LOG_TAIL_SOURCE = `
const INSTANCE_MARK = ${JSON.stringify(INSTANCE_MARK)};
const SENT_EVENTS = new Set(${JSON.stringify(SENT_EVENTS)});
let traced = new Set();
let tracedAt = -Infinity;
const plain = (k, v) => (typeof v === "bigint" ? (v >= -Number.MAX_SAFE_INTEGER && v <= Number.MAX_SAFE_INTEGER ? Number(v) : String(v)) : v);
function written(evs) {
  const out = [];
  for (const ev of evs) {
    try {
      out.push(JSON.stringify(ev, plain));
    } catch {
      // an event JSON cannot write is left out, not the others
    }
  }
  return "[" + out.join(",") + "]";
}
export default {
  tailStream(onset, env, ctx) {
    const script = ctx.props?.script ?? null;
    let held = [onset];
    let open = false;
    let instance = null;
    let chain = Promise.resolve();
    let queued = false;
    // flush queues a send of what is held when it runs; events that come while a send is under way go together
    // in the next one.
    const flush = () => {
      open = true;
      if (queued) return chain;
      queued = true;
      chain = chain
        .then(async () => {
          queued = false;
          const evs = held;
          held = [];
          if (evs.length === 0) return;
          const body = '{"script":' + JSON.stringify(script) + ',"instance":' + JSON.stringify(instance) + ',"evs":' + written(evs) + "}";
          const res = await env.SINK.fetch("http://logs.invalid/", { method: "POST", body });
          const answer = await res.json();
          if (Array.isArray(answer?.traced)) {
            traced = new Set(answer.traced);
            tracedAt = Date.now();
          }
        })
        .catch(() => {});
      // The invocation may end before a queued send is done: keep it until then, or the last lines (often the
      // error that ended a run) are lost.
      ctx.waitUntil?.(chain);
      return chain;
    };
    return (ev) => {
      const e = ev?.event;
      if (!SENT_EVENTS.has(e?.type)) return;
      if (e.type === "attributes" && !(e.info ?? []).some((a) => a?.name === "jsrpc.method")) return;
      held.push(ev);
      switch (e.type) {
        case "log": {
          const first = Array.isArray(e.message) ? e.message[0] : e.message;
          if (first === INSTANCE_MARK) {
            instance ??= (Array.isArray(e.message) ? String(e.message[1] ?? "") : "") || null;
            if (!open) return;
          }
          return flush();
        }
        case "exception":
          return flush();
        case "outcome":
          if (open || traced.has(script)) return flush();
          if (Date.now() - tracedAt > ${TRACED_FRESH_MS}) {
            // This one refreshes what SINK said; the invocations that end while it is under way need not.
            tracedAt = Date.now();
            return flush();
          }
          held = [];
          return;
        default:
          return;
      }
    };
  },
};
`;

// logTail returns the log tail's module (its default export has the tailStream handler) and the service binding
// it sends through (SINK), which forwards to logs (a WorkerLogs); tail ({inflight, last}) counts its group's
// deliveries under way and notes when the last came (a restart flushes them). The worker that carries it is the
// group's USER_IO_WORKER (outbound.mjs, groups.mjs).
export function logTail(logs, tail = { inflight: 0, last: 0 }) {
  return {
    module: { type: "ESModule", path: "logs.worker.js", contents: LOG_TAIL_SOURCE },
    serviceBindings: {
      SINK: async (req) => {
        logs.deliveries++;
        tail.inflight++;
        tail.last = Date.now();
        try {
          const { script, instance, evs } = await req.json();
          for (const ev of Array.isArray(evs) ? evs : []) logs.ingest(script, ev, instance);
        } catch (err) {
          logs.logger?.(`log capture: ${err.message}`);
        } finally {
          tail.inflight--;
          tail.last = Date.now();
        }
        return new Response(JSON.stringify({ traced: logs.traced() }), {
          headers: { "content-type": "application/json" },
        });
      },
    },
  };
}

// instrument adds the log tail to a user worker's Miniflare options w and, for a module worker, runs each of its
// Workflow classes (workflowClasses: class names) through a subclass that marks the invocation with the instance id.
export function instrument(w, workflowClasses = []) {
  w.streamingTails = [...(w.streamingTails ?? []), { name: USER_IO_WORKER, props: { script: w.name } }];
  const classes = [...new Set(workflowClasses)].filter((c) => /^[A-Za-z_$][\w$]*$/.test(c));
  if (!w.modules || w.modules.length === 0 || classes.length === 0) return w;
  const main = w.modules[0];
  if (main.type !== "ESModule") return w;
  const root = w.modulesRoot ?? "";
  const mainRel = `./${root && main.path.startsWith(`${root}/`) ? main.path.slice(root.length + 1) : main.path.split("/").pop()}`;
  const wrapperPath = `${root}/__edgeflow_entry.js`;
  const q = JSON.stringify(mainRel);
  const hasDefault = /\bexport\s+default\b|\bas\s+default\b/.test(String(main.contents));
  // The user's module is imported as a namespace: a class it does not export (or an error while it loads) is
  // then reported by workerd as without the wrapper, not as a link error of the wrapper.
  const lines = [`import * as __edgeflowUser from ${q};`, `export * from ${q};`];
  if (hasDefault) lines.push(`export { default } from ${q};`);
  lines.push(
    `function __edgeflowTagged(Base) {`,
    `  if (typeof Base !== "function") return Base;`,
    `  return class extends Base {`,
    `    async run(event, step, ...rest) {`,
    `      console.debug(${JSON.stringify(INSTANCE_MARK)}, String(event?.instanceId ?? ""));`,
    `      try {`,
    `        return await super.run(event, step, ...rest);`,
    `      } catch (err) {`,
    `        console.error(${JSON.stringify(ERROR_MARK)}, String(err?.name ?? "Error"), String(err?.message ?? err), String(err?.stack ?? ""));`,
    `        throw err;`,
    `      }`,
    `    }`,
    `  };`,
    `}`,
  );
  for (const c of classes) lines.push(`export const ${c} = __edgeflowTagged(__edgeflowUser.${c});`);
  w.modules = [{ type: "ESModule", path: wrapperPath, contents: lines.join("\n") + "\n" }, ...w.modules];
  return w;
}

// formatMessage turns console arguments (as workerd serialized them) into one line.
export function formatMessage(parts) {
  if (!Array.isArray(parts)) parts = [parts];
  const text = parts
    .map((p) => {
      if (typeof p === "string") return p;
      if (p === undefined) return "undefined";
      try {
        return JSON.stringify(p);
      } catch {
        return String(p);
      }
    })
    .join(" ");
  return cut(text);
}

function cut(text) {
  if (Buffer.byteLength(text) <= LINE_BYTES) return text;
  let s = text.slice(0, LINE_BYTES);
  while (Buffer.byteLength(s) > LINE_BYTES - 8) s = s.slice(0, -64);
  return `${s}… [cut]`;
}

function levelOf(l) {
  return ["debug", "info", "log", "warn", "error"].includes(l) ? l : "log";
}

// Ring is one worker's recent lines, bounded by RING_LINES and RING_BYTES.
class Ring {
  constructor() {
    this.lines = [];
    this.bytes = 0;
    this.dropped = 0;
    this.touched = Date.now();
    this.perInstance = new Map(); // instance id -> lines of it the ring holds
  }
  push(line) {
    this.lines.push(line);
    this.bytes += line.size;
    this.touched = Date.now();
    if (line.instanceId) this.perInstance.set(line.instanceId, (this.perInstance.get(line.instanceId) ?? 0) + 1);
    while (this.lines.length > RING_LINES || this.bytes > RING_BYTES) {
      const gone = this.lines.shift();
      this.bytes -= gone.size;
      this.dropped++;
      if (gone.instanceId) {
        const n = this.perInstance.get(gone.instanceId) - 1;
        if (n > 0) this.perInstance.set(gone.instanceId, n);
        else this.perInstance.delete(gone.instanceId);
      }
    }
  }
}

// WorkerLogs keeps the rings of all workers (keyed by workerd name) and feeds the tail sessions.
export class WorkerLogs {
  constructor({ logger } = {}) {
    this.logger = logger;
    this.rings = new Map();
    this.invocations = new Map(); // invocationId -> {script, instanceId, onset, logs, exceptions, ...}
    this.seq = 0;
    this.listeners = new Set(); // fn(script, traceItem) for tail sessions
    this.tracedScripts = null; // () => workerd names that have a tail session (set by Tails)
    this.deliveries = 0; // requests of the log tail workers (each carries one invocation's held events)
    this.lineListeners = new Set(); // fn(script, line)
  }

  // instanceLines is how many lines worker script's ring holds of workflow instance id.
  instanceLines(script, id) {
    return this.rings.get(script)?.perInstance.get(id) ?? 0;
  }

  // traced lists the workers (workerd names) whose finished invocations the tail sessions want.
  traced() {
    return this.tracedScripts?.() ?? [];
  }

  // ingest takes one streaming tail event of worker script; instance, when given, is the Workflow instance whose
  // run the event's invocation is (the tail worker read it from the invocation's marker line).
  ingest(script, ev, instance = null) {
    if (typeof script !== "string" || !ev || typeof ev !== "object" || !ev.event) return;
    const id = String(ev.invocationId ?? "");
    const at = Date.parse(ev.timestamp) || Date.now();
    const e = ev.event;
    let inv = this.invocations.get(id);
    if (!inv) {
      inv = {
        script,
        instanceId: null,
        onset: null,
        entrypoint: null,
        logs: [],
        exceptions: [],
        response: null,
        rpcMethod: null,
        start: at,
      };
      this.invocations.set(id, inv);
      if (this.invocations.size > OPEN_INVOCATIONS) this.invocations.delete(this.invocations.keys().next().value);
    }
    if (typeof instance === "string" && instance !== "" && !inv.instanceId) inv.instanceId = instance;
    switch (e.type) {
      case "onset":
        inv.onset = e.info ?? null;
        inv.entrypoint = e.entrypoint ?? null;
        inv.start = at;
        break;
      case "attributes":
        for (const a of e.info ?? []) if (a?.name === "jsrpc.method") inv.rpcMethod ??= String(a.value);
        break;
      case "log": {
        const msg = Array.isArray(e.message) ? e.message : [e.message];
        if (msg[0] === INSTANCE_MARK) {
          inv.instanceId = String(msg[1] ?? "") || null;
          return;
        }
        if (msg[0] === ERROR_MARK) {
          this.#exception(inv, script, at, String(msg[1] ?? "Error"), String(msg[2] ?? ""), String(msg[3] ?? ""));
          return;
        }
        const level = levelOf(e.level);
        if (inv.logs.length < INVOCATION_LOGS) inv.logs.push({ message: msg, level, timestamp: at });
        this.#line(script, {
          timestamp: at,
          level,
          message: formatMessage(msg),
          instanceId: inv.instanceId,
          kind: "log",
        });
        break;
      }
      case "exception":
        this.#exception(inv, script, at, String(e.name ?? "Error"), String(e.message ?? ""), String(e.stack ?? ""));
        break;
      case "return":
        if (e.info?.type === "fetch") inv.response = { status: e.info.statusCode };
        break;
      case "outcome":
        this.invocations.delete(id);
        this.#finish(script, inv, String(e.outcome ?? "unknown"), at);
        break;
      default:
        break;
    }
  }

  #exception(inv, script, at, name, message, stack) {
    // workerd may report the same error twice (an exception event and the marker): keep one.
    if (inv.exceptions.some((x) => x.name === name && x.message === message)) return;
    inv.exceptions.push({ name, message, stack, timestamp: at });
    this.#line(script, {
      timestamp: at,
      level: "error",
      message: cut(message ? `${name}: ${message}` : name),
      instanceId: inv.instanceId,
      kind: "exception",
    });
  }

  #line(script, line) {
    line.seq = ++this.seq;
    line.size = Buffer.byteLength(line.message) + 64;
    let ring = this.rings.get(script);
    if (!ring) {
      ring = new Ring();
      this.rings.set(script, ring);
      if (this.rings.size > MAX_WORKERS) {
        let oldest = null;
        for (const [k, r] of this.rings)
          if (k !== script && (!oldest || r.touched < oldest[1].touched)) oldest = [k, r];
        if (oldest) this.rings.delete(oldest[0]);
      }
    }
    ring.push(line);
    for (const fn of this.lineListeners) fn(script, line);
  }

  // #finish builds the invocation's trace item in Cloudflare's tail format and hands it to the tail sessions.
  #finish(script, inv, outcome, at) {
    if (this.listeners.size === 0) return;
    const item = {
      outcome,
      scriptName: null, // set per account by the session (the user's name, not workerd's)
      diagnosticsChannelEvents: [],
      exceptions: inv.exceptions.map(({ name, message, timestamp }) => ({ name, message, timestamp })),
      logs: inv.logs,
      eventTimestamp: inv.start,
      event: eventOf(inv),
    };
    if (inv.entrypoint) item.entrypoint = inv.entrypoint;
    item.wallTime = Math.max(0, at - inv.start);
    item.cpuTime = 0;
    for (const fn of this.listeners) fn(script, item);
  }

  // forget drops a worker's ring (the worker was deleted).
  forget(script) {
    this.rings.delete(script);
  }

  // read returns a worker's kept lines, oldest first, narrowed by instance id and a time window (ms, inclusive),
  // at most limit of them (the newest), and how many the ring has dropped since it began.
  read(script, { instanceId, since, until, limit = RING_LINES } = {}) {
    const ring = this.rings.get(script);
    if (!ring) return { lines: [], dropped: 0 };
    let lines = ring.lines;
    if (instanceId) lines = lines.filter((l) => l.instanceId === instanceId);
    if (since !== undefined) lines = lines.filter((l) => l.timestamp >= since);
    if (until !== undefined) lines = lines.filter((l) => l.timestamp <= until);
    if (lines.length > limit) lines = lines.slice(lines.length - limit);
    return { lines: lines.map(({ size: _size, ...l }) => l), dropped: ring.dropped };
  }
}

function eventOf(inv) {
  const info = inv.onset ?? {};
  switch (info.type) {
    case "fetch": {
      const headers = {};
      for (const h of Array.isArray(info.headers) ? info.headers : []) {
        if (Array.isArray(h)) headers[String(h[0]).toLowerCase()] = String(h[1]);
        else if (h && typeof h === "object") headers[String(h.name).toLowerCase()] = String(h.value);
      }
      return {
        request: { url: info.url, method: info.method, headers, cf: safeJSON(info.cfJson) },
        response: inv.response ?? undefined,
      };
    }
    case "scheduled":
      return {
        cron: info.cron ?? "",
        scheduledTime: info.scheduledTime ? Date.parse(info.scheduledTime) || info.scheduledTime : inv.start,
      };
    case "alarm":
      return { scheduledTime: info.scheduledTime ? Date.parse(info.scheduledTime) || inv.start : inv.start };
    case "jsrpc":
      return { rpcMethod: inv.rpcMethod ?? info.methodName ?? "unknown" };
    default:
      return null;
  }
}

function safeJSON(text) {
  if (typeof text !== "string") return text ?? {};
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
