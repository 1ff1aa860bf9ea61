// The workflow editor in the browser: a signed-in user builds a workflow on the canvas with mouse and keyboard,
// sees validation problems pinned and fixes them, watches the generated code, undoes and redoes, copies and
// pastes, lays out and deletes; and the mixed-1000 benchmark IR opened by its deep link, timed.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before, test } from "node:test";
import { checkA11y, repoDir, screenshot, startStudio } from "./harness.mjs";
import { canvasNode, codeField, connect, dragFromPalette, nodePositions, select } from "./editor-steps.mjs";

let studio;
before(async () => {
  studio = await startStudio({ edge: false });
});
after(async () => {
  await studio?.close();
});

const viewport = { width: 1600, height: 1000 };
const nodeCount = (page) => page.locator(".react-flow__node").count();
/** shot takes a screenshot of the editor alone (docs/studio.md shows it). */
const shot = async (page, name) => screenshot(page, name, { clip: await page.locator(".ir-editor").boundingBox() });

async function newWorkflow(user, name) {
  const w = await studio.api(user, "POST", "/api/workflows", { name });
  return w.id;
}

/**
 * acceptCompletion waits for the completion list to offer an option and takes it with Enter. A list that has not
 * opened after 10 s (on a loaded machine the typing can outrun the completion source, and the editor then drops
 * its late answer) is asked for with Ctrl-Space, as a user would.
 */
async function acceptCompletion(page, option) {
  const wanted = page.getByRole("listbox").getByRole("option", { name: new RegExp(`^${option.replace(/[.$]/g, "\\$&")}`) });
  try {
    await wanted.waitFor({ timeout: 10000 });
  } catch {
    await page.keyboard.press("Control+Space");
    await wanted.waitFor();
  }
  await page.waitForTimeout(150); // CodeMirror takes no keys in the list's first moments
  await page.keyboard.press("Enter");
}

test("a user builds a workflow on the canvas with mouse and keyboard", async (t) => {
  if (studio.skip) return t.skip(studio.skip);
  const user = await studio.apiSignUp();
  const id = await newWorkflow(user, "Editor walk-through");
  const ctx = user.context;
  await ctx.grantPermissions(["clipboard-read", "clipboard-write"], { origin: studio.base });
  const page = await studio.newPage(ctx);
  await page.setViewportSize(viewport);
  await page.goto(`/workflows/${id}`);
  await page.getByRole("button", { name: "Add Step", exact: true }).waitFor();
  await page.getByRole("button", { name: "Add Wait for event", exact: true }).waitFor();
  const start = await nodeCount(page);

  // drag a step, a sleep and a wait-for-event from the palette, and connect them after the first node
  await dragFromPalette(page, "Step", 120, 120);
  await dragFromPalette(page, "Sleep", 360, 120);
  await dragFromPalette(page, "Wait for event", 600, 120);
  await canvasNode(page, "Wait for event 1").waitFor();
  assert.equal(await nodeCount(page), start + 3);
  const stepName = await page.locator(".react-flow__node .efn-name").nth(start).textContent();
  const firstName = await page.locator(".react-flow__node .efn-name").first().textContent();
  if (start > 0) await connect(page, firstName, stepName);
  await connect(page, stepName, "Sleep 1");
  await connect(page, "Sleep 1", "Wait for event 1");
  await page.waitForFunction((n) => document.querySelectorAll(".react-flow__edge").length === n, start + 2);

  // configure the step: a name, and code that takes an upstream value through completion (keyboard only)
  await select(page, stepName);
  const panel = page.locator(".node-panel");
  await panel.getByLabel(/^Name/).fill("Compute");
  await canvasNode(page, "Compute").waitFor();
  await codeField(page, "Code").click();
  await page.keyboard.type("return { total: {{event.pay");
  await acceptCompletion(page, "event.payload");
  await page.keyboard.type(".n };");
  assert.equal(await codeField(page, "Code").textContent(), "return { total: {{event.payload}}.n };");

  // the sleep has no duration: its problem is pinned on the node and listed; a click leads to the field
  const sleepBadge = canvasNode(page, "Sleep 1").locator(".efn-badge");
  await sleepBadge.filter({ hasText: /^1 problem$/ }).waitFor();
  assert.ok(await canvasNode(page, "Sleep 1").locator(".efn.efn-invalid").isVisible(), "the node is outlined");
  const problems = page.getByRole("region", { name: /Problems/ });
  const problem = page.getByRole("button", { name: /Sleep 1: duration is required/ });
  await problem.waitFor();
  assert.ok(await problems.getByRole("list").isVisible());
  await checkA11y(page, "the editor with problems");
  await shot(page, "editor-problems");
  await problem.click();
  await page.waitForFunction(() => document.activeElement?.id.endsWith("-data-duration"));
  await page.keyboard.type("1 second");
  await sleepBadge.waitFor({ state: "detached" });

  await select(page, "Wait for event 1");
  await panel.getByLabel(/^Event type/).fill("approval");

  // keyboard: with the wait selected, Enter on a palette item adds a step after it; its code reads Compute's value
  await page.getByRole("button", { name: "Add Step", exact: true }).focus();
  await page.keyboard.press("Enter");
  const added = page.locator(".react-flow__node.selected");
  await added.waitFor();
  const addedName = await added.locator(".efn-name").textContent();
  await codeField(page, "Code").click();
  await page.keyboard.type("return { sum: {{");
  await page.keyboard.type("step_1.to");
  await acceptCompletion(page, "step_1.total");
  await page.keyboard.type(" + 1 };");
  assert.equal(await codeField(page, "Code").textContent(), "return { sum: {{step_1.total}} + 1 };");
  // the canvas draws what is in view: show everything before counting
  await page.getByRole("button", { name: "Zoom to fit" }).click();
  await page.waitForFunction((n) => document.querySelectorAll(".react-flow__edge").length === n, start + 3);

  // valid now: the preview shows the generated TypeScript of this very workflow
  await page.getByText("The workflow is valid.").waitFor();
  await page.getByRole("tab", { name: "Code preview" }).click();
  await page.getByText("Generated from the current workflow.").waitFor();
  const preview = page.getByRole("region", { name: "Generated TypeScript" });
  await preview.getByText('"Compute"').first().waitFor();
  await preview.getByText(/approval/).first().waitFor();
  await checkA11y(page, "the editor with the preview");
  await shot(page, "editor");

  // copy and paste, undo and redo, delete
  await page.getByRole("button", { name: "Zoom to fit" }).click();
  await page.waitForTimeout(300);
  await select(page, "Sleep 1");
  const n = await nodeCount(page);
  await page.keyboard.press("Control+c");
  await page.keyboard.press("Control+v");
  await canvasNode(page, "Sleep 1 \\(copy\\)").waitFor();
  assert.equal(await nodeCount(page), n + 1);
  await page.keyboard.press("Control+z");
  await canvasNode(page, "Sleep 1 \\(copy\\)").waitFor({ state: "detached" });
  await page.keyboard.press("Control+Shift+z");
  await canvasNode(page, "Sleep 1 \\(copy\\)").waitFor();
  await page.keyboard.press("Control+y"); // nothing more to redo
  assert.equal(await nodeCount(page), n + 1);
  await select(page, "Sleep 1 \\(copy\\)");
  await page.keyboard.press("Delete");
  await canvasNode(page, "Sleep 1 \\(copy\\)").waitFor({ state: "detached" });
  await page.getByRole("button", { name: "Undo" }).click();
  await canvasNode(page, "Sleep 1 \\(copy\\)").waitFor();
  await page.getByRole("button", { name: "Redo" }).click();
  await canvasNode(page, "Sleep 1 \\(copy\\)").waitFor({ state: "detached" });

  // shift-click selects several nodes; Backspace deletes them all, undo brings them back
  await select(page, "Sleep 1");
  await select(page, addedName, ["Shift"]);
  assert.equal(await page.locator(".react-flow__node.selected").count(), 2);
  await page.keyboard.press("Backspace");
  assert.equal(await nodeCount(page), n - 2);
  await page.keyboard.press("Control+z");
  await canvasNode(page, addedName).waitFor();
  assert.equal(await nodeCount(page), n);

  // auto-layout moves the nodes; the workflow stays valid
  const before = await nodePositions(page);
  await page.getByRole("button", { name: "Auto-layout" }).click();
  await page.waitForFunction(
    (b) => JSON.stringify([...document.querySelectorAll(".react-flow__node")].map((e) => e.style.transform)) !== b,
    JSON.stringify(before),
  );
  await page.getByRole("button", { name: "Auto-layout" }).waitFor();
  await page.getByText("The workflow is valid.").waitFor();
  await shot(page, "editor-laid-out");
  studio.assertClean(page);
});

