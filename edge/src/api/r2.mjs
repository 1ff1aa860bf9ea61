// R2 buckets and objects. Every handler takes the account's context (ctx, see ../api.mjs) and the call (c); the
// route table (routes.mjs) lists them.

import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  EdgeError,
  INTERNAL_ERROR,
  INVALID_REQUEST,
  R2_BUCKET_EXISTS,
  R2_BUCKET_NAME_INVALID,
  R2_BUCKET_NOT_EMPTY,
  R2_BUCKET_NOT_FOUND,
  R2_OBJECT_NOT_FOUND,
} from "../errors.mjs";
import { intParam, requireObject } from "../http.mjs";
import { now } from "../registry.mjs";
import { UPLOAD_LIMIT } from "./common.mjs";

const BUCKET_NAME = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;
const LOCATIONS = ["apac", "eeur", "enam", "weur", "wnam", "oc"];
const JURISDICTIONS = ["default", "eu", "fedramp"];
const STORAGE_CLASSES = ["Standard", "InfrequentAccess"];

// jurisdictionHeader reads a request's cf-r2-jurisdiction header: default, eu or fedramp (default when absent).
function jurisdictionHeader(c) {
  const j = c.req.headers["cf-r2-jurisdiction"];
  if (j === undefined || j === "") return "default";
  if (!JURISDICTIONS.includes(j))
    throw new EdgeError(
      400,
      INVALID_REQUEST,
      `cf-r2-jurisdiction must be one of ${JURISDICTIONS.join(", ")}, got '${j}'`,
    );
  return j;
}

function checkStorageClass(v, what) {
  if (!STORAGE_CLASSES.includes(v))
    throw new EdgeError(400, INVALID_REQUEST, `${what} must be Standard or InfrequentAccess, got ${JSON.stringify(v)}`);
}
// HTTP_METADATA maps an R2 object's httpMetadata fields to the HTTP headers that carry them in the object API.
const HTTP_METADATA = [
  ["contentType", "content-type"],
  ["contentDisposition", "content-disposition"],
  ["contentEncoding", "content-encoding"],
  ["contentLanguage", "content-language"],
  ["cacheControl", "cache-control"],
  ["cacheExpiry", "expires"],
];
const HTTP_METADATA_HEADER = "x-edge-r2-http-metadata";

// findBucket finds the bucket of the path in the jurisdiction of the cf-r2-jurisdiction header (default when absent):
// as on Cloudflare, a bucket created in the eu jurisdiction is found only with that header.
function findBucket(ctx, c) {
  const b = ctx.state.r2[c.params.bucket];
  if (!b || (b.jurisdiction ?? "default") !== jurisdictionHeader(c))
    throw new EdgeError(404, R2_BUCKET_NOT_FOUND, "The specified bucket does not exist.");
  return b;
}

function bucketJSON(b) {
  return {
    name: b.name,
    creation_date: b.creation_date,
    location: (b.location ?? "enam").toUpperCase(),
    storage_class: b.storage_class ?? "Standard",
    jurisdiction: b.jurisdiction ?? "default",
  };
}

export function getBucket(ctx, c) {
  return { result: bucketJSON(findBucket(ctx, c)) };
}

// patchBucket changes a bucket's default storage class (header cf-r2-storage-class), as Cloudflare's bucket PATCH.
export async function patchBucket(ctx, c) {
  const b = findBucket(ctx, c);
  const sc = c.req.headers["cf-r2-storage-class"];
  if (sc === undefined || sc === "")
    throw new EdgeError(
      400,
      INVALID_REQUEST,
      "the cf-r2-storage-class header is required (Standard or InfrequentAccess)",
    );
  checkStorageClass(sc, "cf-r2-storage-class");
  await ctx.apply(
    (st) => {
      st.r2[b.name].storage_class = sc;
    },
    { restart: false },
  );
  return { result: bucketJSON(ctx.state.r2[b.name]) };
}

