// Studio's "Import from n8n": a user picks an n8n workflow file in the New workflow dialog, reads the report of its
// conversion (what was converted, what was not and why) before anything exists, creates the workflow and lands in
// its editor with the converted nodes; a file that is not an n8n workflow gets the field's path in the error.
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoDir, useStudio } from "./harness.mjs";

let studio;
useStudio({ edge: false }, (s) => (studio = s));

const corpus = path.join(repoDir, "internal", "importer", "n8n", "testdata", "corpus");

test("a user imports an n8n workflow, reads the report and creates it", async () => {
  const user = await studio.apiSignUp();
  const page = await studio.newPage(user.context);
  await page.goto("/");
  await page.getByRole("button", { name: "New workflow" }).click();
  const dialog = page.getByRole("dialog", { name: "New workflow" });
  await dialog.getByLabel("Import from n8n").check();

  // not an n8n workflow: refused with the path of the bad field, nothing created
  await dialog
    .getByLabel("n8n workflow")
    .setInputFiles({ name: "bad.json", mimeType: "application/json", buffer: Buffer.from('{"nodes": "none"}') });
  await expect(dialog.getByText("/workflow/nodes")).toBeVisible();

  const file = path.join(corpus, "z-summing-function.json");
  const wf = JSON.parse(readFileSync(file, "utf8"));
  await dialog.getByLabel("n8n workflow").setInputFiles(file);
  const report = dialog.getByRole("region", { name: "Import report" });
  await expect(report).toContainText(`${wf.nodes.length} nodes converted, 0 not converted`);
  const before = await studio.api(user, "GET", "/api/workflows");
  expect(before.data).toHaveLength(0);

  await dialog.getByLabel("Name").fill("Summing imported");
  await dialog.getByRole("button", { name: "Create" }).click();
  await page.waitForURL(/\/workflows\/wf_[^/]+$/);
  await expect(page.getByRole("heading", { name: "Summing imported", exact: true })).toBeVisible();
  for (const n of wf.nodes) await expect(page.locator(".react-flow__node", { hasText: n.name })).toBeVisible();
});
