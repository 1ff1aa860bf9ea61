// The archive of finished Workflow instances (docs/edge.md, "Finished instances are archived"): when an instance
// ends, the edge keeps what the API answers about it (its details, rollback and events) here and deletes it from
// the Workflows engine, so that workerd closes its SQLite database. Reads of an archived instance are answered from
// here until the instance is deleted (by a call or by its retention). One SQLite database beside the registry,
// through node:sqlite (Node 22.5 or later), which also holds the instance index (instanceindex.mjs); a row per
// instance, its JSON as text.

import { DatabaseSync } from "node:sqlite";

// openArchive opens (creating it) the edge's SQLite database of instances: DATA/archive.sqlite.
export function openArchive(file) {
  const db = new DatabaseSync(file);
  db.exec("PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;");
  return db;
}

export class ArchiveStore {
  // db is the database openArchive opened.
  constructor(db) {
    this.db = db;
    this.db.exec(
      "CREATE TABLE IF NOT EXISTS archived (workflow TEXT NOT NULL, id TEXT NOT NULL, body TEXT NOT NULL, PRIMARY KEY (workflow, id))",
    );
    this.putStmt = this.db.prepare("INSERT OR REPLACE INTO archived (workflow, id, body) VALUES (?, ?, ?)");
    this.getStmt = this.db.prepare("SELECT body FROM archived WHERE workflow = ? AND id = ?");
    this.dropStmt = this.db.prepare("DELETE FROM archived WHERE workflow = ? AND id = ?");
    this.dropAllStmt = this.db.prepare("DELETE FROM archived WHERE workflow = ?");
    this.countStmt = this.db.prepare("SELECT count(*) AS n FROM archived");
  }

  // put keeps the archive of instance id of the Workflow whose workerd name is workflow: {details, rollback, events}.
  put(workflow, id, entry) {
    this.putStmt.run(workflow, id, JSON.stringify(entry));
  }

  // get answers the archive of an instance, or null.
  get(workflow, id) {
    const row = this.getStmt.get(workflow, id);
    return row ? JSON.parse(row.body) : null;
  }

  drop(workflow, id) {
    this.dropStmt.run(workflow, id);
  }

  dropWorkflow(workflow) {
    this.dropAllStmt.run(workflow);
  }

  count() {
    return Number(this.countStmt.get().n);
  }

  close() {
    if (this.db.isOpen) this.db.close();
  }
}
