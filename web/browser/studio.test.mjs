// Studio's screens as a user meets them: sign up, import a workflow from an IR file, save versions (one refused by
// the server, then fixed), compare and revert versions, deploy to the local edge watching the stages, run it with
// params, send the event it waits for and see it complete; export; rename, move and delete; sign out and in again
// through a deep link. Every screen is checked with axe and the test fails on console errors and failed requests.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { after, before } from "node:test";
import { checkA11y, repoDir, scenario, screenshot, startStudio } from "./harness.mjs";

const approvalFile = path.join(repoDir, "examples", "approval.json");
const approvalParams = readFileSync(path.join(repoDir, "examples", "approval.params.json"), "utf8");

let studio;
let page;
const user = { name: "Ada Lovelace", email: `ada-${process.pid}@example.com`, password: "analytical engine 1843" };
let workflowURL = "";

before(async () => {
  studio = await startStudio();
  if (studio.skip) return;
  page = await studio.newPage(await studio.newContext({ acceptDownloads: true, viewport: { width: 1360, height: 860 } }));
});
after(async () => {
  await studio?.close();
});

const step = scenario("studio", () => ({ studio, pages: [page] }));

const heading = (name) => page.getByRole("heading", { name, exact: true });

step("a signed-out visit lands on sign-in; signing up lands on the workflow list", async () => {
  await page.goto("/");
  await heading("Sign in").waitFor();
  assert.equal(new URL(page.url()).pathname, "/sign-in");
  await checkA11y(page, "sign-in");
  await screenshot(page, "sign-in");

  // a refused sign-in shows the server's message next to the form
  studio.allow(page, { method: "POST", path: "/api/auth/sign-in", status: 401 });
  await page.getByLabel("Email").fill("nobody@example.com");
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("alert").filter({ hasText: /email or password/i }).waitFor();

  await page.getByRole("link", { name: "Create an account" }).click();
  await heading("Create your account").waitFor();
  // the form's own checks name each field
  await page.getByRole("button", { name: "Sign up" }).click();
  await page.getByText("Enter your name.").waitFor();
  await page.getByLabel("Name").fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await checkA11y(page, "sign-up");
  await screenshot(page, "sign-up");
  await page.getByRole("button", { name: "Sign up" }).click();
  await heading("Workflows and functions").waitFor();
  assert.equal(new URL(page.url()).pathname, "/");
  await page.getByText("This project has no workflows yet.").waitFor();
  await checkA11y(page, "workflows (empty)");
});

step("New workflow imports an IR file, stores it as version 1 and opens the editor", async () => {
  await page.getByRole("button", { name: "New workflow" }).click();
  const dialog = page.getByRole("dialog", { name: "New workflow" });
  await dialog.getByLabel("Name").fill("Approval");
  await dialog.getByLabel("An IR file").check();
  await dialog.getByLabel("IR file", { exact: true }).setInputFiles(approvalFile);
  await dialog.getByText(/approval\.json: \d+ nodes/).waitFor();
  await checkA11y(page, "new workflow dialog");
  await screenshot(page, "new-workflow");
  await dialog.getByRole("button", { name: "Create" }).click();
  await page.waitForURL(/\/workflows\/wf_[^/]+$/);
  workflowURL = new URL(page.url()).pathname;
  await heading("Approval").waitFor();
  await page.getByText("Version 1", { exact: true }).waitFor();
  await checkA11y(page, "editor");
  await screenshot(page, "editor-page");
});

step("Save version shows the server's validation errors, then saves the fixed IR", async () => {
  await page.getByRole("group", { name: "Side panel" }).getByRole("button", { name: "Settings", exact: true }).click();
  await page.getByLabel("Trigger", { exact: true }).selectOption("cron");
  await page.getByLabel("Cron expression").fill("every monday");
  await page.getByText("unsaved changes").waitFor();
  studio.allow(page, { method: "POST", path: /\/api\/workflows\/[^/]+\/versions$/, status: 400 });
  studio.allow(page, { method: "POST", path: /\/api\/workflows\/[^/]+\/versions$/, status: 422 });
  await page.getByRole("button", { name: "Save version" }).click();
  const refused = page.getByRole("alert").filter({ hasText: "The version was not saved" });
  await refused.waitFor();
  assert.match(await refused.innerText(), /\/trigger\/expression/);
  await checkA11y(page, "editor with errors");
  await screenshot(page, "editor-errors");
  await page.getByLabel("Cron expression").fill("0 9 * * MON");
  await page.getByRole("button", { name: "Save version" }).click();
  await page.getByText("Saved as version 2.").waitFor();
  await page.getByText("Version 2", { exact: true }).waitFor();
  await checkA11y(page, "settings panel");
  await screenshot(page, "settings");
});

