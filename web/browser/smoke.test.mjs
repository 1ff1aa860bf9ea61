// Smoke test of serving Studio: the app shell, its security headers, client routes, and the size of the first
// page's JavaScript.
import { expect, test } from "@playwright/test";
import { gzipSync } from "node:zlib";
import { checkA11y, measureScripts, screenshot, useStudio } from "./harness.mjs";

const csp =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

/** The first page may load at most this much JavaScript, gzip-compressed. */
const firstPageBudget = 250 * 1024;

let studio;
useStudio({ edge: false }, (s) => (studio = s));

test("the app shell loads signed out, clean and accessible, under its CSP", async () => {
  const page = await studio.newPage();
  const scripts = measureScripts(page);
  const res = await page.goto(studio.url("/"));
  expect(res.status()).toBe(200);
  const headers = res.headers();
  expect(headers["content-security-policy"]).toBe(csp);
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["cache-control"]).toBe("no-cache");
  expect(headers["content-type"]).toMatch(/^text\/html/);
  await expect(page.locator("#root > *").first()).toBeAttached();
  await expect(page.getByRole("heading").first()).toBeVisible();
  await page.waitForLoadState("networkidle");

  // The JavaScript of the first page, as transferred (the server gzips it for a browser).
  const loaded = await scripts();
  expect(loaded.length, "the page loads its JavaScript").toBeGreaterThan(0);
  let transferred = 0;
  let gzipped = 0;
  for (const s of loaded) {
    const url = new URL(s.url);
    expect(url.origin, `${s.url} comes from the server`).toBe(new URL(studio.base).origin);
    expect(url.pathname, `${s.url} is a hashed asset`).toMatch(/^\/assets\/[^/]+\.js$/);
    expect(s.encoding, `${s.url} is sent gzip-compressed`).toBe("gzip");
    transferred += s.transferred;
    gzipped += gzipSync(await (await fetch(s.url)).arrayBuffer().then((b) => Buffer.from(b)), { level: 9 }).length;
  }
  console.log(
    `# first page JavaScript: ${loaded.length} file(s), ${(transferred / 1024).toFixed(1)} KB transferred, ` +
      `${(gzipped / 1024).toFixed(1)} KB gzip -9, budget ${firstPageBudget / 1024} KB`,
  );
  expect(
    transferred,
    `the first page loads ${transferred} bytes of JavaScript (gzip), over ${firstPageBudget}`,
  ).toBeLessThanOrEqual(firstPageBudget);

  await checkA11y(page, "the signed-out app shell");
  await screenshot(page, "signed-out");
  studio.assertClean(page);
});

test("an inline script is refused by the Content-Security-Policy", async () => {
  const page = await studio.newPage();
  await page.goto(studio.url("/"));
  await expect(page.locator("#root > *").first()).toBeAttached();
  let refused = false;
  try {
    await page.addScriptTag({ content: "window.__inlineRan = true;" });
  } catch {
    refused = true; // playwright reports the blocked script as an error
  }
  const ran = await page.evaluate(() => window.__inlineRan === true);
  expect(ran, "the inline script must not run").toBe(false);
  // Chromium reports the refusal on the console; it is the expected outcome here, and the only problem allowed.
  const problems = studio.problems(page);
  expect(refused || problems.some((p) => /Content Security Policy/.test(p)), "the refusal is reported").toBeTruthy();
  studio.allowConsole(page, /Content Security Policy/);
  studio.assertClean(page);
});

test("a deep link answers the app, and an unknown asset or API path answers 404", async () => {
  const index = await (await fetch(studio.url("/"))).text();
  const deep = await fetch(studio.url("/workflows/whatever"));
  expect(deep.status).toBe(200);
  expect(deep.headers.get("content-type")).toMatch(/^text\/html/);
  expect(await deep.text()).toBe(index);
  // index.html loads only hashed scripts from /assets/, none inline.
  const scriptTags = [...index.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
  expect(scriptTags.length).toBeGreaterThan(0);
  for (const [, attrs, body] of scriptTags) {
    expect(attrs).toMatch(/src="\/assets\/[^"]+\.js"/);
    expect(body.trim()).toBe("");
  }

  const asset = await fetch(studio.url("/assets/no-such-file.js"));
  expect(asset.status).toBe(404);
  expect(asset.headers.get("content-type")).toMatch(/^application\/json/);
  const api = await fetch(studio.url("/api/no-such-endpoint"));
  expect(api.status).toBe(404);
  expect((await api.json()).code).toBe("not_found");

  // The browser on a deep link: the app itself, clean.
  const page = await studio.newPage();
  const res = await studio.gotoApp(page, "/workflows/whatever");
  expect(res.status()).toBe(200);
  studio.assertClean(page);

  // Signed in (through the API), the app loads as cleanly.
  const user = await studio.apiSignUp();
  const signedIn = await studio.newPage(user.context);
  await studio.gotoApp(signedIn, "/");
  const session = await signedIn.evaluate(async () => (await fetch("/api/auth/session")).status);
  expect(session).toBe(200);
  studio.assertClean(signedIn);
});
