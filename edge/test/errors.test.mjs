import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { spawnSync } from "node:child_process";
import { after, before, describe, test } from "node:test";
import { SERVER, deployDemo, startEdge, upload } from "./helpers.mjs";

let edge;
before(async () => {
  edge = await startEdge();
  await deployDemo(edge, "keep", { bindings: [{ type: "plain_text", name: "VERSION", text: "good" }] });
});
after(async () => {
  await edge?.stop();
});

async function version(name) {
  const r = await fetch(`${edge.ready.workers}/${name}`);
  return (await r.json()).version;
}

describe("auth and identity", () => {
  test("token verify, accounts, and 401 without the token", async () => {
    let r = await edge.call("GET", "/user/tokens/verify");
    assert.equal(r.body.result.status, "active");
    r = await edge.call("GET", "/accounts?page=1");
    assert.deepEqual(
      r.body.result.map((a) => a.id),
      [edge.ready.accountId],
    );
    const bad = await fetch(`${edge.ready.api}/user/tokens/verify`, { headers: { authorization: "Bearer wrong" } });
    assert.equal(bad.status, 401);
    assert.deepEqual((await bad.json()).errors, [{ code: 1000, message: "Invalid API Token" }]); // Cloudflare's answer on token verify
    const none = await fetch(`${edge.account}/workers/scripts`);
    assert.equal(none.status, 401);
    const body = await none.json();
    assert.equal(body.success, false);
    assert.equal(body.errors[0].code, 10000);
    r = await edge.call("GET", "/accounts/0123456789abcdef0123456789abcdef/workers/scripts");
    assert.equal(r.status, 403);
    r = await edge.call("GET", "/accounts/" + edge.ready.accountId + "/no/such/route");
    assert.equal(r.status, 404);
    assert.equal(r.body.errors[0].code, 7003);
    const mode = fs.statSync(edge.ready.tokenFile).mode & 0o777;
    assert.equal(mode, 0o600);
  });
});

describe("bad uploads keep the previous deployment serving", () => {
  const cases = [
    [
      "malformed multipart",
      () =>
        edge.call("PUT", "/workers/scripts/keep", "--x\r\nnot really", {
          headers: { "content-type": "multipart/form-data; boundary=x" },
        }),
      400,
      10001,
    ],
    ["not multipart", () => edge.call("PUT", "/workers/scripts/keep", { a: 1 }), 400, 10001],
    [
      "no metadata part",
      () => {
        const fd = new FormData();
        fd.set("index.js", new Blob(["export default {}"], { type: "application/javascript+module" }), "index.js");
        return edge.call("PUT", "/workers/scripts/keep", fd);
      },
      400,
      10001,
    ],
    [
      "metadata not JSON",
      () => {
        const fd = new FormData();
        fd.set("metadata", "{nope");
        return edge.call("PUT", "/workers/scripts/keep", fd);
      },
      400,
      10001,
    ],
    [
      "main module missing",
      () => upload(edge, "keep", { main: "other.js", extra: { main_module: "missing.js" } }),
      400,
      10021,
    ],
    [
      "unknown binding type",
      () => upload(edge, "keep", { bindings: [{ type: "queue", name: "Q", queue_name: "q" }] }),
      400,
      10021,
    ],
    ["binding without its field", () => upload(edge, "keep", { bindings: [{ type: "d1", name: "DB" }] }), 400, 10021],
    [
      "KV namespace the account does not have",
      () =>
        upload(edge, "keep", {
          bindings: [{ type: "kv_namespace", name: "KV", namespace_id: "0123456789abcdef0123456789abcdef" }],
        }),
      400,
      10042,
    ],
    [
      "D1 database the account does not have",
      () =>
        upload(edge, "keep", { bindings: [{ type: "d1", name: "DB", id: "00000000-0000-4000-8000-000000000000" }] }),
      400,
      10181,
    ],
    [
      "R2 bucket the account does not have",
      () => upload(edge, "keep", { bindings: [{ type: "r2_bucket", name: "B", bucket_name: "no-such-bucket" }] }),
      400,
      10085,
    ],
    [
      "module with a syntax error",
      () => upload(edge, "keep", { source: "export default { fetch( { broken" }),
      400,
      10021,
    ],
    [
      "module that throws while loading",
      () => upload(edge, "keep", { source: "throw new Error('load boom'); export default {}" }),
      400,
      10021,
    ],
    ["invalid script name", () => upload(edge, "Bad Name"), 400, 10021],
  ];
  for (const [name, send, status, code] of cases) {
    test(name, async () => {
      const r = await send();
      assert.equal(r.status, status, JSON.stringify(r.body));
      assert.equal(r.body.success, false);
      assert.equal(r.body.errors[0].code, code);
      assert.ok(r.body.errors[0].message.length > 10);
      assert.equal(await version("keep"), "good");
    });
  }

  test("a missing resource is named and nothing is created for it", async () => {
    const r = await upload(edge, "keep", {
      bindings: [{ type: "r2_bucket", name: "B", bucket_name: "no-such-bucket" }],
    });
    assert.match(r.body.errors[0].message, /no-such-bucket/);
    const buckets = await edge.call("GET", "/r2/buckets");
    assert.ok(!buckets.body.result.buckets.some((b) => b.name === "no-such-bucket"));
    const ns = await edge.call("GET", "/storage/kv/namespaces");
    assert.deepEqual(ns.body.result, []);
  });

  test("the load error names the cause", async () => {
    const r = await upload(edge, "keep", { source: "throw new Error('load boom'); export default {}" });
    assert.match(r.body.errors[0].message, /load boom/);
  });
});

