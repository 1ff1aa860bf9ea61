// The route table of the edge's API (src/api/routes.mjs) read as data: every route's auth agrees with its path, no
// route is listed twice, and the router built from the table finds a request's route and parameters as the gateway
// relies on (the API's behaviour itself is tested through the running edge in the other files).

import assert from "node:assert/strict";
import { test } from "node:test";
import { matchRoute } from "../src/api.mjs";
import { ACCOUNT, ACCOUNT_VERIFY, ROUTES, TOKEN, TOKEN_VERIFY } from "../src/api/routes.mjs";

test("a route names the account in its path exactly when its auth is the account's", () => {
  for (const r of ROUTES) {
    assert.ok(
      [ACCOUNT, TOKEN, ACCOUNT_VERIFY, TOKEN_VERIFY].includes(r.auth),
      `${r.method} ${r.pattern}: unknown auth`,
    );
    const named = r.pattern === "/accounts/:account" || r.pattern.startsWith("/accounts/:account/");
    assert.equal(r.auth.account, named, `${r.method} ${r.pattern}`);
    assert.equal(
      r.pattern.split("/").filter((s) => s === ":account").length,
      named ? 1 : 0,
      `${r.method} ${r.pattern}`,
    );
    assert.equal(typeof r.handler, "function", `${r.method} ${r.pattern}`);
  }
});

test("the token verify routes alone answer 1000 for an unknown token", () => {
  const verify = ROUTES.filter((r) => r.auth.verify).map((r) => `${r.method} ${r.pattern}`);
  assert.deepEqual(verify, ["GET /user/tokens/verify", "GET /accounts/:account/tokens/verify"]);
});

test("no method and path is listed twice", () => {
  const seen = new Set();
  for (const r of ROUTES) {
    const key = `${r.method} ${r.pattern}`;
    assert.ok(!seen.has(key), `${key} is listed twice`);
    seen.add(key);
  }
});

test("the router finds routes and decodes their parameters; a path of another method is told apart", () => {
  const kv = matchRoute("GET", "/accounts/abc/storage/kv/namespaces/ns1/values/k%201/x%2Fy");
  assert.equal(kv.route.pattern, "/accounts/:account/storage/kv/namespaces/:ns/values/*key");
  assert.deepEqual(kv.params, { account: "abc", ns: "ns1", key: "k 1/x/y" });
  assert.equal(kv.route.auth, ACCOUNT);
  const verify = matchRoute("GET", "/user/tokens/verify/");
  assert.equal(verify.route.auth, TOKEN_VERIFY);
  // POST …/instances/batch is its own route, GET of the same path reads an instance named "batch"
  assert.equal(
    matchRoute("POST", "/accounts/abc/workflows/w/instances/batch").route.pattern,
    "/accounts/:account/workflows/:workflow/instances/batch",
  );
  assert.equal(matchRoute("GET", "/accounts/abc/workflows/w/instances/batch").params.instance, "batch");
  assert.deepEqual(matchRoute("POST", "/zones/z1"), { pathMatched: true });
  assert.deepEqual(matchRoute("GET", "/nothing/here"), { pathMatched: false });
});