step("the versions page compares two versions, refuses deleting a locked one, and reverts", async () => {
  await page.getByRole("link", { name: "Versions" }).click();
  await heading("Versions of Approval").waitFor();
  await page.getByRole("cell", { name: /^v2/ }).waitFor();
  const diff = page.getByRole("region", { name: "Differences of the IR" });
  await diff.waitFor();
  assert.match(await diff.innerText(), /"expression": "0 9 \* \* MON"/);
  assert.ok((await page.locator(".diff td.ins").count()) > 0, "the added lines are highlighted");
  await page.getByRole("button", { name: "Generated code" }).click();
  await page.getByRole("region", { name: "Differences of the generated code" }).waitFor();
  await checkA11y(page, "versions");
  await screenshot(page, "versions");

  await page.getByRole("button", { name: "Lock version 1" }).click();
  await page.getByRole("button", { name: "Unlock version 1" }).waitFor();
  studio.allow(page, { method: "DELETE", path: /\/versions\/ver_/, status: 409 });
  await page.getByRole("button", { name: "Delete version 1" }).click();
  const confirm = page.getByRole("dialog", { name: "Delete version 1?" });
  await confirm.getByRole("button", { name: "Delete version" }).click();
  await confirm.getByRole("alert").filter({ hasText: /locked/i }).waitFor();
  await checkA11y(page, "refused version delete");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await page.getByRole("button", { name: "Unlock version 1" }).click();
  await page.getByRole("button", { name: "Lock version 1" }).waitFor();

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export version 1" }).click();
  const file = await download;
  assert.equal(file.suggestedFilename(), "approval.v1.ir.json");
  const exported = JSON.parse(readFileSync(await file.path(), "utf8"));
  assert.equal(exported.entryNodeId, "request");
  assert.equal(exported.trigger, undefined);

  await page.getByRole("button", { name: "Revert to version 1" }).click();
  await page.getByText("Reverted: version 3 holds the chosen version's IR.").waitFor();
  await page.getByRole("cell", { name: /^v3/ }).waitFor();
});

step("Deploy creates a local connection in one click and shows each stage as it happens", async () => {
  await page.getByRole("link", { name: "Open editor" }).click();
  await heading("Approval").waitFor();
  await page.getByText("Version 3", { exact: true }).waitFor();
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
  await page.getByRole("button", { name: "Create local connection" }).click();
  await page.getByLabel("Connection").waitFor();
  await page.getByRole("button", { name: "Deploy version 3" }).click();
  const stages = page.getByRole("list", { name: "Deploy stages" });
  await stages.getByText("INITIALIZING").waitFor();
  await stages.getByText("COMPLETED").waitFor({ timeout: 120_000 });
  assert.ok((await stages.getByRole("listitem").count()) >= 3, "several stages were shown");
  await page.getByText(/Deployed to/).waitFor();
  await checkA11y(page, "deploy");
  await screenshot(page, "deploy");
});

step("Run starts a run with params; the run page updates live, takes the event and completes", async () => {
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await page.getByLabel("Params (JSON)").fill("{ not json");
  await page.getByRole("button", { name: "Start run" }).click();
  await page.getByText(/Not valid JSON/).waitFor();
  await page.getByLabel("Params (JSON)").fill(approvalParams);
  await page.getByRole("button", { name: "Start run" }).click();
  await page.waitForURL(/\/workflows\/wf_[^/]+\/runs\/[^/]+$/);
  await page.getByText("paused · waiting").first().waitFor({ timeout: 60_000 });
  await page.getByRole("heading", { name: "Send event" }).waitFor();
  await checkA11y(page, "waiting run");
  await screenshot(page, "run-waiting");
  // the event type the run's version waits for is filled in
  await page.waitForFunction(() => document.getElementById("event-type")?.value === "approval");
  await page.getByLabel("Event type").fill("approval");
  await page.getByLabel("Payload (JSON)").fill('{ "approved": true, "by": "Grace", "comment": "fine" }');
  await page.getByRole("button", { name: "Send event" }).click();
  await page.getByRole("status").filter({ hasText: "complete" }).first().waitFor({ timeout: 60_000 });
  const output = page.getByLabel("Output", { exact: true });
  assert.match(await output.innerText(), /"decision": "approved"/);
  await page.getByText("Wait for the answer").first().waitFor();
  await checkA11y(page, "run");
  await screenshot(page, "run");
  // the deep link of the run survives a reload
  await page.reload();
  await page.getByLabel("Output", { exact: true }).waitFor();

  // a second run, terminated while it waits
  await page.getByRole("link", { name: "Approval", exact: true }).click();
  await page.getByRole("button", { name: "Run", exact: true }).click();
  await page.getByLabel("Params (JSON)").fill(approvalParams);
  await page.getByRole("button", { name: "Start run" }).click();
  await page.waitForURL(/\/runs\/[^/]+$/);
  await page.getByRole("heading", { name: "Send event" }).waitFor({ timeout: 60_000 });
  await page.getByRole("button", { name: "Terminate" }).click();
  const confirmTerminate = page.getByRole("dialog", { name: "Terminate this run?" });
  await checkA11y(page, "terminate confirmation");
  await confirmTerminate.getByRole("button", { name: "Terminate run" }).click();
  await page.getByRole("status").filter({ hasText: "terminated" }).first().waitFor({ timeout: 60_000 });
  assert.equal(await page.getByRole("button", { name: "Terminate" }).count(), 0);
});

