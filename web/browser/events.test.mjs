// The Events page (issue 37, item 7), on the real local edge: a run waits for an event of type "approval"; the
// event sent by type from the Events page reaches it, the page lists the event with the run it reached, and the run
// completes with the event's payload.
import { expect, test } from "@playwright/test";
import { checkA11y, screenshot, useStudio } from "./harness.mjs";

let studio;
useStudio({}, (s) => (studio = s));

const node = (id, type, name, data, x) => ({ id, type, name, position: { x, y: 80 }, data });

test("an event sent from the Events page completes the run waiting for it", async () => {
  const user = await studio.apiSignUp();
  const conn = await studio.api(user, "POST", "/api/connections", { provider: "local", name: "Local edge" });
  const wf = await studio.api(user, "POST", "/api/workflows", { name: "Expenses", kind: "workflow" });
  const ir = {
    metadata: { name: "Expenses" },
    nodes: [
      node("claim", "step", "Claim", { code: "return { amount: event.payload.amount };" }, 0),
      node("approval", "wait_for_event", "Approval", { eventType: "approval", timeout: "1 hour" }, 260),
      node("pay", "step", "Pay", { code: "return { paid: {{claim.amount}}, by: {{approval.by}} };" }, 520),
    ],
    edges: [
      { id: "e1", source: "claim", target: "approval" },
      { id: "e2", source: "approval", target: "pay" },
    ],
    entryNodeId: "claim",
  };
  await studio.api(user, "POST", `/api/workflows/${wf.id}/versions`, { ir });
  await studio.api(user, "POST", `/api/workflows/${wf.id}/deploy`, { connectionId: conn.id });
  const run = await studio.api(user, "POST", `/api/workflows/${wf.id}/trigger`, {
    connectionId: conn.id,
    params: { amount: 42 },
  });

  const page = await studio.newPage(user.context);
  await page.setViewportSize({ width: 1440, height: 900 });
  // the run waits for the event before it is sent
  await studio.gotoApp(page, `/workflows/${wf.id}/runs/${run.id}`, { networkIdle: false });
  await expect(page.getByText("paused · waiting").first()).toBeVisible({ timeout: 90_000 });

  await page.getByRole("link", { name: "Events", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Events", exact: true })).toBeVisible();
  await expect(page.getByText("No event has been sent by type in this project yet.")).toBeVisible();
  await page.getByLabel("Event type").fill("approval");
  await page.getByLabel("Workflow").selectOption({ label: "Expenses" });
  await page.getByLabel("Payload (JSON)").fill('{ "by": "Grace" }');
  await page.getByRole("button", { name: "Send event" }).click();
  await expect(page.getByRole("status").filter({ hasText: "“approval” sent to 1 waiting run." })).toBeVisible();
  const recent = page.getByRole("table", { name: "Recent events" });
  await expect(recent.getByRole("link", { name: new RegExp(run.id) })).toBeVisible();
  await expect(recent.getByText("delivered")).toBeVisible();
  await checkA11y(page, "events");
  await screenshot(page, "events");

  // the run it reached completes with the payload
  await recent.getByRole("link", { name: new RegExp(run.id) }).click();
  await expect(page.getByRole("status").filter({ hasText: "complete" }).first()).toBeVisible({ timeout: 90_000 });
  await expect(page.getByLabel("Output", { exact: true })).toContainText('"by": "Grace"');
  studio.assertClean(page);
});
