// Workers KV namespaces, keys and values. Every handler takes the account's context (ctx, see ../api.mjs) and the
// call (c); the route table (routes.mjs) lists them.

import {
  EdgeError,
  INTERNAL_ERROR,
  INVALID_REQUEST,
  KV_INVALID_NAME,
  KV_KEY_NOT_FOUND,
  KV_NAMESPACE_EXISTS,
  KV_NAMESPACE_NOT_FOUND,
} from "../errors.mjs";
import { intParam, pageInfo, parseJSON, requireObject } from "../http.mjs";
import { hexId, now } from "../registry.mjs";
import { mapLimit, VALUE_LIMIT } from "./common.mjs";

function findNamespace(ctx, c) {
  const ns = ctx.state.kv[c.params.ns];
  if (!ns) throw new EdgeError(404, KV_NAMESPACE_NOT_FOUND, `namespace '${c.params.ns}' not found`);
  return ns;
}

function nsJSON(ns) {
  return { id: ns.id, title: ns.title, supports_url_encoding: true };
}

export function getNamespace(ctx, c) {
  return { result: nsJSON(findNamespace(ctx, c)) };
}

export function listNamespaces(ctx, c) {
  const order = c.query.get("order") ?? "title";
  const dir = c.query.get("direction") === "desc" ? -1 : 1;
  const list = Object.values(ctx.state.kv)
    .map((ns) => nsJSON(ns))
    .sort(
      (a, b) =>
        String(a[order === "id" ? "id" : "title"]).localeCompare(String(b[order === "id" ? "id" : "title"])) * dir,
    );
  const { items, info } = pageInfo(
    list,
    intParam(c.query, "page", { def: 1, min: 1 }),
    intParam(c.query, "per_page", { def: 20, min: 1, max: 1000 }),
  );
  return { result: items, info };
}

export async function createNamespace(ctx, c) {
  const body = requireObject(await c.json());
  if (typeof body.title !== "string" || body.title.trim() === "" || body.title.length > 512) {
    throw new EdgeError(400, KV_INVALID_NAME, "title must be a non-empty string of at most 512 characters");
  }
  if (Object.values(ctx.state.kv).some((ns) => ns.title === body.title)) {
    throw new EdgeError(400, KV_NAMESPACE_EXISTS, "a namespace with this account ID and title already exists");
  }
  const id = hexId();
  await ctx.apply((st) => {
    st.kv[id] = { id, title: body.title, created_on: now() };
  });
  return { result: nsJSON(ctx.state.kv[id]) };
}

export async function renameNamespace(ctx, c) {
  const ns = findNamespace(ctx, c);
  const body = requireObject(await c.json());
  if (typeof body.title !== "string" || body.title.trim() === "")
    throw new EdgeError(400, KV_INVALID_NAME, "title must be a non-empty string");
  if (Object.values(ctx.state.kv).some((x) => x.title === body.title && x.id !== ns.id)) {
    throw new EdgeError(400, KV_NAMESPACE_EXISTS, "a namespace with this account ID and title already exists");
  }
  await ctx.apply(
    (st) => {
      st.kv[ns.id].title = body.title;
    },
    { restart: false },
  );
  return { result: nsJSON(ctx.state.kv[ns.id]) };
}

export async function deleteNamespace(ctx, c) {
  const ns = findNamespace(ctx, c);
  await clearNamespace(ctx, ns.id);
  await ctx.apply((st) => {
    delete st.kv[ns.id];
  });
  return { result: {} };
}

async function clearNamespace(ctx, id) {
  let cursor = "";
  do {
    const r = await ctx.runtime.control("/kv/list", { ns: id, cursor, limit: 1000 });
    await mapLimit(r.keys, 16, (k) => kvFetch(ctx, id, k.name, { method: "DELETE" }));
    cursor = r.cursor;
  } while (cursor);
}

export async function listKeys(ctx, c) {
  const ns = findNamespace(ctx, c);
  const limit = intParam(c.query, "limit", { def: 1000, min: 10, max: 1000 });
  const r = await ctx.runtime.control("/kv/list", {
    ns: ns.id,
    prefix: c.query.get("prefix") ?? "",
    cursor: c.query.get("cursor") ?? "",
    limit,
  });
  return { result: r.keys, info: { count: r.keys.length, cursor: r.cursor } };
}

