// The settings screens as a user meets them: connections (a local one in one click, rename, a Cloudflare token the
// form refuses before sending it, a delete refused while a deployment uses the connection, with the workflow named,
// then allowed), environment variables (organization and project side by side, which one wins, a secret masked and
// replaced, the workflows that read each, a taken name refused) and API keys (created, shown once with Copy, kept
// nowhere in the browser, used, revoked). Every screen is checked with axe and the test fails on console errors and
// failed requests other than the refusals it provokes.
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { checkA11y, navTo, repoDir, scenario, screenshot, useStudio } from "./harness.mjs";

const helloIR = JSON.parse(readFileSync(path.join(repoDir, "examples", "hello.json"), "utf8"));

let studio;
let page;
let user;

// The Cloudflare API, stubbed: the two calls verifying a token makes, answered for two known tokens. Every request
// is recorded; the test checks them exactly.
const cf = {
  tokens: {
    ["cf_" + "a".repeat(37)]: ["acme-production"],
    ["cf_" + "b".repeat(37)]: ["acme-production", "acme-staging"],
  },
  accounts: {
    "acme-production": { id: "0123456789abcdef0123456789abcdef", name: "Acme production" },
    "acme-staging": { id: "fedcba9876543210fedcba9876543210", name: "Acme staging" },
  },
  requests: [],
  server: null,
  url: "",
};

