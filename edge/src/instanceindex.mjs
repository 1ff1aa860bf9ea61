// The instance index on disk (docs/edge.md, "The instance index"): a row per Workflow instance the edge knows, in
// the same SQLite database as the archive of finished instances (archive.sqlite), so that the edge's memory does not
// grow with the instances it has run (issue 39). A row keeps the whole record as JSON and, as columns, what the
// edge's sweeps and lists select and order by: the last known status, whether the engine still holds the instance
// (`purged` once it was archived and deleted from the engine), whether a reader streams it, its shard, its creation
// time (`created`, '' when unknown), when it ended (epoch ms) and its own retention (ms, after success and after an
// error). Lists are paged in SQL, so a list of a Workflow with 200,000 instances reads one page of them. Iteration follows the order in
// which instances were first seen (the rowid; an update keeps it).

import fs from "node:fs";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS instances (
  workflow TEXT NOT NULL,
  id TEXT NOT NULL,
  status TEXT,
  final INTEGER NOT NULL,
  purged INTEGER NOT NULL,
  streamed INTEGER NOT NULL,
  shard INTEGER NOT NULL,
  created TEXT NOT NULL,
  ended_ms INTEGER,
  keep_success INTEGER,
  keep_error INTEGER,
  body TEXT NOT NULL,
  UNIQUE (workflow, id)
);
CREATE INDEX IF NOT EXISTS instances_created ON instances (workflow, created, id);
CREATE INDEX IF NOT EXISTS instances_status ON instances (workflow, status, created, id);
CREATE INDEX IF NOT EXISTS instances_unfinished ON instances (workflow) WHERE final = 0;
CREATE INDEX IF NOT EXISTS instances_in_engine ON instances (workflow, shard) WHERE purged = 0;
CREATE INDEX IF NOT EXISTS instances_retention ON instances (workflow)
  WHERE keep_success IS NOT NULL OR keep_error IS NOT NULL;
