// The editor's deploy dialog on the real local edge (docs/studio.md, "The editor page"; docs/releases.md): a run of
// v1 deployed to staging waits for an event; v2 renames the step before the wait. The dialog, deploying to the
// staging environment, shows the plan (the run in flight, the renamed step, not compatible and why) and the in-flight
// choice; migrate asks to migrate anyway; the default (pin) deploys v2 while the run stays on v1; a drain waits for
// that run and is cancelled, deploying nothing.
import { expect, test } from "@playwright/test";
import { checkA11y, screenshot, useStudio } from "./harness.mjs";

let studio;
useStudio({}, (s) => (studio = s));

function node(id, type, name, data) {
  return { id, type, name, position: { x: 40, y: 80 }, version: "1.0.0", provider: "cloudflare", data };
}

// release is a step named first, a wait for the "approval" event and a step answering the version.
function release(first, version) {
  const nodes = [
    node("prepare", "step", first, { code: "return { ready: true };" }),
    node("approval", "wait_for_event", "approval", { eventType: "approval", timeout: "1 hour" }),
    node("finish", "step", "finish", { code: `return { version: ${version} };` }),
  ];
  return {
    metadata: { name: "Orders", version: 1, createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z" },
    nodes,
    edges: [
      { id: "e1", source: "prepare", target: "approval" },
      { id: "e2", source: "approval", target: "finish" },
    ],
    entryNodeId: "prepare",
  };
}

test("the deploy dialog shows the plan and the in-flight choice before deploying to an environment", async () => {
  const user = await studio.apiSignUp({ name: "Ada Lovelace" });
  const stg = await studio.api(user, "POST", "/api/connections", { provider: "local", name: "Staging edge" });
  const wf = await studio.api(user, "POST", "/api/workflows", { name: "Orders", kind: "workflow" });
  await studio.api(user, "POST", `/api/projects/${wf.projectId}/environments`, {
    name: "staging",
    connectionId: stg.id,
  });
  await studio.api(user, "POST", `/api/workflows/${wf.id}/versions`, { ir: release("prepare", 1) });
  await studio.api(user, "POST", `/api/workflows/${wf.id}/deploy`, { environment: "staging" });
  const run = await studio.api(user, "POST", `/api/workflows/${wf.id}/trigger`, { environment: "staging", params: {} });
  await expect
    .poll(
      async () => {
        const r = await studio.api(user, "GET", `/api/workflows/${wf.id}/runs/${run.id}`);
        return `${r.status}/${r.statusDetail ?? ""}`;
      },
      { timeout: 60_000, message: "the v1 run waits for its event" },
    )
    .toBe("paused/waiting");
  await studio.api(user, "POST", `/api/workflows/${wf.id}/versions`, { ir: release("prepare the order", 2) });

  const page = await studio.newPage(user.context);
  await page.setViewportSize({ width: 1280, height: 800 });
  await studio.gotoApp(page, `/workflows/${wf.id}`);
  await expect(page.getByText("Version 2", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Deploy", exact: true }).click();
  const panel = page.getByRole("region", { name: "Deploy", exact: true });
  await panel.getByLabel("Environment").selectOption("staging");
  await expect(panel.getByText("Connection: Staging edge")).toBeVisible();

  const plan = panel.getByRole("region", { name: "Deploy plan" });
  await expect(plan.getByLabel("Runs in flight")).toHaveText("1 run in flight here: 1 of version 1.");
  await expect(plan.getByText("Step changes from version 1 to version 2:")).toBeVisible();
  await expect(plan.getByRole("list", { name: "Step changes" })).toContainText("prepare the order");
  await expect(plan.getByText(/Not compatible/)).toBeVisible();
  await expect(plan.getByRole("list", { name: "Why not compatible" })).toContainText('"prepare"');

  const choice = panel.getByRole("group", { name: "Runs in flight" });
  await expect(choice.getByRole("radio", { name: /^Pin/ })).toBeChecked();
  await expect(choice.getByText(/The runs in flight \(1\) finish on the version they started on/)).toBeVisible();
  await choice.getByRole("radio", { name: /^Migrate/ }).check();
  await expect(choice.getByRole("checkbox", { name: /Migrate anyway/ })).toBeVisible();
  await checkA11y(page, "deploy plan");
  await screenshot(page, "deploy-plan");

  // The default pins: v2 is deployed beside v1, whose run stays in flight.
  await choice.getByRole("radio", { name: /^Pin/ }).check();
  await expect(choice.getByRole("checkbox")).toHaveCount(0);
  await panel.getByRole("button", { name: "Deploy version 2" }).click();
  await expect(panel.getByRole("list", { name: "Deploy stages" }).getByText("COMPLETED")).toBeVisible({
    timeout: 120_000,
  });
  await expect(plan.getByText("Version 2 is already active here.")).toBeVisible();
  await expect(plan.getByLabel("Runs in flight")).toHaveText("1 run in flight here: 1 of version 1.");
  const deployments = await studio.api(user, "GET", `/api/workflows/${wf.id}/deployments`);
  const states = deployments.data.map((d) => `${d.versionNumber ?? "?"}:${d.state}:${d.environment ?? ""}`).sort();
  expect(states).toEqual(["1:draining:staging", "2:active:staging"]);

  // A drain waits for the run in flight; cancelling it deploys nothing.
  await choice.getByRole("radio", { name: /^Drain/ }).check();
  await panel.getByRole("button", { name: "Deploy version 2" }).click();
  await expect(panel.getByText(/Draining: waiting for 1 runs in flight/)).toBeVisible({ timeout: 60_000 });
  await panel.getByRole("button", { name: "Cancel deploy" }).click();
  await expect(panel.getByRole("status").filter({ hasText: "Cancelled: nothing was deployed." })).toBeVisible();
  const after = await studio.api(user, "GET", `/api/workflows/${wf.id}/deployments`);
  expect(after.data.map((d) => d.id).sort()).toEqual(deployments.data.map((d) => d.id).sort());
  studio.assertClean(page);
});
