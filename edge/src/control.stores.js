// The control worker's side of a shard's KV bindings (decision 703). A worker in a shard (plan.mjs) binds KV namespaces
// through miniflare's remote-binding client, whose requests reach the edge's binding proxy (d1host.mjs) and come here,
// to the control worker of the group that holds the namespace: one store for every shard. The requests are those
// workerd's KV binding sends (the protocol miniflare's own namespace object serves): GET /<key>, PUT /<key>,
// DELETE /<key>, GET / (list) and POST /bulk/get, with ?urlencoded=true for an encoded key, expiration and
// expiration_ttl on a put, key_count_limit, prefix and cursor on a list, and the metadata in CF-KV-Metadata. They
// are carried out through the namespace's binding here, so the worker in the shard sees KV's own answers and errors.

import { binding, message } from "./control.common.js";

const METADATA = "cf-kv-metadata";

// kvBinding answers one request of a KV binding: url's ns names the namespace, path the request's path and query.
export async function kvBinding(env, request, url) {
  const ns = binding(env, "kv", url.searchParams.get("ns"), "namespace");
  const target = new URL(url.searchParams.get("path") ?? "/", "http://kv");
  const q = target.searchParams;
  try {
    if (request.method === "GET" && target.pathname === "/") {
      const limit = q.get("key_count_limit");
      const res = await ns.list({
        prefix: q.get("prefix") ?? undefined,
        cursor: q.get("cursor") ?? undefined,
        ...(limit !== null ? { limit: Number(limit) } : {}),
      });
      const keys = res.keys.map((k) => ({
        name: k.name,
        ...(k.expiration !== undefined ? { expiration: k.expiration } : {}),
        // the binding takes a key's metadata as JSON text
        ...(k.metadata !== undefined && k.metadata !== null ? { metadata: JSON.stringify(k.metadata) } : {}),
      }));
      return Response.json(
        res.list_complete
          ? { keys, list_complete: true, cacheStatus: null }
          : { keys, list_complete: false, cursor: res.cursor, cacheStatus: null },
      );
    }
    if (request.method === "POST" && target.pathname === "/bulk/get") {
      const body = await request.json();
      const got = await ns.get(body.keys, { type: body.type ?? "text", withMetadata: body.withMetadata === true });
      return Response.json(Object.fromEntries(got));
    }
    let key = target.pathname.slice(1);
    if (q.get("urlencoded")?.toLowerCase() === "true") key = decodeURIComponent(key);
    if (request.method === "GET") {
      const res = await ns.getWithMetadata(key, { type: "stream" });
      if (res.value === null) return new Response("Not Found", { status: 404, statusText: "Not Found" });
      const headers = {};
      if (res.metadata !== null && res.metadata !== undefined) headers[METADATA] = JSON.stringify(res.metadata);
      return new Response(res.value, { headers });
    }
    if (request.method === "PUT") {
      const opts = {};
      if (q.get("expiration") !== null) opts.expiration = Number(q.get("expiration"));
      if (q.get("expiration_ttl") !== null) opts.expirationTtl = Number(q.get("expiration_ttl"));
      const md = request.headers.get(METADATA);
      if (md !== null) opts.metadata = JSON.parse(md);
      await ns.put(key, await request.arrayBuffer(), opts);
      return new Response(null);
    }
    if (request.method === "DELETE") {
      await ns.delete(key);
      return new Response(null);
    }
    return new Response("Method Not Allowed", { status: 405 });
  } catch (err) {
    // the binding's own error, without the prefix the shard's binding adds again ("KV PUT failed: 400 …")
    const m = /^KV \w+ failed: (\d{3}) (.*)$/s.exec(message(err));
    const status = m ? Number(m[1]) : 400;
    const text = m ? m[2] : message(err);
    return new Response(text, { status, statusText: text.slice(0, 100).replace(/[^\x20-\x7e]/g, " ") });
  }
}

// The R2 side (decision 775). workerd's R2 binding speaks one protocol to the service behind it (the one miniflare's
// bucket object serves): head, get and list are GETs whose request is JSON in CF-R2-Request; put, delete and the
// multipart calls are PUTs whose body is the request's JSON (CF-R2-Metadata-Size bytes) followed by the value. An
// answer is the result's JSON (its size in CF-R2-Metadata-Size) followed by an object's body, and an error is a
// status with CF-R2-Error ({message, version: 1, v4code}). r2Binding decodes a request, carries it out through the
// bucket's own binding here and encodes the result, so a shard's worker sees R2's own answers and errors.

