// The real wrangler CLIs for the conformance tests: wrangler 3 (3.114, the last of the major that ran on Node 20,
// which many projects still pin) and the current wrangler 4, each installed once into a cache directory of its own
// outside the repository (~/.cache/edgeflow/wrangler3, …/wrangler4) and run against an edge account with
// CLOUDFLARE_API_BASE_URL, in a project directory and a home directory of the test's own, without blocking the
// test's event loop (a blocked loop misses the edge closing idle keep-alive connections and then reuses a dead one).
// EDGE_SKIP_WRANGLER=1 skips the tests (for machines without the npm registry); under CI that is refused.

import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export const skip = process.env.EDGE_SKIP_WRANGLER === "1";
if (skip && process.env.CI) throw new Error("EDGE_SKIP_WRANGLER=1 under CI: the wrangler conformance suite must run");

const cacheRoot = process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache");
const wranglerDir = (major) => path.join(cacheRoot, "edgeflow", `wrangler${major}`);
const wranglerBin = (major) => path.join(wranglerDir(major), "node_modules", "wrangler", "bin", "wrangler.js");

/** installWrangler installs wrangler of the major (3 or 4, the newest release of it) into its cache directory
 * unless it is there, and answers the version installed. */
export function installWrangler(major = 3) {
  const dir = wranglerDir(major);
  if (!fs.existsSync(wranglerBin(major))) {
    fs.mkdirSync(dir, { recursive: true });
    if (!fs.existsSync(path.join(dir, "package.json"))) {
      fs.writeFileSync(
        path.join(dir, "package.json"),
        JSON.stringify({ name: `edgeflow-wrangler${major}`, private: true }),
      );
    }
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", `wrangler@${major}`], {
      cwd: dir,
      stdio: "inherit",
    });
  }
  return JSON.parse(fs.readFileSync(path.join(dir, "node_modules", "wrangler", "package.json"), "utf8")).version;
}

/**
 * spawnWrangler starts wrangler (of major, 3 by default) with args in project, as the edge account `edge` (its
 * token; accountId defaults to its own), with HOME at home. Its output is collected in out.text and its exit code in out.code; it is killed after
 * timeoutMs.
 */
export function spawnWrangler(
  args,
  { project, home, edge, accountId = edge.accountId, stdin = "pipe", timeoutMs = 120000, major = 3 },
) {
  const child = spawn(process.execPath, [wranglerBin(major), ...args], {
    cwd: project,
    stdio: [stdin, "pipe", "pipe"],
    env: {
      PATH: process.env.PATH,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, ".config"),
      CLOUDFLARE_API_BASE_URL: edge.ready.api,
      CLOUDFLARE_API_TOKEN: edge.token,
      CLOUDFLARE_ACCOUNT_ID: accountId,
      WRANGLER_SEND_METRICS: "false",
      NO_UPDATE_NOTIFIER: "1",
      CI: "1",
    },
  });
  const out = { text: "", code: null };
  child.stdout.on("data", (d) => (out.text += d));
  child.stderr.on("data", (d) => (out.text += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  child.on("close", (code) => {
    clearTimeout(timer);
    out.code = code;
  });
  return { child, out };
}

/**
 * runWrangler runs wrangler to its end (input on its standard input) and resolves with its output, or rejects with
 * it when it fails; with fail set it resolves with {code, out} either way.
 */
export function runWrangler(args, { input, fail = false, ...opts }) {
  return new Promise((resolve, reject) => {
    const { child, out } = spawnWrangler(args, opts);
    child.on("error", reject);
    child.on("close", (code) => {
      if (fail) resolve({ code, out: out.text });
      else if (code === 0) resolve(out.text);
      else reject(new assert.AssertionError({ message: `wrangler ${args.join(" ")} failed (${code}):\n${out.text}` }));
    });
    child.stdin.end(input ?? "");
  });
}
