// The editor as a window-filling tool (issue 37, items 1 and 2): a template without positions opens laid out and
// fitted; at 1440×900 and 1280×720 the canvas fills the window with Problems, zoom controls and minimap in view;
// the wheel never scrolls the page; side panels lie over the canvas instead of narrowing it; node boxes show the
// ids expressions use; Escape in a code field closes the completion list and keeps the focus.
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { checkA11y, repoDir, screenshot, useStudio } from "./harness.mjs";
import { canvasNode, codeField, completionTakesKeys, select } from "./editor-steps.mjs";

let studio;
useStudio({ edge: false }, (s) => (studio = s));

const template = (name) => JSON.parse(readFileSync(path.join(repoDir, "examples", `${name}.json`), "utf8"));

async function workflowWith(user, name, ir) {
  const w = await studio.api(user, "POST", "/api/workflows", { name });
  await studio.api(user, "POST", `/api/workflows/${w.id}/versions`, { ir });
  return w.id;
}

/** inView reports whether a locator's box lies wholly inside the viewport. */
async function inView(page, locator) {
  const b = await locator.boundingBox();
  const v = page.viewportSize();
  return !!b && b.x >= 0 && b.y >= 0 && b.x + b.width <= v.width + 0.5 && b.y + b.height <= v.height + 0.5;
}