describe("missing things", () => {
  test("missing script, service, secret; bad JSON bodies", async () => {
    let r = await edge.call("GET", "/workers/scripts/nope/settings");
    assert.equal(r.status, 404);
    assert.equal(r.body.errors[0].code, 10007);
    r = await edge.call("DELETE", "/workers/scripts/nope");
    assert.equal(r.body.errors[0].code, 10007);
    r = await edge.call("GET", "/workers/services/nope");
    assert.equal(r.body.errors[0].code, 10090);
    r = await edge.call("PUT", "/workers/scripts/keep/secrets", "{", {
      headers: { "content-type": "application/json" },
    });
    assert.equal(r.status, 400);
    r = await edge.call("PUT", "/workflows/keep", [1, 2]);
    assert.equal(r.status, 400);
    r = await edge.call("DELETE", "/workers/scripts/keep/secrets/NOPE");
    assert.equal(r.status, 404);
  });
});

describe("scripts", () => {
  test("secrets: put, list, worker sees it, value never returned, delete", async () => {
    let r = await edge.call("PUT", "/workers/scripts/keep/secrets", {
      name: "API_KEY",
      text: "s3cr3t-value",
      type: "secret_text",
    });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.result, { name: "API_KEY", type: "secret_text" });
    r = await edge.call("GET", "/workers/scripts/keep/secrets");
    assert.deepEqual(r.body.result, [{ name: "API_KEY", type: "secret_text" }]);
    const info = await (await fetch(`${edge.ready.workers}/keep`)).json();
    assert.equal(info.secret, "set");
    r = await edge.call("GET", "/workers/scripts/keep/settings");
    assert.ok(!JSON.stringify(r.body).includes("s3cr3t-value"));
    r = await edge.call("DELETE", "/workers/scripts/keep/secrets/API_KEY");
    assert.equal(r.status, 200);
    assert.equal((await (await fetch(`${edge.ready.workers}/keep`)).json()).secret, "unset");
  });

  test("wrangler 3's versions + deployments path", async () => {
    const v = await upload(edge, "keep", {
      bindings: [
        { type: "workflow", name: "WORKFLOW", workflow_name: "keep", class_name: "DemoWorkflow" },
        { type: "plain_text", name: "VERSION", text: "via-versions" },
      ],
      wranglerStyle: true,
      path: { method: "POST", url: "/workers/scripts/keep/versions?bindings_inherit=strict" },
    });
    assert.equal(v.status, 200, JSON.stringify(v.body));
    assert.equal(await version("keep"), "good");
    const d = await edge.call("POST", "/workers/scripts/keep/deployments", {
      strategy: "percentage",
      versions: [{ version_id: v.body.result.id, percentage: 100 }],
      annotations: {},
    });
    assert.equal(d.status, 200, JSON.stringify(d.body));
    assert.equal(await version("keep"), "via-versions");
    const list = await edge.call("GET", "/workers/scripts/keep/deployments");
    assert.equal(list.body.result.deployments[0].versions[0].version_id, v.body.result.id);
    const split = await edge.call("POST", "/workers/scripts/keep/deployments", {
      strategy: "percentage",
      versions: [{ version_id: v.body.result.id, percentage: 50 }],
    });
    assert.equal(split.status, 400);
    const s = await edge.call("PATCH", "/workers/scripts/keep/script-settings", { observability: { enabled: false } });
    assert.equal(s.status, 200);
  });

  test("Host header routing and disabled subdomain", async () => {
    const up = await upload(edge, "hosted", {
      source:
        "export default { fetch(req) { return new Response(new URL(req.url).host + new URL(req.url).pathname); } };",
    });
    assert.equal(up.status, 200, JSON.stringify(up.body));
    let r = await fetch(`${edge.ready.workers}/hosted/x`);
    assert.equal(r.status, 404);
    assert.match(await r.text(), /disabled/);
    await edge.call("POST", "/workers/scripts/hosted/subdomain", { enabled: true, previews_enabled: true });
    r = await fetch(`${edge.ready.workers}/hosted/x`);
    const port = new URL(edge.ready.workers).port;
    assert.equal(await r.text(), `hosted.localhost:${port}/x`);
    const viaHost = await new Promise((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: "/y", headers: { host: "hosted.local-edge.workers.dev" } }, (res) => {
          let s = "";
          res.on("data", (d) => (s += d));
          res.on("end", () => resolve(s));
        })
        .on("error", reject);
    });
    assert.equal(viaHost, `hosted.localhost:${port}/y`);
    r = await fetch(`${edge.ready.workers}/no-such-worker/`);
    assert.equal(r.status, 404);
    await edge.call("DELETE", "/workers/scripts/hosted/subdomain");
    r = await fetch(`${edge.ready.workers}/hosted/x`);
    assert.equal(r.status, 404);
    const del = await edge.call("DELETE", "/workers/services/hosted?force=true");
    assert.equal(del.status, 200);
    r = await edge.call("GET", "/workers/services/hosted");
    assert.equal(r.status, 404);
  });
});

describe("lifecycle", () => {
  test("a second edge on the same data dir is refused with a clear error", () => {
    const r = spawnSync(process.execPath, [SERVER, "--port", "0", "--data-dir", edge.dataDir], {
      encoding: "utf8",
      // a guard against a hang, not a time limit: on a loaded machine loading the edge's modules alone takes seconds
      timeout: 180000,
    });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /in use by another edge \(pid \d+\)/);
    assert.equal(r.stdout, "");
  });

  test("bad arguments", () => {
    const r = spawnSync(process.execPath, [SERVER, "--port", "abc", "--data-dir", "/tmp/x"], { encoding: "utf8" });
    assert.equal(r.status, 2);
    assert.match(r.stderr, /--port/);
  });

  test("SIGTERM stops gracefully and releases the lock", async () => {
    const e = await startEdge();
    await e.stop("SIGTERM");
    assert.equal(e.proc.exitCode, 0);
    assert.equal(fs.existsSync(path.join(e.dataDir, "edge.lock")), false);
  });
});
