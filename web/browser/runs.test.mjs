// The run screens on the real local edge: a run fails at a step (its code reads a flag row in D1); the runs list
// finds it by status and by words, and shows its version, params and age; on the run's page the graph shows the
// failed step in red; a restart from a step that did not run is refused in words; with the flag fixed, a restart
// from the failed step chosen on the graph completes, the steps before it replayed (their counters in D1 show they
// did not run again).
import { expect, test } from "@playwright/test";
import { checkA11y, screenshot, useStudio } from "./harness.mjs";

let studio;
useStudio({}, (s) => (studio = s));

/** counted is a step that adds one to its counter row in D1 each time it executes, then runs code. */
function counted(id, code) {
  return {
    id,
    type: "step",
    name: id,
    position: { x: 0, y: 0 },
    version: "1.0.0",
    provider: "cloudflare",
    data: {
      code: `await env.DB.prepare("INSERT INTO counters (step, n) VALUES ('${id}', 1) ON CONFLICT(step) DO UPDATE SET n = n + 1").run();\n${code}`,
    },
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

test("a run that failed at a step restarts from that step, chosen on the graph, and completes", async () => {
  const user = await studio.apiSignUp({ name: "Margaret Hamilton" });
  const conn = await studio.api(user, "POST", "/api/connections", { provider: "local", name: "Local edge" });
  const wf = await studio.api(user, "POST", "/api/workflows", { name: "Invoice sync", kind: "workflow" });
  const ir = chain("Invoice sync", [
    counted("load", "return { x: event.payload.x };"),
    counted("double", "return { y: {{load.x}} * 2 };"),
    counted(
      "check",
      "const row = await env.DB.prepare('SELECT ok FROM flags').first();\nif (!row || row.ok !== 1) throw new Error('the flag is off');\nreturn { z: {{double.y}} + 1 };",
    ),
    counted("done", "return { total: {{check.z}} };"),
  ]);
  await studio.api(user, "POST", `/api/workflows/${wf.id}/versions`, { ir });
  await studio.api(user, "POST", `/api/workflows/${wf.id}/deploy`, { connectionId: conn.id });
  const dbs = await studio.api(user, "GET", `/api/resources/d1/databases?connectionId=${conn.id}`);
  const mark = wf.projectId.replaceAll("_", "-");
  const db = dbs.data.find((d) => d.name.includes(mark));
  expect(db, "the project has a D1 database").toBeTruthy();
  const sql = (q) =>
    studio.api(user, "POST", `/api/resources/d1/databases/${db.id}/query`, { connectionId: conn.id, sql: q });
  await sql(
    "CREATE TABLE counters (step TEXT PRIMARY KEY, n INTEGER); CREATE TABLE flags (ok INTEGER); INSERT INTO flags VALUES (0)",
  );
  const first = await studio.api(user, "POST", `/api/workflows/${wf.id}/trigger`, {
    connectionId: conn.id,
    params: { x: 20, invoice: "INV-4711" },
  });

  const page = await studio.newPage(user.context);
  await page.setViewportSize({ width: 1360, height: 900 });
  await studio.gotoApp(page, "/runs", { networkIdle: false });
  await expect(page.getByRole("heading", { name: "Runs", exact: true })).toBeVisible();
  // the list follows the run until it fails (the stream, or polling)
  const row = page.getByRole("row").filter({ hasText: first.id });
  await expect(row.getByText("errored")).toBeVisible({ timeout: 90_000 });
  // find it by status and words
  await page.getByLabel("Status").selectOption("errored");
  await page.getByLabel("Search").fill("INV-4711");
  await page.getByRole("button", { name: "Find runs" }).click();
  await page.waitForURL(/\/runs\?status=errored&q=INV-4711$/);
  await expect(row).toBeVisible();
  await expect(page.getByRole("row"), "the header and the one run").toHaveCount(2);
  // the row's details: the version's number, a preview of the params, how long ago it was created
  await expect(row.getByRole("cell", { name: "v1", exact: true })).toBeVisible();
  await expect(row.getByText('{"x":20,"invoice":"INV-4711"}')).toBeVisible();
  await expect(row.locator("time")).toHaveText(/just now|seconds? ago|minutes? ago/);
  await checkA11y(page, "runs list");
  await screenshot(page, "runs");

  await row.getByRole("link", { name: first.id }).click();
  await page.waitForURL(new RegExp(`/workflows/${wf.id}/runs/${first.id}$`));
  await expect(page.getByRole("status").filter({ hasText: "errored" }).first()).toBeVisible();
  const graph = page.locator(".run-graph");
  // a node's text starts with its type's glyph, then its label
  const node = (name) => graph.locator(".react-flow__node").filter({ hasText: new RegExp(`^\\W*${name}`) });
  await expect(node("check").and(page.locator(".run-node-failed"))).toBeVisible();
  await expect(node("load").and(page.locator(".run-node-done"))).toBeVisible();
  await expect(node("done").and(page.locator(".run-node-not-run"))).toBeVisible();
  await expect(page.getByText("the flag is off").first()).toBeVisible();

  // a restart from a step after the failed one is refused, in words, and starts nothing
  const restarts = new RegExp(`/api/workflows/${wf.id}/runs/${first.id}/restart$`);
  studio.allow(page, { method: "POST", path: restarts, status: 409 });
  await node("done").click();
  await page.getByRole("button", { name: "Restart from done" }).click();
  const refusal = page.getByRole("alert").filter({ hasText: "Not restarted" });
  await expect(refusal).toBeVisible();
  await expect(refusal).toHaveText(/did not complete/, { useInnerText: true });

  // fixed: restart from the failed step, chosen on the graph
  await sql("UPDATE flags SET ok = 1");
  await node("check").click();
  await expect(page.getByLabel("Restart from")).toHaveValue("check");
  await checkA11y(page, "failed run");
  await screenshot(page, "run-failed", { fullPage: true });
  await page.getByRole("button", { name: "Restart from check" }).click();
  await page.waitForURL((u) => /\/workflows\/[^/]+\/runs\/[^/]+$/.test(u.pathname) && !u.pathname.endsWith(first.id));
  await expect(page.getByRole("status").filter({ hasText: "complete" }).first()).toBeVisible({ timeout: 90_000 });
  await expect(page.getByText(`Restarted from run ${first.id}`)).toBeVisible();
  const steps = page.getByRole("list", { name: "Steps, in execution order" });
  await expect(steps).toHaveText(
    /replayed\s+load[\s\S]*replayed\s+double[\s\S]*complete\s+check[\s\S]*complete\s+done/,
    { useInnerText: true },
  );
  await expect(node("load").and(page.locator(".run-node-replayed"))).toBeVisible();
  await expect(node("done").and(page.locator(".run-node-done"))).toBeVisible();
  await expect(page.getByLabel("Output", { exact: true })).toHaveText(/"total": 41/, { useInnerText: true });
  const counters = await sql("SELECT step, n FROM counters ORDER BY step");
  expect(Object.fromEntries(counters.rows), "load and double did not run again").toEqual({
    check: 2,
    done: 1,
    double: 1,
    load: 1,
  });
  await checkA11y(page, "restarted run");
  await screenshot(page, "run-restarted", { fullPage: true });

  // delete the workflow keeping its runs: they stay under Runs with its name, and their pages still open
  await page.getByRole("link", { name: "Workflows", exact: true }).click();
  await page.getByRole("button", { name: "Delete Invoice sync" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete Invoice sync?" });
  await dialog.getByLabel(/Keep the runs/).check();
  await checkA11y(page, "delete dialog");
  await dialog.getByRole("button", { name: "Delete workflow" }).click();
  await expect(dialog).toHaveCount(0);
  await page.getByRole("link", { name: "Runs", exact: true }).click();
  const kept = page.getByRole("row").filter({ hasText: first.id });
  await expect(kept.getByText("Invoice sync (deleted)")).toBeVisible();
  await expect(page.getByRole("row"), "the header and both runs").toHaveCount(3);
  await kept.getByRole("link", { name: first.id }).click();
  await expect(page.getByText("The workflow Invoice sync was deleted")).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "errored" }).first()).toBeVisible();
  await expect(page.getByRole("button", { name: /^Restart/ }), "a kept run is not restarted").toHaveCount(0);
  await checkA11y(page, "kept run");
  studio.assertClean(page);
});
