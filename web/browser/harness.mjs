// The browser-test harness: a real edgeflow server (SQLite in a temporary data directory, its local edge) serving the
// Studio build embedded in the binary, and Debian's chromium driven by playwright-core.
//
//   import { test, before, after } from "node:test";
//   import { startStudio, checkA11y, screenshot } from "./harness.mjs";
//
//   let studio;
//   before(async () => { studio = await startStudio(); });
//   after(async () => { await studio?.close(); });
//
//   test("…", async (t) => {
//     if (studio.skip) return t.skip(studio.skip);
//     const page = await studio.newPage();          // records console errors and failed requests
//     await studio.gotoApp(page, "/");               // goto, then wait for the app to render and the network to idle
//     await checkA11y(page, "home");                 // axe-core: no serious or critical violations
//     await screenshot(page, "home");                // docs/images/studio/home.png when EDGEFLOW_SCREENSHOTS=1
//     studio.assertClean(page);                      // fails on console errors and failed requests
//   });
//
// Signed in without the sign-up screen: const user = await studio.apiSignUp(); const page = await
// studio.newPage(user.context); then studio.api(user, "POST", "/api/workflows", { name: "x" }) sets up records.
// More serve flags: startStudio({ args: ["--allow-hosts", "127.0.0.1"] }).
// A server in the default sign-up mode: startStudio({ signup: "invite" }); await studio.setupLink() is the link it printed.
// More flags of edgeflow serve: startStudio({ serveArgs: ["--cloudflare-api-url", stubURL] }).
// A failure the test provokes on purpose: studio.allow(page, { method: "POST", path: "/api/auth/sign-in", status: 401 }).
// Measure the JavaScript a navigation loads: const done = measureScripts(page); …; const sizes = await done().
//
// Each *.test.mjs file runs in a process of its own and starts its own server. `npm run test:browser` (run.mjs)
// builds Studio and the binary once before the files run; a file run alone (node --test browser/x.test.mjs) builds
// them itself when needed. Under CI=1 missing tools fail the tests; elsewhere they skip with the reason.

import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, test } from "node:test";

const require = createRequire(import.meta.url);

/** web/ */
export const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The repository's root. */
export const repoDir = path.resolve(webDir, "..");
/** Debian's chromium. */
export const chromiumPath = process.env.EDGEFLOW_CHROMIUM || "/usr/bin/chromium";
/** The flags chromium runs with. */
export const chromiumArgs = ["--headless", "--no-sandbox", "--disable-gpu"];
const ci = ["1", "true"].includes((process.env.CI ?? "").toLowerCase());

/** Studio's sources: a build older than any of them is stale. */
const webSources = ["src", "public", "index.html", "package.json", "package-lock.json", "vite.config.ts", "tsconfig.json"];
const buildIndex = path.join(webDir, "dist", "app", "index.html");

/**
 * missingTools names what the browser tests need and the machine lacks, or returns null. Under CI a missing tool
 * is an error (thrown); elsewhere the tests skip with the returned reason.
 */
