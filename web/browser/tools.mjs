// What the browser tests need from the machine, shared by the Playwright configuration (playwright.config.mjs), its
// global setup and the harness: where things are, Debian's chromium and its flags, the check for missing tools,
// and the build of Studio and of the edgeflow binary that serves it.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** web/ */
export const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The repository's root. */
export const repoDir = path.resolve(webDir, "..");
/** Debian's chromium. */
export const chromiumPath = process.env.EDGEFLOW_CHROMIUM || "/usr/bin/chromium";
/**
 * The flags chromium runs with: headless without a sandbox or a GPU (a container), and none of the background
 * traffic a desktop browser makes (QUIC, first-run pages, component and sync updates).
 */
export const chromiumArgs = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
/** ci: under CI=1 a missing tool fails the tests instead of skipping them. */
export const ci = ["1", "true"].includes((process.env.CI ?? "").toLowerCase());

/** Studio's sources: a build older than any of them is stale. */
const webSources = [
  "src",
  "public",
  "index.html",
  "package.json",
  "package-lock.json",
  "vite.config.ts",
  "tsconfig.json",
];
const buildIndex = path.join(webDir, "dist", "app", "index.html");

/**
 * missingTools names what the browser tests need and the machine lacks, or returns null. Under CI a missing tool
 * is an error (thrown); elsewhere the tests skip with the returned reason.
 */
export function missingTools() {
  const missing = [];
  if (!existsSync(chromiumPath)) missing.push(`chromium (${chromiumPath}; apt-get install chromium)`);
  for (const pkg of ["@playwright/test", "playwright-core", "axe-core"]) {
    if (!existsSync(path.join(webDir, "node_modules", pkg))) missing.push(`web/node_modules/${pkg} (npm ci in web/)`);
  }
  if (!existsSync(path.join(repoDir, "edge", "node_modules"))) missing.push("edge/node_modules (npm ci in edge/)");
  if (spawnSync("go", ["version"], { stdio: "ignore" }).status !== 0) missing.push("the go command");
  if (missing.length === 0) return null;
  const reason = `browser tests need ${missing.join(", ")}`;
  if (ci) throw new Error(`${reason} (CI=1: not skipping)`);
  return reason;
}

function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const e of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, e)));
  return newest;
}

/** buildIsStale reports whether Studio's build is missing or older than one of its sources. */
export function buildIsStale() {
  if (!existsSync(buildIndex)) return true;
  const built = statSync(buildIndex).mtimeMs;
  return webSources.some((s) => newestMtime(path.join(webDir, s)) > built);
}

function run(cmd, args, cwd, env = process.env) {
  const r = spawnSync(cmd, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  if (r.status !== 0) {
    throw new Error(`${cmd} ${args.join(" ")} (in ${cwd}) failed:\n${r.stdout}\n${r.stderr}`);
  }
}

/**
 * prepare builds Studio (npm run build, when stale) and the edgeflow binary embedding it, once per run: it returns
 * $EDGEFLOW_BROWSER_BIN when set, else builds into a temporary directory (removed when this process exits) and sets
 * $EDGEFLOW_BROWSER_BIN, which the test workers inherit.
 */
export function prepare() {
  const given = process.env.EDGEFLOW_BROWSER_BIN;
  if (given) {
    if (!existsSync(given)) throw new Error(`EDGEFLOW_BROWSER_BIN=${given}: no such file`);
    return given;
  }
  if (buildIsStale()) run("npm", ["run", "build", "--silent"], webDir);
  const dir = mkdtempSync(path.join(os.tmpdir(), "edgeflow-browser-bin-"));
  const bin = path.join(dir, "edgeflow");
  run("go", ["build", "-o", bin, "./cmd/edgeflow"], repoDir);
  process.env.EDGEFLOW_BROWSER_BIN = bin;
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  return bin;
}