function startCloudflareStub() {
  cf.server = http.createServer((req, res) => {
    const token = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    cf.requests.push(`${req.method} ${req.url} ${token.slice(0, 4)}`);
    const send = (status, body) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ messages: [], errors: [], ...body }));
    };
    const names = cf.tokens[token];
    if (!names)
      return send(401, { success: false, errors: [{ code: 1000, message: "Invalid API Token" }], result: null });
    if (req.method === "GET" && req.url === "/client/v4/user/tokens/verify")
      return send(200, { success: true, result: { id: "tok", status: "active" } });
    if (req.method === "GET" && req.url === "/client/v4/accounts?page=1&per_page=50")
      return send(200, {
        success: true,
        result: names.map((n) => cf.accounts[n]),
        result_info: { page: 1, per_page: 50, count: names.length, total_count: names.length },
      });
    send(404, { success: false, errors: [{ code: 7003, message: "No route for that URI" }], result: null });
  });
  return new Promise((resolve) =>
    cf.server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${cf.server.address().port}/client/v4`)),
  );
}

// the stub starts first: the server is told its URL
test.beforeAll(async () => {
  cf.url = await startCloudflareStub();
});
useStudio(
  () => ({ serveArgs: ["--cloudflare-api-url", cf.url] }),
  (s) => (studio = s),
);
test.beforeAll(async () => {
  user = await studio.apiSignUp({ name: "Grace Hopper" });
  await user.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: studio.base });
  page = await studio.newPage(user.context);
  await page.setViewportSize({ width: 1360, height: 860 });
});
test.afterAll(() => {
  cf.server?.close();
});

const step = scenario(() => ({ studio, pages: [page] }));

const heading = (name) => page.getByRole("heading", { name, exact: true });

let connectionId = "";
let workflowId = "";

step("connections: a local one in one click, renamed; a bad Cloudflare token is refused at its field", async () => {
  await studio.gotoApp(page, "/");
  // the settings screens are in the top bar's Settings menu: it opens and closes with the keyboard
  const main = page.getByRole("navigation", { name: "Main" });
  const menu = main.getByRole("button", { name: "Settings" });
  await menu.focus();
  await page.keyboard.press("Enter");
  await expect(menu).toHaveAttribute("aria-expanded", "true");
  await expect(main.getByRole("link", { name: "Audit log" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(menu).toHaveAttribute("aria-expanded", "false");
  expect(
    await menu.evaluate((el) => el === document.activeElement),
    "focus went back to the Settings button",
  ).toBeTruthy();
  await navTo(page, "Connections");
  await expect(main.getByRole("link", { name: "Connections", includeHidden: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await expect(heading("Connections")).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/connections");
  await expect(page.getByText("There is no connection yet.")).toBeVisible();
  await checkA11y(page, "connections (empty)");

  await page.getByRole("button", { name: "New connection" }).click();
  let dialog = page.getByRole("dialog", { name: "New connection" });
  // Cloudflare is the default: a token that cannot be one is refused before anything is sent
  await dialog.getByLabel("API token").fill("too short");
  await dialog.getByRole("button", { name: "Verify token" }).click();
  await expect(dialog.getByText("A token is 20 or more letters, digits, _ or -.")).toBeVisible();
  await dialog.getByLabel("Name").fill("Production");
  await dialog.getByLabel("API token").fill("a".repeat(40));
  await dialog.getByRole("button", { name: "Create connection" }).click();
  await expect(dialog.getByText("Choose Verify token first")).toBeVisible();
  await checkA11y(page, "new connection (Cloudflare)");
  await screenshot(page, "connection-new");

  await dialog.getByLabel(/Local edge/).check();
  await dialog.getByLabel("Name").fill("");
  await dialog.getByRole("button", { name: "Create local connection" }).click();
  await expect(dialog).toHaveCount(0);
  const row = page.getByRole("row").filter({ hasText: "Local edge" });
  await expect(row.getByText("local edge", { exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Rename Local edge" }).click();
  dialog = page.getByRole("dialog", { name: "Rename Local edge" });
  await dialog.getByLabel("Name").fill("");
  await dialog.getByRole("button", { name: "Rename" }).click();
  await expect(dialog.getByText("Enter a name.")).toBeVisible();
  await dialog.getByLabel("Name").fill("Laptop edge");
  await dialog.getByRole("button", { name: "Rename" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("cell", { name: "Laptop edge", exact: true })).toBeVisible();
  await checkA11y(page, "connections");
  await screenshot(page, "connections");
  const list = await studio.api(user, "GET", "/api/connections");
  connectionId = list.data.find((c) => c.name === "Laptop edge").id;
});

step("deleting a connection a deployment uses is refused, naming the workflow; taken down, it is deleted", async () => {
  const wf = await studio.api(user, "POST", "/api/workflows", { name: "Greeter" });
  workflowId = wf.id;
  await studio.api(user, "POST", `/api/workflows/${wf.id}/versions`, { ir: helloIR });
  await studio.api(user, "POST", `/api/workflows/${wf.id}/deploy`, { connectionId });

  studio.allow(page, { method: "DELETE", path: `/api/connections/${connectionId}`, status: 409 });
  await page.getByRole("button", { name: "Delete Laptop edge" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete Laptop edge?" });
  await dialog.getByRole("button", { name: "Delete connection" }).click();
  const refusal = dialog.getByRole("alert");
  await expect(refusal.getByText(/take it down first/)).toBeVisible();
  await expect(refusal).toHaveText(/"Greeter" is deployed on it/, { useInnerText: true });
  await checkA11y(page, "refused connection delete");
  await screenshot(page, "connection-delete-refused");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);

  await studio.api(user, "POST", `/api/workflows/${wf.id}/takedown`, { connectionId });
  await page.getByRole("button", { name: "Delete Laptop edge" }).click();
  await page
    .getByRole("dialog", { name: "Delete Laptop edge?" })
    .getByRole("button", { name: "Delete connection" })
    .click();
  await expect(page.getByText("There is no connection yet.")).toBeVisible();
});

step(
  "a Cloudflare connection: the token is verified, its accounts shown and one chosen; credentials rotated",
  async () => {
    const [tokenA, tokenB] = Object.keys(cf.tokens);
    await page.getByRole("button", { name: "New connection" }).click();
    let dialog = page.getByRole("dialog", { name: "New connection" });
    await dialog.getByLabel("Name").fill("Production");
    // a token Cloudflare refuses is said so under the field
    await dialog.getByLabel("API token").fill("cf_" + "z".repeat(37));
    await dialog.getByRole("button", { name: "Verify token" }).click();
    await expect(dialog.getByText("Cloudflare refused this token: it is not valid or not active.")).toBeVisible();
    await dialog.getByLabel("API token").fill(tokenB);
    await dialog.getByRole("button", { name: "Verify token" }).click();
    await expect(dialog.getByRole("group", { name: /Account/ })).toBeVisible();
    await expect(dialog.getByLabel(/Acme production/)).toBeVisible();
    await dialog.getByRole("button", { name: "Create connection" }).click();
    await expect(dialog.getByText("Choose the account to deploy to.")).toBeVisible();
    await dialog.getByLabel(/Acme staging/).check();
    await checkA11y(page, "new connection with accounts");
    await screenshot(page, "connection-verified");
    await dialog.getByRole("button", { name: "Create connection" }).click();
    await expect(dialog).toHaveCount(0);
    const row = page.getByRole("row").filter({ hasText: "Production" });
    await expect(row.getByText("Cloudflare", { exact: true })).toBeVisible();
    await expect(row.getByText("…3210")).toBeVisible();

    // rotating: the new token is verified; it reaches one account, which is chosen for it
    await page.getByRole("button", { name: "Rotate credentials of Production" }).click();
    dialog = page.getByRole("dialog", { name: "Rotate credentials of Production" });
    await dialog.getByRole("button", { name: "Replace credentials" }).click();
    await expect(dialog.getByText("Enter the API token.")).toBeVisible();
    await dialog.getByLabel("New API token").fill(tokenA);
    await dialog.getByRole("button", { name: "Verify token" }).click();
    await expect(dialog.getByLabel(/Acme production/)).toBeChecked();
    await dialog.getByRole("button", { name: "Replace credentials" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(row.getByText("…cdef")).toBeVisible();
    expect(await page.locator("main").innerText()).not.toMatch(/cf_a|cf_b/);

    expect(cf.requests).toEqual([
      "GET /client/v4/user/tokens/verify cf_z",
      "GET /client/v4/user/tokens/verify cf_b",
      "GET /client/v4/accounts?page=1&per_page=50 cf_b",
      "GET /client/v4/user/tokens/verify cf_a",
      "GET /client/v4/accounts?page=1&per_page=50 cf_a",
    ]);
    const stored = await studio.api(user, "GET", "/api/connections");
    const conn = stored.data.find((c) => c.name === "Production");
    expect(conn.credentials.apiToken).toBe("***");
    expect(conn.accountId).toBe("…cdef");
  },
);

step(
  "environment variables: organization and project side by side, the project's wins, secrets stay hidden",
  async () => {
    await navTo(page, "Variables");
    await expect(heading("Environment variables")).toBeVisible();
    expect(new URL(page.url()).pathname).toBe("/env-vars");
    await expect(page.getByText("There are no environment variables yet.")).toBeVisible();

    await page.getByRole("button", { name: "New organization variable" }).click();
    let dialog = page.getByRole("dialog", { name: "New variable for the organization" });
    await dialog.getByLabel("Name").fill("region");
    await dialog.getByRole("button", { name: "Create variable" }).click();
    await expect(dialog.getByText(/Use capital letters, digits and _/)).toBeVisible();
    await dialog.getByLabel("Name").fill("REGION");
    await dialog.getByLabel("Value").fill("eu");
    await dialog.getByRole("button", { name: "Create variable" }).click();
    await expect(dialog).toHaveCount(0);

    // the project's value of the same name wins
    await page.getByRole("button", { name: "Set REGION for the project" }).click();
    dialog = page.getByRole("dialog", { name: /^New variable for project / });
    await dialog.getByLabel("Value").fill("us");
    await dialog.getByRole("button", { name: "Create variable" }).click();
    await expect(dialog).toHaveCount(0);
    const region = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "REGION" }) });
    await expect(region.getByText("overridden by the project")).toBeVisible();
    expect(await region.getByRole("cell").nth(2).innerText()).toBe("project");

    // a secret is shown masked, never with its value
    await page.getByRole("button", { name: "New organization variable" }).click();
    dialog = page.getByRole("dialog", { name: "New variable for the organization" });
    await dialog.getByLabel("Name").fill("API_TOKEN");
    await dialog.getByLabel(/Secret \(stored/).check();
    await dialog.getByLabel("Value").fill("s3cret-value-1");
    await dialog.getByRole("button", { name: "Create variable" }).click();
    await expect(dialog).toHaveCount(0);
    const token = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "API_TOKEN" }) });
    await expect(token.getByText("secret", { exact: true })).toBeVisible();
    expect(await page.locator("main").innerText()).not.toMatch(/s3cret-value/);

    // a taken name in the same scope is refused, in words next to the form
    studio.allow(page, { method: "POST", path: "/api/env-vars", status: 409 });
    await page.getByRole("button", { name: "New organization variable" }).click();
    dialog = page.getByRole("dialog", { name: "New variable for the organization" });
    await dialog.getByLabel("Name").fill("API_TOKEN");
    await dialog.getByLabel("Value").fill("x");
    await dialog.getByRole("button", { name: "Create variable" }).click();
    await expect(dialog.getByRole("alert").filter({ hasText: /taken|exists/i })).toBeVisible();
    await checkA11y(page, "refused variable");
    await dialog.getByRole("button", { name: "Cancel" }).click();

    // replacing the secret: the field starts empty; empty keeps it, a value replaces it
    await page.getByRole("button", { name: "Edit API_TOKEN of the organization" }).click();
    dialog = page.getByRole("dialog", { name: "Edit API_TOKEN of the organization" });
    await expect(dialog.getByLabel("New value")).toHaveValue("");
    await dialog.getByLabel("New value").fill("s3cret-value-2");
    await checkA11y(page, "edit secret");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog).toHaveCount(0);

    // which workflows read each variable
    await studio.api(user, "PATCH", `/api/workflows/${workflowId}`, {
      envVars: [{ name: "TOKEN", value: "{{global.env.API_TOKEN}}", isSecret: false }],
    });
    await page.reload();
    await expect(heading("Environment variables")).toBeVisible();
    await expect(token.getByRole("link", { name: "Greeter" })).toBeVisible();
    await expect(region.getByText("no workflow")).toBeVisible();
    expect(await page.locator("main").innerText()).not.toMatch(/s3cret-value/);
    await checkA11y(page, "environment variables");
    await screenshot(page, "env-vars");
    const stored = await studio.api(user, "GET", "/api/env-vars");
    expect(stored.data.find((v) => v.name === "API_TOKEN").value).toBe("***");
  },
);

step(
  "API keys: created with read ticked and the active project, shown once with Copy, nowhere else; used; revoked",
  async () => {
    await navTo(page, "API keys");
    await expect(heading("API keys")).toBeVisible();
    expect(new URL(page.url()).pathname).toBe("/api-keys");
    await page.getByRole("button", { name: "Create API key" }).click();
    let dialog = page.getByRole("dialog", { name: "Create API key" });
    await expect(dialog.getByLabel(/read —/)).toBeChecked();
    await expect(dialog.getByLabel(/write —/)).not.toBeChecked();
    await expect(dialog.getByLabel("Project")).toHaveValue(user.session.activeProjectId);
    // every key needs read: refused at its field
    await dialog.getByLabel("Name").fill("CI deploys");
    await dialog.getByLabel(/read —/).uncheck();
    await dialog.getByRole("button", { name: "Create" }).click();
    await expect(dialog.getByText("Every key needs read.")).toBeVisible();
    await dialog.getByLabel(/read —/).check();
    await dialog.getByLabel(/deploy —/).check();
    await dialog.getByLabel("Expires").selectOption({ label: "In 30 days" });
    await checkA11y(page, "create API key");
    await screenshot(page, "api-key-new");
    await dialog.getByRole("button", { name: "Create" }).click();

    dialog = page.getByRole("dialog", { name: "API key CI deploys" });
    const key = await dialog.getByLabel("Key").inputValue();
    expect(key).toMatch(/^ask_[A-Za-z0-9_-]{43}$/);
    await dialog.getByRole("button", { name: "Copy" }).click();
    await expect(dialog.getByText("Copied to the clipboard.")).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await checkA11y(page, "new API key");
    await screenshot(page, "api-key-created");
    await dialog.getByRole("button", { name: "Done" }).click();
    await expect(dialog).toHaveCount(0);

    // the key is kept nowhere in the browser: not in the page, not in storage
    const kept = await page.evaluate((k) => {
      const stores = [localStorage, sessionStorage].flatMap((s) => Object.keys(s).map((n) => s.getItem(n) ?? ""));
      return document.documentElement.outerHTML.includes(k) || stores.some((v) => v.includes(k));
    }, key);
    expect(kept).toBe(false);
    const row = page.getByRole("row").filter({ hasText: "CI deploys" });
    await expect(row.getByText(key.slice(0, 8) + "…")).toBeVisible();
    await expect(row.getByText("never", { exact: true }).first()).toBeVisible();

    // used by a script, it shows its last use; after a reload the key is gone for good
    const res = await fetch(studio.url("/api/workflows"), { headers: { Authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    await page.reload();
    await expect(heading("API keys")).toBeVisible();
    expect((await page.content()).includes(key)).toBe(false);
    await expect(row.getByRole("cell").nth(4)).not.toHaveText(/never/, { useInnerText: true });
    await checkA11y(page, "API keys");
    await screenshot(page, "api-keys");

    await page.getByRole("button", { name: "Revoke CI deploys" }).click();
    dialog = page.getByRole("dialog", { name: "Revoke CI deploys?" });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await page.getByRole("button", { name: "Revoke CI deploys" }).click();
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await expect(row.getByText(/^revoked/)).toBeVisible();
    const after = await fetch(studio.url("/api/workflows"), { headers: { Authorization: `Bearer ${key}` } });
    expect(after.status).toBe(401);
  },
);