step("Export downloads the editor's IR; leaving with unsaved changes asks first", async () => {
  await page.goto(workflowURL);
  await heading("Approval").waitFor();
  await page.getByRole("group", { name: "Side panel" }).getByRole("button", { name: "Settings", exact: true }).click();
  await page.getByLabel("Trigger", { exact: true }).selectOption("cron");
  await page.getByText("unsaved changes").waitFor();
  const questions = [];
  page.once("dialog", (d) => {
    questions.push(d.message());
    void d.dismiss();
  });
  await page.getByRole("link", { name: "Versions", exact: true }).click();
  assert.match(questions[0] ?? "", /unsaved changes/);
  assert.equal(new URL(page.url()).pathname, workflowURL, "staying on the page");
  await page.getByLabel("Trigger", { exact: true }).selectOption("manual");
  await page.getByText("unsaved changes").waitFor({ state: "detached" });
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export" }).click();
  const file = await download;
  assert.equal(file.suggestedFilename(), "approval.v3.ir.json");
  const ir = JSON.parse(readFileSync(await file.path(), "utf8"));
  assert.equal(ir.metadata.version, 3);
  assert.equal(ir.nodes.length, JSON.parse(readFileSync(approvalFile, "utf8")).nodes.length);
});

step("the list shows each workflow's state; rename, move to a new project and delete", async () => {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workflows" }).click();
  await heading("Workflows and functions").waitFor();
  const row = page.getByRole("row").filter({ hasText: "Approval" });
  await row.getByText("v3").waitFor();
  await row.getByText("deployed").waitFor();
  await row.getByText("terminated").waitFor();

  // a second one, from a template
  await page.getByRole("button", { name: "New workflow" }).click();
  let dialog = page.getByRole("dialog", { name: "New workflow" });
  await dialog.getByLabel("Name").fill("Greeter");
  await dialog.getByLabel("A template").check();
  await dialog.getByLabel("Template", { exact: true }).selectOption({ label: "Hello world" });
  await dialog.getByRole("button", { name: "Create" }).click();
  await page.waitForURL(/\/workflows\/wf_/);
  await page.getByText("Version 1", { exact: true }).waitFor();
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workflows" }).click();
  await page.getByRole("searchbox", { name: "Search" }).fill("greet");
  await page.getByRole("link", { name: "Greeter", exact: true }).waitFor();
  assert.equal(await page.getByRole("link", { name: "Approval", exact: true }).count(), 0);
  await page.getByRole("searchbox", { name: "Search" }).fill("");
  await checkA11y(page, "workflows");
  await screenshot(page, "workflows");

  await page.getByRole("button", { name: "Rename Approval" }).click();
  dialog = page.getByRole("dialog", { name: "Rename Approval" });
  await dialog.getByLabel("Name").fill("Purchase approval");
  await dialog.getByRole("button", { name: "Rename" }).click();
  await page.getByRole("link", { name: "Purchase approval", exact: true }).waitFor();

  // a new project becomes the active one; the switcher goes back
  await page.getByRole("button", { name: "New project" }).click();
  dialog = page.getByRole("dialog", { name: "New project" });
  await dialog.getByLabel("Name").fill("Staging");
  await dialog.getByRole("button", { name: "Create project" }).click();
  await page.getByText("This project has no workflows yet.").waitFor();
  assert.equal(await page.getByLabel("Project").inputValue() !== "", true);
  await page.getByLabel("Project").selectOption({ label: "Default" });
  await page.getByRole("link", { name: "Greeter", exact: true }).waitFor();

  await page.getByRole("button", { name: "Move Greeter" }).click();
  dialog = page.getByRole("dialog", { name: "Move Greeter" });
  await dialog.getByLabel("Target project").selectOption({ label: "Staging" });
  await checkA11y(page, "move dialog");
  await dialog.getByRole("button", { name: "Move" }).click();
  await dialog.waitFor({ state: "detached" });
  await page.getByRole("link", { name: "Greeter", exact: true }).waitFor({ state: "detached" });

  await page.getByRole("button", { name: "Delete Purchase approval" }).click();
  dialog = page.getByRole("dialog", { name: "Delete Purchase approval?" });
  await dialog.getByRole("button", { name: "Delete workflow" }).click();
  await page.getByText("This project has no workflows yet.").waitFor({ timeout: 60_000 });

  await page.getByLabel("Project").selectOption({ label: "Staging" });
  await page.getByRole("link", { name: "Greeter", exact: true }).waitFor();
});

