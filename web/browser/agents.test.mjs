// Studio for AI agents (docs/agents.md): the "Connect an assistant" page, reached from the Settings menu, gives the
// MCP configurations of Claude Code, Cursor and VS Code for a key the user picks (an existing key stays a
// placeholder: edgeflow cannot show it again) or creates there (written into the configurations while the page is
// open, kept nowhere in the browser); and the agent node's form on the canvas: provider, model, the key as a
// reference to an env var, tools of each kind, the problems the server finds at their paths, then saved. Every
// screen is checked with axe and the test fails on console errors and failed requests.
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { checkA11y, navTo, repoDir, screenshot, useStudio } from "./harness.mjs";
import { canvasNode, connect, dragFromPalette, select } from "./editor-steps.mjs";

let studio;
useStudio({ edge: false }, (s) => (studio = s));

const helloIR = JSON.parse(readFileSync(path.join(repoDir, "examples", "hello.json"), "utf8"));

/** keptInBrowser tells whether a text is in the page's DOM or in its storage. */
function keptInBrowser(page, text) {
  return page.evaluate((k) => {
    const stores = [localStorage, sessionStorage].flatMap((s) => Object.keys(s).map((n) => s.getItem(n) ?? ""));
    return document.documentElement.outerHTML.includes(k) || stores.some((v) => v.includes(k));
  }, text);
}

test("Connect an assistant: the MCP configuration of each client for a chosen key, or for one created there", async () => {
  const user = await studio.apiSignUp({ name: "Ada Lovelace" });
  await user.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: studio.base });
  const readOnly = await studio.api(user, "POST", "/api/api-keys", { name: "Read-only", scopes: ["read"] });
  const page = await studio.newPage(user.context);
  await page.setViewportSize({ width: 1360, height: 900 });
  await studio.gotoApp(page, "/");
  await navTo(page, "Connect an assistant");
  await expect(page.getByRole("heading", { name: "Connect an assistant", exact: true })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/connect-assistant");
  await expect(page).toHaveTitle("Connect an assistant · edgeflow Studio");
  const mcpURL = studio.url("/api/mcp");
  const base = mcpURL.replace(/\/api\/mcp$/, "");
  await expect(page.getByText(mcpURL, { exact: true })).toBeVisible();

  // Claude Code over HTTP by default, the key a placeholder
  const config = page.getByLabel("Run in a terminal");
  await expect(config).toHaveValue(
    `claude mcp add --transport http edgeflow ${mcpURL} --header "Authorization: Bearer <API key>"`,
  );

  // an existing key: named by its prefix, never shown; its missing scopes are said
  await page.getByLabel("API key", { exact: true }).selectOption({ label: `Read-only (${readOnly.prefix}…, read)` });
  await expect(page.getByRole("note")).toContainText(`${readOnly.prefix}…`);
  await expect(page.getByText(/This key has only read/)).toBeVisible();
  await expect(config).toHaveValue(/Bearer <API key>"$/);
  await checkA11y(page, "connect an assistant");
  await screenshot(page, "connect-assistant");

  // a key created here is written into the configurations, for every client and transport
  await page.getByLabel("New key's name").fill("");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByText("Enter a name.")).toBeVisible();
  await page.getByLabel("New key's name").fill("Claude on my laptop");
  await page.getByRole("button", { name: "Create key" }).click();
  await expect(page.getByRole("note")).toContainText(
    "The key Claude on my laptop is written into the configuration below",
  );
  const text = await config.inputValue();
  const key = /Bearer (ask_[A-Za-z0-9_-]{43})"$/.exec(text)?.[1];
  expect(key, `the key is in ${text}`).toBeTruthy();
  await page.getByRole("button", { name: "Copy" }).click();
  await expect(page.getByText("Copied to the clipboard.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);

  await page.getByRole("radio", { name: /^stdio/ }).check();
  await expect(config).toHaveValue(
    `claude mcp add edgeflow --env EDGEFLOW_URL=${base} --env EDGEFLOW_API_KEY=${key} -- edgeflow mcp`,
  );
  await page.getByRole("radio", { name: "Cursor" }).check();
  const cursorFile = page.getByLabel("Add to .cursor/mcp.json");
  expect(JSON.parse(await cursorFile.inputValue())).toEqual({
    mcpServers: {
      edgeflow: { command: "edgeflow", args: ["mcp"], env: { EDGEFLOW_URL: base, EDGEFLOW_API_KEY: key } },
    },
  });
  await page.getByRole("radio", { name: /^HTTP/ }).check();
  expect(JSON.parse(await cursorFile.inputValue())).toEqual({
    mcpServers: { edgeflow: { url: mcpURL, headers: { Authorization: `Bearer ${key}` } } },
  });
  // VS Code asks for the key itself: its file never holds one
  await page.getByRole("radio", { name: "VS Code" }).check();
  const vscode = JSON.parse(await page.getByLabel("Add to .vscode/mcp.json").inputValue());
  expect(vscode.servers.edgeflow).toEqual({
    type: "http",
    url: mcpURL,
    headers: { Authorization: "Bearer ${input:edgeflow-api-key}" },
  });
  expect(JSON.stringify(vscode)).not.toContain(key);
  await checkA11y(page, "connect an assistant with a new key");

  // the key works on the MCP endpoint, with the three scopes
  const init = await fetch(mcpURL, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${key}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "browser-test", version: "1" } },
    }),
  });
  expect(init.status).toBe(200);
  expect(await init.text()).toContain('"serverInfo"');
  const keys = await studio.api(user, "GET", "/api/api-keys");
  expect(keys.data.find((k) => k.name === "Claude on my laptop").scopes).toEqual(["read", "write", "deploy"]);

  // gone when the page is left: nowhere in the page or in storage, and the page back shows the placeholder
  await navTo(page, "API keys");
  await expect(page.getByRole("cell", { name: "Claude on my laptop", exact: true })).toBeVisible();
  expect(await keptInBrowser(page, key)).toBe(false);
  await navTo(page, "Connect an assistant");
  await expect(page.getByLabel("Run in a terminal")).toHaveValue(/Bearer <API key>"$/);
  expect(await keptInBrowser(page, key)).toBe(false);
  studio.assertClean(page);
});

