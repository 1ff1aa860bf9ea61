// The marketplace as its users meet it: the owner searches the catalog and filters it by category (kept in the URL
// across a reload), opens a node by its deep link, reads its versions' changelogs and the secrets it needs, installs
// a version, updates and downgrades it; a member sees the same page with the buttons disabled and the reason; an
// uninstall is refused while a deployed workflow uses the node, naming the workflow, and goes through after the
// takedown. axe on every screen; no console errors or failed requests other than the refusal the test provokes.
import { expect, test } from "@playwright/test";
import { checkA11y, scenario, screenshot, useStudio } from "./harness.mjs";

let studio;
let owner;
let page;

useStudio({}, (s) => (studio = s));
test.beforeAll(async () => {
  owner = await studio.apiSignUp({ name: "Ada Owner", organizationName: "Analytical" });
  page = await studio.newPage(owner.context);
  await page.setViewportSize({ width: 1360, height: 900 });
});
const step = scenario(() => ({ studio, pages: [page] }));

const heading = (p, name) => p.getByRole("heading", { name, exact: true });
/** nodeNames are the names of the catalog's rows, in order. */
const nodeNames = () => page.locator("table.market-table tbody tr td:first-child a").allInnerTexts();

step(
  "the catalog: a search and a category, kept in the URL across a reload; a search too long is refused at its field",
  async () => {
    await studio.gotoApp(page, "/");
    await page
      .getByRole("navigation", { name: "Main" })
      .getByRole("link", { name: "Marketplace", exact: true })
      .click();
    await expect(heading(page, "Marketplace")).toBeVisible();
    expect(new URL(page.url()).pathname).toBe("/marketplace");
    await expect(page.getByRole("link", { name: "OpenAI Chat" })).toBeVisible();
    expect((await nodeNames()).length, "the whole catalog is listed").toBeGreaterThanOrEqual(18);

    const search = page.getByRole("searchbox", { name: "Search" });
    await search.fill("email");
    await search.press("Enter");
    await page.waitForURL((u) => u.search === "?q=email");
    await expect(page.getByText(/3 nodes matching “email”/)).toBeVisible();
    expect(await nodeNames()).toEqual(["Resend Email", "SendGrid Email", "Stripe Customer Lookup"]);

    await page.getByLabel("Category").selectOption("Email");
    await page.waitForURL((u) => u.search === "?q=email&category=Email");
    await expect(page.getByText(/2 nodes matching “email” in Email/)).toBeVisible();
    expect(await nodeNames()).toEqual(["Resend Email", "SendGrid Email"]);

    // a deep link: the filters come back from the URL
    await studio.gotoApp(page, "/marketplace?category=AI");
    await expect(page.getByText(/2 nodes matching in AI/)).toBeVisible();
    expect(await nodeNames()).toEqual(["Anthropic Claude", "OpenAI Chat"]);
    await expect(page.getByLabel("Category")).toHaveValue("AI");
    const row = page.getByRole("row").filter({ hasText: "OpenAI Chat" });
    await expect(row.getByText("not installed")).toBeVisible();
    await expect(row.getByText("1.3.0", { exact: true })).toBeVisible();

    await search.fill("x".repeat(101));
    await page.getByRole("button", { name: "Search", exact: true }).click();
    await expect(page.getByText("Use at most 100 characters (this search has 101).")).toBeVisible();
    await expect(search).toHaveAttribute("aria-invalid", "true");
    await page.getByRole("button", { name: "Clear filters" }).click();
    await page.waitForURL((u) => u.search === "");
    await expect(page.getByText(/^18 nodes\.$/)).toBeVisible();
    await checkA11y(page, "marketplace");

    await search.fill("chat");
    await search.press("Enter");
    await expect(page.getByText(/nodes matching “chat”/)).toBeVisible();
    await screenshot(page, "marketplace");
  },
);