export function missingTools() {
  const missing = [];
  if (!existsSync(chromiumPath)) missing.push(`chromium (${chromiumPath}; apt-get install chromium)`);
  if (!existsSync(path.join(webDir, "node_modules", "playwright-core"))) missing.push("web/node_modules (npm ci in web/)");
  if (!existsSync(path.join(repoDir, "edge", "node_modules"))) missing.push("edge/node_modules (npm ci in edge/)");
  if (spawnSync("go", ["version"], { stdio: "ignore" }).status !== 0) missing.push("the go command");
  if (missing.length === 0) return null;
  const reason = `browser tests need ${missing.join(", ")}`;
  if (ci) throw new Error(`${reason} (CI=1: not skipping)`);
  console.log(`# skipping: ${reason}`);
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
 * $EDGEFLOW_BROWSER_BIN when set (run.mjs sets it), else builds into a temporary directory.
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

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// When a test fails, what the servers it used logged (warnings and errors) is printed beside the failure, so that a
// failure in CI can be understood from its output alone.
const running = new Set();
afterEach((t) => {
  if (t.passed) return;
  for (const studio of running) {
    const lines = studio.serverLog().trimEnd().split("\n").filter(Boolean).slice(-80);
    if (lines.length === 0) continue;
    console.log(`# the server's log (last ${lines.length} lines):`);
    for (const l of lines) console.log(`#   ${l}`);
  }
});

/** The only failed request a page may make unasked: the signed-out session check. */
function expectedByDefault(method, url, status) {
  return method === "GET" && new URL(url).pathname === "/api/auth/session" && status === 401;
}

/**
 * startStudio starts `edgeflow serve` (temporary data directory, its local edge unless edge: false) and chromium.
 * It resolves to a Studio; when the machine lacks a tool (not under CI) Studio.skip holds the reason and nothing
 * is started.
 */
export async function startStudio({ edge = true, signup = "open", args: extraArgs = [], serveArgs = [] } = {}) {
  const skip = missingTools();
  if (skip) return new Studio({ skip });
  const bin = prepare();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "edgeflow-browser-data-"));
  const logFile = path.join(dataDir, "serve.log");
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // Tests sign many users up, each with an organization of its own: sign-up mode open unless the test asks for
  // another (signup: "invite", the server's default, prints the first-start setup link: studio.setupLink()).
  if (!["open", "invite", "closed"].includes(signup)) throw new Error(`startStudio: signup ${JSON.stringify(signup)}: use open, invite or closed`);
  const args = ["serve", "--addr", `127.0.0.1:${port}`, "--data-dir", dataDir, "--log-level", "warn", "--signup", signup,
    // One browser makes all requests from one address: generous limits, still on.
    "--rate-limits", "global=5000,write=1000,deploy=200,verify=200"];
  if (!edge) args.push("--no-edge");
  args.push(...extraArgs, ...serveArgs);
  const env = { ...process.env, EDGEFLOW_EDGE_DIR: path.join(repoDir, "edge") };
  for (const k of ["EDGEFLOW_EDGE_URL", "EDGEFLOW_EDGE_TOKEN", "EDGEFLOW_EDGE_TOKEN_FILE", "EDGEFLOW_DATABASE_URL", "EDGEFLOW_NO_EDGE"]) delete env[k];
  const log = openSync(logFile, "a");
  const proc = spawn(bin, args, { cwd: dataDir, env, stdio: ["ignore", log, log] });
  const exited = new Promise((resolve) => proc.on("exit", (code, signal) => resolve({ code, signal })));
  const studio = new Studio({ base, proc, exited, dataDir, logFile });
  running.add(studio);
  try {
    await studio.waitReady(edge);
    const { chromium } = await import("playwright-core");
    studio.browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs, headless: true });
  } catch (err) {
    await studio.close();
    throw err;
  }
  return studio;
}

/** A running server and browser (startStudio). */
export class Studio {
  constructor({ skip = null, base = "", proc = null, exited = null, dataDir = "", logFile = "" }) {
    this.skip = skip;
    this.base = base;
    this.proc = proc;
    this.exited = exited;
    this.dataDir = dataDir;
    this.logFile = logFile;
    this.browser = null;
    this.recorders = new Map(); // page → Recorder
    this.users = 0;
  }

  /** url is the absolute URL of a path on the server. */
  url(p = "/") {
    return new URL(p, this.base).toString();
  }

  /** serverLog is what the server wrote so far. */
  serverLog() {
    try {
      return readFileSync(this.logFile, "utf8");
    } catch {
      return "";
    }
  }

