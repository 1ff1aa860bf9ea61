// Where the edge keeps V8's compile cache (src/compilecache.mjs, decision 782): never in a directory another local
// user could have made or may write to.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { compileCacheDir } from "../src/compilecache.mjs";
import { tempDir } from "./helpers.mjs";

test("the cache lives in the user's own cache directory, made private", () => {
  const home = tempDir();
  const dir = compileCacheDir({ XDG_CACHE_HOME: home });
  assert.equal(dir, path.join(home, "edgeflow", "node-compile-cache"));
  assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
});

test("a cache directory others may write to is not used (the attack), the operator's choice is", () => {
  const home = tempDir();
  const planted = path.join(home, "edgeflow", "node-compile-cache");
  fs.mkdirSync(planted, { recursive: true });
  fs.chmodSync(planted, 0o777);
  assert.equal(compileCacheDir({ XDG_CACHE_HOME: home }), null);
  assert.equal(compileCacheDir({ NODE_COMPILE_CACHE: "/srv/cache" }), "/srv/cache");
  assert.equal(compileCacheDir({ NODE_DISABLE_COMPILE_CACHE: "1", XDG_CACHE_HOME: home }), null);
});

test(
  "a cache directory of another user is not used",
  { skip: process.getuid?.() !== 0 && "needs root to chown" },
  () => {
    const home = tempDir();
    const planted = path.join(home, "edgeflow", "node-compile-cache");
    fs.mkdirSync(planted, { recursive: true, mode: 0o700 });
    fs.chownSync(planted, 65534, 65534);
    assert.equal(compileCacheDir({ XDG_CACHE_HOME: home }), null);
  },
);