step("a node by its deep link: changelogs and secrets; a version installed, updated and downgraded", async () => {
  await studio.gotoApp(page, "/marketplace/openai-chat");
  await expect(heading(page, "OpenAI Chat")).toBeVisible();
  const versions = page.getByRole("region", { name: "Versions" });
  await expect(
    versions.getByText(/^Adds Max tokens \(sent as max_completion_tokens\) and Response format/),
  ).toBeVisible();
  await expect(
    versions.getByText("First release: generate a reply with an OpenAI chat model (Chat Completions API)."),
  ).toBeVisible();
  const secrets = page.getByRole("region", { name: "Secrets" });
  await expect(secrets.getByRole("cell", { name: "OPENAI_API_KEY" })).toBeVisible();
  const installation = page.getByRole("region", { name: "Installation" });
  await expect(installation.getByText("Not installed in this organization.", { exact: false })).toBeVisible();
  await checkA11y(page, "marketplace node (not installed)");

  await installation.getByLabel("Version").selectOption("1.0.0");
  await installation.getByRole("button", { name: "Install 1.0.0" }).click();
  await expect(installation.getByText(/Installed at version 1\.0\.0 since/)).toBeVisible();
  await expect(installation.getByText(/Version 1\.3\.0 is available\./)).toBeVisible();
  await expect(
    versions.locator("li").filter({ hasText: "1.0.0" }).getByText("installed", { exact: true }),
  ).toBeVisible();

  // the latest version is offered: an update
  await expect(installation.getByLabel("Move to version")).toHaveValue("1.3.0");
  await installation.getByRole("button", { name: "Update to 1.3.0" }).click();
  await expect(installation.getByText(/Installed at version 1\.3\.0 since .*, changed /)).toBeVisible();
  await expect(
    versions.locator("li").filter({ hasText: "1.3.0" }).getByText("installed", { exact: true }),
  ).toBeVisible();
  await checkA11y(page, "marketplace node (installed)");
  await screenshot(page, "marketplace-node");

  await installation.getByRole("button", { name: "Downgrade to 1.0.0" }).click();
  await expect(installation.getByText(/Installed at version 1\.0\.0 since/)).toBeVisible();

  // the catalog shows it installed, with the update available
  await page.getByRole("link", { name: "Marketplace", exact: true }).first().click();
  await expect(heading(page, "Marketplace")).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: "OpenAI Chat" });
  await expect(row.getByText("update available")).toBeVisible();
  await expect(row).toHaveText(/1\.0\.0/, { useInnerText: true });
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
    await expect(installation.getByText(/Installed at version 1\.0\.0/)).toBeVisible();
    const update = installation.getByRole("button", { name: "Update to 1.3.0" });
    await expect(update).toBeDisabled();
    await expect(installation.getByRole("button", { name: "Uninstall" })).toBeDisabled();
    const reason = "Only owners and admins of the organization install, update and uninstall nodes. You are a member.";
    await expect(installation.getByText(reason)).toBeVisible();
    // the reason is the disabled button's description
    expect(await update.evaluate((b) => document.getElementById(b.getAttribute("aria-describedby")).textContent)).toBe(
      reason,
    );
    await checkA11y(mp, "marketplace node (member)");
    studio.assertClean(mp);
  } finally {
    await member.context.close();
  }
});

step(
  "an uninstall is refused while a deployed workflow uses the node, naming it; after the takedown it goes",
  async () => {
    await studio.api(owner, "POST", "/api/env-vars", {
      name: "OPENAI_API_KEY",
      value: "sk-test-not-a-real-key",
      isSecret: true,
    });
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
    await expect(usedBy.getByRole("link", { name: "Daily digest" })).toBeVisible();

    studio.allow(page, { method: "POST", path: "/api/marketplace/uninstall", status: 409 });
    await page.getByRole("button", { name: "Uninstall", exact: true }).click();
    let dialog = page.getByRole("dialog", { name: "Uninstall OpenAI Chat?" });
    await dialog.getByRole("button", { name: "Uninstall node" }).click();
    const refusal = dialog.getByRole("alert");
    await expect(refusal.getByText(/this workflow's deployed version uses the node/)).toBeVisible();
    await expect(refusal.getByRole("link", { name: "Daily digest" })).toBeVisible();
    await expect(refusal.getByRole("link", { name: "Daily digest" })).toHaveAttribute("href", `/workflows/${wf.id}`);
    await checkA11y(page, "refused uninstall");
    await screenshot(page, "marketplace-uninstall-refused");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(
      page.getByRole("region", { name: "Installation" }).getByText(/Installed at version 1\.0\.0/),
    ).toBeVisible();

    await studio.api(owner, "POST", `/api/workflows/${wf.id}/takedown`, { connectionId: conn.id });
    await page.getByRole("button", { name: "Uninstall", exact: true }).click();
    dialog = page.getByRole("dialog", { name: "Uninstall OpenAI Chat?" });
    await dialog.getByRole("button", { name: "Uninstall node" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(
      page
        .getByRole("region", { name: "Installation" })
        .getByText("Not installed in this organization.", { exact: false }),
    ).toBeVisible();
    await expect(
      page.getByRole("region", { name: "Used by" }).getByText("Not installed, so no workflow uses it."),
    ).toBeVisible();
    const list = await studio.api(owner, "GET", "/api/marketplace/installed");
    expect(list.data).toEqual([]);
  },
);