const R2_REQUEST = "cf-r2-request";
const R2_METADATA_SIZE = "cf-r2-metadata-size";
const R2_ERROR = "cf-r2-error";
// the status R2 answers each of its error codes with (miniflare's bucket object, Cloudflare's error codes)
const R2_STATUS = { 10001: 500, 10007: 404, 10031: 412, 10039: 416, 10048: 500 };

// r2Binding answers one request of an R2 binding: url's bucket names the bucket.
export async function r2Binding(env, request, url) {
  const bucket = binding(env, "r2", url.searchParams.get("bucket"), "bucket");
  let req;
  let value;
  try {
    if (request.method === "GET") req = JSON.parse(request.headers.get(R2_REQUEST) ?? "");
    else {
      const size = Number(request.headers.get(R2_METADATA_SIZE));
      const body = new Uint8Array(await request.arrayBuffer());
      if (!Number.isInteger(size) || size < 0 || size > body.length) throw new Error("bad size");
      req = JSON.parse(new TextDecoder().decode(body.subarray(0, size)));
      value = body.subarray(size);
    }
    if (typeof req?.method !== "string") throw new Error("no method");
  } catch {
    return r2Error(400, 10029, "Metadata missing or invalid");
  }
  try {
    return await r2Call(bucket, req, value);
  } catch (err) {
    // the binding's own error ("put: Precondition Failed (10031)") carried back with its code
    const m = /^(?:\w+: )?(.*) \((\d{5,6})\)$/s.exec(message(err));
    if (!m) return r2Error(500, 10001, message(err));
    const code = Number(m[2]);
    return r2Error(R2_STATUS[code] ?? 400, code, m[1]);
  }
}

async function r2Call(bucket, req, value) {
  const key = req.object;
  switch (req.method) {
    case "head": {
      const o = await bucket.head(key);
      return o === null ? noSuchKey() : r2Result(rawObject(o));
    }
    case "get": {
      const opts = {};
      if (req.rangeHeader !== undefined) opts.range = new Headers({ range: req.rangeHeader });
      else if (req.range !== undefined) opts.range = req.range;
      if (req.onlyIf !== undefined) opts.onlyIf = conditional(req.onlyIf);
      const o = await bucket.get(key, opts);
      if (o === null) return noSuchKey();
      // an object without a body: a condition did not hold, and R2 answers its metadata with the error
      if (!("body" in o)) return r2Error(412, 10031, PRECONDITION, rawObject(o));
      return r2Result(rawObject(o), await o.arrayBuffer());
    }
    case "list": {
      const r = await bucket.list({
        limit: req.limit,
        prefix: req.prefix,
        cursor: req.cursor,
        delimiter: req.delimiter,
        startAfter: req.startAfter,
        include: req.include?.map((i) => (i === 0 ? "httpMetadata" : "customMetadata")),
      });
      return r2Result({
        objects: r.objects.map(rawObject),
        truncated: r.truncated,
        cursor: r.truncated ? r.cursor : undefined,
        delimitedPrefixes: r.delimitedPrefixes,
      });
    }
    case "put": {
      const opts = { httpMetadata: httpMetadata(req.httpFields), customMetadata: customMetadata(req.customFields) };
      if (req.onlyIf !== undefined) opts.onlyIf = conditional(req.onlyIf);
      // md5 travels as base64, the others as hex (which the binding takes as is)
      if (req.md5 !== undefined) opts.md5 = Uint8Array.from(atob(req.md5), (c) => c.charCodeAt(0));
      for (const h of ["sha1", "sha256", "sha384", "sha512"]) if (req[h] !== undefined) opts[h] = req[h];
      const o = await bucket.put(key, value, opts);
      return o === null ? r2Error(412, 10031, PRECONDITION) : r2Result(rawObject(o));
    }
    case "delete":
      await bucket.delete(req.objects ?? key);
      return new Response(null);
    case "createMultipartUpload": {
      const u = await bucket.createMultipartUpload(key, {
        httpMetadata: httpMetadata(req.httpFields),
        customMetadata: customMetadata(req.customFields),
      });
      return r2Result({ uploadId: u.uploadId });
    }
    case "uploadPart": {
      const part = await bucket.resumeMultipartUpload(key, req.uploadId).uploadPart(req.partNumber, value);
      return r2Result({ etag: part.etag });
    }
    case "completeMultipartUpload": {
      const parts = (req.parts ?? []).map((p) => ({ partNumber: p.part, etag: p.etag }));
      const o = await bucket.resumeMultipartUpload(key, req.uploadId).complete(parts);
      return r2Result(rawObject(o));
    }
    case "abortMultipartUpload":
      await bucket.resumeMultipartUpload(key, req.uploadId).abort();
      return new Response(null);
    default:
      return r2Error(400, 10029, `Unknown R2 request '${req.method}'`);
  }
}

