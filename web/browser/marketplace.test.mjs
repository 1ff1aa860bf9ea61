// The marketplace as its users meet it: the owner searches the catalog and filters it by category (kept in the URL
// across a reload), opens a node by its deep link, reads its versions' changelogs and the secrets it needs, installs
// a version, updates and downgrades it; a member sees the same page with the buttons disabled and the reason; an
// uninstall is refused while a deployed workflow uses the node, naming the workflow, and goes through after the
// takedown. axe on every screen; no console errors or failed requests other than the refusal the test provokes.
import assert from "node:assert/strict";
import { after, before } from "node:test";
import { checkA11y, scenario, screenshot, startStudio } from "./harness.mjs";

let studio;
let owner;
let page;

before(async () => {
  studio = await startStudio();
  if (studio.skip) return;
  owner = await studio.apiSignUp({ name: "Ada Owner", organizationName: "Analytical" });
  page = await studio.newPage(owner.context);
  await page.setViewportSize({ width: 1360, height: 900 });
});
after(async () => {
  await studio?.close();
});

const step = scenario("marketplace", () => ({ studio, pages: [page] }));

const heading = (p, name) => p.getByRole("heading", { name, exact: true });
/** nodeNames are the names of the catalog's rows, in order. */
const nodeNames = () => page.locator("table.market-table tbody tr td:first-child a").allInnerTexts();

step("the catalog: a search and a category, kept in the URL across a reload; a search too long is refused at its field", async () => {
  await studio.gotoApp(page, "/");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Marketplace", exact: true }).click();
  await heading(page, "Marketplace").waitFor();
  assert.equal(new URL(page.url()).pathname, "/marketplace");
  await page.getByRole("link", { name: "OpenAI Chat" }).waitFor();
  assert.ok((await nodeNames()).length >= 18, "the whole catalog is listed");

  const search = page.getByRole("searchbox", { name: "Search" });
  await search.fill("email");
  await search.press("Enter");
  await page.waitForURL((u) => u.search === "?q=email");
  await page.getByText(/3 nodes matching “email”/).waitFor();
  assert.deepEqual(await nodeNames(), ["Resend Email", "SendGrid Email", "Stripe Customer Lookup"]);

  await page.getByLabel("Category").selectOption("Email");
  await page.waitForURL((u) => u.search === "?q=email&category=Email");
  await page.getByText(/2 nodes matching “email” in Email/).waitFor();
  assert.deepEqual(await nodeNames(), ["Resend Email", "SendGrid Email"]);

  // a deep link: the filters come back from the URL
  await studio.gotoApp(page, "/marketplace?category=AI");
  await page.getByText(/2 nodes matching in AI/).waitFor();
  assert.deepEqual(await nodeNames(), ["Anthropic Claude", "OpenAI Chat"]);
  assert.equal(await page.getByLabel("Category").inputValue(), "AI");
  const row = page.getByRole("row").filter({ hasText: "OpenAI Chat" });
  await row.getByText("not installed").waitFor();
  await row.getByText("1.1.0", { exact: true }).waitFor();

  await search.fill("x".repeat(101));
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await page.getByText("Use at most 100 characters (this search has 101).").waitFor();
  assert.equal(await search.getAttribute("aria-invalid"), "true");
  await page.getByRole("button", { name: "Clear filters" }).click();
  await page.waitForURL((u) => u.search === "");
  await page.getByText(/^18 nodes\.$/).waitFor();
  await checkA11y(page, "marketplace");

  await search.fill("chat");
  await search.press("Enter");
  await page.getByText(/nodes matching “chat”/).waitFor();
  await screenshot(page, "marketplace");
});

step("a node by its deep link: changelogs and secrets; a version installed, updated and downgraded", async () => {
  await studio.gotoApp(page, "/marketplace/openai-chat");
  await heading(page, "OpenAI Chat").waitFor();
  const versions = page.getByRole("region", { name: "Versions" });
  await versions.getByText(/^Adds Max tokens \(sent as max_completion_tokens\) and Response format/).waitFor();
  await versions.getByText("First release: generate a reply with an OpenAI chat model (Chat Completions API).").waitFor();
  const secrets = page.getByRole("region", { name: "Secrets" });
  await secrets.getByRole("cell", { name: "OPENAI_API_KEY" }).waitFor();
  const installation = page.getByRole("region", { name: "Installation" });
  await installation.getByText("Not installed in this organization.", { exact: false }).waitFor();
  await checkA11y(page, "marketplace node (not installed)");

  await installation.getByLabel("Version").selectOption("1.0.0");
  await installation.getByRole("button", { name: "Install 1.0.0" }).click();
  await installation.getByText(/Installed at version 1\.0\.0 since/).waitFor();
  await installation.getByText(/Version 1\.1\.0 is available\./).waitFor();
  await versions.locator("li").filter({ hasText: "1.0.0" }).getByText("installed", { exact: true }).waitFor();

  // the only other version is offered: an update
  assert.equal(await installation.getByLabel("Move to version").inputValue(), "1.1.0");
  await installation.getByRole("button", { name: "Update to 1.1.0" }).click();
  await installation.getByText(/Installed at version 1\.1\.0 since .*, changed /).waitFor();
  await versions.locator("li").filter({ hasText: "1.1.0" }).getByText("installed", { exact: true }).waitFor();
  await checkA11y(page, "marketplace node (installed)");
  await screenshot(page, "marketplace-node");

  await installation.getByRole("button", { name: "Downgrade to 1.0.0" }).click();
  await installation.getByText(/Installed at version 1\.0\.0 since/).waitFor();

  // the catalog shows it installed, with the update available
  await page.getByRole("link", { name: "Marketplace", exact: true }).first().click();
  await heading(page, "Marketplace").waitFor();
  const row = page.getByRole("row").filter({ hasText: "OpenAI Chat" });
  await row.getByText("update available").waitFor();
  assert.match(await row.innerText(), /1\.0\.0/);
});

