// A new user's whole first hour in Studio, in one go: sign up, create a workflow, build it on the canvas with mouse
// and keyboard (a step, a sleep and a wait-for-event, connected and configured, an expression taken from the
// completion list), see a problem pinned on its node and fix it, save, deploy to the local edge watching the stages,
// run it with params, send the event it waits for, and see the run complete with the output the built workflow
// computes.
import { expect, test } from "@playwright/test";
import { checkA11y, useStudio } from "./harness.mjs";
import { canvasNode, codeField, completionTakesKeys, connect, dragFromPalette, select } from "./editor-steps.mjs";

let studio;
useStudio({}, (s) => (studio = s));

/** acceptCompletion waits for the completion list to offer an option and takes it with Enter. */
async function acceptCompletion(page, option) {
  const list = page.getByRole("listbox");
  await expect(list.getByRole("option", { name: new RegExp(`^${option.replace(/[.$]/g, "\\$&")}`) })).toBeVisible();
  await completionTakesKeys(page);
  await page.keyboard.press("Enter");
}

test("a new user signs up, builds a workflow on the canvas, deploys it, runs it and sends its event", async () => {
  const page = await studio.newPage(await studio.newContext({ viewport: { width: 1600, height: 1000 } }));
  const heading = (name) => page.getByRole("heading", { name, exact: true });

  await page.clock.install(); // time runs as usual; completionTakesKeys moves it on
  await page.goto("/sign-up");
  await expect(heading("Create your account")).toBeVisible();
  await page.getByLabel("Name").fill("Grace Hopper");
  await page.getByLabel("Email").fill(`grace-${process.pid}@example.com`);
  await page.getByLabel("Password").fill("compiler pioneer 1952");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(heading("Workflows and functions")).toBeVisible();

  await page.getByRole("button", { name: "New workflow" }).click();
  const dialog = page.getByRole("dialog", { name: "New workflow" });
  await dialog.getByLabel("Name").fill("Order approval");
  await dialog.getByRole("button", { name: "Create" }).click();
  await page.waitForURL(/\/workflows\/wf_[^/]+$/);
  await expect(heading("Order approval")).toBeVisible();

  // build: Start → a step → a sleep → a wait for the approval
  await expect(page.getByRole("button", { name: "Add Step", exact: true })).toBeVisible();
  const start = await page.locator(".react-flow__node").count();
  await dragFromPalette(page, "Step", 120, 120);
  await dragFromPalette(page, "Sleep", 360, 120);
  await dragFromPalette(page, "Wait for event", 600, 120);
  await expect(canvasNode(page, "Wait for event 1")).toBeVisible();
  const stepName = await page.locator(".react-flow__node .efn-name").nth(start).textContent();
  const firstName = await page.locator(".react-flow__node .efn-name").first().textContent();
  if (start > 0) await connect(page, firstName, stepName);
  await connect(page, stepName, "Sleep 1");
  await connect(page, "Sleep 1", "Wait for event 1");
  await expect(page.locator(".react-flow__edge")).toHaveCount(start + 2);

  // the step doubles the n it is started with, taken from the completion list by keyboard
  await select(page, stepName);
  const panel = page.locator(".node-panel");
  await panel.getByLabel(/^Name/).fill("Compute");
  await expect(canvasNode(page, "Compute")).toBeVisible();
  await codeField(page, "Code").click();
  await page.keyboard.type("return { total: {{event.pay");
  await acceptCompletion(page, "event.payload");
  await page.keyboard.type(".n * 2 };");

  // the sleep has no duration yet: the problem is pinned on it; a click on the problem leads to the field
  const sleepBadge = canvasNode(page, "Sleep 1").locator(".efn-badge");
  await expect(sleepBadge.filter({ hasText: /^1 problem$/ })).toBeVisible();
  await page.getByRole("button", { name: /Sleep 1: duration is required/ }).click();
  await expect(page.locator(":focus")).toHaveId(/-data-duration$/);
  await page.keyboard.type("1 second");
  await expect(sleepBadge).toHaveCount(0);

  await select(page, "Wait for event 1");
  await panel.getByLabel(/^Event type/).fill("approval");
  // with the wait selected, Enter on a palette item adds a step after it: it answers Compute's total plus one
  await page.getByRole("button", { name: "Add Step", exact: true }).focus();
  await page.keyboard.press("Enter");
  await expect(page.locator(".react-flow__node.selected")).toBeVisible();
  await codeField(page, "Code").click();
  await page.keyboard.type("return { sum: {{");
  await page.keyboard.type("step_1.to");
  await acceptCompletion(page, "step_1.total");
  await page.keyboard.type(" + 1 };");
  await expect(page.getByText("The workflow is valid.")).toBeVisible();
  await checkA11y(page, "the built workflow");

  // save, deploy, run, answer the wait, see the output
  await page.getByRole("button", { name: "Save version" }).click();
  await expect(page.getByText("Version 1", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
  await page.getByRole("button", { name: "Create local connection" }).click();
  await expect(page.getByLabel("Connection")).toBeVisible();
  await page.getByRole("button", { name: "Deploy version 1" }).click();
  const stages = page.getByRole("list", { name: "Deploy stages" });
  await expect(stages.getByText("INITIALIZING")).toBeVisible();
  await expect(stages.getByText("COMPLETED")).toBeVisible({ timeout: 120_000 });

  await page.getByRole("button", { name: "Run", exact: true }).click();
  await page.getByLabel("Params (JSON)").fill('{ "n": 21 }');
  await page.getByRole("button", { name: "Start run" }).click();
  await page.waitForURL(/\/workflows\/wf_[^/]+\/runs\/[^/]+$/);
  await expect(page.getByRole("heading", { name: "Send event" })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByLabel("Event type")).toHaveValue("approval");
  await page.getByLabel("Payload (JSON)").fill('{ "approved": true }');
  await page.getByRole("button", { name: "Send event" }).click();
  await expect(page.getByRole("status").filter({ hasText: "complete" }).first()).toBeVisible({ timeout: 60_000 });
  const output = page.getByLabel("Output", { exact: true });
  await expect(output).toHaveText(/"sum": 43/, { useInnerText: true });
  await checkA11y(page, "the finished run");
  studio.assertClean(page);
});