function kvFetch(ctx, ns, key, init = {}, extra = "") {
  const q = new URLSearchParams({ ns, key });
  return ctx.runtime.control(`/kv/value?${q}${extra}`, undefined, { ...init, response: true });
}

export async function getValue(ctx, c) {
  const ns = findNamespace(ctx, c);
  checkKey(c.params.key);
  const res = await kvFetch(ctx, ns.id, c.params.key, { method: "GET" });
  if (res.status === 404) {
    await res.arrayBuffer();
    throw new EdgeError(404, KV_KEY_NOT_FOUND, "get: 'key not found'");
  }
  if (res.status !== 200) {
    // the control worker's error (JSON): answered in Cloudflare's envelope, never passed on as a value
    const out = await res.json().catch(() => ({}));
    throw new EdgeError(
      out.status >= 400 && out.status < 500 ? out.status : 502,
      out.code ?? INTERNAL_ERROR,
      out.message ?? `KV read failed with ${res.status}`,
    );
  }
  const bytes = Buffer.from(await res.arrayBuffer());
  const headers = { "content-type": "application/octet-stream", "content-length": bytes.length };
  const md = res.headers.get("cf-kv-metadata");
  if (md) headers["cf-kv-metadata"] = md;
  const exp = res.headers.get("expiration");
  if (exp) headers.expiration = exp; // Cloudflare: seconds since the epoch, on keys that expire
  c.res.writeHead(200, headers);
  c.res.end(bytes);
}

export async function getKeyMetadata(ctx, c) {
  const ns = findNamespace(ctx, c);
  checkKey(c.params.key);
  const res = await kvFetch(ctx, ns.id, c.params.key, { method: "GET" });
  await res.arrayBuffer();
  if (res.status === 404) throw new EdgeError(404, KV_KEY_NOT_FOUND, "get: 'key not found'");
  const md = res.headers.get("cf-kv-metadata");
  return { result: md ? JSON.parse(md) : null };
}

export async function putValue(ctx, c) {
  const ns = findNamespace(ctx, c);
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
      form = await new Request("http://edge.invalid/", {
        method: "POST",
        headers: { "content-type": ct },
        body: raw,
      }).formData();
    } catch (err) {
      throw new EdgeError(400, INVALID_REQUEST, `malformed multipart body: ${err.message}`);
    }
    const v = form.get("value");
    if (v === null) throw new EdgeError(400, INVALID_REQUEST, "the multipart body has no 'value' part");
    value = typeof v === "string" ? Buffer.from(v) : Buffer.from(await v.arrayBuffer());
    const m = form.get("metadata");
    if (m !== null) metadata = parseJSON(Buffer.from(typeof m === "string" ? m : await m.text()), { what: "metadata" });
  }
  if (value.length > VALUE_LIMIT) {
    throw new EdgeError(413, INVALID_REQUEST, `Value length of ${value.length} exceeds limit of ${VALUE_LIMIT}.`);
  }
  let extra = "";
  for (const k of ["expiration", "expiration_ttl"]) {
    const v = c.query.get(k);
    if (v !== null && v !== "") {
      if (!/^\d+$/.test(v)) throw new EdgeError(400, INVALID_REQUEST, `${k} must be a whole number of seconds`);
      if (k === "expiration_ttl" && Number(v) < 60)
        throw new EdgeError(400, INVALID_REQUEST, "expiration_ttl must be at least 60 seconds");
      extra += `&${k}=${v}`;
    }
  }
  if (metadata !== null) extra += `&metadata=${encodeURIComponent(JSON.stringify(metadata))}`;
  const res = await kvFetch(ctx, ns.id, key, { method: "PUT", raw: value }, extra);
  const out = await res.json();
  if (!out.ok) throw new EdgeError(out.status, out.code, out.message);
  return { result: {} };
}

export async function deleteValue(ctx, c) {
  const ns = findNamespace(ctx, c);
  const res = await kvFetch(ctx, ns.id, c.params.key, { method: "DELETE" });
  await res.arrayBuffer();
  return { result: {} };
}