test("the mixed-1000 benchmark IR opens by its deep link and draws its nodes", async (t) => {
  if (studio.skip) return t.skip(studio.skip);
  const user = await studio.apiSignUp();
  const id = await newWorkflow(user, "mixed-1000");
  const ir = JSON.parse(readFileSync(path.join(repoDir, "testdata/bench/ir/mixed-1000.json"), "utf8"));
  await studio.api(user, "POST", `/api/workflows/${id}/versions`, { ir });
  const page = await studio.newPage(user.context);
  await page.setViewportSize(viewport);
  // a first load puts the app's assets in the cache, as for a user who opened Studio before
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  // the moments all 1000 nodes are drawn (in the page, shown) and all edges, as the page sees them
  await page.addInitScript(() => {
    const seen = {};
    window.__drawn = seen;
    const check = () => {
      const nodes = document.querySelectorAll(".react-flow__node");
      if (!seen.nodes && nodes.length >= 1000 && [...nodes].every((n) => n.style.visibility !== "hidden")) seen.nodes = performance.now();
      if (!seen.edges && document.querySelectorAll(".react-flow__edge").length >= 999) seen.edges = performance.now();
    };
    document.addEventListener("DOMContentLoaded", () =>
      new MutationObserver(check).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ["style"] }),
    );
  });
  await page.goto(`/workflows/${id}`);
  await page.waitForFunction(() => window.__drawn.nodes && window.__drawn.edges, null, { timeout: 60_000 });
  const drawn = await page.evaluate(() => window.__drawn);
  t.diagnostic(
    `mixed-1000: ${ir.nodes.length} nodes drawn ${Math.round(drawn.nodes)} ms after the navigation started (target 2000 ms), ` +
      `its ${ir.edges.length} edges at ${Math.round(drawn.edges)} ms`,
  );
  assert.equal(await nodeCount(page), 1000);
  await shot(page, "editor-large");
  await page.getByText("The workflow is valid.").waitFor({ timeout: 30_000 });
  studio.assertClean(page);
});
