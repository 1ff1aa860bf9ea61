// What a user does in the workflow editor, step by step, for editor.test.mjs and journey.test.mjs: mouse, keyboard,
// roles and visible text, as a person would.
import { expect } from "@playwright/test";

/** canvasNode is the canvas node showing a name. */
export function canvasNode(page, name) {
  return page
    .locator(".react-flow__node")
    .filter({ has: page.locator(".efn-name", { hasText: new RegExp(`^${name}$`) }) });
}

async function center(locator) {
  const b = await locator.boundingBox();
  expect(b, "the element is on screen").toBeTruthy();
  return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
}

/** dragFromPalette drags a palette item onto the canvas at (x, y) of the canvas pane. */
export async function dragFromPalette(page, typeName, x, y) {
  const item = page.getByRole("button", { name: `Add ${typeName}`, exact: true });
  await item.dragTo(page.locator(".react-flow__pane"), { targetPosition: { x, y } });
}

/** connect drags from a node's outlet (by its label, or the unlabelled one) to another node's inlet. */
export async function connect(page, fromName, toName, outlet) {
  const from = canvasNode(page, fromName);
  const handle = outlet
    ? from.locator(".efn-out", { hasText: outlet }).locator(".react-flow__handle.source")
    : from.locator(".react-flow__handle.source").first();
  const a = await center(handle);
  const b = await center(canvasNode(page, toName).locator(".react-flow__handle.target"));
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
  await page.mouse.move(b.x, b.y, { steps: 5 });
  await page.mouse.up();
}

/** select clicks a canvas node. */
export async function select(page, name, modifiers) {
  await canvasNode(page, name).locator(".efn-name").click({ modifiers });
}

/** codeField is the editable part of the CodeMirror field with a label in the node settings. */
export function codeField(page, label) {
  return page
    .locator(".field", { has: page.locator(".field-label", { hasText: label }) })
    .locator(".cm-content")
    .first();
}

/** nodePositions reads where each canvas node is drawn (its transform). */
export async function nodePositions(page) {
  return page.locator(".react-flow__node").evaluateAll((els) => els.map((e) => e.style.transform));
}

/** pressShortcut presses Control+key (Meta on macOS is the same to the editor) with the canvas focused. */
export async function pressOnCanvas(page, keys) {
  await page.locator(".react-flow__pane").click({ position: { x: 5, y: 5 } });
  for (const k of keys) await page.keyboard.press(k);
}

/**
 * completionTakesKeys lets the open completion list take keys: CodeMirror ignores Enter and the arrows for the list's
 * first 75 ms (its interactionDelay), so instead of sleeping the test moves the page's clock on past them. The page's
 * context must have its clock installed (page.clock.install() before the page opens; time runs as usual after it).
 */
export async function completionTakesKeys(page) {
  await page.clock.fastForward(100);
}