// bulkPut writes up to 10,000 pairs (a body of at most 100 MB), as Cloudflare's bulk write. Every pair is checked
// first, with the rules of a single write (key name, value size, expiration_ttl at least 60, an expiration at
// least 60 s ahead, metadata of at most 1,024 bytes): when any pair breaks one, nothing is written and the answer
// lists each refused pair (decision 263), so no pair is lost silently.
export async function bulkPut(ctx, c) {
  const ns = findNamespace(ctx, c);
  const body = parseJSON(await c.body(BULK_BODY_LIMIT));
  if (!Array.isArray(body)) throw new EdgeError(400, INVALID_REQUEST, "body must be a JSON array of {key, value}");
  if (body.length > BULK_MAX_KEYS)
    throw new EdgeError(400, INVALID_REQUEST, `a bulk write holds at most ${BULK_MAX_KEYS} pairs, got ${body.length}`);
  const nowSec = Math.floor(Date.now() / 1000);
  const refused = [];
  const pairs = body.map((p, i) => {
    const why = bulkPairProblem(p, nowSec);
    if (why !== null) {
      const name = p !== null && typeof p === "object" && typeof p.key === "string" ? ` (key '${p.key}')` : "";
      refused.push({ code: why.code, message: `[${i}]${name}: ${why.message}` });
      return null;
    }
    const value = p.base64 === true ? Buffer.from(p.value, "base64") : Buffer.from(p.value);
    if (value.length > VALUE_LIMIT) {
      refused.push({
        code: INVALID_REQUEST,
        message: `[${i}] (key '${p.key}'): Value length of ${value.length} exceeds limit of ${VALUE_LIMIT}.`,
      });
    }
    return { ...p, bytes: value };
  });
  if (refused.length > 0) {
    const err = new EdgeError(400, refused[0].code, refused[0].message);
    err.errors = refused;
    throw err;
  }
  const failed = [];
  await mapLimit(pairs, 16, async (p) => {
    let extra = "";
    // Cloudflare: when both are given, expiration_ttl is used and expiration ignored
    if (p.expiration_ttl !== undefined && p.expiration_ttl !== null) extra += `&expiration_ttl=${p.expiration_ttl}`;
    else if (p.expiration !== undefined && p.expiration !== null) extra += `&expiration=${p.expiration}`;
    if (p.metadata !== undefined && p.metadata !== null)
      extra += `&metadata=${encodeURIComponent(JSON.stringify(p.metadata))}`;
    const res = await kvFetch(ctx, ns.id, p.key, { method: "PUT", raw: p.bytes }, extra);
    const out = await res.json().catch(() => ({ ok: false }));
    if (!out.ok) failed.push(p.key);
  });
  return { result: { successful_key_count: pairs.length - failed.length, unsuccessful_keys: failed } };
}

export async function bulkDelete(ctx, c) {
  const ns = findNamespace(ctx, c);
  const body = await c.json();
  if (!Array.isArray(body) || body.some((k) => typeof k !== "string"))
    throw new EdgeError(400, INVALID_REQUEST, "body must be a JSON array of key names");
  if (body.length > BULK_MAX_KEYS)
    throw new EdgeError(400, INVALID_REQUEST, `a bulk delete holds at most ${BULK_MAX_KEYS} keys, got ${body.length}`);
  await mapLimit(body, 16, async (k) => (await kvFetch(ctx, ns.id, k, { method: "DELETE" })).arrayBuffer());
  return { result: { successful_key_count: body.length, unsuccessful_keys: [] } };
}