  /**
   * setupLink resolves to the one-time setup link serve printed on its stdout at start (a server without users,
   * e.g. startStudio({ signup: "invite" })), waiting up to 30 s for it.
   */
  async setupLink() {
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const m = /No user exists yet\.[^\n]*\n\s*(\S+\/setup\?token=\S+)/.exec(this.serverLog());
      if (m) return m[1];
      await sleep(100);
    }
    throw new Error(`edgeflow serve printed no setup link in 30 s:\n${this.serverLog()}`);
  }

  async waitReady(edge) {
    const deadline = Date.now() + 90_000;
    let last = "";
    while (Date.now() < deadline) {
      const done = await Promise.race([this.exited, sleep(0).then(() => null)]);
      if (done) throw new Error(`edgeflow serve exited (${JSON.stringify(done)}):\n${this.serverLog()}`);
      try {
        const res = await fetch(this.url("/readyz"));
        const body = await res.json();
        last = JSON.stringify(body);
        if (res.status === 200 && (!edge || body.edge === "ok")) return;
        if (edge && body.edge === "off") throw new Error(`the server runs without a local edge: ${last}\n${this.serverLog()}`);
      } catch (err) {
        if (err instanceof Error && err.message.startsWith("the server runs without")) throw err;
        last = String(err);
      }
      await sleep(200);
    }
    throw new Error(`edgeflow serve did not get ready in 90 s (last /readyz: ${last}):\n${this.serverLog()}`);
  }

  /**
   * newContext opens a browser context on the server (baseURL set, so page.goto("/x") works). Pages opened from
   * it with newPage(context) are recorded.
   */
  async newContext(options = {}) {
    return this.browser.newContext({ baseURL: this.base, ...options });
  }

  /**
   * newPage opens a page (in a new context, or in the given one) that records console errors, uncaught
   * exceptions and failed requests (network failures; answers 4xx/5xx other than the signed-out session check's
   * 401) for assertClean.
   */
  async newPage(context) {
    const ctx = context ?? (await this.newContext());
    const page = await ctx.newPage();
    this.recorders.set(page, new Recorder(page));
    return page;
  }

  /**
   * allow lets a page make a failed request the test expects (e.g. a refused sign-in):
   * studio.allow(page, { method: "POST", path: "/api/auth/sign-in", status: 401 }). path may be a RegExp.
   */
  allow(page, rule) {
    this.recorder(page).allowed.push(rule);
  }

  /** allowConsole lets a page log a console error matching re (an expected one, e.g. a CSP report). */
  allowConsole(page, re) {
    this.recorder(page).allowedConsole.push(re);
  }

  recorder(page) {
    const r = this.recorders.get(page);
    if (!r) throw new Error("not a page of studio.newPage()");
    return r;
  }

  /** problems lists what the page recorded so far (console errors, failed requests). */
  problems(page) {
    return this.recorder(page).problems();
  }

  /** assertClean fails when the page logged a console error or made a failed request. */
  assertClean(page) {
    const problems = this.problems(page);
    if (problems.length > 0) {
      throw new Error(`the page had ${problems.length} problem(s):\n  ${problems.join("\n  ")}`);
    }
  }

  /**
   * apiSignUp signs a new user up through the API (POST /api/auth/sign-up), in a new browser context that then
   * holds the session cookie. It resolves to { context, session, email, password, name, csrfToken }; pages of
   * context (studio.newPage(context)) are signed in.
   */
  async apiSignUp({ email, password = "correct horse battery staple", name = "Test User", organizationName } = {}) {
    this.users += 1;
    email ??= `user${this.users}-${process.pid}@example.com`;
    const context = await this.newContext();
    const data = { email, password, name };
    if (organizationName) data.organizationName = organizationName;
    const res = await context.request.post("/api/auth/sign-up", { data });
    if (res.status() !== 201) {
      throw new Error(`sign-up answered ${res.status()}: ${await res.text()}`);
    }
    const session = await res.json();
    return { context, session, email, password, name, csrfToken: session.csrfToken };
  }

  /**
   * apiSignIn signs an existing user in through the API (POST /api/auth/sign-in) in a new browser context, as
   * apiSignUp does for a new one.
   */
  async apiSignIn({ email, password }) {
    const context = await this.newContext();
    const res = await context.request.post("/api/auth/sign-in", { data: { email, password } });
    if (res.status() !== 200) {
      throw new Error(`sign-in answered ${res.status()}: ${await res.text()}`);
    }
    const session = await res.json();
    return { context, session, email, password, csrfToken: session.csrfToken };
  }

  /**
   * gotoApp opens a path of Studio in the page and waits until the app has rendered into #root and, unless
   * networkIdle is false, the network is idle. A page that keeps a stream open (the runs list follows
   * GET /api/runs/stream) never goes idle: open it with {networkIdle: false} and wait for what the test needs.
   * It resolves to the navigation's response.
   */
  async gotoApp(page, p = "/", { networkIdle = true } = {}) {
    const res = await page.goto(this.url(p));
    await page.waitForFunction(() => (document.getElementById("root")?.childElementCount ?? 0) > 0);
    if (networkIdle) await page.waitForLoadState("networkidle");
    return res;
  }

  /**
   * api sends a request with a context's cookies (and its CSRF token on writes): the quick way to set up records a
   * test needs. It resolves to the parsed JSON answer and fails on an unexpected status.
   */
  async api(signedIn, method, p, body, { status } = {}) {
    const headers = {};
    if (method !== "GET" && method !== "HEAD") headers["X-CSRF-Token"] = signedIn.csrfToken;
    const res = await signedIn.context.request.fetch(p, { method, headers, data: body });
    const want = status ?? (method === "POST" ? [200, 201, 202] : [200, 204]);
    if (!(Array.isArray(want) ? want : [want]).includes(res.status())) {
      throw new Error(`${method} ${p} answered ${res.status()}: ${await res.text()}`);
    }
    const text = await res.text();
    return text ? JSON.parse(text) : null;
  }

  /** close stops chromium and the server and removes the data directory. */
  async close() {
    running.delete(this);
    if (this.browser) await this.browser.close().catch(() => {});
    this.browser = null;
    if (this.proc && this.proc.exitCode === null && this.proc.signalCode === null) {
      this.proc.kill("SIGTERM");
      const done = await Promise.race([this.exited, sleep(20_000).then(() => null)]);
      if (!done) {
        this.proc.kill("SIGKILL");
        await this.exited;
      }
    }
    if (this.dataDir) rmSync(this.dataDir, { recursive: true, force: true });
    this.dataDir = "";
  }
}