step("sign out; a deep link asks to sign in and comes back to it, and survives a reload", async () => {
  const greeter = await page.getByRole("link", { name: "Greeter", exact: true }).getAttribute("href");
  await page.getByRole("button", { name: "Sign out" }).click();
  await heading("Sign in").waitFor();
  await page.goto(`${greeter}/versions`);
  await heading("Sign in").waitFor();
  assert.equal(new URL(page.url()).searchParams.get("next"), `${greeter}/versions`);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  // a new session starts in the organization's first project; the link's workflow is in another one, which Studio
  // finds and offers to switch to
  studio.allow(page, { method: "GET", path: /^\/api\/workflows\/wf_[^/]+(\/versions)?$/, status: 404 });
  await heading("Workflow not found").waitFor();
  await checkA11y(page, "workflow in another project");
  await page.getByRole("button", { name: "Switch to Staging" }).click();
  await heading("Versions of Greeter").waitFor();
  assert.equal(new URL(page.url()).pathname, `${greeter}/versions`);
  await page.reload();
  await heading("Versions of Greeter").waitFor();
  await page.getByRole("cell", { name: /^v1/ }).waitFor();
});

step("a function from a template deploys; its Invoke panel calls it and shows the answer, and gives a command that calls it", async () => {
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workflows" }).click();
  await page.getByRole("button", { name: "New workflow" }).click();
  const dialog = page.getByRole("dialog", { name: "New workflow" });
  await dialog.getByLabel("Name").fill("Quote");
  await dialog.getByLabel("Function").check();
  await dialog.getByLabel("A template").check();
  await dialog.getByLabel("Template", { exact: true }).selectOption({ label: "Quote" });
  await dialog.getByRole("button", { name: "Create" }).click();
  await page.waitForURL(/\/workflows\/wf_[^/]+$/);
  await page.getByText("Version 1", { exact: true }).waitFor();
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
  await page.getByRole("button", { name: "Deploy version 1" }).click();
  await page.getByRole("list", { name: "Deploy stages" }).getByText("COMPLETED").waitFor({ timeout: 120_000 });
  await page.getByRole("button", { name: "Invoke", exact: true }).click();
  const panel = page.getByRole("region", { name: "Invoke" });
  const body = '{ "items": [ { "name": "book", "price": 20 } ], "taxRate": 0.5 }';

  // A body that is not JSON is shown at its field and not sent.
  await panel.getByLabel("Body (JSON)").fill("{ items: ");
  await panel.getByText(/^Not JSON/).waitFor();

  // Invoke through edgeflow: the answer shows its status, duration, headers and pretty JSON body.
  await panel.getByLabel("Body (JSON)").fill(body);
  await panel.getByLabel("Method").selectOption("POST");
  await panel.getByLabel("Path").fill("/");
  await panel.getByRole("button", { name: "Invoke", exact: true }).click();
  const answerRegion = panel.getByRole("region", { name: "Answer" });
  await answerRegion.getByText("Status 200").waitFor({ timeout: 30_000 });
  await answerRegion.getByText(/in \d+ ms/).waitFor();
  await answerRegion.getByText("content-type").waitFor();
  const shown = await answerRegion.getByLabel("Answer body").textContent();
  assert.equal(JSON.parse(shown).total, 30);
  assert.match(shown, /\n  "total": 30/, "the JSON answer is shown indented");

  // A path the API refuses is shown at its field before anything is sent.
  await panel.getByLabel("Path").fill("orders");
  await panel.getByRole("button", { name: "Invoke", exact: true }).click();
  await panel.getByText("Start the path with /.").waitFor();
  await panel.getByLabel("Path").fill("/");
  await panel.getByText("Start the path with /.").waitFor({ state: "detached" });

  // The command of "Call it from elsewhere" calls the function's URL directly.
  await panel.getByText("Call it from elsewhere").click();
  const command = await panel.getByLabel("Command").inputValue();
  const url = command.split(" ").at(-1).replace(/^'|'$/g, "");
  assert.match(command, /^curl -s -X POST -H 'Content-Type: application\/json' -d '\{"items":\[\{"name":"book","price":20\}\],"taxRate":0.5\}' 'http/);
  const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body });
  assert.equal(res.status, 200);
  const answer = await res.json();
  assert.equal(answer.total, 30);
  await checkA11y(page, "invoke");
  await screenshot(page, "invoke");
});
