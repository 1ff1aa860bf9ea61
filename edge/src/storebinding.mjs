// A shard's KV and R2 bindings (decisions 703, 775): miniflare's remote-binding client in a shard sends each request
// of a KV or R2 binding to the D1 hosts' binding proxy (d1host.mjs), which hands it here; the control worker of the
// group that holds the namespace or bucket carries it out (control.stores.js).

import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";

// STORE_BODY_LIMIT bounds the body of one request of a shard's KV binding (KV's values are at most 25 MiB).
const STORE_BODY_LIMIT = 26 * 1024 * 1024;
// R2_BODY_LIMIT bounds the body of one request of a shard's R2 binding (a put or an uploaded part): the proxy holds
// it whole, so a shard's worker puts at most 128 MiB in one call (larger objects go in a multipart upload's parts).
const R2_BODY_LIMIT = 128 * 1024 * 1024;

// the headers of each store's binding protocol that the control worker reads (the others are the client's own)
const PASSED = {
  kv: new Set(["cf-kv-metadata", "content-type"]),
  r2: new Set(["cf-r2-request", "cf-r2-metadata-size", "content-type"]),
};

// storeBinding serves one request of a shard's KV binding (entry: {kv: namespace id}) or R2 binding (entry: {r2:
// bucket}), passed on by the binding proxy (d1host.mjs) with miniflare's remote-binding headers (MF-URL,
// MF-Header-*): the control worker of the group that holds the store answers it through its own binding
// (control.stores.js), one store for every shard.
export async function storeBinding(runtime, entry, req, res) {
  const kind = typeof entry.r2 === "string" ? "r2" : "kv";
  const limit = kind === "r2" ? R2_BODY_LIMIT : STORE_BODY_LIMIT;
  const read = await runtime.d1.budget.read(req, limit);
  if (read.error === "too_large") {
    // R2's error travels in a header its binding reads (code 100100, "entity too large")
    if (kind === "r2")
      res.writeHead(413, {
        "cf-r2-error": r2ErrorHeader(`A shard's R2 request is limited to ${limit} bytes`, 100100),
      });
    else res.writeHead(413);
    res.end(kind === "r2" ? undefined : `Value length exceeds the limit of ${limit} bytes.`);
    return;
  }
  if (read.error === "busy") {
    const message = "the edge is holding too many binding requests at once (EDGEFLOW_EDGE_BINDING_BUFFER); try again";
    if (kind === "r2") res.writeHead(503, { "cf-r2-error": r2ErrorHeader(message, 10001) }).end();
    else res.writeHead(503).end(message);
    return;
  }
  const headers = {};
  for (const [k, v] of Object.entries(req.headers)) {
    const name = k.startsWith("mf-header-") ? k.slice("mf-header-".length) : null;
    if (PASSED[kind].has(name)) headers[name] = v;
  }
  let target;
  try {
    target = new URL(req.headers["mf-url"] ?? `http://${kind}/`);
  } catch {
    target = new URL(`http://${kind}/`);
  }
  const path =
    kind === "r2"
      ? `/r2/binding?${new URLSearchParams({ bucket: entry.r2 })}`
      : `/kv/binding?${new URLSearchParams({ ns: entry.kv, path: target.pathname + target.search })}`;
  try {
    const r = await runtime.control(path, undefined, {
      method: req.method,
      headers,
      raw: req.method === "GET" || req.method === "HEAD" ? undefined : read.body,
      response: true,
      fromWorker: true,
    });
    read.release();
    const h = {};
    r.headers.forEach((v, k) => {
      if (k !== "content-length" && k !== "transfer-encoding" && k !== "content-encoding") h[k] = v;
    });
    // The answer streams through (an R2 object may be gigabytes): the proxy never holds it whole.
    res.writeHead(r.status, r.statusText, h);
    if (!r.body) return void res.end();
    await pipeline(Readable.fromWeb(r.body), res);
  } catch (err) {
    read.release();
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (kind === "r2") {
      const header = r2ErrorHeader(`R2 bucket unavailable: ${cleanError(err)}`, 10001);
      res.writeHead(503, { "cf-r2-error": header }).end();
    } else res.writeHead(503).end(`KV namespace unavailable: ${cleanError(err)}`);
  }
}

function r2ErrorHeader(message, code) {
  return JSON.stringify({ message, version: 1, v4code: code });
}

function cleanError(err) {
  return String(err?.message ?? err).split("\n")[0];
}