test("a template without positions opens laid out and fitted, and its positions are saved with the next version", async () => {
  const user = await studio.apiSignUp();
  const ir = template("approval");
  expect(ir.nodes.every((n) => n.position === undefined)).toBe(true);
  const id = await workflowWith(user, "Approval", ir);
  const page = await studio.newPage(user.context);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/workflows/${id}`);
  await expect(canvasNode(page, "Record the request")).toBeVisible();
  const boxes = page.locator(".react-flow__node");
  await expect(boxes).toHaveCount(ir.nodes.length);
  // every node is on screen, and no two overlap
  for (const n of ir.nodes) {
    const node = canvasNode(page, n.name.replace(/[?()]/g, "\\$&"));
    expect(await inView(page, node), n.name).toBe(true);
  }
  const rects = await boxes.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()));
  for (let i = 0; i < rects.length; i++)
    for (let j = i + 1; j < rects.length; j++) {
      const a = rects[i];
      const b = rects[j];
      const overlap = a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      expect(overlap, `nodes ${i} and ${j} overlap`).toBe(false);
    }
  // opening laid out is no change of the user's
  await expect(page.getByText("unsaved changes")).toHaveCount(0);
  await checkA11y(page, "a template opened laid out");
  await screenshot(page, "editor-opened-laid-out");

  // the next saved version holds the positions
  await select(page, "Record the request");
  await page.locator(".node-panel").getByLabel(/^Name/).fill("Record it");
  await page.getByRole("button", { name: "Save version" }).click();
  await expect(page.getByText("Saved as version 2.")).toBeVisible();
  const full = await studio.api(user, "GET", `/api/workflows/${id}/full`);
  const saved = full.currentVersion.ir.nodes;
  expect(saved.every((n) => Number.isFinite(n.position?.x) && Number.isFinite(n.position?.y))).toBe(true);
  expect(new Set(saved.map((n) => `${n.position.x},${n.position.y}`)).size).toBe(saved.length);
  studio.assertClean(page);
});

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 1280, height: 720 },
]) {
  test(`the editor fills a ${viewport.width}×${viewport.height} window with every control in view`, async () => {
    const user = await studio.apiSignUp();
    const id = await workflowWith(user, "Fan-out", template("fan-out"));
    const page = await studio.newPage(user.context);
    await page.setViewportSize(viewport);
    await page.goto(`/workflows/${id}`);
    await expect(page.locator(".react-flow__node").first()).toBeVisible();

    // the page itself does not scroll; Problems, zoom controls and minimap are in the window
    const scroll = await page.evaluate(() => document.scrollingElement.scrollHeight - window.innerHeight);
    expect(scroll).toBeLessThanOrEqual(0);
    const problems = page.getByRole("region", { name: /Problems/ });
    await expect(problems).toBeVisible();
    expect(await inView(page, problems)).toBe(true);
    expect(await inView(page, page.getByRole("button", { name: "Zoom In" }))).toBe(true);
    expect(await inView(page, page.getByRole("button", { name: "Zoom Out" }))).toBe(true);
    expect(await inView(page, page.getByRole("img", { name: "Minimap" }))).toBe(true);
    // no empty "select a node" column: the canvas takes the width beside the palette
    await expect(page.getByText("Select a node to configure it.")).toBeHidden();
    const pane = page.locator(".react-flow");
    const before = await pane.boundingBox();
    expect(before.width).toBeGreaterThan(viewport.width - 300);

    // the wheel zooms the canvas and never scrolls the page
    const zoomOf = () => page.locator(".react-flow__viewport").evaluate((e) => e.style.transform);
    const z0 = await zoomOf();
    await page.mouse.move(before.x + before.width / 2, before.y + before.height / 2);
    await page.mouse.wheel(0, 600);
    await expect.poll(zoomOf).not.toBe(z0);
    for (let i = 0; i < 5; i++) await page.mouse.wheel(0, 800);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    // a node's settings and the Deploy panel lie over the canvas: it keeps its width
    await page.getByRole("button", { name: "Zoom to fit" }).click();
    await select(page, "Sum up");
    await expect(page.getByRole("tab", { name: "Node settings" })).toBeVisible();
    expect((await pane.boundingBox()).width).toBe(before.width);
    await page.getByRole("button", { name: "Close node settings" }).click();
    await expect(page.getByRole("tab", { name: "Node settings" })).toBeHidden();
    await page.getByRole("button", { name: "Deploy", exact: true }).click();
    await expect(page.getByRole("complementary", { name: "Workflow tools" })).toBeVisible();
    expect((await pane.boundingBox()).width).toBe(before.width);
    expect(await inView(page, problems)).toBe(true);
    await checkA11y(page, `the editor at ${viewport.width}×${viewport.height} with the Deploy panel`);
    await screenshot(page, `editor-window-${viewport.width}`);
    studio.assertClean(page);
  });
}

test("node boxes show the ids expressions use, and Escape in a code field closes completion and keeps the focus", async () => {
  const user = await studio.apiSignUp();
  const id = await workflowWith(user, "Ids", {
    metadata: { name: "Ids" },
    nodes: [
      { id: "step_1", type: "step", name: "Step 1", position: { x: 0, y: 0 }, data: { code: "return { total: 2 };" } },
      { id: "step_2", type: "step", name: "Step 2", position: { x: 260, y: 0 }, data: { code: "return 0;" } },
    ],
    edges: [{ id: "e1", source: "step_1", target: "step_2" }],
    entryNodeId: "step_1",
  });
  const page = await studio.newPage(user.context);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.clock.install();
  await page.goto(`/workflows/${id}`);
  await expect(canvasNode(page, "Step 2").getByText("step_2", { exact: true })).toBeVisible();
  await expect(canvasNode(page, "Step 1").getByText("step_1", { exact: true })).toBeVisible();

  await select(page, "Step 2");
  const code = codeField(page, "Code");
  await code.click();
  await page.keyboard.press("Control+a");
  await page.keyboard.press("Backspace");
  // the emptied code field shows its placeholder, in a colour that passes the contrast check
  await checkA11y(page, "an empty code field with its placeholder");
  await page.keyboard.type("return {{step_1.to");
  const list = page.getByRole("listbox");
  await expect(list.getByRole("option", { name: /^step_1\.total/ })).toBeVisible();
  await completionTakesKeys(page);
  await page.keyboard.press("Escape");
  await expect(list).toHaveCount(0);
  await expect(code).toBeFocused();
  await page.keyboard.type("tal}};");
  await expect(code).toHaveText("return {{step_1.total}};");
  // the node is still the one shown
  await expect(page.getByRole("tab", { name: "Node settings" })).toBeVisible();
  studio.assertClean(page);
});