// bulkGet reads up to 100 keys, as Cloudflare's POST …/bulk/get: {keys, type: "text"|"json", withMetadata}. A
// missing key is null; with withMetadata each value is {value, metadata} and, when the key expires, expiration.
export async function bulkGet(ctx, c) {
  const ns = findNamespace(ctx, c);
  const body = requireObject(await c.json());
  const { keys } = body;
  if (!Array.isArray(keys) || keys.length === 0 || keys.some((k) => typeof k !== "string")) {
    throw new EdgeError(400, INVALID_REQUEST, "keys must be a non-empty array of key names");
  }
  if (keys.length > BULK_GET_MAX_KEYS)
    throw new EdgeError(400, INVALID_REQUEST, `a bulk get reads at most ${BULK_GET_MAX_KEYS} keys, got ${keys.length}`);
  const type = body.type ?? "text";
  if (type !== "text" && type !== "json")
    throw new EdgeError(400, INVALID_REQUEST, `type must be text or json, got '${type}'`);
  if (body.withMetadata !== undefined && typeof body.withMetadata !== "boolean")
    throw new EdgeError(400, INVALID_REQUEST, "withMetadata must be true or false");
  keys.forEach((k) => checkKey(k));
  const found = new Map();
  let total = 0;
  await mapLimit([...new Set(keys)], 16, async (k) => {
    const res = await kvFetch(ctx, ns.id, k, { method: "GET" });
    if (res.status === 404) {
      await res.arrayBuffer();
      return;
    }
    const text = await res.text();
    total += Buffer.byteLength(text);
    const md = res.headers.get("cf-kv-metadata");
    const exp = res.headers.get("expiration");
    found.set(k, { text, metadata: md ? JSON.parse(md) : null, expiration: exp ? Number(exp) : undefined });
  });
  if (total > VALUE_LIMIT)
    throw new EdgeError(
      413,
      INVALID_REQUEST,
      `the values read are ${total} bytes together, more than the limit of ${VALUE_LIMIT}`,
    );
  const values = {};
  for (const k of keys) {
    const f = found.get(k);
    if (!f) {
      values[k] = null;
      continue;
    }
    let value = f.text;
    if (type === "json") {
      try {
        value = JSON.parse(f.text);
      } catch {
        throw new EdgeError(400, INVALID_REQUEST, `the value of key '${k}' is not valid JSON; read it with type text`);
      }
    }
    if (body.withMetadata === true) {
      values[k] = { value, metadata: f.metadata };
      if (f.expiration !== undefined) values[k].expiration = f.expiration;
    } else {
      values[k] = value;
    }
  }
  return { result: { values } };
}

// Cloudflare's bulk limits: 10,000 pairs (or keys to delete) and 100 MB per bulk write, 100 keys per bulk get.
const BULK_MAX_KEYS = 10000;
const BULK_BODY_LIMIT = 100 * 1000 * 1000;
const BULK_GET_MAX_KEYS = 100;
const METADATA_LIMIT = 1024;

// bulkPairProblem returns why Cloudflare refuses one pair of a bulk write ({code, message}, the messages Workers
// KV gives for a single write), or null.
function bulkPairProblem(p, nowSec) {
  if (p === null || typeof p !== "object" || Array.isArray(p))
    return { code: INVALID_REQUEST, message: "must be {key: string, value: string}" };
  if (typeof p.key !== "string") return { code: INVALID_REQUEST, message: "key must be a string" };
  if (typeof p.value !== "string") return { code: INVALID_REQUEST, message: "value must be a string" };
  try {
    checkKey(p.key);
  } catch (err) {
    return { code: err.code, message: err.message };
  }
  if (p.base64 !== undefined && typeof p.base64 !== "boolean")
    return { code: INVALID_REQUEST, message: "base64 must be true or false" };
  if (p.expiration_ttl !== undefined && p.expiration_ttl !== null) {
    const ttl = p.expiration_ttl;
    if (typeof ttl !== "number" || !Number.isInteger(ttl) || ttl <= 0) {
      return {
        code: INVALID_REQUEST,
        message: `Invalid expiration_ttl of ${JSON.stringify(ttl)}. Please specify integer greater than 0.`,
      };
    }
    if (ttl < 60)
      return {
        code: INVALID_REQUEST,
        message: `Invalid expiration_ttl of ${ttl}. Expiration TTL must be at least 60.`,
      };
  } else if (p.expiration !== undefined && p.expiration !== null) {
    const exp = p.expiration;
    if (typeof exp !== "number" || !Number.isInteger(exp) || exp <= nowSec) {
      return {
        code: INVALID_REQUEST,
        message: `Invalid expiration of ${JSON.stringify(exp)}. Please specify integer greater than the current number of seconds since the UNIX epoch.`,
      };
    }
    if (exp < nowSec + 60)
      return {
        code: INVALID_REQUEST,
        message: `Invalid expiration of ${exp}. Expiration times must be at least 60 seconds in the future.`,
      };
  }
  if (p.metadata !== undefined && p.metadata !== null) {
    const size = Buffer.byteLength(JSON.stringify(p.metadata));
    if (size > METADATA_LIMIT)
      return { code: INVALID_REQUEST, message: `Metadata length of ${size} exceeds limit of ${METADATA_LIMIT}.` };
  }
  return null;
}

function checkKey(key) {
  if (key === "" || key === "." || key === "..")
    throw new EdgeError(400, KV_INVALID_NAME, `key name '${key}' is not allowed`);
  if (Buffer.byteLength(key) > 512) throw new EdgeError(414, KV_INVALID_NAME, "key names are at most 512 bytes");
}
