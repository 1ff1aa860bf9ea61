// A new user's whole first hour in Studio, in one go: sign up, create a workflow, build it on the canvas with mouse
// and keyboard (a step, a sleep and a wait-for-event, connected and configured, an expression taken from the
// completion list), see a problem pinned on its node and fix it, save, deploy to the local edge watching the stages,
// run it with params, send the event it waits for, and see the run complete with the output the built workflow
// computes.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { checkA11y, startStudio } from "./harness.mjs";
import { canvasNode, codeField, connect, dragFromPalette, select } from "./editor-steps.mjs";

let studio;
before(async () => {
  studio = await startStudio();
});
after(async () => {
  await studio?.close();
});

/** acceptCompletion waits for the completion list to offer an option and takes it with Enter. */
async function acceptCompletion(page, option) {
  const list = page.getByRole("listbox");
  await list.getByRole("option", { name: new RegExp(`^${option.replace(/[.$]/g, "\\$&")}`) }).waitFor();
  await page.waitForTimeout(150); // CodeMirror takes no keys in the list's first moments
  await page.keyboard.press("Enter");
}

test("a new user signs up, builds a workflow on the canvas, deploys it, runs it and sends its event", async (t) => {
  if (studio.skip) return t.skip(studio.skip);
  const page = await studio.newPage(await studio.newContext({ viewport: { width: 1600, height: 1000 } }));
  const heading = (name) => page.getByRole("heading", { name, exact: true });

  await page.goto("/sign-up");
  await heading("Create your account").waitFor();
  await page.getByLabel("Name").fill("Grace Hopper");
  await page.getByLabel("Email").fill(`grace-${process.pid}@example.com`);
  await page.getByLabel("Password").fill("compiler pioneer 1952");
  await page.getByRole("button", { name: "Sign up" }).click();
  await heading("Workflows and functions").waitFor();

  await page.getByRole("button", { name: "New workflow" }).click();
  const dialog = page.getByRole("dialog", { name: "New workflow" });
  await dialog.getByLabel("Name").fill("Order approval");
  await dialog.getByRole("button", { name: "Create" }).click();
  await page.waitForURL(/\/workflows\/wf_[^/]+$/);
  await heading("Order approval").waitFor();

  // build: Start → a step → a sleep → a wait for the approval
  await page.getByRole("button", { name: "Add Step", exact: true }).waitFor();
  const start = await page.locator(".react-flow__node").count();
  await dragFromPalette(page, "Step", 120, 120);
  await dragFromPalette(page, "Sleep", 360, 120);
  await dragFromPalette(page, "Wait for event", 600, 120);
  await canvasNode(page, "Wait for event 1").waitFor();
  const stepName = await page.locator(".react-flow__node .efn-name").nth(start).textContent();
  const firstName = await page.locator(".react-flow__node .efn-name").first().textContent();
  if (start > 0) await connect(page, firstName, stepName);
  await connect(page, stepName, "Sleep 1");
  await connect(page, "Sleep 1", "Wait for event 1");
  await page.waitForFunction((n) => document.querySelectorAll(".react-flow__edge").length === n, start + 2);

  // the step doubles the n it is started with, taken from the completion list by keyboard
  await select(page, stepName);
  const panel = page.locator(".node-panel");
  await panel.getByLabel(/^Name/).fill("Compute");
  await canvasNode(page, "Compute").waitFor();
  await codeField(page, "Code").click();
  await page.keyboard.type("return { total: {{event.pay");
  await acceptCompletion(page, "event.payload");
  await page.keyboard.type(".n * 2 };");

  // the sleep has no duration yet: the problem is pinned on it; a click on the problem leads to the field
  const sleepBadge = canvasNode(page, "Sleep 1").locator(".efn-badge");
  await sleepBadge.filter({ hasText: /^1 problem$/ }).waitFor();
  await page.getByRole("button", { name: /Sleep 1: duration is required/ }).click();
  await page.waitForFunction(() => document.activeElement?.id.endsWith("-data-duration"));
  await page.keyboard.type("1 second");
  await sleepBadge.waitFor({ state: "detached" });

  await select(page, "Wait for event 1");
  await panel.getByLabel(/^Event type/).fill("approval");
  // with the wait selected, Enter on a palette item adds a step after it: it answers Compute's total plus one
  await page.getByRole("button", { name: "Add Step", exact: true }).focus();
  await page.keyboard.press("Enter");
  await page.locator(".react-flow__node.selected").waitFor();
  await codeField(page, "Code").click();
  await page.keyboard.type("return { sum: {{");
  await page.keyboard.type("step_1.to");
  await acceptCompletion(page, "step_1.total");
  await page.keyboard.type(" + 1 };");
  await page.getByText("The workflow is valid.").waitFor();
  await checkA11y(page, "the built workflow");

  // save, deploy, run, answer the wait, see the output
  await page.getByRole("button", { name: "Save version" }).click();
  await page.getByText("Version 1", { exact: true }).waitFor();
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
  await page.getByRole("button", { name: "Create local connection" }).click();
  await page.getByLabel("Connection").waitFor();
  await page.getByRole("button", { name: "Deploy version 1" }).click();
  const stages = page.getByRole("list", { name: "Deploy stages" });
  await stages.getByText("INITIALIZING").waitFor();
  await stages.getByText("COMPLETED").waitFor({ timeout: 120_000 });

  await page.getByRole("button", { name: "Run", exact: true }).click();
  await page.getByLabel("Params (JSON)").fill('{ "n": 21 }');
  await page.getByRole("button", { name: "Start run" }).click();
  await page.waitForURL(/\/workflows\/wf_[^/]+\/runs\/[^/]+$/);
  await page.getByRole("heading", { name: "Send event" }).waitFor({ timeout: 60_000 });
  await page.waitForFunction(() => document.getElementById("event-type")?.value === "approval");
  await page.getByLabel("Payload (JSON)").fill('{ "approved": true }');
  await page.getByRole("button", { name: "Send event" }).click();
  await page.getByRole("status").filter({ hasText: "complete" }).first().waitFor({ timeout: 60_000 });
  const output = page.getByLabel("Output", { exact: true });
  assert.match(await output.innerText(), /"sum": 43/);
  await checkA11y(page, "the finished run");
  studio.assertClean(page);
});
