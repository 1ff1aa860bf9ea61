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
