// The settings screens as a user meets them: connections (a local one in one click, rename, a Cloudflare token the
// form refuses before sending it, a delete refused while a deployment uses the connection, with the workflow named,
// then allowed), environment variables (organization and project side by side, which one wins, a secret masked and
// replaced, the workflows that read each, a taken name refused) and API keys (created, shown once with Copy, kept
// nowhere in the browser, used, revoked). Every screen is checked with axe and the test fails on console errors and
// failed requests other than the refusals it provokes.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import { checkA11y, repoDir, screenshot, startStudio } from "./harness.mjs";

const helloIR = JSON.parse(readFileSync(path.join(repoDir, "examples", "hello.json"), "utf8"));

let studio;
let page;
let user;

before(async () => {
  studio = await startStudio();
  if (studio.skip) return;
  user = await studio.apiSignUp({ name: "Grace Hopper" });
  await user.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: studio.base });
  page = await studio.newPage(user.context);
  await page.setViewportSize({ width: 1360, height: 860 });
});
after(async () => {
  await studio?.close();
});

let failed = "";

/** step runs part of the scenario, which goes on only while every part passed; each asserts the page stayed clean. */
function step(name, fn) {
  test(name, async (t) => {
    if (studio.skip) return t.skip(studio.skip);
    if (failed) return t.skip(`the step before failed: ${failed}`);
    try {
      await fn();
      studio.assertClean(page);
    } catch (err) {
      failed = name;
      const file = path.join(os.tmpdir(), `settings-failure-${name.replace(/[^a-z0-9]+/gi, "-").slice(0, 60)}.png`);
      await page.screenshot({ path: file, fullPage: true }).catch(() => {});
      console.log(`# screenshot of the failure: ${file}`);
      throw err;
    }
  });
}

const heading = (name) => page.getByRole("heading", { name, exact: true });
const nav = (name) => page.getByRole("navigation", { name: "Main" }).getByRole("link", { name, exact: true });

let connectionId = "";
let workflowId = "";

step("connections: a local one in one click, renamed; a bad Cloudflare token is refused at its field", async () => {
  await studio.gotoApp(page, "/");
  await nav("Connections").click();
  await heading("Connections").waitFor();
  assert.equal(new URL(page.url()).pathname, "/connections");
  await page.getByText("There is no connection yet.").waitFor();
  await checkA11y(page, "connections (empty)");

  await page.getByRole("button", { name: "New connection" }).click();
  let dialog = page.getByRole("dialog", { name: "New connection" });
  // Cloudflare is the default: a token that cannot be one is refused before anything is sent
  await dialog.getByLabel("API token").fill("too short");
  await dialog.getByRole("button", { name: "Verify token" }).click();
  await dialog.getByText("A token is 20 or more letters, digits, _ or -.").waitFor();
  await dialog.getByLabel("Name").fill("Production");
  await dialog.getByLabel("API token").fill("a".repeat(40));
  await dialog.getByRole("button", { name: "Create connection" }).click();
  await dialog.getByText("Choose Verify token first").waitFor();
  await checkA11y(page, "new connection (Cloudflare)");
  await screenshot(page, "connection-new");

  await dialog.getByLabel(/Local edge/).check();
  await dialog.getByLabel("Name").fill("");
  await dialog.getByRole("button", { name: "Create local connection" }).click();
  await dialog.waitFor({ state: "detached" });
  const row = page.getByRole("row").filter({ hasText: "Local edge" });
  await row.getByText("local edge", { exact: true }).waitFor();

  await page.getByRole("button", { name: "Rename Local edge" }).click();
  dialog = page.getByRole("dialog", { name: "Rename Local edge" });
  await dialog.getByLabel("Name").fill("");
  await dialog.getByRole("button", { name: "Rename" }).click();
  await dialog.getByText("Enter a name.").waitFor();
  await dialog.getByLabel("Name").fill("Laptop edge");
  await dialog.getByRole("button", { name: "Rename" }).click();
  await dialog.waitFor({ state: "detached" });
  await page.getByRole("cell", { name: "Laptop edge", exact: true }).waitFor();
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
  await refusal.getByText(/take it down first/).waitFor();
  assert.match(await refusal.innerText(), /"Greeter" is deployed on it/);
  await checkA11y(page, "refused connection delete");
  await screenshot(page, "connection-delete-refused");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await dialog.waitFor({ state: "detached" });

  await studio.api(user, "POST", `/api/workflows/${wf.id}/takedown`, { connectionId });
  await page.getByRole("button", { name: "Delete Laptop edge" }).click();
  await page.getByRole("dialog", { name: "Delete Laptop edge?" }).getByRole("button", { name: "Delete connection" }).click();
  await page.getByText("There is no connection yet.").waitFor();
});

