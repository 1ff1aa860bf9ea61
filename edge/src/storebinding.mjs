// A shard's KV bindings (decision 703): miniflare's remote-binding client in a shard sends each request of a KV
// binding to the D1 hosts' binding proxy (d1host.mjs), which hands it here; the control worker of the group that
// holds the namespace carries it out (control.stores.js).

// STORE_BODY_LIMIT bounds the body of one request of a shard's KV binding (KV's values are at most 25 MiB).
const STORE_BODY_LIMIT = 26 * 1024 * 1024;

// storeBinding serves one request of a shard's KV binding (entry: {kv: namespace id}), passed on by the binding
// proxy (d1host.mjs) with miniflare's remote-binding headers (MF-URL, MF-Header-*): the control worker of the group
// that holds the namespace answers it through its own binding (control.stores.js), one store for every shard.
export async function storeBinding(runtime, entry, req, res) {
  const chunks = [];
  let size = 0;
  for await (const c of req) {
    size += c.length;
    if (size > STORE_BODY_LIMIT) {
      res.writeHead(413).end(`Value length exceeds the limit of ${STORE_BODY_LIMIT} bytes.`);
      return;
    }
    chunks.push(c);
  }
  const headers = {};
  for (const [k, v] of Object.entries(req.headers)) {
    const name = k.startsWith("mf-header-") ? k.slice("mf-header-".length) : null;
    if (name === "cf-kv-metadata" || name === "content-type") headers[name] = v;
  }
  let target;
  try {
    target = new URL(req.headers["mf-url"] ?? "http://kv/");
  } catch {
    target = new URL("http://kv/");
  }
  const q = new URLSearchParams({ ns: entry.kv, path: target.pathname + target.search });
  try {
    const r = await runtime.control(`/kv/binding?${q}`, undefined, {
      method: req.method,
      headers,
      raw: req.method === "GET" || req.method === "HEAD" ? undefined : Buffer.concat(chunks),
      response: true,
    });
    const h = {};
    r.headers.forEach((v, k) => {
      if (k !== "content-length" && k !== "transfer-encoding" && k !== "content-encoding") h[k] = v;
    });
    const body = Buffer.from(await r.arrayBuffer());
    res.writeHead(r.status, r.statusText, h).end(body);
  } catch (err) {
    if (!res.headersSent) res.writeHead(503).end(`KV namespace unavailable: ${cleanError(err)}`);
  }
}

function cleanError(err) {
  return String(err?.message ?? err).split("\n")[0];
}
