// Bulk actions on the runs list, on the real local edge: three runs fail at a step (it reads a flag row in D1); runs
// are ticked one by one and by a shift-click range; then all runs matching the "errored" filter are chosen, the
// restart's dry run counts them in the confirm dialog, and with the flag fixed the job's progress reaches done and
// the restarted runs complete.
import { expect, test } from "@playwright/test";
import { checkA11y, screenshot, useStudio } from "./harness.mjs";

let studio;
useStudio({}, (s) => (studio = s));

function step(id, code) {
  return {
    id,
    type: "step",
    name: id,
    position: { x: 0, y: 0 },
    version: "1.0.0",
    provider: "cloudflare",
    data: { code },
    config: { retries: { limit: 0, delay: "1 second", backoff: "constant" } },
  };
}

function chain(name, nodes) {
  nodes.forEach((n, i) => (n.position = { x: 40 + i * 240, y: 80 }));
  return {
    metadata: { name, version: 1, createdAt: "2026-01-01T00:00:00Z", updatedAt: "2026-01-01T00:00:00Z" },
    nodes,
    edges: nodes.slice(1).map((n, i) => ({ id: `e${i + 1}`, source: nodes[i].id, target: n.id })),
    entryNodeId: nodes[0].id,
  };
}

test("failed runs chosen by a filter are restarted in bulk, with the job's progress up to done", async () => {
  const user = await studio.apiSignUp({ name: "Katherine Johnson" });
  const conn = await studio.api(user, "POST", "/api/connections", { provider: "local", name: "Local edge" });
  const wf = await studio.api(user, "POST", "/api/workflows", { name: "Nightly import", kind: "workflow" });
  const ir = chain("Nightly import", [
    step("load", "return { n: event.payload.n };"),
    step(
      "check",
      "const row = await env.DB.prepare('SELECT ok FROM flags').first();\nif (!row || row.ok !== 1) throw new Error('the flag is off');\nreturn { n: {{load.n}} };",
    ),
  ]);
  await studio.api(user, "POST", `/api/workflows/${wf.id}/versions`, { ir });
  await studio.api(user, "POST", `/api/workflows/${wf.id}/deploy`, { connectionId: conn.id });
  const dbs = await studio.api(user, "GET", `/api/resources/d1/databases?connectionId=${conn.id}`);
  const mark = wf.projectId.replaceAll("_", "-");
  const db = dbs.data.find((d) => d.name.includes(mark));
  expect(db, "the project has a D1 database").toBeTruthy();
  const sql = (q) =>
    studio.api(user, "POST", `/api/resources/d1/databases/${db.id}/query`, { connectionId: conn.id, sql: q });
  await sql("CREATE TABLE flags (ok INTEGER); INSERT INTO flags VALUES (0)");
  const ids = [];
  for (const n of [1, 2, 3]) {
    const r = await studio.api(user, "POST", `/api/workflows/${wf.id}/trigger`, {
      connectionId: conn.id,
      params: { n },
    });
    ids.push(r.id);
  }

  const page = await studio.newPage(user.context);
  await page.setViewportSize({ width: 1360, height: 900 });
  await studio.gotoApp(page, "/runs?status=errored", { networkIdle: false });
  await expect(page.getByRole("heading", { name: "Runs", exact: true })).toBeVisible();
  // the list follows the runs until all three have failed
  await expect(page.getByRole("row"), "the header and three failed runs").toHaveCount(4, { timeout: 90_000 });

  // ticked one by one, and a range with shift
  const bar = page.getByRole("region", { name: "Bulk actions" });
  const box = (id) => page.getByRole("checkbox", { name: `Select run ${id}` });
  await box(ids[2]).click();
  await expect(bar.getByText("1 run selected.")).toBeVisible();
  await box(ids[0]).click({ modifiers: ["Shift"] });
  await expect(bar.getByText("3 runs selected.")).toBeVisible();
  for (const id of ids) await expect(box(id)).toBeChecked();
  await bar.getByRole("button", { name: "Clear selection" }).click();
  for (const id of ids) await expect(box(id)).not.toBeChecked();

  // all runs matching the filter; the dry run counts them in the confirm dialog
  await bar.getByRole("button", { name: "Select all matching" }).click();
  await expect(bar.getByText("All runs matching the filters are chosen.")).toBeVisible();
  await expect(bar.getByLabel("Action")).toHaveValue("restart");
  await bar.getByRole("button", { name: "Restart all runs matching the filters…" }).click();
  const dialog = page.getByRole("dialog", { name: "Restart 3 runs?" });
  await expect(dialog).toBeVisible();
  await checkA11y(page, "bulk restart confirm");

  // fixed, then confirmed: the job's progress reaches done
  await sql("UPDATE flags SET ok = 1");
  await dialog.getByRole("button", { name: "Restart 3 runs" }).click();
  await expect(dialog).toBeHidden();
  await expect(bar.getByText("Done: 3 of 3 runs done.")).toBeVisible({ timeout: 90_000 });
  await expect(bar.getByRole("progressbar", { name: "Restart progress" })).toHaveJSProperty("value", 3);
  await checkA11y(page, "bulk restart done");
  await screenshot(page, "runs-bulk");

  // the restarts are new runs of the workflow, and they complete
  await studio.gotoApp(page, "/runs?status=complete", { networkIdle: false });
  await expect(page.getByRole("row"), "the header and three completed restarts").toHaveCount(4, { timeout: 90_000 });
  studio.assertClean(page);
});
