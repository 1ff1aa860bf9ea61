// Workers KV namespaces, keys and values. Methods of Api (../api.mjs), installed on it by installHandlers, so that
// `this` is the account's Api.

import { EdgeError, intParam, pageInfo, parseJSON, requireObject } from "../http.mjs";
import { hexId, now } from "../registry.mjs";
import { mapLimit, VALUE_LIMIT } from "./common.mjs";

export class KVHandlers {
  // addKVRoutes adds the routes of this part of the API to the router r; A is the path of the account.
  addKVRoutes(r, A) {
    const K = `${A}/storage/kv/namespaces`;
    r.add("GET", K, (c) => this.listNamespaces(c));
    r.add("POST", K, (c) => this.createNamespace(c));
    r.add("GET", `${K}/:ns`, (c) => ({ result: this.nsJSON(this.namespace(c)) }));
    r.add("PUT", `${K}/:ns`, (c) => this.renameNamespace(c));
    r.add("DELETE", `${K}/:ns`, (c) => this.deleteNamespace(c));
    r.add("GET", `${K}/:ns/keys`, (c) => this.listKeys(c));
    r.add("GET", `${K}/:ns/values/*key`, (c) => this.getValue(c));
    r.add("PUT", `${K}/:ns/values/*key`, (c) => this.putValue(c));
    r.add("DELETE", `${K}/:ns/values/*key`, (c) => this.deleteValue(c));
    r.add("GET", `${K}/:ns/metadata/*key`, (c) => this.getKeyMetadata(c));
    r.add("PUT", `${K}/:ns/bulk`, (c) => this.bulkPut(c));
    r.add("DELETE", `${K}/:ns/bulk`, (c) => this.bulkDelete(c));
    r.add("POST", `${K}/:ns/bulk/delete`, (c) => this.bulkDelete(c));
  }

  namespace(c) {
    const ns = this.state.kv[c.params.ns];
    if (!ns) throw new EdgeError(404, 10013, `namespace '${c.params.ns}' not found`);
    return ns;
  }

  nsJSON(ns) {
    return { id: ns.id, title: ns.title, supports_url_encoding: true };
  }

  listNamespaces(c) {
    const order = c.query.get("order") ?? "title";
    const dir = c.query.get("direction") === "desc" ? -1 : 1;
    const list = Object.values(this.state.kv)
      .map((ns) => this.nsJSON(ns))
      .sort((a, b) => String(a[order === "id" ? "id" : "title"]).localeCompare(String(b[order === "id" ? "id" : "title"])) * dir);
    const { items, info } = pageInfo(list, intParam(c.query, "page", { def: 1, min: 1 }), intParam(c.query, "per_page", { def: 20, min: 1, max: 1000 }));
    return { result: items, info };
  }

  async createNamespace(c) {
    const body = requireObject(await c.json());
    if (typeof body.title !== "string" || body.title.trim() === "" || body.title.length > 512) {
      throw new EdgeError(400, 10019, "title must be a non-empty string of at most 512 characters");
    }
    if (Object.values(this.state.kv).some((ns) => ns.title === body.title)) {
      throw new EdgeError(400, 10014, "a namespace with this account ID and title already exists");
    }
    const id = hexId();
    await this.apply((st) => {
      st.kv[id] = { id, title: body.title, created_on: now() };
    });
    return { result: this.nsJSON(this.state.kv[id]) };
  }

  async renameNamespace(c) {
    const ns = this.namespace(c);
    const body = requireObject(await c.json());
    if (typeof body.title !== "string" || body.title.trim() === "") throw new EdgeError(400, 10019, "title must be a non-empty string");
    if (Object.values(this.state.kv).some((x) => x.title === body.title && x.id !== ns.id)) {
      throw new EdgeError(400, 10014, "a namespace with this account ID and title already exists");
    }
    await this.apply((st) => {
      st.kv[ns.id].title = body.title;
    }, { restart: false });
    return { result: this.nsJSON(this.state.kv[ns.id]) };
  }

  async deleteNamespace(c) {
    const ns = this.namespace(c);
    await this.clearNamespace(ns.id);
    await this.apply((st) => {
      delete st.kv[ns.id];
    });
    return { result: {} };
  }

  async clearNamespace(id) {
    let cursor = "";
    do {
      const r = await this.runtime.control("/kv/list", { ns: id, cursor, limit: 1000 });
      await mapLimit(r.keys, 16, (k) => this.kvFetch(id, k.name, { method: "DELETE" }));
      cursor = r.cursor;
    } while (cursor);
  }

  async listKeys(c) {
    const ns = this.namespace(c);
    const limit = intParam(c.query, "limit", { def: 1000, min: 10, max: 1000 });
    const r = await this.runtime.control("/kv/list", { ns: ns.id, prefix: c.query.get("prefix") ?? "", cursor: c.query.get("cursor") ?? "", limit });
    return { result: r.keys, info: { count: r.keys.length, cursor: r.cursor } };
  }

  kvFetch(ns, key, init = {}, extra = "") {
    const q = new URLSearchParams({ ns, key });
    return this.runtime.control(`/kv/value?${q}${extra}`, undefined, { ...init, response: true });
  }

