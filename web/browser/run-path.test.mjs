// A run that shows what happened (issue 37, item 5), on the real local edge: a workflow that ends in a branch runs;
// its page says the output is the arm's last step (never the branch's label) and which node it came from, the graph
// colours the branch by its lanes and names the arm taken, and a waterfall lays the steps on one time axis; the Steps
// list and the restart picker list the branch with its state, and a restart from it starts from its arm.
import { expect, test } from "@playwright/test";
import { checkA11y, screenshot, useStudio } from "./harness.mjs";

let studio;
useStudio({}, (s) => (studio = s));

const node = (id, type, name, data, x, y = 80) => ({ id, type, name, position: { x, y }, data });

test("a branch-ended workflow's run shows the last step's output, where it came from and the arm taken", async () => {
  const user = await studio.apiSignUp();
  const conn = await studio.api(user, "POST", "/api/connections", { provider: "local", name: "Local edge" });
  const wf = await studio.api(user, "POST", "/api/workflows", { name: "Grading", kind: "workflow" });
  const ir = {
    metadata: { name: "Grading" },
    nodes: [
      node("score", "step", "Score", { code: "return { value: event.payload.score };" }, 0),
      node(
        "grade",
        "branch",
        "Grade",
        {
          branches: [
            { label: "high", condition: "{{score.value}} >= 50" },
            { label: "low", condition: "" },
          ],
        },
        260,
      ),
      node("praise", "step", "Praise", { code: "return { verdict: 'well done', score: {{score.value}} };" }, 520, 0),
      node("note", "step", "Note", { code: "return { verdict: 'try again' };" }, 520, 180),
    ],
    edges: [
      { id: "e1", source: "score", target: "grade" },
      { id: "e2", source: "grade", target: "praise", label: "high" },
      { id: "e3", source: "grade", target: "note", label: "low" },
    ],
    entryNodeId: "score",
  };
  await studio.api(user, "POST", `/api/workflows/${wf.id}/versions`, { ir });
  await studio.api(user, "POST", `/api/workflows/${wf.id}/deploy`, { connectionId: conn.id });
  const run = await studio.api(user, "POST", `/api/workflows/${wf.id}/trigger`, {
    connectionId: conn.id,
    params: { score: 80 },
  });

  const page = await studio.newPage(user.context);
  await page.setViewportSize({ width: 1440, height: 900 });
  await studio.gotoApp(page, `/workflows/${wf.id}/runs/${run.id}`, { networkIdle: false });
  await expect(page.getByText("complete").first()).toBeVisible({ timeout: 90_000 });
  // the output is Praise's value, and the page says so
  const output = page.getByLabel("Output", { exact: true });
  await expect(output).toContainText('"verdict": "well done"');
  await expect(output).not.toContainText('"label"');
  await expect(page.getByText(/From Praise \(praise\), the last node that completed\./)).toBeVisible();
  // the graph: the branch coloured complete, the arm taken named, the arm not taken left as not run
  const graph = page.getByLabel("The run's graph");
  await expect(graph.locator('.react-flow__node[aria-label="Grade: complete, took “high”"]')).toBeVisible();
  await expect(graph.locator(".react-flow__node.run-node-done")).toHaveCount(3);
  await expect(graph.locator('.react-flow__node[aria-label="Note: not run"]')).toBeVisible();
  await expect(page.getByRole("list", { name: "Paths taken" })).toHaveText("Grade took “high”");
  // the waterfall: one bar per step, with its state and duration in words
  const waterfall = page.getByRole("list", { name: "Waterfall of the steps" });
  await expect(waterfall.getByRole("listitem")).toHaveCount(2);
  await expect(waterfall.getByRole("listitem", { name: /^Score: complete, \d/ })).toBeVisible();
  await expect(waterfall.getByRole("listitem", { name: /^Praise: complete, \d/ })).toBeVisible();
  // the Steps list and the restart picker show the branch with its state
  const stepsList = page.getByRole("list", { name: "Steps, in execution order" });
  await expect(stepsList.getByRole("listitem").filter({ hasText: "Grade" })).toContainText("complete");
  await expect(stepsList.getByRole("listitem").filter({ hasText: "Grade" })).toContainText("branch · took “high”");
  const from = page.getByLabel("Restart from");
  await expect(from.getByRole("option", { name: "Grade (branch, complete)" })).toBeAttached();
  await checkA11y(page, "a run that ended in a branch");
  await screenshot(page, "run-branch-path");
  // a restart from the branch starts from the first step of its arm, the steps before it replayed
  await from.selectOption({ label: "Grade (branch, complete)" });
  await page.getByRole("button", { name: "Restart from Grade", exact: true }).click();
  await page.waitForURL((u) => u.pathname.endsWith("/runs/" + run.id) === false && /\/runs\/run_/.test(u.pathname));
  await expect(page.getByText("complete").first()).toBeVisible({ timeout: 90_000 });
  await expect(page.getByRole("list", { name: "Steps, in execution order" }).getByText("replayed")).toBeVisible();
  await expect(page.getByLabel("Output", { exact: true })).toContainText('"verdict": "well done"');
  studio.assertClean(page);
});
