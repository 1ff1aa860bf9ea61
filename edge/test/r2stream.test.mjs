// The REST API's R2 object read streams the object as the client reads it (api/r2.mjs getObject): it used to read
// every object whole into the edge's memory first, so a few clients that asked for a large object and read slowly
// could hold gigabytes of the edge's memory. The attack is that: eight reads of a 64 MiB object that stop after the
// headers; the legitimate use beside it reads the object whole, with its length and its bytes.

import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import http from "node:http";
import { after, before, test } from "node:test";
import { startEdge, waitFor } from "./helpers.mjs";

const SIZE = 64 << 20;
let edge;
let object;

before(async () => {
  edge = await startEdge();
  assert.equal((await edge.call("POST", "/r2/buckets", { name: "big" })).status, 200);
  object = Buffer.alloc(SIZE);
  for (let i = 0; i < SIZE; i += 4) object.writeUInt32LE((i * 2654435761) >>> 0, i);
});

after(async () => {
  await edge?.stop();
});

async function nodeRss() {
  return (await edge.stats()).node_rss;
}

const objectURL = () => `${edge.account}/r2/buckets/big/objects/blob.bin`;

test("an object is read whole, with its length and bytes", async () => {
  const put = await fetch(objectURL(), {
    method: "PUT",
    headers: { authorization: `Bearer ${edge.token}`, "content-type": "application/octet-stream" },
    body: object,
  });
  assert.equal(put.status, 200, await put.text());
  const res = await fetch(objectURL(), { headers: { authorization: `Bearer ${edge.token}` } });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-length"), String(SIZE));
  assert.equal(res.headers.get("content-type"), "application/octet-stream");
  const got = Buffer.from(await res.arrayBuffer());
  assert.equal(got.length, SIZE);
  assert.equal(createHash("sha256").update(got).digest("hex"), createHash("sha256").update(object).digest("hex"));
});

test("eight clients that stop reading after the headers do not hold the object in the edge's memory", async (t) => {
  const before = await nodeRss();
  const u = new URL(objectURL());
  const open = [];
  for (let i = 0; i < 8; i++) {
    open.push(
      new Promise((resolve, reject) => {
        const req = http.get(
          { hostname: u.hostname, port: u.port, path: u.pathname, headers: { authorization: `Bearer ${edge.token}` } },
          (res) => {
            res.pause(); // reads nothing more
            resolve({ req, res });
          },
        );
        req.on("error", reject);
      }),
    );
  }
  const readers = await Promise.all(open);
  for (const { res } of readers) assert.equal(res.statusCode, 200);
  // held whole, the eight reads would hold 512 MiB; streamed, each holds what fits in the sockets' buffers
  const grown = (await nodeRss()) - before;
  t.diagnostic(`the edge's memory grew by ${grown >> 20} MiB`);
  assert.ok(grown < 256 << 20, `the edge's memory grew by ${grown >> 20} MiB while 8 reads of 64 MiB waited`);
  for (const { req } of readers) req.destroy();
  // the edge goes on answering, and the object is read whole again
  await waitFor(
    async () => {
      const res = await fetch(objectURL(), { headers: { authorization: `Bearer ${edge.token}` } });
      return res.status === 200 && (await res.arrayBuffer()).byteLength === SIZE;
    },
    { what: "a whole read after the abandoned ones" },
  );
});
