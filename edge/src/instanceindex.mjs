// The instance index on disk (docs/edge.md, "The instance index"): a row per Workflow instance the edge knows, in
// the same SQLite database as the archive of finished instances (archive.sqlite), so that the edge's memory does not
// grow with the instances it has run (issue 39). A row keeps the whole record as JSON and, as columns, what the
// edge's sweeps select by: the last known status, whether the engine still holds the instance (`purged` once it was
// archived and deleted from the engine), whether a reader streams it, and its shard. Iteration follows the order in
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
  body TEXT NOT NULL,
  UNIQUE (workflow, id)
);
CREATE INDEX IF NOT EXISTS instances_unfinished ON instances (workflow) WHERE final = 0;
CREATE INDEX IF NOT EXISTS instances_in_engine ON instances (workflow, shard) WHERE purged = 0;
`;

export class InstanceIndex {
  // db is an open node:sqlite DatabaseSync; final is the set of statuses an instance leaves only by a restart.
  constructor(db, final) {
    this.db = db;
    this.final = final;
    db.exec(SCHEMA);
    const q = (sql) => db.prepare(sql);
    this.putStmt = q(
      `INSERT INTO instances (workflow, id, status, final, purged, streamed, shard, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (workflow, id) DO UPDATE SET status = excluded.status, final = excluded.final,
         purged = excluded.purged, streamed = excluded.streamed, shard = excluded.shard, body = excluded.body`,
    );
    this.getStmt = q("SELECT body FROM instances WHERE workflow = ? AND id = ?");
    this.dropStmt = q("DELETE FROM instances WHERE workflow = ? AND id = ?");
    this.dropAllStmt = q("DELETE FROM instances WHERE workflow = ?");
    this.allStmt = q("SELECT body FROM instances WHERE workflow = ? ORDER BY rowid");
    this.unfinishedStmt = q("SELECT id FROM instances WHERE workflow = ? AND final = 0 ORDER BY rowid");
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
      "SELECT 1 FROM instances WHERE workflow = ? AND json_extract(body, '$.retention') IS NOT NULL LIMIT 1",
    );
    this.countStmt = q("SELECT count(*) AS n FROM instances");
  }

  // put adds or replaces the record of an instance ({workflow, id, …}).
  put(rec) {
    this.putStmt.run(
      rec.workflow,
      rec.id,
      rec.status ?? null,
      this.final.has(rec.status) ? 1 : 0,
      rec.purged ? 1 : 0,
      rec.streamed ? 1 : 0,
      rec.shard ?? 0,
      JSON.stringify(rec),
    );
  }

  // get answers the record of an instance (a copy: change it through put), or undefined.
  get(workflow, id) {
    const row = this.getStmt.get(workflow, id);
    return row ? JSON.parse(row.body) : undefined;
  }

  drop(workflow, id) {
    this.dropStmt.run(workflow, id);
  }

  dropWorkflow(workflow) {
    this.dropAllStmt.run(workflow);
  }

  // *records yields the records of a workflow's instances, in the order they were first seen. The caller must not
  // write the index while it iterates.
  *records(workflow) {
    for (const row of this.allStmt.iterate(workflow)) yield JSON.parse(row.body);
  }

  // unfinished answers the ids of a workflow's instances whose last known status is not final.
  unfinished(workflow) {
    return this.unfinishedStmt.all(workflow).map((r) => r.id);
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
