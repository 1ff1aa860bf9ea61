// The resources browser as a user meets it, on the real local edge: a deployed workflow's run wrote KV values, R2
// objects and a D1 table; the user opens the connection on /resources, reads a JSON value with its metadata and
// expiry and a binary value as hex (and downloads it), types a query into the D1 console (Ctrl-Enter runs it), pages
// through 10,000 rows (the time to the first page is printed), sees a SQL error in words at the console, walks the R2
// folders and downloads an object (its bytes checked). A viewer of the organization runs a DELETE in the console,
// confirms it when asked, and sees the API's refusal in words; nothing was changed. Every screen is checked with axe;
// the test fails on console errors and failed requests other than the refusals it provokes.
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import { checkA11y, scenario, screenshot, useStudio } from "./harness.mjs";

let studio;
let page;
let owner;
let conn;
let db;

const writer = `await env.KV_DATA.put("order:A-1001", JSON.stringify({ id: "A-1001", total: 42, paid: true, items: ["pen", "ink"] }), { metadata: { source: "checkout" }, expirationTtl: 86400 });
await env.KV_DATA.put("note", "plain words");
await env.KV_DATA.put("blob", new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]));
await env.BUCKET_FILES.put("invoices/2026/A-1001.txt", "invoice A-1001: 42 EUR", { httpMetadata: { contentType: "text/plain" } });
await env.BUCKET_FILES.put("readme.md", "# files");
await env.DB_MAIN.prepare("CREATE TABLE IF NOT EXISTS orders (id TEXT PRIMARY KEY, total INTEGER)").run();
await env.DB_MAIN.prepare("INSERT OR REPLACE INTO orders VALUES ('A-1001', 42)").run();
return { ok: true };`;

function ir(name) {
  return {
    metadata: { name, version: 1, createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z" },
    nodes: [
      {
        id: "write",
        type: "step",
        name: "write",
        position: { x: 40, y: 80 },
        version: "1.0.0",
        provider: "cloudflare",
        data: { code: writer },
        config: { retries: { limit: 0, delay: "1 second", backoff: "constant" } },
      },
    ],
    edges: [],
    entryNodeId: "write",
  };
}

useStudio({}, (s) => (studio = s));
test.beforeAll(async () => {
  owner = await studio.apiSignUp({ name: "Ada Lovelace", organizationName: "Analytical" });
  conn = await studio.api(owner, "POST", "/api/connections", { provider: "local", name: "Local edge" });
  await studio.api(owner, "POST", "/api/connections", { provider: "local", name: "Backup edge" });
  const wf = await studio.api(owner, "POST", "/api/workflows", { name: "Order writer", kind: "workflow" });
  await studio.api(owner, "POST", `/api/workflows/${wf.id}/versions`, { ir: ir("Order writer") });
  await studio.api(owner, "POST", `/api/workflows/${wf.id}/deploy`, { connectionId: conn.id });
  const run = await studio.api(owner, "POST", `/api/workflows/${wf.id}/trigger`, { connectionId: conn.id, params: {} });
  let writer;
  await expect
    .poll(async () => (writer = await studio.api(owner, "GET", `/api/workflows/${wf.id}/runs/${run.id}`)).status, {
      message: "the writer run ends",
      timeout: 90_000,
    })
    .toMatch(/^(complete|errored|terminated)$/);
  expect(writer.status, `the writer run: ${JSON.stringify(writer)}`).toBe("complete");
  const dbs = await studio.api(owner, "GET", `/api/resources/d1/databases?connectionId=${conn.id}`);
  db = dbs.data.find((d) => d.name.includes(wf.projectId.replaceAll("_", "-")));
  // 10,000 rows for the console's paging and its time to the first page
  await studio.api(owner, "POST", `/api/resources/d1/databases/${db.id}/query`, {
    connectionId: conn.id,
    sql: "CREATE TABLE big AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000) SELECT i AS id, printf('row-%05d', i) AS label, i * 3 AS amount FROM n",
  });
  page = await studio.newPage(owner.context);
  await page.setViewportSize({ width: 1360, height: 900 });
});
const step = scenario(() => ({ studio, pages: [page] }));

const heading = (name, p = page) => p.getByRole("heading", { name, exact: true });

step("resources: the connections by name; choosing one lists its namespaces, databases and buckets", async () => {
  await studio.gotoApp(page, "/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Resources", exact: true }).click();
  await expect(heading("Resources")).toBeVisible();
  const names = await page.getByRole("region", { name: "Connections" }).getByRole("link").allInnerTexts();
  expect(names.map((n) => n.split("\n")[0])).toEqual(["Backup edge", "Local edge"]);
  await page.getByRole("link", { name: /^Local edge/ }).click();
  await page.waitForURL(`**/resources?connection=${conn.id}`);
  const kv = page.getByRole("region", { name: "KV namespaces" });
  await expect(kv.getByRole("link").first()).toBeVisible();
  await expect(page.getByRole("region", { name: "D1 databases" }).getByRole("link").first()).toBeVisible();
  await expect(page.getByRole("region", { name: "R2 buckets" }).getByRole("link").first()).toBeVisible();
  // a prefix no namespace has
  await page.getByLabel("Search KV namespaces by title prefix").fill("zzz");
  await page.getByLabel("Search KV namespaces by title prefix").press("Enter");
  await expect(kv.getByText("No namespace title starts with “zzz”.")).toBeVisible();
  await kv.getByRole("button", { name: "Clear" }).click();
  await expect(kv.getByRole("link").first()).toBeVisible();
  await checkA11y(page, "resources");
  await screenshot(page, "resources");
});