`;

// KEEP is how long a finished row is kept (its own retention, else the workflow's default: $ds and $de), and
// VISIBLE what lists and counts show: not a finished instance whose retention ran out by $now (statuses.mjs, expired).
const KEEP = "(CASE WHEN status = 'complete' THEN coalesce(keep_success, $ds) ELSE coalesce(keep_error, $de) END)";
const EXPIRED = `(final = 1 AND ended_ms IS NOT NULL AND ${KEEP} IS NOT NULL AND $now > ended_ms + ${KEEP})`;
const VISIBLE = `NOT ${EXPIRED}`;

export class InstanceIndex {
  // db is an open node:sqlite DatabaseSync; final is the set of statuses an instance leaves only by a restart.
  constructor(db, final) {
    this.db = db;
    this.final = final;
    this.pending = false; // a transaction of batched writes is open (#batch)
    db.exec(SCHEMA);
    const q = (sql) => db.prepare(sql);
    this.putStmt = q(
      `INSERT INTO instances (workflow, id, status, final, purged, streamed, shard, created, ended_ms, keep_success,
         keep_error, body)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (workflow, id) DO UPDATE SET status = excluded.status, final = excluded.final,
         purged = excluded.purged, streamed = excluded.streamed, shard = excluded.shard, created = excluded.created,
         ended_ms = excluded.ended_ms, keep_success = excluded.keep_success, keep_error = excluded.keep_error,
         body = excluded.body`,
    );
    this.getStmt = q("SELECT body FROM instances WHERE workflow = ? AND id = ?");
    this.dropStmt = q("DELETE FROM instances WHERE workflow = ? AND id = ?");
    this.dropAllStmt = q("DELETE FROM instances WHERE workflow = ?");
    this.allStmt = q("SELECT body FROM instances WHERE workflow = ? ORDER BY rowid");
    this.expiredStmt = q(`SELECT id FROM instances WHERE workflow = $wf AND ${EXPIRED} ORDER BY rowid`);
    this.statusCountStmt = q(
      `SELECT status, count(*) AS n FROM instances WHERE workflow = $wf AND ${VISIBLE} GROUP BY status`,
    );
    this.statusCountAllStmt = q("SELECT status, count(*) AS n FROM instances WHERE workflow = ? GROUP BY status");
    this.pageStmts = new Map(); // the statements of page and total, by the shape of their query
    this.unfinishedStmt = q("SELECT id FROM instances WHERE workflow = ? AND final = 0 ORDER BY rowid");
    this.unfinishedBeforeStmt = q(
      "SELECT id FROM instances WHERE workflow = ? AND final = 0 AND created < ? ORDER BY rowid",
    );
    this.workflowsStmt = q("SELECT DISTINCT workflow FROM instances");
    this.heldStmt = q("SELECT max(shard) AS k FROM instances WHERE workflow = ? AND purged = 0");
    this.perShardStmt = q(
      "SELECT shard, count(*) AS n FROM instances WHERE workflow = ? AND purged = 0 GROUP BY shard",
    );
    this.archivableStmt = q(
      `SELECT id FROM instances WHERE workflow = ? AND purged = 0 AND final = 1 AND streamed = 0 AND shard >= ?
       ORDER BY rowid`,
    );
    this.retentionStmt = q(
      "SELECT 1 FROM instances WHERE workflow = ? AND (keep_success IS NOT NULL OR keep_error IS NOT NULL) LIMIT 1",
    );
    this.countStmt = q("SELECT count(*) AS n FROM instances");
  }

  // #batch opens a transaction for the writes of this turn of the event loop, committed once the turn is over
  // (flush): an instance's creation, status, times and end are several writes, and each in a transaction of its own
  // wrote the table's and its indexes' pages to the log again (decision 798). Reads on this connection see the
  // writes at once; another connection (a backup) sees them once flushed. Inside a caller's transaction, nothing.
  #batch() {
    if (this.db.isTransaction) return;
    this.db.exec("BEGIN");
    this.pending = true;
    setImmediate(() => this.flush());
  }

  // flush commits the writes batched so far (the registry's save and close call it).
  flush() {
    if (!this.pending) return;
    this.pending = false;
    if (this.db.isOpen && this.db.isTransaction) this.db.exec("COMMIT");
  }

  // put adds or replaces the record of an instance ({workflow, id, …}).
  put(rec) {
    this.#batch();
    this.putStmt.run(
      rec.workflow,
      rec.id,
      rec.status ?? null,
      this.final.has(rec.status) ? 1 : 0,
      rec.purged ? 1 : 0,
      rec.streamed ? 1 : 0,
      rec.shard ?? 0,
      rec.created_on ?? "",
      rec.ended_on ? Date.parse(rec.ended_on) || null : null,
      rec.retention?.success_ms ?? null,
      rec.retention?.error_ms ?? null,
      JSON.stringify(rec),
    );
  }

  // get answers the record of an instance (a copy: change it through put), or undefined.
  get(workflow, id) {
    const row = this.getStmt.get(workflow, id);
    return row ? JSON.parse(row.body) : undefined;
  }

  drop(workflow, id) {
    this.#batch();
    this.dropStmt.run(workflow, id);
  }

  dropWorkflow(workflow) {
    this.#batch();
    this.dropAllStmt.run(workflow);
  }

  // *records yields the records of a workflow's instances, in the order they were first seen. The caller must not
  // write the index while it iterates.
  *records(workflow) {
    for (const row of this.allStmt.iterate(workflow)) yield JSON.parse(row.body);
  }

  // summaries answers the id, status and creation time of a workflow's instances of the given statuses (all when
  // statuses is null), in the order they were first seen, without reading whole records.
  summaries(workflow, statuses = null) {
    const list = statuses === null ? "" : ` AND status IN (${statuses.map(() => "?").join(", ")})`;
    // (prepared once per number of statuses, as the pages' statements)
    return this.#stmt(
      `SELECT id, status, created AS created_on FROM instances WHERE workflow = ?${list} ORDER BY rowid`,
    ).all(workflow, ...(statuses ?? []));
  }

  // page answers one page of a workflow's instances as lists show them (whole records), newest first unless
  // q.desc is false, ordered by creation time and id: q = {statuses (null for all), dateStart, dateEnd (creation
  // times, inclusive), after ({created_on, id}: the row the page starts after), offset, limit, now, keep}, where
  // keep = {success, error} is the workflow's default retention in ms (or null) for rows without their own.
  page(workflow, q) {
    const { sql, params } = this.#where(workflow, q, true);
    const order = q.desc ? "DESC" : "ASC";
    const stmt = this.#stmt(
      `SELECT body FROM instances WHERE ${sql} ORDER BY created ${order}, id ${order} LIMIT $limit OFFSET $offset`,
    );
    return stmt.all({ ...params, limit: q.limit, offset: q.offset ?? 0 }).map((r) => JSON.parse(r.body));
  }

  // total counts the instances page would list over all its pages (q.after aside).
  total(workflow, q) {
    const { sql, params } = this.#where(workflow, q, false);
    return Number(this.#stmt(`SELECT count(*) AS n FROM instances WHERE ${sql}`).get(params).n);
  }

  #where(workflow, q, withCursor) {
    const params = { wf: workflow };
    const parts = ["workflow = $wf"];
    // (without a retention anywhere no row can have expired, and the count reads an index alone)
    if (q.keep || this.hasRetention(workflow)) {
      parts.push(VISIBLE);
      Object.assign(params, { now: q.now, ds: q.keep?.success ?? null, de: q.keep?.error ?? null });
    }
    (q.statuses ?? []).forEach((st, i) => (params[`s${i}`] = st));
    if (q.statuses) parts.push(`status IN (${q.statuses.map((_, i) => `$s${i}`).join(", ")})`);
    if (q.dateStart) (parts.push("created >= $dateStart"), (params.dateStart = q.dateStart));
    if (q.dateEnd) (parts.push("created <= $dateEnd"), (params.dateEnd = q.dateEnd));
    if (withCursor && q.after) {
      const cmp = q.desc ? "<" : ">";
      parts.push(`(created ${cmp} $afterCreated OR (created = $afterCreated AND id ${cmp} $afterId))`);
      params.afterCreated = q.after.created_on ?? "";
      params.afterId = q.after.id;
    }
    return { sql: parts.join(" AND "), params };
  }

  #stmt(sql) {
    let stmt = this.pageStmts.get(sql);
    if (!stmt) this.pageStmts.set(sql, (stmt = this.db.prepare(sql)));
    return stmt;
  }

  // statusCounts answers how many of a workflow's instances lists show, per last known status: Map(status -> n).
  statusCounts(workflow, now, keep) {
    const rows =
      keep || this.hasRetention(workflow)
        ? this.statusCountStmt.all({ wf: workflow, now, ds: keep?.success ?? null, de: keep?.error ?? null })
        : this.statusCountAllStmt.all(workflow);
    return new Map(rows.map((r) => [r.status, Number(r.n)]));
  }

  // expired answers the ids of a workflow's finished instances whose retention ran out by now (keep as for page).
  expired(workflow, now, keep) {
    return this.expiredStmt
      .all({ wf: workflow, now, ds: keep?.success ?? null, de: keep?.error ?? null })
      .map((r) => r.id);
  }

  // unfinished answers the ids of a workflow's instances whose last known status is not final.
  unfinished(workflow, createdBefore = null) {
    const rows =
      createdBefore === null
        ? this.unfinishedStmt.all(workflow)
        : this.unfinishedBeforeStmt.all(workflow, createdBefore);
    return rows.map((r) => r.id);
  }

  // workflows answers the workflows that have an instance in the index.
  workflows() {
    return this.workflowsStmt.all().map((r) => r.workflow);
  }

  // heldShard is the highest shard that holds an instance of the workflow the engine still has (-1 for none).
  heldShard(workflow) {
    const k = this.heldStmt.get(workflow).k;
    return k === null ? -1 : Number(k);
  }

  // inEngine answers how many of the workflow's instances the engine holds, per shard: Map(shard -> count).
  inEngine(workflow) {
    return new Map(this.perShardStmt.all(workflow).map((r) => [Number(r.shard), Number(r.n)]));
  }

  // archivable answers the ids of the workflow's finished instances that the engine still holds and no reader
  // streams, in shard fromShard or above.
  archivable(workflow, fromShard = 0) {
    return this.archivableStmt.all(workflow, fromShard).map((r) => r.id);
  }

  // hasRetention tells whether an instance of the workflow has a retention of its own.
  hasRetention(workflow) {
    return this.retentionStmt.get(workflow) !== undefined;
  }

  count() {
    return Number(this.countStmt.get().n);
  }

  // importLines moves the index of an older edge, JSON lines (instances.jsonl: a full record when an instance was
  // first seen, then partial records with its changes, `{workflow, id, deleted: true}` for a deleted one) into the
  // table in one transaction and removes the file; a torn last line is skipped.
  importLines(file) {
    if (!fs.existsSync(file)) return 0;
    const recs = new Map();
    for (const line of fs.readFileSync(file, "utf8").split("\n")) {
      if (line.trim() === "") continue;
      let rec;
      try {
        rec = JSON.parse(line);
      } catch {
        continue;
      }
      const key = JSON.stringify([rec.workflow, rec.id]);
      if (rec.deleted) recs.set(key, null);
      else recs.set(key, recs.get(key) ? Object.assign(recs.get(key), rec) : rec);
    }
    this.flush();
    this.db.exec("BEGIN");
    try {
      for (const [key, rec] of recs) {
        if (rec) this.put(rec);
        else this.drop(...JSON.parse(key));
      }
      this.db.exec("COMMIT");
    } catch (err) {
      this.db.exec("ROLLBACK");
      throw err;
    }
    fs.rmSync(file);
    return recs.size;
  }
}
