// Errors of workerd and miniflare, and whether each group can run Workflow instances (docs/edge.md, "Errors of
// workerd"; decision 471). Every line workerd writes passes through classify: an error of the runtime (workerd's own
// `error:` lines, its exceptions, SQLite failures, a lack of file descriptors) or of miniflare gets a kind, and the
// edge writes it as one `edge-error {json}` line ({kind, group, accounts, message}) that edgeflow logs at ERROR and
// counts (edgeflow_local_edge_errors_total). A group that met an error of a blocking kind (its workerd cannot open an
// instance's storage) in the last ERROR_WINDOW_MS answers as failing on the edge's /readyz, until that window passes
// without one or the group restarts.

// BLOCKING are the kinds after which a workerd cannot run instances (it cannot open their SQLite databases).
export const BLOCKING = new Set(["sqlite_nomem", "sqlite_cantopen", "fd_limit", "fatal"]);

// ERROR_WINDOW_MS is how long after its last blocking error a group counts as failing (EDGEFLOW_EDGE_ERROR_WINDOW_MS).
export const ERROR_WINDOW_MS = Number(process.env.EDGEFLOW_EDGE_ERROR_WINDOW_MS) > 0 ? Number(process.env.EDGEFLOW_EDGE_ERROR_WINDOW_MS) : 60000;

// MESSAGE_LIMIT bounds the message an edge-error line carries.
const MESSAGE_LIMIT = 2000;

// classify answers the kind of a line workerd wrote at level ("error", "warn", "info", …), or null for a line that is
// no error of the runtime (a user worker's console output among them: those reach the edge's logs through the tail
// worker, and a failing step is no fault of the edge).
export function classify(level, line) {
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

  // restarted forgets the errors of group gid: its workerd is a new one.
  restarted(gid) {
    this.failing.delete(gid);
  }

  // report lists the groups failing now: [{group, kind, since, message, accounts}].
  report() {
    const out = [];
    for (const [gid, f] of this.failing) {
      if (Date.now() - f.at > ERROR_WINDOW_MS) {
        this.failing.delete(gid);
        continue;
      }
      out.push({ group: gid, kind: f.kind, last: new Date(f.at).toISOString(), message: f.message, accounts: f.accounts });
    }
    return out;
  }
}