/** Recorder collects a page's console errors and failed requests. */
class Recorder {
  constructor(page) {
    this.console = []; // { text, url }
    this.failures = []; // { method, url, status, error }
    this.allowed = [];
    this.allowedConsole = [];
    page.on("console", (msg) => {
      if (msg.type() === "error") this.console.push({ text: msg.text(), url: msg.location()?.url ?? "" });
    });
    page.on("pageerror", (err) => this.console.push({ text: `uncaught: ${err.stack || err.message}`, url: "" }));
    page.on("requestfailed", (req) => {
      const error = req.failure()?.errorText ?? "failed";
      // A navigation away aborts what the old page still loads; that is not a failure of the app.
      if (error === "net::ERR_ABORTED") return;
      this.failures.push({ method: req.method(), url: req.url(), status: 0, error });
    });
    page.on("response", (res) => {
      if (res.status() >= 400) this.failures.push({ method: res.request().method(), url: res.url(), status: res.status() });
    });
  }

  isAllowed(f) {
    if (f.status && expectedByDefault(f.method, f.url, f.status)) return true;
    const p = new URL(f.url).pathname;
    return this.allowed.some((rule) =>
      (!rule.method || rule.method === f.method) &&
      (!rule.status || rule.status === f.status) &&
      (!rule.path || (rule.path instanceof RegExp ? rule.path.test(p) : rule.path === p)));
  }

  problems() {
    const out = [];
    const allowedFailures = this.failures.filter((f) => this.isAllowed(f));
    for (const f of this.failures) {
      if (this.isAllowed(f)) continue;
      out.push(f.status ? `${f.method} ${f.url} answered ${f.status}` : `${f.method} ${f.url} failed: ${f.error}`);
    }
    for (const c of this.console) {
      // Chromium logs every failed load as a console error too; those of allowed answers are not problems.
      if (/^Failed to load resource: the server responded with a status of \d+/.test(c.text) &&
        allowedFailures.some((f) => f.url === c.url)) continue;
      if (this.allowedConsole.some((re) => re.test(c.text))) continue;
      out.push(`console error: ${c.text}${c.url ? ` (${c.url})` : ""}`);
    }
    return out;
  }
}

let axeSource;

