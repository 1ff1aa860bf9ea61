// POST /__edge/backup (src/backup.mjs): the root token only; the tar holds the registry, KV values and R2 objects and
// leaves the token and the edge's secret key out; the edge serves its workers and stores during and after the copy.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { deployDemo, startEdge } from "./helpers.mjs";

let edge;
before(async () => {
  edge = await startEdge();
});
after(async () => {
  await edge?.stop();
});

const backupURL = () => edge.ready.api.replace("/client/v4", "/__edge/backup");

// untar reads a ustar stream (with PAX path records) into a Map of name → Buffer.
function untar(buf) {
  const out = new Map();
  let off = 0;
  let paxPath;
  while (off + 512 <= buf.length) {
    const h = buf.subarray(off, off + 512);
    if (h.every((b) => b === 0)) break;
    const name = h.subarray(0, 100).toString("utf8").replace(/\0.*$/s, "");
    const size = parseInt(h.subarray(124, 136).toString("utf8").replace(/\0.*$/s, "").trim(), 8);
    const type = String.fromCharCode(h[156]);
    const body = buf.subarray(off + 512, off + 512 + size);
    off += 512 + Math.ceil(size / 512) * 512;
    if (type === "x") {
      paxPath = /\d+ path=(.*)\n/.exec(body.toString("utf8"))?.[1];
      continue;
    }
    out.set(paxPath ?? name, Buffer.from(body));
    paxPath = undefined;
  }
  return out;
}

describe("POST /__edge/backup", () => {
  test("refuses a request without the root token, and another method", async () => {
    for (const headers of [{}, { authorization: "Bearer not-the-token" }]) {
      const r = await fetch(backupURL(), { method: "POST", headers });
      assert.equal(r.status, 401, JSON.stringify(headers));
    }
    const r = await fetch(backupURL(), { headers: { authorization: `Bearer ${edge.token}` } });
    assert.equal(r.status, 405);
  });

  test("copies the registry, KV and R2 and leaves credentials out; the edge serves during and after it", async () => {
    const ns = (await edge.call("POST", "/storage/kv/namespaces", { title: "backup-kv" })).body.result.id;
    // overwritten: the first value's blob is not named by the index any more and is not in the copy
    assert.equal((await edge.call("PUT", `/storage/kv/namespaces/${ns}/values/greeting`, "hi")).status, 200);
    assert.equal((await edge.call("PUT", `/storage/kv/namespaces/${ns}/values/greeting`, "hello")).status, 200);
    assert.equal((await edge.call("POST", "/r2/buckets", { name: "backup-bucket" })).status, 200);
    assert.equal(
      (
        await edge.call("PUT", "/r2/buckets/backup-bucket/objects/a.txt", "object a", {
          headers: { "content-type": "text/plain" },
        })
      ).status,
      200,
    );
    await deployDemo(edge, "backupdemo");
    const hit = async () => (await fetch(`${edge.ready.workers}/backupdemo/`)).status;
    assert.equal(await hit(), 200);
    const workerdPid = () => fs.readFileSync(path.join(edge.dataDir, "workerd.pid"), "utf8").trim();
    const pidBefore = workerdPid();

    // A worker request and a KV read sent while the copy is taken both answer (they wait for the workerds at most).
    const during = Promise.all([
      hit(),
      edge.call("GET", `/storage/kv/namespaces/${ns}/values/greeting`, undefined, { raw: true }).then((r) => r.text()),
    ]);
    const res = await fetch(backupURL(), { method: "POST", headers: { authorization: `Bearer ${edge.token}` } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/x-tar");
    const members = untar(Buffer.from(await res.arrayBuffer()));
    assert.deepEqual(await during, [200, "hello"]);

    const names = [...members.keys()];
    assert.equal(names[0], "edge-manifest.json");
    const manifest = JSON.parse(members.get("edge-manifest.json"));
    assert.ok(
      manifest.scripts >= 1 && manifest.kv_namespaces >= 1 && manifest.r2_buckets >= 1,
      JSON.stringify(manifest),
    );
    assert.ok(manifest.stores.kv.rows >= 1 && manifest.stores.r2.rows >= 1, JSON.stringify(manifest.stores));
    // copied while workerd ran (decision 640): not stopped, not restarted
    assert.equal(manifest.paused_ms, 0, JSON.stringify(manifest));
    assert.equal(workerdPid(), pidBefore);
    assert.ok(names.includes("registry.json"), names.join(" "));
    const registry = JSON.parse(members.get("registry.json"));
    assert.ok(registry.kv?.[ns], "the registry names the namespace");
    const blobs = names.filter((n) => n.split("/").includes("blobs")).map((n) => members.get(n).toString("utf8"));
    assert.ok(blobs.includes("hello") && blobs.includes("object a"), `blobs: ${blobs.length}`);
    assert.ok(!blobs.includes("hi"), "the overwritten value's blob is left out");
    const kvBlobs = names.filter((n) => n.startsWith("miniflare/kv/") && n.split("/").includes("blobs"));
    assert.equal(kvBlobs.length, manifest.stores.kv.rows, "one blob per KV key");
    for (const n of names) {
      assert.ok(
        !["token", "secrets.key", "edge.lock", "workerd.pid"].includes(n) &&
          !n.startsWith("run/") &&
          !n.startsWith(".backup-"),
        n,
      );
      assert.ok(!members.get(n).includes(Buffer.from(edge.token)), `${n} holds the root token`);
    }

    // After it, the workers and stores answer as before, and the staging copy is gone.
    assert.equal(await hit(), 200);
    const got = await edge.call("GET", `/storage/kv/namespaces/${ns}/values/greeting`, undefined, { raw: true });
    assert.equal(await got.text(), "hello");
    assert.deepEqual(
      fs.readdirSync(edge.dataDir).filter((n) => n.startsWith(".backup-")),
      [],
    );
  });
});
