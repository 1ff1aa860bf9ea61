// Smoke test of serving Studio: the app shell, its security headers, client routes, and the size of the first
// page's JavaScript.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { gzipSync } from "node:zlib";
import { checkA11y, measureScripts, screenshot, startStudio } from "./harness.mjs";

const csp = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

/** The first page may load at most this much JavaScript, gzip-compressed. */
const firstPageBudget = 250 * 1024;

let studio;
before(async () => {
  studio = await startStudio({ edge: false });
});
after(async () => {
  await studio?.close();
});

test("the app shell loads signed out, clean and accessible, under its CSP", async (t) => {
  if (studio.skip) return t.skip(studio.skip);
  const page = await studio.newPage();
  const scripts = measureScripts(page);
  const res = await page.goto(studio.url("/"));
  assert.equal(res.status(), 200);
  const headers = res.headers();
  assert.equal(headers["content-security-policy"], csp);
  assert.equal(headers["x-content-type-options"], "nosniff");
  assert.equal(headers["cache-control"], "no-cache");
  assert.match(headers["content-type"], /^text\/html/);
  await page.waitForFunction(() => (document.getElementById("root")?.childElementCount ?? 0) > 0);
  await page.getByRole("heading").first().waitFor();
  await page.waitForLoadState("networkidle");

  // The JavaScript of the first page, as transferred (the server gzips it for a browser).
  const loaded = await scripts();
  assert.ok(loaded.length > 0, "the page loads its JavaScript");
  let transferred = 0;
  let gzipped = 0;
  for (const s of loaded) {
    const url = new URL(s.url);
    assert.equal(url.origin, new URL(studio.base).origin, `${s.url} comes from the server`);
    assert.match(url.pathname, /^\/assets\/[^/]+\.js$/, `${s.url} is a hashed asset`);
    assert.equal(s.encoding, "gzip", `${s.url} is sent gzip-compressed`);
    transferred += s.transferred;
    gzipped += gzipSync(await (await fetch(s.url)).arrayBuffer().then((b) => Buffer.from(b)), { level: 9 }).length;
  }
  t.diagnostic(`first page JavaScript: ${loaded.length} file(s), ${(transferred / 1024).toFixed(1)} KB transferred, ` +
    `${(gzipped / 1024).toFixed(1)} KB gzip -9, budget ${firstPageBudget / 1024} KB`);
  assert.ok(transferred <= firstPageBudget, `the first page loads ${transferred} bytes of JavaScript (gzip), over ${firstPageBudget}`);

  await checkA11y(page, "the signed-out app shell");
  await screenshot(page, "signed-out");
  studio.assertClean(page);
});

test("an inline script is refused by the Content-Security-Policy", async (t) => {
  if (studio.skip) return t.skip(studio.skip);
  const page = await studio.newPage();
  await page.goto(studio.url("/"));
  await page.waitForFunction(() => (document.getElementById("root")?.childElementCount ?? 0) > 0);
  let refused = false;
  try {
    await page.addScriptTag({ content: "window.__inlineRan = true;" });
  } catch {
    refused = true; // playwright reports the blocked script as an error
  }
  const ran = await page.evaluate(() => window.__inlineRan === true);
  assert.equal(ran, false, "the inline script must not run");
  // Chromium reports the refusal on the console; it is the expected outcome here, and the only problem allowed.
  const problems = studio.problems(page);
  assert.ok(refused || problems.some((p) => /Content Security Policy/.test(p)), "the refusal is reported");
  studio.allowConsole(page, /Content Security Policy/);
  studio.assertClean(page);
});

test("a deep link answers the app, and an unknown asset or API path answers 404", async (t) => {
  if (studio.skip) return t.skip(studio.skip);
  const index = await (await fetch(studio.url("/"))).text();
  const deep = await fetch(studio.url("/workflows/whatever"));
  assert.equal(deep.status, 200);
  assert.match(deep.headers.get("content-type"), /^text\/html/);
  assert.equal(await deep.text(), index);
  // index.html loads only hashed scripts from /assets/, none inline.
  const scriptTags = [...index.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  assert.ok(scriptTags.length > 0);
  for (const [, attrs, body] of scriptTags) {
    assert.match(attrs, /src="\/assets\/[^"]+\.js"/);
    assert.equal(body.trim(), "");
  }

  const asset = await fetch(studio.url("/assets/no-such-file.js"));
  assert.equal(asset.status, 404);
  assert.match(asset.headers.get("content-type"), /^application\/json/);
  const api = await fetch(studio.url("/api/no-such-endpoint"));
  assert.equal(api.status, 404);
  assert.equal((await api.json()).code, "not_found");

  // The browser on a deep link: the app itself, clean.
  const page = await studio.newPage();
  const res = await studio.gotoApp(page, "/workflows/whatever");
  assert.equal(res.status(), 200);
  studio.assertClean(page);

  // Signed in (through the API), the app loads as cleanly.
  const user = await studio.apiSignUp();
  const signedIn = await studio.newPage(user.context);
  await studio.gotoApp(signedIn, "/");
  const session = await signedIn.evaluate(async () => (await fetch("/api/auth/session")).status);
  assert.equal(session, 200);
  studio.assertClean(signedIn);
});