  async getValue(c) {
    const ns = this.namespace(c);
    checkKey(c.params.key);
    const res = await this.kvFetch(ns.id, c.params.key, { method: "GET" });
    if (res.status === 404) {
      await res.arrayBuffer();
      throw new EdgeError(404, 10009, "get: 'key not found'");
    }
    if (res.status !== 200) {
      // the control worker's error (JSON): answered in Cloudflare's envelope, never passed on as a value
      const out = await res.json().catch(() => ({}));
      throw new EdgeError(out.status >= 400 && out.status < 500 ? out.status : 502, out.code ?? 10001, out.message ?? `KV read failed with ${res.status}`);
    }
    const bytes = Buffer.from(await res.arrayBuffer());
    const headers = { "content-type": "application/octet-stream", "content-length": bytes.length };
    const md = res.headers.get("cf-kv-metadata");
    if (md) headers["cf-kv-metadata"] = md;
    c.res.writeHead(200, headers);
    c.res.end(bytes);
  }

  async getKeyMetadata(c) {
    const ns = this.namespace(c);
    checkKey(c.params.key);
    const res = await this.kvFetch(ns.id, c.params.key, { method: "GET" });
    await res.arrayBuffer();
    if (res.status === 404) throw new EdgeError(404, 10009, "get: 'key not found'");
    const md = res.headers.get("cf-kv-metadata");
    return { result: md ? JSON.parse(md) : null };
  }

  async putValue(c) {
    const ns = this.namespace(c);
    const key = c.params.key;
    checkKey(key);
    // the limit is on the value: a multipart body may carry up to 1 MiB more (metadata, part headers)
    const raw = await c.body(VALUE_LIMIT + (1 << 20));
    let value = raw;
    let metadata = null;
    const ct = c.req.headers["content-type"] ?? "";
    if (ct.startsWith("multipart/form-data")) {
      let form;
      try {
        form = await new Request("http://edge.invalid/", { method: "POST", headers: { "content-type": ct }, body: raw }).formData();
      } catch (err) {
        throw new EdgeError(400, 10001, `malformed multipart body: ${err.message}`);
      }
      const v = form.get("value");
      if (v === null) throw new EdgeError(400, 10001, "the multipart body has no 'value' part");
      value = typeof v === "string" ? Buffer.from(v) : Buffer.from(await v.arrayBuffer());
      const m = form.get("metadata");
      if (m !== null) metadata = parseJSON(Buffer.from(typeof m === "string" ? m : await m.text()), { what: "metadata" });
    }
    if (value.length > VALUE_LIMIT) {
      throw new EdgeError(413, 10001, `Value length of ${value.length} exceeds limit of ${VALUE_LIMIT}.`);
    }
    let extra = "";
    for (const k of ["expiration", "expiration_ttl"]) {
      const v = c.query.get(k);
      if (v !== null && v !== "") {
        if (!/^\d+$/.test(v)) throw new EdgeError(400, 10001, `${k} must be a whole number of seconds`);
        if (k === "expiration_ttl" && Number(v) < 60) throw new EdgeError(400, 10001, "expiration_ttl must be at least 60 seconds");
        extra += `&${k}=${v}`;
      }
    }
    if (metadata !== null) extra += `&metadata=${encodeURIComponent(JSON.stringify(metadata))}`;
    const res = await this.kvFetch(ns.id, key, { method: "PUT", raw: value }, extra);
    const out = await res.json();
    if (!out.ok) throw new EdgeError(out.status, out.code, out.message);
    return { result: {} };
  }

  async deleteValue(c) {
    const ns = this.namespace(c);
    const res = await this.kvFetch(ns.id, c.params.key, { method: "DELETE" });
    await res.arrayBuffer();
    return { result: {} };
  }

  async bulkPut(c) {
    const ns = this.namespace(c);
    const body = await c.json();
    if (!Array.isArray(body)) throw new EdgeError(400, 10001, "body must be a JSON array of {key, value}");
    if (body.length > 10000) throw new EdgeError(400, 10001, "a bulk write holds at most 10000 pairs");
    body.forEach((p, i) => {
      if (p === null || typeof p !== "object" || typeof p.key !== "string" || typeof p.value !== "string") {
        throw new EdgeError(400, 10001, `[${i}] must be {key: string, value: string}`);
      }
      checkKey(p.key);
    });
    await mapLimit(body, 16, async (p) => {
      const value = p.base64 ? Buffer.from(p.value, "base64") : Buffer.from(p.value);
      let extra = "";
      if (p.expiration) extra += `&expiration=${Number(p.expiration)}`;
      if (p.expiration_ttl) extra += `&expiration_ttl=${Number(p.expiration_ttl)}`;
      if (p.metadata !== undefined) extra += `&metadata=${encodeURIComponent(JSON.stringify(p.metadata))}`;
      const res = await this.kvFetch(ns.id, p.key, { method: "PUT", raw: value }, extra);
      await res.arrayBuffer();
    });
    return { result: { successful_key_count: body.length, unsuccessful_keys: [] } };
  }

  async bulkDelete(c) {
    const ns = this.namespace(c);
    const body = await c.json();
    if (!Array.isArray(body) || body.some((k) => typeof k !== "string")) throw new EdgeError(400, 10001, "body must be a JSON array of key names");
    await mapLimit(body, 16, async (k) => (await this.kvFetch(ns.id, k, { method: "DELETE" })).arrayBuffer());
    return { result: { successful_key_count: body.length, unsuccessful_keys: [] } };
  }
}

function checkKey(key) {
  if (key === "" || key === "." || key === "..") throw new EdgeError(400, 10019, `key name '${key}' is not allowed`);
  if (Buffer.byteLength(key) > 512) throw new EdgeError(414, 10019, "key names are at most 512 bytes");
}
