// Test without deploying (issue 37, item 4), on the real local edge: the editor's Test panel runs the workflow as it
// is in the editor, unsaved changes included; every node then shows its output under its box and in its panel, a
// node's output can be pinned, and `{{` completion shows the value of each suggested path from that test.
import { expect, test } from "@playwright/test";
import { checkA11y, screenshot, useStudio } from "./harness.mjs";
import { canvasNode, codeField, select } from "./editor-steps.mjs";

let studio;
useStudio({}, (s) => (studio = s));

const node = (id, type, name, data, x, y = 80) => ({ id, type, name, position: { x, y }, data });

test("Test runs the unsaved workflow and shows step outputs on the canvas", async () => {
  const user = await studio.apiSignUp();
  const wf = await studio.api(user, "POST", "/api/workflows", { name: "Doubler", kind: "workflow" });
  const ir = {
    metadata: { name: "Doubler" },
    nodes: [
      node("load", "step", "Load", { code: "return { total: event.payload.total };" }, 0),
      node("double", "step", "Double", { code: "return { doubled: {{load.total}} * 2 };" }, 280),
    ],
    edges: [{ id: "e1", source: "load", target: "double" }],
    entryNodeId: "load",
  };
  await studio.api(user, "POST", `/api/workflows/${wf.id}/versions`, { ir });
  // a run of the deployed version: before any test, completion shows its values
  const conn = await studio.api(user, "POST", "/api/connections", { provider: "local", name: "Local edge" });
  await studio.api(user, "POST", `/api/workflows/${wf.id}/deploy`, { connectionId: conn.id });
  const run = await studio.api(user, "POST", `/api/workflows/${wf.id}/trigger`, {
    connectionId: conn.id,
    params: { total: 4 },
  });
  await expect
    .poll(async () => (await studio.api(user, "GET", `/api/runs/${run.id}`)).status, { timeout: 90_000 })
    .toBe("complete");

  const page = await studio.newPage(user.context);
  await page.setViewportSize({ width: 1440, height: 900 });
  await studio.gotoApp(page, `/workflows/${wf.id}`);
  await select(page, "Double");
  await codeField(page, "Code").click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type("\n// {{load.");
  await expect(page.locator(".cm-tooltip-autocomplete li", { hasText: "load.total" })).toContainText("= 4");
  await page.keyboard.press("Escape");
  for (let i = 0; i < "\n// {{load.".length; i++) await page.keyboard.press("Backspace");
  // an unsaved change: the test runs the editor's IR, not the saved version
  await select(page, "Double");
  await page.getByLabel("Name", { exact: false }).first().fill("Twice");
  await expect(page.getByText("unsaved changes")).toBeVisible();

  await page.getByRole("button", { name: "Test", exact: true }).click();
  await page.getByLabel("Params (JSON)").fill('{"total": 21}');
  await page.getByRole("button", { name: "Run test" }).click();
  const result = page.locator(".test-result");
  await expect(result.locator(".badge").first()).toHaveText("complete", { timeout: 90_000 });
  await expect(result).toContainText('{"doubled":42}');

  // each node shows its output under its box
  await expect(canvasNode(page, "Load").locator(".efn-value")).toHaveText('→ {"total":21}');
  await expect(canvasNode(page, "Twice").locator(".efn-value")).toHaveText('→ {"doubled":42}');
  await expect(page.getByText("unsaved changes")).toBeVisible();
  await checkA11y(page, "the editor after a test");
  await screenshot(page, "editor-test-outputs");

  // and in its panel, where it can be pinned
  await page.getByRole("button", { name: "Close the side panel" }).click();
  await select(page, "Load");
  await expect(page.getByLabel("Output of the last test")).toContainText('"total": 21');
  await page.getByRole("button", { name: "Pin this output" }).click();
  await expect(page.getByRole("button", { name: "Unpin output" })).toBeVisible();
  const pins = await studio.api(user, "GET", `/api/workflows/${wf.id}/pinned-outputs`);
  expect(pins.outputs).toEqual({ load: { total: 21 } });

  // a second test with other params: the pinned Load answers 21 anyway
  await page.getByRole("button", { name: "Test", exact: true }).click();
  await page.getByLabel("Params (JSON)").fill('{"total": 5}');
  await page.getByRole("button", { name: "Run test" }).click();
  await expect(result.locator(".badge").first()).toHaveText("complete", { timeout: 90_000 });
  await expect(canvasNode(page, "Load").locator(".efn-value")).toHaveText('📌 {"total":21}');
  await expect(canvasNode(page, "Twice").locator(".efn-value")).toHaveText('→ {"doubled":42}');

  // {{ completion shows each path's value from the last test
  await page.getByRole("button", { name: "Close the side panel" }).click();
  await select(page, "Twice");
  const code = codeField(page, "Code");
  await code.click();
  await page.keyboard.press("Control+End");
  await page.keyboard.type("\n// {{load.");
  const option = page.locator(".cm-tooltip-autocomplete li", { hasText: "load.total" });
  await expect(option).toContainText("= 21");
  await page.keyboard.press("Escape");
  studio.assertClean(page);
});