step(
  "KV: keys by prefix; a JSON value formatted with its metadata and expiry, also after a reload; a binary value as hex",
  async () => {
    await page.getByRole("region", { name: "KV namespaces" }).getByRole("link").first().click();
    await expect(heading("Keys")).toBeVisible();
    const keys = page.getByRole("list", { name: "Keys" });
    await expect(keys.getByRole("link", { name: "note" })).toBeVisible();
    await page.getByLabel("Search keys by prefix").fill("order:");
    await page.getByLabel("Search keys by prefix").press("Enter");
    await page.waitForURL(/\?prefix=order%3A$/);
    await expect(keys.getByRole("link", { name: "note" })).toHaveCount(0);
    await keys.getByRole("link", { name: /order:A-1001/ }).click();
    const value = page.getByLabel("JSON value of order:A-1001");
    await expect(value).toBeVisible();
    const text = await value.innerText();
    expect(text).toBe(JSON.stringify({ id: "A-1001", total: 42, paid: true, items: ["pen", "ink"] }, null, 2));
    expect(await value.locator(".tok-key").first().innerText()).toBe('"id"');
    await expect(page.getByText("JSON", { exact: true })).toBeVisible();
    await expect(page.getByText(/\(in 2\d h\)$/)).toBeVisible();
    await expect(page.getByLabel("Metadata of order:A-1001")).toHaveText(/"source": "checkout"/, {
      useInnerText: true,
    });
    await checkA11y(page, "kv value");
    await screenshot(page, "resources-kv");
    // the deep link, reloaded
    await page.reload();
    await expect(page.getByLabel("JSON value of order:A-1001")).toBeVisible();
    await expect(page.getByText(/\(in 2\d h\)$/)).toBeVisible();
    // a binary value: its size, a hex preview and its bytes as a download
    await page.getByRole("button", { name: "Clear" }).click();
    await page.getByRole("list", { name: "Keys" }).getByRole("link", { name: "blob" }).click();
    await expect(page.getByText("Binary value, 8 B.", { exact: false })).toBeVisible();
    await expect(page.getByLabel("Hex preview of blob")).toHaveText(
      /^00000000 {2}89 50 4e 47 00 01 02 ff +\.PNG\.\.\.\.$/,
      { useInnerText: true },
    );
    const [saved] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download value" }).click(),
    ]);
    expect([...readFileSync(await saved.path())]).toEqual([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 255]);
  },
);

