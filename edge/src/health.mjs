// Errors of workerd and miniflare, and whether each group can run Workflow instances (docs/edge.md, "Errors of
// workerd"; decisions 471 and 479). Every line workerd writes passes through classify: an error of the runtime
// (workerd's own `error:` lines, its exceptions, SQLite failures, a lack of file descriptors) or of miniflare gets a
// kind, and the edge writes it as one `edge-error {json}` line ({kind, group, accounts, message}) that edgeflow logs
// at ERROR and counts (edgeflow_local_edge_errors_total). A group that met an error of a blocking kind (its workerd
// cannot open an instance's storage) answers as failing on the edge's /readyz until it runs instances again: an
// instance of it ends after the error, or, once it restarted, its revive sweep finds nothing left to run.

// BLOCKING are the kinds after which a workerd cannot run instances (it cannot open their SQLite databases).
export const BLOCKING = new Set(["sqlite_nomem", "sqlite_cantopen", "fd_limit", "fatal"]);

// MESSAGE_LIMIT bounds the message an edge-error line carries.
const MESSAGE_LIMIT = 2000;

// thrownByJavaScript reports whether a line of workerd is its record of an exception JavaScript threw: an uncaught
// exception of a worker ("Uncaught exception: workerd/jsg/…: failed: remote.jsg.Error: <the error's message>"). The
// message after the tag is the worker's own, so such a line says nothing of the runtime: a step that throws
// Error("SQLITE_CANTOPEN") must not mark its group failing (decision 804).
export function thrownByJavaScript(line) {
  return /\bjsg\.(?:[A-Za-z]*Error|DOMException)\b/.test(line);
}

// classify answers the kind of a line workerd wrote at level ("error", "warn", "info", …), or null for a line that is
// no error of the runtime (a user worker's console output among them: those reach the edge's logs through the tail
// worker, and a failing step is no fault of the edge).
export function classify(level, line) {
  if (thrownByJavaScript(line)) return null;
  if (/SQLITE_NOMEM|out of memory/i.test(line)) return "sqlite_nomem";
  if (/SQLITE_CANTOPEN|unable to open database file/.test(line)) return "sqlite_cantopen";
  if (/Too many open files|EMFILE/.test(line)) return "fd_limit";
  if (/\*\*\* Fatal|Fatal uncaught kj::Exception/.test(line)) return "fatal";
  // workerd's log lines name their source: "workerd/…c++:123: error: …"; at error level miniflare 5 passes them on
  // without the prefix, with the source in the message
  if (/\.c\+\+:\d+: error: /.test(line) || /^error: /.test(line)) return "runtime";
  if (level === "error" && /\.c\+\+:\d+|kj::Exception|workerd\//.test(line)) return "runtime";
  return null;
}

// Health holds each group's last blocking error and writes every error it is told of.
export class Health {
  constructor(logger) {
    this.logger = logger;
    this.failing = new Map(); // group id -> {kind, at, message, accounts}
    this.counts = new Map(); // kind -> errors seen since the edge started
  }

  // error notes an error of kind in group gid (accounts: the ids of the accounts whose workers it runs) and writes
  // its edge-error line.
  error(gid, kind, message, accounts) {
    const text = message.length > MESSAGE_LIMIT ? `${message.slice(0, MESSAGE_LIMIT)}…` : message;
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
    if (BLOCKING.has(kind)) this.failing.set(gid, { kind, at: Date.now(), message: text, accounts });
    this.logger(`edge-error ${JSON.stringify({ kind, group: gid, accounts, message: text })}`);
  }

  // restarted notes that group gid's workerd is a new one: it stays failing until it runs instances (ran, idle).
  restarted(gid) {
    const f = this.failing.get(gid);
    if (f) f.restarted = true;
  }

  // ran notes that an instance of group gid ended at endMs: one that ended after the group's last blocking error
  // shows that it runs instances again.
  ran(gid, endMs) {
    const f = this.failing.get(gid);
    if (f && endMs >= f.at) this.failing.delete(gid);
  }

  // idle notes that group gid's revive sweep found no instance to run: after a restart it has nothing to prove.
  idle(gid) {
    if (this.failing.get(gid)?.restarted) this.failing.delete(gid);
  }

  // report lists the groups failing now: [{group, kind, last, message, accounts, restarted}].
  report() {
    const out = [];
    for (const [gid, f] of this.failing) {
      out.push({
        group: gid,
        kind: f.kind,
        last: new Date(f.at).toISOString(),
        message: f.message,
        accounts: f.accounts,
        restarted: f.restarted === true,
      });
    }
    return out;
  }
}