step("environment variables: organization and project side by side, the project's wins, secrets stay hidden", async () => {
  await nav("Variables").click();
  await heading("Environment variables").waitFor();
  assert.equal(new URL(page.url()).pathname, "/env-vars");
  await page.getByText("There are no environment variables yet.").waitFor();

  await page.getByRole("button", { name: "New organization variable" }).click();
  let dialog = page.getByRole("dialog", { name: "New variable for the organization" });
  await dialog.getByLabel("Name").fill("region");
  await dialog.getByRole("button", { name: "Create variable" }).click();
  await dialog.getByText(/Use capital letters, digits and _/).waitFor();
  await dialog.getByLabel("Name").fill("REGION");
  await dialog.getByLabel("Value").fill("eu");
  await dialog.getByRole("button", { name: "Create variable" }).click();
  await dialog.waitFor({ state: "detached" });

  // the project's value of the same name wins
  await page.getByRole("button", { name: "Set REGION for the project" }).click();
  dialog = page.getByRole("dialog", { name: /^New variable for project / });
  await dialog.getByLabel("Value").fill("us");
  await dialog.getByRole("button", { name: "Create variable" }).click();
  await dialog.waitFor({ state: "detached" });
  const region = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "REGION" }) });
  await region.getByText("overridden by the project").waitFor();
  assert.equal(await region.getByRole("cell").nth(2).innerText(), "project");

  // a secret is shown masked, never with its value
  await page.getByRole("button", { name: "New organization variable" }).click();
  dialog = page.getByRole("dialog", { name: "New variable for the organization" });
  await dialog.getByLabel("Name").fill("API_TOKEN");
  await dialog.getByLabel(/Secret \(stored/).check();
  await dialog.getByLabel("Value").fill("s3cret-value-1");
  await dialog.getByRole("button", { name: "Create variable" }).click();
  await dialog.waitFor({ state: "detached" });
  const token = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: "API_TOKEN" }) });
  await token.getByText("secret", { exact: true }).waitFor();
  assert.doesNotMatch(await page.locator("main").innerText(), /s3cret-value/);

  // a taken name in the same scope is refused, in words next to the form
  studio.allow(page, { method: "POST", path: "/api/env-vars", status: 409 });
  await page.getByRole("button", { name: "New organization variable" }).click();
  dialog = page.getByRole("dialog", { name: "New variable for the organization" });
  await dialog.getByLabel("Name").fill("API_TOKEN");
  await dialog.getByLabel("Value").fill("x");
  await dialog.getByRole("button", { name: "Create variable" }).click();
  await dialog.getByRole("alert").filter({ hasText: /taken|exists/i }).waitFor();
  await checkA11y(page, "refused variable");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  // replacing the secret: the field starts empty; empty keeps it, a value replaces it
  await page.getByRole("button", { name: "Edit API_TOKEN of the organization" }).click();
  dialog = page.getByRole("dialog", { name: "Edit API_TOKEN of the organization" });
  assert.equal(await dialog.getByLabel("New value").inputValue(), "");
  await dialog.getByLabel("New value").fill("s3cret-value-2");
  await checkA11y(page, "edit secret");
  await dialog.getByRole("button", { name: "Save" }).click();
  await dialog.waitFor({ state: "detached" });

  // which workflows read each variable
  await studio.api(user, "PATCH", `/api/workflows/${workflowId}`, {
    envVars: [{ name: "TOKEN", value: "{{global.env.API_TOKEN}}", isSecret: false }],
  });
  await page.reload();
  await heading("Environment variables").waitFor();
  await token.getByRole("link", { name: "Greeter" }).waitFor();
  await region.getByText("no workflow").waitFor();
  assert.doesNotMatch(await page.locator("main").innerText(), /s3cret-value/);
  await checkA11y(page, "environment variables");
  await screenshot(page, "env-vars");
  const stored = await studio.api(user, "GET", "/api/env-vars");
  assert.equal(stored.data.find((v) => v.name === "API_TOKEN").value, "***");
});