const PRECONDITION = "At least one of the pre-conditions you specified did not hold.";

function noSuchKey() {
  return r2Error(404, 10007, "The specified key does not exist.");
}

// r2Result is an answer of the protocol: result's JSON, then body (an object's value) when there is one.
function r2Result(result, body) {
  const text = new TextEncoder().encode(JSON.stringify(result));
  return new Response(body === undefined ? text : new Blob([text, body]), {
    headers: { [R2_METADATA_SIZE]: String(text.length), "content-type": "application/json" },
  });
}

// r2Error is an error of the protocol, with the object's metadata when R2 gives it (a failed condition on a get).
function r2Error(status, code, text, object) {
  const headers = { [R2_ERROR]: JSON.stringify({ message: text, version: 1, v4code: code }) };
  if (object === undefined) return new Response(null, { status, headers });
  const meta = new TextEncoder().encode(JSON.stringify(object));
  headers[R2_METADATA_SIZE] = String(meta.length);
  return new Response(meta, { status, headers });
}

// rawObject is an R2 object (from the binding) as the protocol carries it.
function rawObject(o) {
  const http = { ...(o.httpMetadata ?? {}) };
  if (http.cacheExpiry instanceof Date) http.cacheExpiry = http.cacheExpiry.getTime();
  const sums = o.checksums?.toJSON?.() ?? {};
  let range = o.range;
  if (range !== undefined && range.suffix !== undefined)
    range = { offset: o.size - range.suffix, length: range.suffix };
  return {
    name: o.key,
    version: o.version,
    size: o.size,
    etag: o.etag,
    uploaded: o.uploaded.getTime(),
    httpFields: http,
    customFields: Object.entries(o.customMetadata ?? {}).map(([k, v]) => ({ k, v })),
    ...(range !== undefined ? { range } : {}),
    checksums: { 0: sums.md5, 1: sums.sha1, 2: sums.sha256, 3: sums.sha384, 4: sums.sha512 },
  };
}

function httpMetadata(fields) {
  if (fields === undefined) return undefined;
  const out = { ...fields };
  if (out.cacheExpiry !== undefined) out.cacheExpiry = new Date(Number(out.cacheExpiry));
  return out;
}

function customMetadata(fields) {
  return fields === undefined ? undefined : Object.fromEntries(fields.map(({ k, v }) => [k, v]));
}

// conditional is the protocol's condition ({etagMatches, etagDoesNotMatch: [{type, value}], uploadedBefore,
// uploadedAfter, secondsGranularity}) as the binding takes it: an R2Conditional when it can say it (one strong or
// wildcard etag per list, dates to the millisecond), else the HTTP headers it came from (lists, weak etags, dates to
// the second).
function conditional(c) {
  const lists = [c.etagMatches, c.etagDoesNotMatch].filter((l) => l !== undefined);
  const plain = !c.secondsGranularity && lists.every((l) => l.length === 1 && l[0].type !== "weak");
  const one = (l) => (l[0].type === "wildcard" ? "*" : l[0].value);
  if (plain) {
    const out = {};
    if (c.etagMatches !== undefined) out.etagMatches = one(c.etagMatches);
    if (c.etagDoesNotMatch !== undefined) out.etagDoesNotMatch = one(c.etagDoesNotMatch);
    if (c.uploadedBefore !== undefined) out.uploadedBefore = new Date(Number(c.uploadedBefore));
    if (c.uploadedAfter !== undefined) out.uploadedAfter = new Date(Number(c.uploadedAfter));
    return out;
  }
  const etags = (l) =>
    l.map((e) => (e.type === "wildcard" ? "*" : e.type === "weak" ? `W/"${e.value}"` : `"${e.value}"`)).join(", ");
  const h = new Headers();
  if (c.etagMatches !== undefined) h.set("if-match", etags(c.etagMatches));
  if (c.etagDoesNotMatch !== undefined) h.set("if-none-match", etags(c.etagDoesNotMatch));
  if (c.uploadedBefore !== undefined) h.set("if-unmodified-since", new Date(Number(c.uploadedBefore)).toUTCString());
  if (c.uploadedAfter !== undefined) h.set("if-modified-since", new Date(Number(c.uploadedAfter)).toUTCString());
  return h;
}
