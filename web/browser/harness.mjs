// The browser-test harness: a real edgeflow server (SQLite in a temporary data directory, its local edge) serving the
// Studio build embedded in the binary, and Debian's chromium, under @playwright/test.
//
//   import { expect, test } from "@playwright/test";
//   import { checkA11y, screenshot, useStudio } from "./harness.mjs";
//
//   let studio;
//   useStudio({ edge: false }, (s) => (studio = s));  // starts it before the file's tests, stops it after them
//
//   test("…", async () => {
//     const page = await studio.newPage();          // records console errors and failed requests
//     await studio.gotoApp(page, "/");               // goto, then wait for the app to render and the network to idle
//     await expect(page.getByRole("heading", { name: "Sign in" })).toBeVisible();
//     await checkA11y(page, "home");                 // axe-core: no serious or critical violations
//     await screenshot(page, "home");                // docs/images/studio/home.png and home-dark.png when EDGEFLOW_SCREENSHOTS=1
//     studio.assertClean(page);                      // fails on console errors and failed requests
//   });
//
// Signed in without the sign-up screen: const user = await studio.apiSignUp(); const page = await
// studio.newPage(user.context); then studio.api(user, "POST", "/api/workflows", { name: "x" }) sets up records.
// More serve flags: useStudio({ args: ["--allow-hosts", "127.0.0.1"] }, …).
// A server in the default sign-up mode: useStudio({ signup: "invite" }, …); await studio.setupLink() is the link it printed.
// More flags of edgeflow serve: useStudio({ serveArgs: ["--cloudflare-api-url", stubURL] }, …).
// A failure the test provokes on purpose: studio.allow(page, { method: "POST", path: "/api/auth/sign-in", status: 401 }).
// Measure the JavaScript a navigation loads: const done = measureScripts(page); …; const sizes = await done().
// A file whose tests are the steps of one scenario: const step = scenario(() => ({ studio, pages })).
//
// Each *.test.mjs file starts its own server in its beforeAll (playwright.config.mjs runs the files one at a time
// in one worker). The browser's contexts come from the Playwright worker, so a failed test keeps a trace of them
// and a screenshot of each page in test-results/. Under CI=1 missing tools fail the tests; elsewhere they skip with
// the reason.

import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { chromiumArgs, chromiumPath, missingTools, prepare, repoDir, webDir } from "./tools.mjs";

export { repoDir, webDir };

const require = createRequire(import.meta.url);

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

/** The only failed request a page may make unasked: the signed-out session check. */
function expectedByDefault(method, url, status) {
  return method === "GET" && new URL(url).pathname === "/api/auth/session" && status === 401;
}

/**
 * startStudio starts `edgeflow serve` (temporary data directory, its local edge unless edge: false) and chromium,
 * launched through the Playwright worker's playwright (the `playwright` fixture) so that its contexts are traced.
 * When the machine lacks a tool (not under CI) it skips the tests that called it (in a beforeAll: the whole file)
 * with the reason.
 */
export async function startStudio(
  playwright,
  { edge = true, signup = "open", args: extraArgs = [], serveArgs = [] } = {},
) {
  const skip = missingTools();
  test.skip(skip !== null, skip ?? "");
  const bin = prepare();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "edgeflow-browser-data-"));
  const logFile = path.join(dataDir, "serve.log");
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // Tests sign many users up, each with an organization of its own: sign-up mode open unless the test asks for
  // another (signup: "invite", the server's default, prints the first-start setup link: studio.setupLink()).
  if (!["open", "invite", "closed"].includes(signup))
    throw new Error(`startStudio: signup ${JSON.stringify(signup)}: use open, invite or closed`);
  const args = [
    "serve",
    "--addr",
    `127.0.0.1:${port}`,
    "--data-dir",
    dataDir,
    "--log-level",
    "warn",
    "--signup",
    signup,
    // One browser makes all requests from one address: generous limits, still on.
    "--rate-limits",
    "global=5000,write=1000,deploy=200,verify=200",
  ];
  if (!edge) args.push("--no-edge");
  args.push(...extraArgs, ...serveArgs);
  const env = { ...process.env, EDGEFLOW_EDGE_DIR: path.join(repoDir, "edge") };
  for (const k of [
    "EDGEFLOW_EDGE_URL",
    "EDGEFLOW_EDGE_TOKEN",
    "EDGEFLOW_EDGE_TOKEN_FILE",
    "EDGEFLOW_DATABASE_URL",
    "EDGEFLOW_NO_EDGE",
  ])
    delete env[k];
  const log = openSync(logFile, "a");
  const proc = spawn(bin, args, { cwd: dataDir, env, stdio: ["ignore", log, log] });
  const exited = new Promise((resolve) => proc.on("exit", (code, signal) => resolve({ code, signal })));
  const studio = new Studio({ base, proc, exited, dataDir, logFile });
  try {
    await studio.waitReady(edge);
    studio.browser = await playwright.chromium.launch({
      executablePath: chromiumPath,
      args: chromiumArgs,
      headless: true,
    });
  } catch (err) {
    await studio.close();
    throw err;
  }
  return studio;
}

