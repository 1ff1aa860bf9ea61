// Studio's screens as a user meets them: sign up, import a workflow from an IR file, save versions (one refused by
// the server, then fixed), compare and revert versions, deploy to the local edge watching the stages, run it with
// params, send the event it waits for and see it complete; export; rename, move and delete; sign out and in again
// through a deep link. Every screen is checked with axe and the test fails on console errors and failed requests.
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { checkA11y, repoDir, scenario, screenshot, useStudio } from "./harness.mjs";

const approvalFile = path.join(repoDir, "examples", "approval.json");
const approvalParams = readFileSync(path.join(repoDir, "examples", "approval.params.json"), "utf8");

let studio;
let page;
const user = { name: "Ada Lovelace", email: `ada-${process.pid}@example.com`, password: "analytical engine 1843" };
let workflowURL = "";

useStudio({}, (s) => (studio = s));
test.beforeAll(async () => {
  page = await studio.newPage(
    await studio.newContext({ acceptDownloads: true, viewport: { width: 1360, height: 860 } }),
  );
});

const step = scenario(() => ({ studio, pages: [page] }));

const heading = (name) => page.getByRole("heading", { name, exact: true });

step("a signed-out visit lands on sign-in; signing up lands on the workflow list", async () => {
  await page.goto("/");
  await expect(heading("Sign in")).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/sign-in");
  await checkA11y(page, "sign-in");
  await screenshot(page, "sign-in");

  // a refused sign-in shows the server's message next to the form
  studio.allow(page, { method: "POST", path: "/api/auth/sign-in", status: 401 });
  await page.getByLabel("Email").fill("nobody@example.com");
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /email or password/i })).toBeVisible();

  await page.getByRole("link", { name: "Create an account" }).click();
  await expect(heading("Create your account")).toBeVisible();
  // the form's own checks name each field
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page.getByText("Enter your name.")).toBeVisible();
  await page.getByLabel("Name").fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await checkA11y(page, "sign-up");
  await screenshot(page, "sign-up");
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(heading("Workflows and functions")).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/");
  await expect(page.getByText("This project has no workflows yet.")).toBeVisible();
  await checkA11y(page, "workflows (empty)");
});

step("New workflow imports an IR file, stores it as version 1 and opens the editor", async () => {
  await page.getByRole("button", { name: "New workflow" }).click();
  const dialog = page.getByRole("dialog", { name: "New workflow" });
  await dialog.getByLabel("Name").fill("Approval");
  await dialog.getByLabel("An IR file").check();
  await dialog.getByLabel("IR file", { exact: true }).setInputFiles(approvalFile);
  await expect(dialog.getByText(/approval\.json: \d+ nodes/)).toBeVisible();
  await checkA11y(page, "new workflow dialog");
  await screenshot(page, "new-workflow");
  await dialog.getByRole("button", { name: "Create" }).click();
  await page.waitForURL(/\/workflows\/wf_[^/]+$/);
  workflowURL = new URL(page.url()).pathname;
  await expect(heading("Approval")).toBeVisible();
  await expect(page.getByText("Version 1", { exact: true })).toBeVisible();
  await checkA11y(page, "editor");
  await screenshot(page, "editor-page");
});

step("Save version shows the server's validation errors, then saves the fixed IR", async () => {
  await page.getByRole("group", { name: "Side panel" }).getByRole("button", { name: "Settings", exact: true }).click();
  await page.getByLabel("Trigger", { exact: true }).selectOption("cron");
  await page.getByLabel("Cron expression").fill("every monday");
  await expect(page.getByText("unsaved changes")).toBeVisible();
  studio.allow(page, { method: "POST", path: /\/api\/workflows\/[^/]+\/versions$/, status: 400 });
  studio.allow(page, { method: "POST", path: /\/api\/workflows\/[^/]+\/versions$/, status: 422 });
  await page.getByRole("button", { name: "Save version" }).click();
  const refused = page.getByRole("alert").filter({ hasText: "The version was not saved" });
  await expect(refused).toBeVisible();
  await expect(refused).toHaveText(/\/trigger\/expression/, { useInnerText: true });
  await checkA11y(page, "editor with errors");
  await screenshot(page, "editor-errors");
  await page.getByLabel("Cron expression").fill("0 9 * * MON");
  await page.getByRole("button", { name: "Save version" }).click();
  await expect(page.getByText("Saved as version 2.")).toBeVisible();
  await expect(page.getByText("Version 2", { exact: true })).toBeVisible();
  await checkA11y(page, "settings panel");
  await screenshot(page, "settings");
});

