// The version diff shows changes only (issue 37, item 7): two versions that differ in one node's code compare as
// that node's lines with a few around them, the unchanged lines folded, a per-node summary in words and no noise
// from the server's version stamps.
import { expect, test } from "@playwright/test";
import { checkA11y, screenshot, useStudio } from "./harness.mjs";

let studio;
useStudio({ edge: false }, (s) => (studio = s));

const ir = (summarize) => ({
  metadata: { name: "Digest" },
  nodes: [
    {
      id: "load",
      type: "step",
      name: "Load",
      position: { x: 0, y: 0 },
      data: { code: "return { items: [1, 2, 3] };" },
    },
    { id: "summarize", type: "step", name: "Summarize", position: { x: 260, y: 0 }, data: { code: summarize } },
    {
      id: "notify",
      type: "step",
      name: "Notify",
      position: { x: 520, y: 0 },
      data: { code: "return { sent: true };" },
    },
  ],
  edges: [
    { id: "e1", source: "load", target: "summarize" },
    { id: "e2", source: "summarize", target: "notify" },
  ],
  entryNodeId: "load",
});

test("the diff of two versions shows only the changed node", async () => {
  const user = await studio.apiSignUp();
  const w = await studio.api(user, "POST", "/api/workflows", { name: "Digest" });
  await studio.api(user, "POST", `/api/workflows/${w.id}/versions`, { ir: ir("return { n: {{load.items}}.length };") });
  await studio.api(user, "POST", `/api/workflows/${w.id}/versions`, {
    ir: ir("return { n: {{load.items}}.length * 2 };"),
  });
  const page = await studio.newPage(user.context);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/workflows/${w.id}/versions`);
  const diff = page.getByRole("region", { name: "Differences of the IR" });
  await expect(diff).toBeVisible();
  await expect(page.getByRole("list", { name: "Changed nodes" }).getByRole("listitem")).toHaveText([
    "Summarize: code changed",
  ]);
  await expect(diff).toContainText("length * 2");
  await expect(diff).toContainText(/\d+ unchanged lines/);
  // neither the other nodes' code nor the server's stamps are shown
  await expect(diff).not.toContainText("sent: true");
  await expect(diff).not.toContainText(/"version": \d/);
  await expect(diff).not.toContainText('"createdAt"');
  await checkA11y(page, "the version diff");
  await screenshot(page, "versions-diff");
  studio.assertClean(page);
});
