// HTTP plumbing shared by the API handlers: Cloudflare's envelope, body reading with limits, a small router.

import { EdgeError, INTERNAL_ERROR, INVALID_REQUEST } from "./errors.mjs";

export function send(res, status, body, headers = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function envelope(result, resultInfo) {
  const out = { success: true, errors: [], messages: [], result };
  if (resultInfo !== undefined) out.result_info = resultInfo;
  return out;
}

export function errorEnvelope(code, message) {
  return { success: false, errors: [{ code, message }], messages: [], result: null };
}

export function sendError(res, err) {
  if (err instanceof EdgeError) {
    // A 409 reports a state no retry changes (an id taken, an instance already finished, a bucket that exists or
    // is not empty): x-should-retry tells Cloudflare's SDKs, which retry 409s by default, to fail at once.
    const body = errorEnvelope(err.code, err.message);
    if (Array.isArray(err.errors) && err.errors.length > 0) body.errors = err.errors; // one entry per refused item
    send(res, err.status, body, err.status === 409 ? { "x-should-retry": "false" } : {});
    return;
  }
  const cause = err?.cause ? ` (${err.cause.code ?? ""} ${err.cause.message ?? err.cause})` : "";
  send(res, 500, errorEnvelope(INTERNAL_ERROR, `internal error: ${err?.message ?? err}${cause}`));
}

export function readBody(req, limit) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    let failed = false;
    req.on("data", (c) => {
      if (failed) return;
      size += c.length;
      if (size > limit) {
        failed = true;
        reject(new EdgeError(413, INVALID_REQUEST, `request body is larger than ${limit} bytes`));
        req.resume();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on("error", (e) => {
      if (!failed) reject(e);
    });
  });
}

export function parseJSON(buf, { allowEmpty = false, what = "request body" } = {}) {
  const text = buf.toString("utf8");
  if (text.trim() === "") {
    if (allowEmpty) return undefined;
    throw new EdgeError(400, INVALID_REQUEST, `${what} is empty; a JSON document was expected`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new EdgeError(400, INVALID_REQUEST, `${what} is not valid JSON: ${err.message}`);
  }
}

export function requireObject(v, what = "request body") {
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    throw new EdgeError(400, INVALID_REQUEST, `${what} must be a JSON object`);
  }
  return v;
}

// Router matches routes ({method, pattern, handler, …}, see api/routes.mjs) against the raw (still
// percent-encoded) path, in the order given. A pattern is "/path/:param/*rest": `:param` matches one segment and is
// decoded; `*rest` matches the remainder and is decoded as a whole, so a KV key sent as `k%201%2Fx` or `k%201/x`
// both read "k 1/x".
export class Router {
  constructor(routes = []) {
    this.routes = [];
    for (const r of routes) this.add(r);
  }
  add(route) {
    if (typeof route.handler !== "function") throw new Error(`Router: ${route.method} ${route.pattern} has no handler`);
    const names = [];
    const re = route.pattern
      .split("/")
      .map((seg) => {
        if (seg.startsWith(":")) {
          names.push(seg.slice(1));
          return "([^/]+)";
        }
        if (seg.startsWith("*")) {
          names.push(seg.slice(1));
          return "(.+)";
        }
        return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      })
      .join("/");
    this.routes.push({ route, re: new RegExp(`^${re}/?$`), names });
  }
  // match answers {route, params} for the first route of the method whose pattern matches rawPath, or
  // {pathMatched} (whether a route of another method matches it) when there is none.
  match(method, rawPath) {
    let pathMatched = false;
    for (const r of this.routes) {
      const m = r.re.exec(rawPath);
      if (!m) continue;
      pathMatched = true;
      if (r.route.method !== method) continue;
      const params = {};
      r.names.forEach((n, i) => {
        params[n] = safeDecode(m[i + 1]);
      });
      return { route: r.route, params };
    }
    return { pathMatched };
  }
}

function safeDecode(s) {
  try {
    return decodeURIComponent(s);
  } catch {
    throw new EdgeError(400, INVALID_REQUEST, `'${s}' is not a valid percent-encoded path segment`);
  }
}

export function intParam(q, name, { def, min, max }) {
  const raw = q.get(name);
  if (raw === null || raw === "") return def;
  if (!/^\d+$/.test(raw)) throw new EdgeError(400, INVALID_REQUEST, `${name} must be a whole number, got '${raw}'`);
  const n = Number(raw);
  if (n < min || (max !== undefined && n > max)) {
    throw new EdgeError(400, INVALID_REQUEST, `${name} must be between ${min} and ${max ?? "any"}, got ${n}`);
  }
  return n;
}

export function pageInfo(items, page, perPage) {
  const total = items.length;
  const slice = items.slice((page - 1) * perPage, page * perPage);
  return {
    items: slice,
    info: {
      page,
      per_page: perPage,
      count: slice.length,
      total_count: total,
      total_pages: Math.max(1, Math.ceil(total / perPage)),
    },
  };
}