step("the versions page compares two versions, refuses deleting a locked one, and reverts", async () => {
  await page.getByRole("link", { name: "Versions" }).click();
  await expect(heading("Versions of Approval")).toBeVisible();
  await expect(page.getByRole("cell", { name: /^v2/ })).toBeVisible();
  const diff = page.getByRole("region", { name: "Differences of the IR" });
  await expect(diff).toBeVisible();
  await expect(diff).toHaveText(/"expression": "0 9 \* \* MON"/, { useInnerText: true });
  expect(await page.locator(".diff td.ins").count(), "the added lines are highlighted").toBeGreaterThan(0);
  await page.getByRole("button", { name: "Generated code" }).click();
  await expect(page.getByRole("region", { name: "Differences of the generated code" })).toBeVisible();
  await checkA11y(page, "versions");
  await screenshot(page, "versions");

  await page.getByRole("button", { name: "Lock version 1" }).click();
  await expect(page.getByRole("button", { name: "Unlock version 1" })).toBeVisible();
  studio.allow(page, { method: "DELETE", path: /\/versions\/ver_/, status: 409 });
  await page.getByRole("button", { name: "Delete version 1" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete version 1?" });
  await confirm.getByRole("button", { name: "Delete version" }).click();
  await expect(confirm.getByRole("alert").filter({ hasText: /locked/i })).toBeVisible();
  await checkA11y(page, "refused version delete");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("button", { name: "Unlock version 1" }).click();
  await expect(page.getByRole("button", { name: "Lock version 1" })).toBeVisible();

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export version 1" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("approval.v1.ir.json");
  const exported = JSON.parse(readFileSync(await file.path(), "utf8"));
  expect(exported.entryNodeId).toBe("request");
  expect(exported.trigger).toBe(undefined);

  await page.getByRole("button", { name: "Revert to version 1" }).click();
  await expect(page.getByText("Reverted: version 3 holds the chosen version's IR.")).toBeVisible();
  await expect(page.getByRole("cell", { name: /^v3/ })).toBeVisible();
});

step("Deploy creates a local connection in one click and shows each stage as it happens", async () => {
  await page.getByRole("link", { name: "Open editor" }).click();
  await expect(heading("Approval")).toBeVisible();
  await expect(page.getByText("Version 3", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
  await page.getByRole("button", { name: "Create local connection" }).click();
  await expect(page.getByLabel("Connection")).toBeVisible();
  await page.getByRole("button", { name: "Deploy version 3" }).click();
  const stages = page.getByRole("list", { name: "Deploy stages" });
  await expect(stages.getByText("INITIALIZING")).toBeVisible();
  await expect(stages.getByText("COMPLETED")).toBeVisible({ timeout: 120_000 });
  expect(await stages.getByRole("listitem").count(), "several stages were shown").toBeGreaterThanOrEqual(3);
  await expect(page.getByText(/Deployed to/)).toBeVisible();
  await checkA11y(page, "deploy");
  await screenshot(page, "deploy");
});

step("Run starts a run with params; the run page updates live, takes the event and completes", async () => {
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await page.getByLabel("Params (JSON)").fill("{ not json");
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page.getByText(/Not valid JSON/)).toBeVisible();
  await page.getByLabel("Params (JSON)").fill(approvalParams);
  await page.getByRole("button", { name: "Start run" }).click();
  await page.waitForURL(/\/workflows\/wf_[^/]+\/runs\/[^/]+$/);
  await expect(page.getByText("paused · waiting").first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("heading", { name: "Send event" })).toBeVisible();
  await checkA11y(page, "waiting run");
  await screenshot(page, "run-waiting");
  // the event type the run's version waits for is filled in
  await expect(page.getByLabel("Event type")).toHaveValue("approval");
  await page.getByLabel("Event type").fill("approval");
  await page.getByLabel("Payload (JSON)").fill('{ "approved": true, "by": "Grace", "comment": "fine" }');
  await page.getByRole("button", { name: "Send event" }).click();
  await expect(page.getByRole("status").filter({ hasText: "complete" }).first()).toBeVisible({ timeout: 60_000 });
  const output = page.getByLabel("Output", { exact: true });
  await expect(output).toHaveText(/"decision": "approved"/, { useInnerText: true });
  await expect(page.getByText("Wait for the answer").first()).toBeVisible();
  await checkA11y(page, "run");
  await screenshot(page, "run");
  // the deep link of the run survives a reload
  await page.reload();
  await expect(page.getByLabel("Output", { exact: true })).toBeVisible();

  // a second run, terminated while it waits
  await page.getByRole("link", { name: "Approval", exact: true }).click();
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await page.getByLabel("Params (JSON)").fill(approvalParams);
  await page.getByRole("button", { name: "Start run" }).click();
  await page.waitForURL(/\/runs\/[^/]+$/);
  await expect(page.getByRole("heading", { name: "Send event" })).toBeVisible({ timeout: 60_000 });
  await page.getByRole("button", { name: "Terminate" }).click();
  const confirmTerminate = page.getByRole("dialog", { name: "Terminate this run?" });
  await checkA11y(page, "terminate confirmation");
  await confirmTerminate.getByRole("button", { name: "Terminate run" }).click();
  await expect(page.getByRole("status").filter({ hasText: "terminated" }).first()).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("button", { name: "Terminate" })).toHaveCount(0);
});

step("Export downloads the editor's IR; leaving with unsaved changes asks first", async () => {
  await page.goto(workflowURL);
  await expect(heading("Approval")).toBeVisible();
  await page.getByRole("group", { name: "Side panel" }).getByRole("button", { name: "Settings", exact: true }).click();
  await page.getByLabel("Trigger", { exact: true }).selectOption("cron");
  await expect(page.getByText("unsaved changes")).toBeVisible();
  const questions = [];
  page.once("dialog", (d) => {
    questions.push(d.message());
    void d.dismiss();
  });
  await page.getByRole("link", { name: "Versions", exact: true }).click();
  expect(questions[0] ?? "").toMatch(/unsaved changes/);
  expect(new URL(page.url()).pathname, "staying on the page").toBe(workflowURL);
  await page.getByLabel("Trigger", { exact: true }).selectOption("manual");
  await expect(page.getByText("unsaved changes")).toHaveCount(0);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("approval.v3.ir.json");
  const ir = JSON.parse(readFileSync(await file.path(), "utf8"));
  expect(ir.metadata.version).toBe(3);
  expect(ir.nodes.length).toBe(JSON.parse(readFileSync(approvalFile, "utf8")).nodes.length);
});

step("the list shows each workflow's state; rename, move to a new project and delete", async () => {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workflows" }).click();
  await expect(heading("Workflows and functions")).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: "Approval" });
  await expect(row.getByText("v3")).toBeVisible();
  await expect(row.getByText("deployed")).toBeVisible();
  await expect(row.getByText("terminated")).toBeVisible();

  // a second one, from a template
  await page.getByRole("button", { name: "New workflow" }).click();
  let dialog = page.getByRole("dialog", { name: "New workflow" });
  await dialog.getByLabel("Name").fill("Greeter");
  await dialog.getByLabel("A template").check();
  await dialog.getByLabel("Template", { exact: true }).selectOption({ label: "Hello world" });
  await dialog.getByRole("button", { name: "Create" }).click();
  await page.waitForURL(/\/workflows\/wf_/);
  await expect(page.getByText("Version 1", { exact: true })).toBeVisible();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workflows" }).click();
  await page.getByRole("searchbox", { name: "Search" }).fill("greet");
  await expect(page.getByRole("link", { name: "Greeter", exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Approval", exact: true })).toHaveCount(0);
  await page.getByRole("searchbox", { name: "Search" }).fill("");
  await checkA11y(page, "workflows");
  await screenshot(page, "workflows");

  await page.getByRole("button", { name: "Rename Approval" }).click();
  dialog = page.getByRole("dialog", { name: "Rename Approval" });
  await dialog.getByLabel("Name").fill("Purchase approval");
  await dialog.getByRole("button", { name: "Rename" }).click();
  await expect(page.getByRole("link", { name: "Purchase approval", exact: true })).toBeVisible();

  // a new project becomes the active one; the switcher goes back
  await page.getByRole("button", { name: "New project" }).click();
  dialog = page.getByRole("dialog", { name: "New project" });
  await dialog.getByLabel("Name").fill("Staging");
  await dialog.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByText("This project has no workflows yet.")).toBeVisible();
  await expect(page.getByLabel("Project")).not.toHaveValue("");
  await page.getByLabel("Project").selectOption({ label: "Default" });
  await expect(page.getByRole("link", { name: "Greeter", exact: true })).toBeVisible();

  await page.getByRole("button", { name: "Move Greeter" }).click();
  dialog = page.getByRole("dialog", { name: "Move Greeter" });
  await dialog.getByLabel("Target project").selectOption({ label: "Staging" });
  await checkA11y(page, "move dialog");
  await dialog.getByRole("button", { name: "Move" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("link", { name: "Greeter", exact: true })).toHaveCount(0);

  await page.getByRole("button", { name: "Delete Purchase approval" }).click();
  dialog = page.getByRole("dialog", { name: "Delete Purchase approval?" });
  await dialog.getByRole("button", { name: "Delete workflow" }).click();
  await expect(page.getByText("This project has no workflows yet.")).toBeVisible({ timeout: 60_000 });

  await page.getByLabel("Project").selectOption({ label: "Staging" });
  await expect(page.getByRole("link", { name: "Greeter", exact: true })).toBeVisible();
});

step("sign out; a deep link asks to sign in and comes back to it, and survives a reload", async () => {
  const greeter = await page.getByRole("link", { name: "Greeter", exact: true }).getAttribute("href");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(heading("Sign in")).toBeVisible();
  await page.goto(`${greeter}/versions`);
  await expect(heading("Sign in")).toBeVisible();
  expect(new URL(page.url()).searchParams.get("next")).toBe(`${greeter}/versions`);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // a new session starts in the organization's first project; the link's workflow is in another one, which Studio
  // finds and offers to switch to
  studio.allow(page, { method: "GET", path: /^\/api\/workflows\/wf_[^/]+(\/versions)?$/, status: 404 });
  await expect(heading("Workflow not found")).toBeVisible();
  await checkA11y(page, "workflow in another project");
  await page.getByRole("button", { name: "Switch to Staging" }).click();
  await expect(heading("Versions of Greeter")).toBeVisible();
  expect(new URL(page.url()).pathname).toBe(`${greeter}/versions`);
  await page.reload();
  await expect(heading("Versions of Greeter")).toBeVisible();
  await expect(page.getByRole("cell", { name: /^v1/ })).toBeVisible();
});

step(
  "a function from a template deploys; its Invoke panel calls it and shows the answer, and gives a command that calls it",
  async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workflows" }).click();
    await page.getByRole("button", { name: "New workflow" }).click();
    const dialog = page.getByRole("dialog", { name: "New workflow" });
    await dialog.getByLabel("Name").fill("Quote");
    await dialog.getByLabel("Function").check();
    await dialog.getByLabel("A template").check();
    await dialog.getByLabel("Template", { exact: true }).selectOption({ label: "Quote" });
    await dialog.getByRole("button", { name: "Create" }).click();
    await page.waitForURL(/\/workflows\/wf_[^/]+$/);
    await expect(page.getByText("Version 1", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Deploy", exact: true }).click();
    await page.getByRole("button", { name: "Deploy version 1" }).click();
    await expect(page.getByRole("list", { name: "Deploy stages" }).getByText("COMPLETED")).toBeVisible({
      timeout: 120_000,
    });
    await page.getByRole("button", { name: "Invoke", exact: true }).click();
    const panel = page.getByRole("region", { name: "Invoke" });
    const body = '{ "items": [ { "name": "book", "price": 20 } ], "taxRate": 0.5 }';

    // A body that is not JSON is shown at its field and not sent.
    await panel.getByLabel("Body (JSON)").fill("{ items: ");
    await expect(panel.getByText(/^Not JSON/)).toBeVisible();

    // Invoke through edgeflow: the answer shows its status, duration, headers and pretty JSON body.
    await panel.getByLabel("Body (JSON)").fill(body);
    await panel.getByLabel("Method").selectOption("POST");
    await panel.getByLabel("Path").fill("/");
    await panel.getByRole("button", { name: "Invoke", exact: true }).click();
    const answerRegion = panel.getByRole("region", { name: "Answer" });
    await expect(answerRegion.getByText("Status 200")).toBeVisible({ timeout: 30_000 });
    await expect(answerRegion.getByText(/in \d+ ms/)).toBeVisible();
    await expect(answerRegion.getByText("content-type")).toBeVisible();
    const shown = await answerRegion.getByLabel("Answer body").textContent();
    expect(JSON.parse(shown).total).toBe(30);
    expect(shown, "the JSON answer is shown indented").toMatch(/\n {2}"total": 30/);

    // A path the API refuses is shown at its field before anything is sent.
    await panel.getByLabel("Path").fill("orders");
    await panel.getByRole("button", { name: "Invoke", exact: true }).click();
    await expect(panel.getByText("Start the path with /.")).toBeVisible();
    await panel.getByLabel("Path").fill("/");
    await expect(panel.getByText("Start the path with /.")).toHaveCount(0);

    // The command of "Call it from elsewhere" calls the function's URL directly.
    await panel.getByText("Call it from elsewhere").click();
    const command = await panel.getByLabel("Command").inputValue();
    const url = command.split(" ").at(-1).replace(/^'|'$/g, "");
    expect(command).toMatch(
      /^curl -s -X POST -H 'Content-Type: application\/json' -d '\{"items":\[\{"name":"book","price":20\}\],"taxRate":0.5\}' 'http/,
    );
    const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body });
    expect(res.status).toBe(200);
    const answer = await res.json();
    expect(answer.total).toBe(30);
    await checkA11y(page, "invoke");
    await screenshot(page, "invoke");
  },
);
