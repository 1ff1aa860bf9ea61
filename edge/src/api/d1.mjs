// D1 databases and their queries. Methods of Api (../api.mjs), installed on it by installHandlers, so that `this` is
// the account's Api.

import { EdgeError, intParam, pageInfo, requireObject } from "../http.mjs";
import { newId, now } from "../registry.mjs";

export class D1Handlers {
  // addD1Routes adds the routes of this part of the API to the router r; A is the path of the account.
  addD1Routes(r, A) {
    const D = `${A}/d1/database`;
    r.add("GET", D, (c) => this.listDatabases(c));
    r.add("POST", D, (c) => this.createDatabase(c));
    r.add("GET", `${D}/:db`, (c) => this.databaseInfo(c));
    r.add("DELETE", `${D}/:db`, (c) => this.deleteDatabase(c));
    r.add("PUT", `${D}/:db`, (c) => this.setReadReplication(c, true));
    r.add("PATCH", `${D}/:db`, (c) => this.setReadReplication(c, false));
    r.add("POST", `${D}/:db/query`, (c) => this.query(c, false));
    r.add("POST", `${D}/:db/raw`, (c) => this.query(c, true));
  }

  database(c) {
    const db = this.state.d1[c.params.db];
    if (!db) throw new EdgeError(404, 7404, `The database ${c.params.db} could not be found`);
    return db;
  }

  dbJSON(db) {
    return {
      uuid: db.uuid,
      name: db.name,
      version: "production",
      created_at: db.created_at,
      num_tables: null,
      file_size: null,
      read_replication: { mode: db.read_replication ?? "disabled" },
    };
  }

  // setReadReplication is Cloudflare's PUT (read_replication required) and PATCH (optional) of a database: the mode
  // (auto or disabled) is kept and shown; the edge holds one copy of each database, so reads are served by it
  // either way (meta.served_by_primary is true).
  async setReadReplication(c, required) {
    const db = this.database(c);
    const body = requireObject(await c.json({ allowEmpty: !required }) ?? {});
    const rr = body.read_replication;
    if (rr === undefined && !required) return { result: this.dbJSON(db) };
    if (rr === null || typeof rr !== "object" || Array.isArray(rr)) throw new EdgeError(400, 7400, "read_replication must be an object {mode: 'auto' | 'disabled'}");
    if (rr.mode !== "auto" && rr.mode !== "disabled") throw new EdgeError(400, 7400, `read_replication.mode must be auto or disabled, got ${JSON.stringify(rr.mode)}`);
    await this.apply((st) => {
      st.d1[db.uuid].read_replication = rr.mode;
    }, { restart: false });
    return { result: this.dbJSON(this.state.d1[db.uuid]) };
  }

  // databaseInfo answers a database's details with its table count and file size (`wrangler d1 info`), read from
  // the database itself; the list leaves them null so that listing does not start every database's workerd.
  async databaseInfo(c) {
    const db = this.database(c);
    const [r] = await this.runtime.d1Query({
      db: db.uuid,
      sql: "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'",
      raw: false,
      readOnly: false,
    });
    return { result: { ...this.dbJSON(db), num_tables: r.results[0].n, file_size: r.meta.size_after } };
  }

  listDatabases(c) {
    const name = c.query.get("name");
    let list = Object.values(this.state.d1).sort((a, b) => a.name.localeCompare(b.name));
    if (name) list = list.filter((d) => d.name === name);
    const { items, info } = pageInfo(list.map((d) => this.dbJSON(d)), intParam(c.query, "page", { def: 1, min: 1 }), intParam(c.query, "per_page", { def: 100, min: 1, max: 10000 }));
    return { result: items, info };
  }

  async createDatabase(c) {
    const body = requireObject(await c.json());
    if (typeof body.name !== "string" || !/^[a-z0-9][a-z0-9_-]{0,63}$/i.test(body.name)) {
      throw new EdgeError(400, 7400, "name must be 1-64 letters, digits, '-' and '_'");
    }
    if (Object.values(this.state.d1).some((d) => d.name === body.name)) {
      throw new EdgeError(400, 7502, `A database with name '${body.name}' already exists`);
    }
    const uuid = newId();
    await this.apply((st) => {
      st.d1[uuid] = { uuid, name: body.name, created_at: now() };
    }, { restart: false }); // the database runs in a workerd of its own (d1host.mjs); the main one is unchanged
    return { result: this.dbJSON(this.state.d1[uuid]) };
  }

  async deleteDatabase(c) {
    const db = this.database(c);
    await this.apply((st) => {
      delete st.d1[db.uuid];
    });
    await this.runtime.d1.forget(db.uuid);
    return { result: null };
  }

  async query(c, raw) {
    const db = this.database(c);
    const body = requireObject(await c.json());
    if (body.batch !== undefined) {
      if (!Array.isArray(body.batch) || body.batch.length === 0) throw new EdgeError(400, 7400, "batch must be a non-empty array of {sql, params}");
    } else if (typeof body.sql !== "string" || body.sql.trim() === "") {
      throw new EdgeError(400, 7400, "sql must be a non-empty string");
    }
    if (body.params !== undefined && !Array.isArray(body.params)) throw new EdgeError(400, 7400, "params must be an array");
    const readOnly = readOnlyParam(c.query);
    const result = await this.runtime.d1Query({ db: db.uuid, sql: body.sql, params: body.params, batch: body.batch, raw, readOnly });
    return { result };
  }
}

// readOnlyParam reads the edgeflow extension ?edgeflow_read_only=true|false of the D1 query endpoints: true runs the
// statements so that the database refuses to change (docs/edge.md).
function readOnlyParam(query) {
  const v = query.get("edgeflow_read_only");
  if (v === null || v === "false") return false;
  if (v === "true") return true;
  throw new EdgeError(400, 7400, "edgeflow_read_only must be true or false");
}