export function listBuckets(ctx, c) {
  const contains = c.query.get("name_contains");
  const startAfter = c.query.get("start_after") ?? c.query.get("cursor") ?? "";
  const perPage = intParam(c.query, "per_page", { def: 20, min: 1, max: 1000 });
  let list = Object.values(ctx.state.r2).sort((a, b) => a.name.localeCompare(b.name));
  if (c.query.get("direction") === "desc") list.reverse();
  const jurisdiction = jurisdictionHeader(c);
  list = list.filter((b) => (b.jurisdiction ?? "default") === jurisdiction);
  if (contains) list = list.filter((b) => b.name.includes(contains));
  if (startAfter) list = list.filter((b) => b.name > startAfter);
  const page = list.slice(0, perPage);
  const cursor = list.length > perPage ? page.at(-1).name : "";
  return { result: { buckets: page.map((b) => bucketJSON(b)) }, info: { cursor, per_page: perPage } };
}

export async function createBucket(ctx, c) {
  const body = requireObject(await c.json());
  if (typeof body.name !== "string" || !BUCKET_NAME.test(body.name)) {
    throw new EdgeError(
      400,
      R2_BUCKET_NAME_INVALID,
      "bucket name must be 3-63 lowercase letters, digits and dashes, starting and ending with a letter or digit",
    );
  }
  const jurisdiction = jurisdictionHeader(c);
  let location = null;
  if (body.locationHint !== undefined && body.locationHint !== null) {
    if (typeof body.locationHint !== "string" || !LOCATIONS.includes(body.locationHint.toLowerCase())) {
      throw new EdgeError(
        400,
        INVALID_REQUEST,
        `locationHint must be one of ${LOCATIONS.join(", ")}, got ${JSON.stringify(body.locationHint)}`,
      );
    }
    location = body.locationHint.toLowerCase();
  }
  if (body.storageClass !== undefined && body.storageClass !== null)
    checkStorageClass(body.storageClass, "storageClass");
  // bucket names are unique on the edge across jurisdictions (docs/edge.md, differences from Cloudflare)
  if (ctx.state.r2[body.name])
    throw new EdgeError(409, R2_BUCKET_EXISTS, "The bucket you tried to create already exists, and you own it.");
  await ctx.apply((st) => {
    st.r2[body.name] = {
      name: body.name,
      creation_date: now(),
      ...(location ? { location } : {}),
      ...(body.storageClass ? { storage_class: body.storageClass } : {}),
      ...(jurisdiction !== "default" ? { jurisdiction } : {}),
    };
  });
  return { result: bucketJSON(ctx.state.r2[body.name]) };
}

export async function deleteBucket(ctx, c) {
  const b = findBucket(ctx, c);
  const r = await ctx.runtime.control("/r2/list", { bucket: ctx.names.bucket(b.name), limit: 1 });
  if (r.objects.length > 0)
    throw new EdgeError(409, R2_BUCKET_NOT_EMPTY, "The bucket you tried to delete is not empty.");
  await ctx.apply((st) => {
    delete st.r2[b.name];
  });
  return { result: {} };
}

export async function listObjects(ctx, c) {
  const b = findBucket(ctx, c);
  const perPage = intParam(c.query, "per_page", { def: 1000, min: 1, max: 1000 });
  const r = await ctx.runtime.control("/r2/list", {
    bucket: ctx.names.bucket(b.name),
    prefix: c.query.get("prefix") ?? "",
    cursor: c.query.get("cursor") ?? "",
    delimiter: c.query.get("delimiter") ?? "",
    start_after: c.query.get("start_after") ?? "",
    limit: perPage,
  });
  return {
    result: r.objects,
    info: { cursor: r.cursor, per_page: perPage, is_truncated: r.truncated ? "true" : "false", delimited: r.delimited },
  };
}