step("a member reads the node with the buttons disabled and the reason", async () => {
  const email = `grace-${process.pid}@example.com`;
  const inv = await studio.api(owner, "POST", `/api/organizations/${owner.session.activeOrganizationId}/invitations`, {
    email,
    role: "member",
  });
  const member = await studio.apiSignUp({ email, name: "Grace Member" });
  await studio.api(member, "POST", "/api/invitations/accept", { token: inv.token });
  const mp = await studio.newPage(member.context);
  await mp.setViewportSize({ width: 1360, height: 900 });
  try {
    await studio.gotoApp(mp, "/marketplace/openai-chat");
    const installation = mp.getByRole("region", { name: "Installation" });
    await installation.getByText(/Installed at version 1\.0\.0/).waitFor();
    const update = installation.getByRole("button", { name: "Update to 1.1.0" });
    assert.equal(await update.isDisabled(), true);
    assert.equal(await installation.getByRole("button", { name: "Uninstall" }).isDisabled(), true);
    const reason = "Only owners and admins of the organization install, update and uninstall nodes. You are a member.";
    await installation.getByText(reason).waitFor();
    // the reason is the disabled button's description
    assert.equal(await update.evaluate((b) => document.getElementById(b.getAttribute("aria-describedby")).textContent), reason);
    await checkA11y(mp, "marketplace node (member)");
    studio.assertClean(mp);
  } finally {
    await member.context.close();
  }
});

step("an uninstall is refused while a deployed workflow uses the node, naming it; after the takedown it goes", async () => {
  await studio.api(owner, "POST", "/api/env-vars", { name: "OPENAI_API_KEY", value: "sk-test-not-a-real-key", isSecret: true });
  const conn = await studio.api(owner, "POST", "/api/connections", { provider: "local", name: "Laptop edge" });
  const wf = await studio.api(owner, "POST", "/api/workflows", { name: "Daily digest" });
  const ir = {
    metadata: { name: "Daily digest" },
    nodes: [{ id: "summarize", type: "openai-chat", name: "Summarize", data: { prompt: "Summarize the day." } }],
    edges: [],
    entryNodeId: "summarize",
  };
  await studio.api(owner, "POST", `/api/workflows/${wf.id}/versions`, { ir });
  await studio.api(owner, "POST", `/api/workflows/${wf.id}/deploy`, { connectionId: conn.id });

  await studio.gotoApp(page, "/marketplace/openai-chat");
  const usedBy = page.getByRole("region", { name: "Used by" });
  await usedBy.getByRole("link", { name: "Daily digest" }).waitFor();

  studio.allow(page, { method: "POST", path: "/api/marketplace/uninstall", status: 409 });
  await page.getByRole("button", { name: "Uninstall", exact: true }).click();
  let dialog = page.getByRole("dialog", { name: "Uninstall OpenAI Chat?" });
  await dialog.getByRole("button", { name: "Uninstall node" }).click();
  const refusal = dialog.getByRole("alert");
  await refusal.getByText(/this workflow's deployed version uses the node/).waitFor();
  await refusal.getByRole("link", { name: "Daily digest" }).waitFor();
  assert.equal(await refusal.getByRole("link", { name: "Daily digest" }).getAttribute("href"), `/workflows/${wf.id}`);
  await checkA11y(page, "refused uninstall");
  await screenshot(page, "marketplace-uninstall-refused");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await dialog.waitFor({ state: "detached" });
  await page.getByRole("region", { name: "Installation" }).getByText(/Installed at version 1\.0\.0/).waitFor();

  await studio.api(owner, "POST", `/api/workflows/${wf.id}/takedown`, { connectionId: conn.id });
  await page.getByRole("button", { name: "Uninstall", exact: true }).click();
  dialog = page.getByRole("dialog", { name: "Uninstall OpenAI Chat?" });
  await dialog.getByRole("button", { name: "Uninstall node" }).click();
  await dialog.waitFor({ state: "detached" });
  await page.getByRole("region", { name: "Installation" }).getByText("Not installed in this organization.", { exact: false }).waitFor();
  await page.getByRole("region", { name: "Used by" }).getByText("Not installed, so no workflow uses it.").waitFor();
  const list = await studio.api(owner, "GET", "/api/marketplace/installed");
  assert.deepEqual(list.data, []);
});