/**
 * scenario returns step(title, fn) for a file whose tests are the parts of one scenario: a step runs only while
 * every step before it passed (otherwise it is skipped, naming the failed one), its pages must be clean after it
 * (no console errors, no failed requests but the allowed ones), and a failed step leaves a screenshot of each page
 * in the temporary directory. current() answers { studio, pages } when a step runs (they are made in before()).
 */
export function scenario(name, current) {
  let failed = "";
  return function step(title, fn) {
    test(title, async (t) => {
      const { studio, pages } = current();
      if (studio.skip) return t.skip(studio.skip);
      if (failed) return t.skip(`the step before failed: ${failed}`);
      try {
        await fn(t);
        for (const p of pages) studio.assertClean(p);
      } catch (err) {
        failed = title;
        for (const [i, p] of pages.entries()) {
          const file = path.join(os.tmpdir(), `${name}-failure-${pages.length > 1 ? `${i}-` : ""}${title.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}.png`);
          await p.screenshot({ path: file, fullPage: true }).catch(() => {});
          console.log(`# screenshot of the failure: ${file}`);
        }
        throw err;
      }
    });
  };
}

/** navTo opens a screen from the top bar's navigation as a user does: a settings screen through the Settings menu. */
export async function navTo(page, name) {
  const nav = page.getByRole("navigation", { name: "Main" });
  const link = nav.getByRole("link", { name, exact: true });
  if (!(await link.isVisible())) await nav.getByRole("button", { name: "Settings" }).click();
  await link.click();
}

/**
 * checkA11y runs axe-core in the page (evaluated through the DevTools protocol, so the page's CSP stays on) and
 * fails on serious or critical violations, listing each with its nodes. It resolves to every violation found.
 */
export async function checkA11y(page, name, { exclude = [] } = {}) {
  axeSource ??= readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");
  const loaded = await page.evaluate(() => typeof window.axe !== "undefined");
  if (!loaded) await page.evaluate(axeSource);
  const violations = await page.evaluate(async (exclude) => {
    const context = exclude.length ? { include: [document], exclude: exclude.map((s) => [s]) } : document;
    const result = await window.axe.run(context, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(" ")}: ${n.failureSummary?.split("\n").join(" ")}`),
    }));
  }, exclude);
  const bad = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  if (bad.length > 0) {
    const list = bad.map((v) => `${v.impact} ${v.id} (${v.help}):\n    ${v.nodes.join("\n    ")}`).join("\n  ");
    throw new Error(`axe-core found ${bad.length} serious or critical violation(s) on ${name}:\n  ${list}`);
  }
  return violations;
}

/** screenshotsOn: EDGEFLOW_SCREENSHOTS=1 writes the screenshots for docs/studio.md. */
export const screenshotsOn = process.env.EDGEFLOW_SCREENSHOTS === "1";

/**
 * screenshot writes docs/images/studio/NAME.png when EDGEFLOW_SCREENSHOTS=1 (so that a test run never changes the
 * tree otherwise). name: lower-case letters, digits and dashes.
 */
export async function screenshot(page, name, options = {}) {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name)) throw new Error(`screenshot name ${JSON.stringify(name)}: use a-z, 0-9 and -`);
  if (!screenshotsOn) return null;
  const dir = path.join(repoDir, "docs", "images", "studio");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}.png`);
  await page.screenshot({ path: file, ...options });
  return file;
}

/**
 * measureScripts measures the JavaScript a page loads: call it before the navigation, await the returned done() after.
 * It resolves to [{ url, transferred, bytes }]: transferred is the encoded body size as sent (gzip when the server
 * compressed it), bytes the decoded size.
 */
export function measureScripts(page) {
  const seen = [];
  const onResponse = (res) => {
    if (res.request().resourceType() === "script") seen.push(res);
  };
  page.on("response", onResponse);
  return async () => {
    page.off("response", onResponse);
    const out = [];
    for (const res of seen) {
      const body = await res.body();
      const sizes = await res.request().sizes();
      out.push({ url: res.url(), transferred: sizes.responseBodySize, bytes: body.length, encoding: res.headers()["content-encoding"] ?? "" });
    }
    return out;
  };
}
