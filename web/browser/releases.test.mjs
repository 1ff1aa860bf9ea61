// The Releases view on the real local edge (docs/environments.md): staging and production on two local connections;
// v1 deployed to staging is promoted to production from the view, which shows the variables the environments do not
// share; v2 deployed to staging shows in its column while production keeps v1; a rollback of staging returns v1.
import { expect, test } from "@playwright/test";
import { checkA11y, screenshot, useStudio } from "./harness.mjs";

let studio;
useStudio({}, (s) => (studio = s));

function release(version) {
  return {
    metadata: { name: "Payouts", version: 1, createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z" },
    nodes: [
      {
        id: "pay",
        type: "step",
        name: "pay",
        position: { x: 40, y: 80 },
        version: "1.0.0",
        provider: "cloudflare",
        data: { code: `return { version: ${version} };` },
      },
    ],
    edges: [],
    entryNodeId: "pay",
  };
}

test("a version goes from staging to production in the Releases view, and staging rolls back", async () => {
  const user = await studio.apiSignUp({ name: "Grace Hopper" });
  const prod = await studio.api(user, "POST", "/api/connections", { provider: "local", name: "Production edge" });
  const stg = await studio.api(user, "POST", "/api/connections", { provider: "local", name: "Staging edge" });
  const wf = await studio.api(user, "POST", "/api/workflows", { name: "Payouts", kind: "workflow" });
  const envs = `/api/projects/${wf.projectId}/environments`;
  await studio.api(user, "POST", envs, { name: "staging", connectionId: stg.id });
  await studio.api(user, "PATCH", `${envs}/production`, { connectionId: prod.id, protected: true });
  await studio.api(user, "POST", "/api/env-vars", {
    name: "SLACK_CHANNEL",
    isSecret: false,
    scope: "project",
    values: { production: "#payouts" },
  });
  await studio.api(user, "POST", `/api/workflows/${wf.id}/versions`, { ir: release(1) });
  await studio.api(user, "POST", `/api/workflows/${wf.id}/deploy`, { environment: "staging" });

  const page = await studio.newPage(user.context);
  await page.setViewportSize({ width: 1280, height: 800 });
  await studio.gotoApp(page, `/workflows/${wf.id}/releases`);
  await expect(page.getByRole("heading", { name: "Releases of Payouts" })).toBeVisible();
  const staging = page.getByRole("region", { name: "staging" });
  const production = page.getByRole("region", { name: /^production/ });
  await expect(staging.getByLabel("Active in staging")).toHaveText(/v1 active/);
  await expect(production.getByLabel("Active in production")).toHaveText("Not deployed.");
  await expect(production.getByText("protected")).toBeVisible();

  await production.getByLabel("Promote to production from").selectOption("staging");
  await production.getByRole("button", { name: "Promote to production" }).click();
  const done = production.getByRole("status").filter({ hasText: "Promoted the version active in staging" });
  await expect(done).toBeVisible({ timeout: 60_000 });
  await expect(done).toHaveText(/only here: SLACK_CHANNEL/);
  await expect(production.getByLabel("Active in production")).toHaveText(/v1 active/);

  await studio.api(user, "POST", `/api/workflows/${wf.id}/versions`, { ir: release(2) });
  await studio.api(user, "POST", `/api/workflows/${wf.id}/deploy`, { environment: "staging" });
  await page.reload();
  await expect(staging.getByLabel("Active in staging")).toHaveText(/v2 active/);
  await expect(production.getByLabel("Active in production")).toHaveText(/v1 active/);
  await checkA11y(page, "releases");
  await screenshot(page, "releases");

  await staging.getByRole("button", { name: "Roll back staging" }).click();
  await expect(staging.getByRole("status").filter({ hasText: "Rolled staging back" })).toBeVisible({ timeout: 60_000 });
  await expect(staging.getByLabel("Active in staging")).toHaveText(/v1 active/);
  await expect(production.getByLabel("Active in production")).toHaveText(/v1 active/);
  studio.assertClean(page);
});