function r2Fetch(ctx, bucket, key, init) {
  const q = new URLSearchParams({ bucket: ctx.names.bucket(bucket), key });
  return ctx.runtime.control(`/r2/object?${q}`, undefined, { ...init, response: true });
}

export async function getObject(ctx, c) {
  const b = findBucket(ctx, c);
  const res = await r2Fetch(ctx, b.name, c.params.key, { method: "GET" });
  if (res.status === 404) {
    await res.arrayBuffer();
    throw new EdgeError(404, R2_OBJECT_NOT_FOUND, "The specified key does not exist.");
  }
  if (res.status !== 200) {
    const out = await res.json().catch(() => ({}));
    throw new EdgeError(502, out.code ?? INTERNAL_ERROR, out.message ?? `R2 read failed with ${res.status}`);
  }
  // the body is streamed on as the client reads it, never held whole: an object may be as large as a worker wrote it
  const size = Number(res.headers.get("x-edge-r2-size"));
  const headers = Number.isSafeInteger(size) && size >= 0 ? { "content-length": size } : {};
  for (const h of ["content-type", "etag", "last-modified"]) {
    const v = res.headers.get(h);
    if (v) headers[h] = v;
  }
  // the object's HTTP metadata comes as JSON beside the body, so that no hop acts on a stored content-encoding
  const meta = JSON.parse(res.headers.get(HTTP_METADATA_HEADER) ?? "{}");
  // a value beyond Latin-1 (stored by a worker) is sent as its UTF-8 bytes
  for (const [field, h] of HTTP_METADATA)
    if (meta[field]) headers[h] = Buffer.from(String(meta[field]), "utf8").toString("latin1");
  // Node re-encodes a content-disposition beyond ASCII when a length is set (and refuses some): send it chunked
  if (Object.values(headers).some((v) => typeof v === "string" && [...v].some((ch) => ch.charCodeAt(0) > 0x7f)))
    delete headers["content-length"];
  c.res.writeHead(200, headers);
  if (!res.body) return c.res.end();
  // a client that goes away ends the read of the object (pipeline destroys both sides)
  await pipeline(Readable.fromWeb(res.body), c.res).catch(() => c.res.destroy());
}

export async function putObject(ctx, c) {
  const b = findBucket(ctx, c);
  if (c.params.key.length > 1024) throw new EdgeError(400, INVALID_REQUEST, "object keys are at most 1024 bytes");
  const body = await c.body(UPLOAD_LIMIT);
  const meta = {};
  for (const [field, h] of HTTP_METADATA) {
    const v = c.req.headers[h];
    if (typeof v === "string" && v !== "") meta[field] = fromHeader(v);
  }
  if (meta.cacheExpiry !== undefined && Number.isNaN(Date.parse(meta.cacheExpiry))) {
    throw new EdgeError(400, INVALID_REQUEST, `expires '${meta.cacheExpiry}' is not an HTTP date`);
  }
  const headers = { [HTTP_METADATA_HEADER]: asciiJSON(meta) };
  const res = await r2Fetch(ctx, b.name, c.params.key, { method: "PUT", raw: body, headers });
  const out = await res.json();
  if (!out.ok) throw new EdgeError(out.status, out.code, out.message);
  return { result: out.result };
}

export async function deleteObject(ctx, c) {
  const b = findBucket(ctx, c);
  const res = await r2Fetch(ctx, b.name, c.params.key, { method: "DELETE" });
  await res.arrayBuffer();
  return { result: {} };
}

// fromHeader reads a header value as its client sent it: Node gives each byte as one character, so a value that is
// valid UTF-8 is decoded as such (as the value would be stored on Cloudflare), any other is kept byte for byte.
function fromHeader(v) {
  const utf8 = Buffer.from(v, "latin1").toString("utf8");
  return utf8.includes("\uFFFD") ? v : utf8;
}

// asciiJSON is JSON with every character beyond ASCII escaped, so that it can travel in a header.
function asciiJSON(v) {
  return JSON.stringify(v).replace(/[\u007f-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