step("D1: a query typed in the console runs with Ctrl-Enter; 10,000 rows paged; a SQL error in words", async () => {
  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Local edge" }).click();
  await page.getByRole("region", { name: "D1 databases" }).getByRole("link", { name: db.name }).click();
  await expect(heading("SQL console")).toBeVisible();
  const tables = page.getByRole("region", { name: "Tables" });
  await expect(tables.getByRole("button", { name: "Show the rows of orders" })).toBeVisible();
  await expect(tables.getByRole("button", { name: "Show the rows of big" })).toBeVisible();
  const editor = page.locator("#sql-editor .cm-content");
  await editor.click();
  await page.keyboard.type("SELECT id, label, amount FROM big WHERE amount > ? ORDER BY id");
  await page.getByLabel("Values for the ? placeholders, in order").fill("[0]");
  await editor.click();
  // the time from Ctrl-Enter to the first page of rows on screen, measured in the page
  const ms = await page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const t0 = performance.now();
        const seen = () =>
          [...document.querySelectorAll(".d1-results td")].some((td) => td.textContent === "row-00001");
        const obs = new MutationObserver(() => {
          if (seen()) {
            obs.disconnect();
            resolve(performance.now() - t0);
          }
        });
        obs.observe(document.body, { childList: true, subtree: true, characterData: true });
        setTimeout(() => reject(new Error("no rows after 30 s")), 30_000);
        document.querySelector("#sql-editor .cm-content").dispatchEvent(
          new KeyboardEvent("keydown", {
            key: "Enter",
            code: "Enter",
            keyCode: 13,
            ctrlKey: true,
            bubbles: true,
            cancelable: true,
          }),
        );
      }),
  );
  const results = page.getByRole("region", { name: "Results" });
  const summary = await results.getByText(/^10,000 rows · \d+ ms/).innerText();
  const request = /· (\d+) ms/.exec(summary)[1];
  console.log(`# d1 console: 10000 rows, first page in ${Math.round(ms)} ms (the request ${request} ms of it)`);
  await expect(results.getByRole("row"), "the header and one page of 50 rows").toHaveCount(51);
  await expect(page.getByText("Rows 1–50 of 10,000 · page 1 of 200")).toBeVisible();
  await page.getByRole("button", { name: "Next page" }).click();
  await expect(results.getByRole("cell", { name: "row-00051", exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Last page" }).click();
  await expect(results.getByRole("cell", { name: "row-10000", exact: true })).toBeVisible();
  await expect(results.getByRole("row")).toHaveCount(51);
  await checkA11y(page, "d1 console");
  await screenshot(page, "resources-d1");

  // a bad query: the database's words at the console
  studio.allow(page, { method: "POST", path: `/api/resources/d1/databases/${db.id}/query`, status: 422 });
  await editor.click();
  await page.keyboard.press("Control+A");
  await page.keyboard.type("SELECT nope FROM orders");
  await page.getByLabel("Values for the ? placeholders, in order").fill("");
  await page.getByRole("button", { name: "Run" }).click();
  const err = page.getByRole("alert").filter({ hasText: "The query failed" });
  await expect(err.getByText(/no such column: nope/).first()).toBeVisible();
  await checkA11y(page, "d1 console error");

  // the statement is in the address: a reload opens the console with it
  await page.reload();
  await expect(page.locator("#sql-editor .cm-content").getByText("SELECT nope FROM orders")).toBeVisible();
});

step("R2: folders, size and content type; an object downloaded with its bytes", async () => {
  await page.getByRole("navigation", { name: "Breadcrumb" }).getByRole("link", { name: "Local edge" }).click();
  await page.getByRole("region", { name: "R2 buckets" }).getByRole("link").first().click();
  await expect(page.getByRole("link", { name: "Open folder invoices/" })).toBeVisible();
  const readme = page.getByRole("row").filter({ hasText: "readme.md" });
  await expect(readme.getByText("7 B")).toBeVisible();
  await page.getByRole("link", { name: "Open folder invoices/" }).click();
  await page.getByRole("link", { name: "Open folder 2026/" }).click();
  await page.waitForURL(/\?prefix=invoices%2F2026%2F$/);
  const row = page.getByRole("row").filter({ hasText: "A-1001.txt" });
  await expect(row.getByText("text/plain")).toBeVisible();
  await expect(row.getByText("22 B")).toBeVisible();
  await checkA11y(page, "r2 objects");
  await screenshot(page, "resources-r2");
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    row.getByRole("link", { name: "Download invoices/2026/A-1001.txt" }).click(),
  ]);
  expect(download.suggestedFilename()).toBe("A-1001.txt");
  expect(readFileSync(await download.path(), "utf8")).toBe("invoice A-1001: 42 EUR");
  // the folder trail leads back up
  await page.getByRole("navigation", { name: "Folder" }).getByRole("link", { name: "invoices" }).click();
  await expect(page.getByRole("link", { name: "Open folder 2026/" })).toBeVisible();
});

step("a viewer's write is refused at the console in words, and nothing changes", async () => {
  const inv = await studio.api(owner, "POST", `/api/organizations/${owner.session.activeOrganizationId}/invitations`, {
    email: `grace-${process.pid}@example.com`,
    role: "viewer",
  });
  const viewer = await studio.apiSignUp({ email: `grace-${process.pid}@example.com`, name: "Grace Viewer" });
  await studio.api(viewer, "POST", "/api/invitations/accept", { token: inv.token });
  const vpage = await studio.newPage(viewer.context);
  await vpage.setViewportSize({ width: 1360, height: 900 });
  studio.allow(vpage, { method: "POST", path: `/api/resources/d1/databases/${db.id}/query`, status: 403 });
  await studio.gotoApp(vpage, `/resources/d1/${conn.id}/${db.id}`);
  await expect(heading("SQL console", vpage)).toBeVisible();
  await expect(vpage.getByText("Your role in the organization is viewer")).toBeVisible();
  await vpage.locator("#sql-editor .cm-content").click();
  await vpage.keyboard.type("DELETE FROM orders");
  await vpage.keyboard.press("Control+Enter");
  // a statement that deletes asks first
  const ask = vpage.getByRole("dialog", { name: "Run statements that change data?" });
  await expect(ask.getByText("DELETE statement")).toBeVisible();
  await checkA11y(vpage, "d1 console confirmation");
  await ask.getByRole("button", { name: "Run statements" }).click();
  const err = vpage.getByRole("alert").filter({ hasText: "The query failed" });
  await expect(
    err
      .getByText(
        /your role in the organization \(viewer\) can only read: statement 1 of the query \(DELETE\) would change the database/,
      )
      .first(),
  ).toBeVisible();
  await checkA11y(vpage, "d1 console refusal");
  await screenshot(vpage, "resources-d1-viewer");
  studio.assertClean(vpage);
  const left = await studio.api(owner, "POST", `/api/resources/d1/databases/${db.id}/query`, {
    connectionId: conn.id,
    sql: "SELECT count(*) FROM orders",
  });
  expect(left.rows).toEqual([[1]]);
});