test("the agent node's form: provider, model, key reference and tools; the server's problems at their paths; saved", async () => {
  const user = await studio.apiSignUp({ name: "Alan Turing" });
  const other = await studio.apiSignUp({ name: "Mallory" });
  const foreign = await studio.api(other, "POST", "/api/workflows", { name: "Not yours" });
  const refund = await studio.api(user, "POST", "/api/workflows", { name: "Refund" });
  const wf = await studio.api(user, "POST", "/api/workflows", { name: "Support bot" });
  await studio.api(user, "POST", `/api/workflows/${wf.id}/versions`, { ir: helloIR });
  const page = await studio.newPage(user.context);
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto(`/workflows/${wf.id}`);
  await expect(page.getByRole("button", { name: "Add Agent", exact: true })).toBeVisible();

  await dragFromPalette(page, "Agent", 620, 140);
  const agentName = await page.locator(".react-flow__node .efn-name").last().textContent();
  await expect(canvasNode(page, agentName)).toBeVisible();
  await connect(page, "Count the letters", agentName);
  await select(page, agentName);
  const panel = page.locator(".node-panel");
  // a new agent lacks its model and prompt: the problems say so at their paths
  const problems = page.getByRole("region", { name: /Problems/ });
  await expect(problems.getByText(/\/data\/model/)).toBeVisible();
  await expect(problems.getByText(/\/data\/prompt/)).toBeVisible();

  await panel.getByLabel(/^Provider/).selectOption("anthropic");
  await panel.getByLabel(/^Model/).fill("claude-sonnet-4-5");
  await panel.getByLabel(/API key \(env var name\)/).fill("anthropic_api_key");
  await expect(panel.getByLabel(/API key \(env var name\)/)).toHaveValue("ANTHROPIC_API_KEY");
  await panel.getByLabel(/^Prompt/).fill("Refund the order if it is late: {{greet.name}}");
  await panel.getByRole("button", { name: "Add a workflow tool" }).click();
  // the tool picks from the project's workflows: another organization's is not offered
  const toolWorkflow = panel.locator('[id$="-data-tools-0-workflow"]');
  await expect(toolWorkflow.locator("option", { hasText: "Refund" })).toHaveCount(1);
  await expect(toolWorkflow.locator("option", { hasText: foreign.name })).toHaveCount(0);
  await toolWorkflow.selectOption(refund.id);
  await panel.getByRole("button", { name: "Add an HTTP tool" }).click();
  await panel.locator('[id$="-data-tools-1-url"]').fill("https://api.example.com/orders/{id}");
  await panel.locator('[id$="-data-tools-1-description"]').fill("Looks an order up");

  await checkA11y(page, "the agent node's form");
  await panel.getByRole("group", { name: "Tools" }).scrollIntoViewIfNeeded();
  await screenshot(page, "agent-form", { clip: await panel.boundingBox() });

  // a workflow of the project is accepted, and the version saved holds a reference, never a key
  await expect(page.getByText("The workflow is valid.")).toBeVisible();
  await page.getByRole("button", { name: "Save version" }).click();
  await expect(page.getByText("Saved as version 2.")).toBeVisible();
  const full = await studio.api(user, "GET", `/api/workflows/${wf.id}/full`);
  expect(full.currentVersion.version).toBe(2);
  const agent = full.currentVersion.ir.nodes.find((n) => n.type === "agent");
  expect(agent.data).toMatchObject({
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    apiKey: "{{env.ANTHROPIC_API_KEY}}",
    prompt: "Refund the order if it is late: {{greet.name}}",
    tools: [
      { workflow: refund.id },
      { http: { method: "GET", url: "https://api.example.com/orders/{id}", description: "Looks an order up" } },
    ],
  });
  studio.assertClean(page);
});