/**
 * useStudio starts a Studio for the calling test file before its tests (startStudio with options, or with what
 * options() answers then, for options known only in an earlier beforeAll) and hands it to started; after the tests it stops it. When a test fails, what the server logged (warnings and errors) is printed
 * beside the failure and attached to the test's report, so that a failure in CI can be understood from its output
 * alone. Call it at the top level of a test file.
 */
export function useStudio(options, started) {
  let studio = null;
  test.beforeAll(async ({ playwright }) => {
    studio = await startStudio(playwright, typeof options === "function" ? options() : options);
    started(studio);
  });
  test.afterAll(async () => {
    await studio?.close();
  });
  test.afterEach(async ({}, testInfo) => {
    if (!studio || testInfo.status === testInfo.expectedStatus) return;
    const lines = studio.serverLog().trimEnd().split("\n").filter(Boolean).slice(-80);
    if (lines.length === 0) return;
    console.log(`# the server's log (last ${lines.length} lines):`);
    for (const l of lines) console.log(`#   ${l}`);
    await testInfo.attach("server log", { body: lines.join("\n"), contentType: "text/plain" });
  });
}

/** A running server and browser (startStudio). */
export class Studio {
  constructor({ base = "", proc = null, exited = null, dataDir = "", logFile = "" }) {
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
   * e.g. useStudio({ signup: "invite" }, …)), waiting up to 30 s for it.
   */
  async setupLink() {
    const re = /No user exists yet\.[^\n]*\n\s*(\S+\/setup\?token=\S+)/;
    await expect
      .poll(() => re.test(this.serverLog()), { message: "edgeflow serve prints the setup link", timeout: 30_000 })
      .toBe(true);
    return re.exec(this.serverLog())[1];
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
        if (edge && body.edge === "off")
          throw new Error(`the server runs without a local edge: ${last}\n${this.serverLog()}`);
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
    await expect(page.locator("#root > *").first()).toBeAttached();
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
      if (res.status() >= 400)
        this.failures.push({ method: res.request().method(), url: res.url(), status: res.status() });
    });
  }

  isAllowed(f) {
    if (f.status && expectedByDefault(f.method, f.url, f.status)) return true;
    const p = new URL(f.url).pathname;
    return this.allowed.some(
      (rule) =>
        (!rule.method || rule.method === f.method) &&
        (!rule.status || rule.status === f.status) &&
        (!rule.path || (rule.path instanceof RegExp ? rule.path.test(p) : rule.path === p)),
    );
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
      if (
        /^Failed to load resource: the server responded with a status of \d+/.test(c.text) &&
        allowedFailures.some((f) => f.url === c.url)
      )
        continue;
      if (this.allowedConsole.some((re) => re.test(c.text))) continue;
      out.push(`console error: ${c.text}${c.url ? ` (${c.url})` : ""}`);
    }
    return out;
  }
}

let axeSource;

/**
 * scenario makes the calling file's tests the steps of one scenario and returns the test function to declare them
 * with: the tests run in order, a step runs only while every step before it passed (Playwright's serial mode skips
 * the rest after a failure), and the pages must be clean after each step (no console errors, no failed requests but
 * the allowed ones). current() answers { studio, pages } when a step ends (they are made in beforeAll). Call it at
 * the top level of a test file.
 */
export function scenario(current) {
  test.describe.configure({ mode: "serial" });
  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status !== testInfo.expectedStatus) return;
    const { studio, pages } = current();
    for (const p of pages) studio.assertClean(p);
  });
  return test;
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
 * screenshot writes docs/images/studio/NAME.png and NAME-dark.png, the page in Studio's light and dark themes, when
 * EDGEFLOW_SCREENSHOTS=1 (so that a test run never changes the tree otherwise). name: lower-case letters, digits and
 * dashes. The themes are switched by emulating the system's setting (Studio's default theme, System, follows it),
 * and the page is left in the setting it had.
 */
export async function screenshot(page, name, options = {}) {
  if (!/^[a-z0-9][a-z0-9-]*$/.test(name))
    throw new Error(`screenshot name ${JSON.stringify(name)}: use a-z, 0-9 and -`);
  if (!screenshotsOn) return null;
  const dir = path.join(repoDir, "docs", "images", "studio");
  mkdirSync(dir, { recursive: true });
  const wasDark = await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches);
  const files = [];
  for (const [scheme, file] of [
    ["light", path.join(dir, `${name}.png`)],
    ["dark", path.join(dir, `${name}-dark.png`)],
  ]) {
    await inTheme(page, scheme);
    await page.screenshot({ path: file, animations: "disabled", ...options });
    files.push(file);
  }
  await inTheme(page, wasDark ? "dark" : "light");
  return files[0];
}

/**
 * inTheme emulates the system's colour scheme ("light" or "dark") and waits until Studio shows that theme (a page
 * whose user chose a theme in the top bar keeps it: the wait is for the system's setting only then).
 */
export async function inTheme(page, scheme) {
  await page.emulateMedia({ colorScheme: scheme });
  await page.waitForFunction((want) => {
    const choice = localStorage.getItem("edgeflow.theme");
    return choice !== null || document.documentElement.dataset.theme === want;
  }, scheme);
  // two frames: the new colours are painted
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
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
      out.push({
        url: res.url(),
        transferred: sizes.responseBodySize,
        bytes: body.length,
        encoding: res.headers()["content-encoding"] ?? "",
      });
    }
    return out;
  };
}
