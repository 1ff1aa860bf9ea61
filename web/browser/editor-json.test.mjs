// The editor's JSON tab as a CodeMirror JSON editor (issue 37, item 6): an invalid edit shows its error at its line
// (in the text and in words under it), Escape keeps the focus, the fixed text applies to the workflow (the canvas
// and the saved version show it), a validation problem of the server is marked at its node's line, a node folds
// and unfolds from the keyboard and the mouse, and axe finds nothing serious meanwhile.
import { expect, test } from "@playwright/test";
import { checkA11y, screenshot, useStudio } from "./harness.mjs";
import { canvasNode } from "./editor-steps.mjs";

let studio;
useStudio({ edge: false }, (s) => (studio = s));

/** lineNumber answers the 1-based number of the first editor line whose text contains text (all lines are drawn). */
function lineNumber(page, text) {
  return page
    .locator(".json-field .cm-line")
    .evaluateAll((els, t) => els.findIndex((e) => e.textContent.includes(t)) + 1, text);
}

/** markedLines answers the texts of the editor's lines that hold an error mark of the linter. */
function markedLines(page) {
  return page
    .locator(".json-field .cm-line")
    .evaluateAll((els) =>
      els.filter((e) => e.querySelector(".cm-lintRange-error, .cm-lintPoint-error")).map((e) => e.textContent),
    );
}

test("the JSON tab edits the IR with errors at their line, folding, and Escape keeping the focus", async () => {
  const user = await studio.apiSignUp();
  const w = await studio.api(user, "POST", "/api/workflows", { name: "Json" });
  await studio.api(user, "POST", `/api/workflows/${w.id}/versions`, {
    ir: {
      metadata: { name: "Json" },
      nodes: [
        { id: "step_1", type: "step", name: "Step 1", position: { x: 0, y: 0 }, data: { code: "return { n: 1 };" } },
        { id: "step_2", type: "step", name: "Step 2", position: { x: 260, y: 0 }, data: { code: "return 2;" } },
      ],
      edges: [{ id: "e1", source: "step_1", target: "step_2" }],
      entryNodeId: "step_1",
    },
  });
  const page = await studio.newPage(user.context);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/workflows/${w.id}`);
  await expect(canvasNode(page, "Step 2")).toBeVisible();
  await page.getByRole("tab", { name: "JSON" }).click();
  const text = page.getByRole("textbox", { name: "IR (JSON)" });
  await expect(text).toContainText('"name": "Step 2"');
  await expect(page.locator(".problems-status")).toHaveText(/The workflow is valid\./);
  await checkA11y(page, "the JSON tab");

  // delete the comma after Step 2's name: the error is marked on that line and said in words with its line
  const nameLine = page.locator(".json-field .cm-line", { hasText: '"name": "Step 2",' });
  await nameLine.click();
  await page.keyboard.press("End");
  await page.keyboard.press("Backspace");
  const line = await lineNumber(page, '"name": "Step 2"');
  expect(line).toBeGreaterThan(1);
  const alert = page.getByRole("alert").filter({ hasText: /^Line / });
  await expect(alert).toHaveText(new RegExp(`^Line ${line}, column \\d+: .*JSON`));
  await expect.poll(() => markedLines(page)).toEqual([expect.stringContaining('"name": "Step 2"')]);
  await expect(page.locator(".json-field .cm-lint-marker-error")).toHaveCount(1);
  await checkA11y(page, "the JSON tab with a syntax error");
  await screenshot(page, "editor-json-error");

  // Escape leaves the cursor in the text, so typing goes on there
  await page.keyboard.press("Escape");
  await expect(text).toBeFocused();
  // rename Step 2 in the text: "Step 2" → "Step 2 renamed", with the comma back
  await page.keyboard.press("Backspace");
  await page.keyboard.insertText(' renamed",');
  await expect(page.locator(".json-field .cm-line", { hasText: '"name": "Step 2 renamed",' })).toHaveCount(1);
  await expect(alert).toHaveCount(0);
  await expect.poll(() => markedLines(page)).toEqual([]);
  await expect(page.getByText("unsaved changes")).toBeVisible();

  // an empty name is JSON but no valid workflow: the server's problem is marked on the name's line in Step 2's node
  await page.keyboard.press("Home");
  await page.keyboard.press("Shift+End");
  await page.keyboard.insertText('"name": "",');
  await expect(page.locator(".problems")).toContainText("the node name must not be empty");
  await expect.poll(() => markedLines(page)).toEqual([expect.stringContaining('"name": ""')]);
  // the field's own undo takes the edit back, and the problem goes
  await page.keyboard.press("Control+z");
  await expect(page.locator(".json-field .cm-line", { hasText: '"name": "Step 2 renamed",' })).toHaveCount(1);
  await expect(page.locator(".problems-status")).toHaveText(/The workflow is valid\./);
  await expect.poll(() => markedLines(page)).toEqual([]);

  // fold Step 1's node from the keyboard (Ctrl+Shift+[ on its opening line): its lines are hidden behind a marker
  await page.locator(".json-field .cm-line", { hasText: '"id": "step_1"' }).click();
  await page.keyboard.press("ArrowUp");
  await page.keyboard.press("Control+Shift+BracketLeft");
  const folded = page.locator(".json-field .cm-foldPlaceholder");
  await expect(folded).toHaveCount(1);
  await expect(page.locator(".json-field .cm-line", { hasText: '"id": "step_1"' })).toHaveCount(0);
  await expect(page.locator(".json-field .cm-line", { hasText: '"id": "step_2"' })).toHaveCount(1);
  await checkA11y(page, "the JSON tab with a node folded");
  // a click on the marker unfolds it; the gutter's arrow folds it again
  await folded.click();
  await expect(folded).toHaveCount(0);
  await expect(page.locator(".json-field .cm-line", { hasText: '"id": "step_1"' })).toHaveCount(1);
  const arrow = await page.evaluate(() => {
    // the fold gutter's element beside the line above step_1's id: the node's opening brace
    const lines = [...document.querySelectorAll(".json-field .cm-line")];
    const open = lines[lines.findIndex((e) => e.textContent.includes('"id": "step_1"')) - 1].getBoundingClientRect();
    const g = document.querySelector(".json-field .cm-foldGutter").getBoundingClientRect();
    return { x: g.left + g.width / 2, y: open.top + open.height / 2 };
  });
  await page.mouse.click(arrow.x, arrow.y);
  await expect(folded).toHaveCount(1);
  await expect(page.locator(".json-field .cm-line", { hasText: '"id": "step_1"' })).toHaveCount(0);
  await folded.click();
  await expect(folded).toHaveCount(0);

  // the change applies to the workflow: the canvas shows the new name, and it is saved with the next version
  await page.getByRole("tab", { name: "Canvas" }).click();
  await expect(canvasNode(page, "Step 2 renamed")).toBeVisible();
  await page.getByRole("button", { name: "Save version" }).click();
  await expect(page.getByText("Saved as version 2.")).toBeVisible();
  const full = await studio.api(user, "GET", `/api/workflows/${w.id}/full`);
  expect(full.currentVersion.ir.nodes.map((n) => n.name)).toEqual(["Step 1", "Step 2 renamed"]);
  studio.assertClean(page);
});