step("API keys: created with read ticked and the active project, shown once with Copy, nowhere else; used; revoked", async () => {
  await nav("API keys").click();
  await heading("API keys").waitFor();
  assert.equal(new URL(page.url()).pathname, "/api-keys");
  await page.getByRole("button", { name: "Create API key" }).click();
  let dialog = page.getByRole("dialog", { name: "Create API key" });
  assert.equal(await dialog.getByLabel(/read —/).isChecked(), true);
  assert.equal(await dialog.getByLabel(/write —/).isChecked(), false);
  assert.equal(await dialog.getByLabel("Project").inputValue(), user.session.activeProjectId);
  // every key needs read: refused at its field
  await dialog.getByLabel("Name").fill("CI deploys");
  await dialog.getByLabel(/read —/).uncheck();
  await dialog.getByRole("button", { name: "Create" }).click();
  await dialog.getByText("Every key needs read.").waitFor();
  await dialog.getByLabel(/read —/).check();
  await dialog.getByLabel(/deploy —/).check();
  await dialog.getByLabel("Expires").selectOption({ label: "In 30 days" });
  await checkA11y(page, "create API key");
  await screenshot(page, "api-key-new");
  await dialog.getByRole("button", { name: "Create" }).click();

  dialog = page.getByRole("dialog", { name: "API key CI deploys" });
  const key = await dialog.getByLabel("Key").inputValue();
  assert.match(key, /^ask_[A-Za-z0-9_-]{43}$/);
  await dialog.getByRole("button", { name: "Copy" }).click();
  await dialog.getByText("Copied to the clipboard.").waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), key);
  await checkA11y(page, "new API key");
  await screenshot(page, "api-key-created");
  await dialog.getByRole("button", { name: "Done" }).click();
  await dialog.waitFor({ state: "detached" });

  // the key is kept nowhere in the browser: not in the page, not in storage
  const kept = await page.evaluate((k) => {
    const stores = [localStorage, sessionStorage].flatMap((s) => Object.keys(s).map((n) => s.getItem(n) ?? ""));
    return document.documentElement.outerHTML.includes(k) || stores.some((v) => v.includes(k));
  }, key);
  assert.equal(kept, false);
  const row = page.getByRole("row").filter({ hasText: "CI deploys" });
  await row.getByText(key.slice(0, 8) + "…").waitFor();
  await row.getByText("never", { exact: true }).first().waitFor();

  // used by a script, it shows its last use; after a reload the key is gone for good
  const res = await fetch(studio.url("/api/workflows"), { headers: { Authorization: `Bearer ${key}` } });
  assert.equal(res.status, 200);
  await page.reload();
  await heading("API keys").waitFor();
  assert.equal((await page.content()).includes(key), false);
  assert.doesNotMatch(await row.getByRole("cell").nth(4).innerText(), /never/);
  await checkA11y(page, "API keys");
  await screenshot(page, "api-keys");

  await page.getByRole("button", { name: "Revoke CI deploys" }).click();
  dialog = page.getByRole("dialog", { name: "Revoke CI deploys?" });
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("button", { name: "Revoke CI deploys" }).click();
  await dialog.getByRole("button", { name: "Revoke key" }).click();
  await row.getByText(/^revoked/).waitFor();
  const after = await fetch(studio.url("/api/workflows"), { headers: { Authorization: `Bearer ${key}` } });
  assert.equal(after.status, 401);
});
