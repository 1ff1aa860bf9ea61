// The editor by keyboard, as in n8n (issue 37, items 6 and 8): Tab opens the node picker, a first node added so
// is the entry, the picker adds on a chosen outlet, node settings connect an outlet to another node and remove a
// single edge, a node's id is renamed with every reference, every outlet has a `+`, dialogs open in their first
// field; sticky notes are added, written, moved and kept across a reload.
import { expect, test } from "@playwright/test";
import { checkA11y, screenshot, useStudio } from "./harness.mjs";
import { canvasNode, codeField } from "./editor-steps.mjs";

let studio;
useStudio({ edge: false }, (s) => (studio = s));

/** tabToNode presses Tab until a canvas node has the focus. */
async function tabToNode(page) {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(() => !!document.activeElement?.closest(".react-flow__node"))) return;
  }
  throw new Error("Tab never reached a canvas node");
}

/** pick chooses a node type in the open node picker by typing part of its name and Enter. */
async function pick(page, words) {
  const dialog = page.getByRole("dialog", { name: "Add a node" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole("combobox", { name: "Search node types" })).toBeFocused();
  await page.keyboard.type(words);
  await page.keyboard.press("Enter");
  await expect(dialog).toBeHidden();
}

test("a four-node workflow built by keyboard alone: picker on Tab, an outlet chosen, nodes connected and an edge removed", async () => {
  const user = await studio.apiSignUp();
  const w = await studio.api(user, "POST", "/api/workflows", { name: "By keys" });
  const page = await studio.newPage(user.context);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/workflows/${w.id}`);
  // a workflow without a version starts from one step: select it with Enter and delete it, leaving an empty canvas
  await expect(page.locator(".react-flow__node")).toHaveCount(1);
  await tabToNode(page);
  await page.keyboard.press("Enter");
  await page.keyboard.press("Delete");
  await expect(page.locator(".react-flow__node")).toHaveCount(0);

  // Tab on the canvas opens the picker; the first node is where the workflow starts
  await page.keyboard.press("Tab");
  await expect(page.getByText("The first node: the workflow starts here.")).toBeVisible();
  await checkA11y(page, "the node picker");
  await pick(page, "step");
  const step1 = canvasNode(page, "Step 1");
  await expect(step1).toBeFocused();
  await expect(step1.getByText("Entry", { exact: true })).toBeVisible();

  // Tab on the selected node adds after it
  await page.keyboard.press("Tab");
  await expect(page.getByText(/After Step 1/)).toBeVisible();
  await pick(page, "branch");
  const branch = canvasNode(page, "Branch 1");
  await expect(branch).toBeFocused();

  // after the branch: the picker names its outlets; choose the arm "yes" with the keyboard
  await page.keyboard.press("Tab");
  const dialog = page.getByRole("dialog", { name: "Add a node" });
  const outlet = dialog.getByRole("combobox", { name: "Outlet" });
  await expect(outlet).toHaveValue("then");
  await page.keyboard.press("Tab");
  await expect(outlet).toBeFocused();
  await page.keyboard.press("ArrowUp");
  await expect(outlet).toHaveValue("yes");
  await expect(dialog.getByText(/After Branch 1 on yes/)).toBeVisible();
  await page.keyboard.press("Shift+Tab");
  await pick(page, "step");
  await expect(canvasNode(page, "Step 2")).toBeFocused();

  // back to the branch (Shift+Tab moves the focus between nodes), select it, add a sleep on its then outlet
  await page.keyboard.press("Shift+Tab");
  await expect(branch).toBeFocused();
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  await pick(page, "sleep");
  await expect(page.locator(".react-flow__node")).toHaveCount(4);

  // node settings of the branch list its edges; remove then → Sleep 1 and connect it again, by keyboard
  await page.keyboard.press("Shift+Tab");
  await page.keyboard.press("Shift+Tab");
  await expect(branch).toBeFocused();
  await page.keyboard.press("Enter");
  const edges = page.getByRole("region", { name: "Connections" });
  await expect(edges.getByText("yes → Step 2 (step_2)")).toBeVisible();
  await expect(edges.getByText("then → Sleep 1 (sleep_1)")).toBeVisible();
  const remove = edges.getByRole("button", { name: "Remove the edge then to Sleep 1 (sleep_1)" });
  await remove.focus();
  await page.keyboard.press("Enter");
  await expect(edges.getByText("then → Sleep 1 (sleep_1)")).toHaveCount(0);
  await expect(page.locator(".react-flow__edge")).toHaveCount(2);
  const outletSelect = edges.getByRole("combobox", { name: "Outlet" });
  await outletSelect.focus();
  await page.keyboard.press("ArrowDown");
  await expect(outletSelect).toHaveValue("then");
  await page.keyboard.press("Tab");
  const target = edges.getByRole("combobox", { name: "Connect to" });
  await expect(target).toBeFocused();
  for (let i = 0; i < 4 && (await target.inputValue()) !== "sleep_1"; i++) await page.keyboard.press("ArrowDown");
  await expect(target).toHaveValue("sleep_1");
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await expect(edges.getByText("then → Sleep 1 (sleep_1)")).toBeVisible();
  await expect(page.locator(".react-flow__edge")).toHaveCount(3);
  await checkA11y(page, "node settings with the branch's connections");
  await screenshot(page, "editor-keyboard");
  studio.assertClean(page);
});

test("every outlet has a +; renaming a node's id renames its references; a dialog opens in its first field", async () => {
  const user = await studio.apiSignUp();
  const w = await studio.api(user, "POST", "/api/workflows", { name: "Plus" });
  await studio.api(user, "POST", `/api/workflows/${w.id}/versions`, {
    ir: {
      metadata: { name: "Plus" },
      nodes: [
        {
          id: "step_1",
          type: "step",
          name: "Load order",
          position: { x: 0, y: 0 },
          data: { code: "return { total: 2 };" },
        },
        { id: "tc", type: "try_catch", name: "Guard", position: { x: 280, y: 0 }, data: {} },
        {
          id: "use",
          type: "step",
          name: "Use",
          position: { x: 560, y: 0 },
          data: { code: "return {{step_1.total}};" },
        },
        { id: "recover", type: "step", name: "Recover", position: { x: 560, y: 140 }, data: { code: "return 0;" } },
      ],
      edges: [
        { id: "e1", source: "step_1", target: "tc" },
        { id: "e2", source: "tc", target: "use", label: "try" },
        { id: "e3", source: "tc", target: "recover", label: "catch" },
      ],
      entryNodeId: "step_1",
    },
  });
  const page = await studio.newPage(user.context);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/workflows/${w.id}`);
  const guard = canvasNode(page, "Guard");
  await expect(guard.getByRole("button", { name: /^Add a node after Guard/ })).toHaveCount(4);
  // the + of the catch block opens the picker on that outlet
  await guard.getByRole("button", { name: "Add a node after Guard on catch" }).click();
  const dialog = page.getByRole("dialog", { name: "Add a node" });
  await expect(dialog.getByRole("combobox", { name: "Search node types" })).toBeFocused();
  await expect(dialog.getByRole("combobox", { name: "Outlet" })).toHaveValue("catch");
  await page.keyboard.type("step");
  await page.keyboard.press("Enter");
  await expect(page.locator(".react-flow__node")).toHaveCount(5);
  // the new node sits on the catch block, before the node that was there
  const links = page.getByRole("region", { name: "Connections" });
  await expect(links.getByText("next → Recover (recover)")).toBeVisible();

  // rename step_1 from its name: the expression in Use follows
  await canvasNode(page, "Load order").locator(".efn-name").click();
  await page.getByRole("button", { name: "Rename id to load_order (from the name)" }).click();
  await expect(canvasNode(page, "Load order").getByText("load_order", { exact: true })).toBeVisible();
  await canvasNode(page, "Use").locator(".efn-name").click();
  await expect(codeField(page, "Code")).toHaveText("return {{load_order.total}};");
  // a taken id is refused with the reason
  const idField = page.locator(".node-panel").getByRole("textbox", { name: "Id" });
  await idField.fill("tc");
  await expect(page.getByText("Another node has the id tc.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Rename id", exact: true })).toBeDisabled();

  // the command palette, like every dialog, opens with its first field focused
  await page.getByRole("button", { name: "Commands" }).click();
  await expect(page.getByRole("combobox", { name: "Search commands" })).toBeFocused();
  await page.keyboard.press("Escape");
  studio.assertClean(page);
});

test("a sticky note is added, written, moved and resized, and kept across a reload", async () => {
  const user = await studio.apiSignUp();
  const w = await studio.api(user, "POST", "/api/workflows", { name: "Noted" });
  await studio.api(user, "POST", `/api/workflows/${w.id}/versions`, {
    ir: {
      metadata: { name: "Noted" },
      nodes: [{ id: "s", type: "step", name: "Only", position: { x: 0, y: 0 }, data: { code: "return 1;" } }],
      edges: [],
      entryNodeId: "s",
    },
  });
  const page = await studio.newPage(user.context);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`/workflows/${w.id}`);
  await expect(canvasNode(page, "Only")).toBeVisible();
  await page.getByRole("button", { name: "Add note" }).click();
  const text = page.getByRole("textbox", { name: "Note 1 text" });
  await expect(text).toBeFocused();
  await page.keyboard.type("Ask finance before changing the limit.");
  // the grip moves the note with the arrow keys and resizes it with Shift
  const note = page.getByRole("group", { name: "Note 1" });
  const before = await note.boundingBox();
  const grip = page.getByRole("button", { name: /^Move note 1/ });
  await grip.focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Shift+ArrowDown");
  await expect.poll(async () => (await note.boundingBox()).x).toBeGreaterThan(before.x);
  await expect.poll(async () => (await note.boundingBox()).height).toBeGreaterThan(before.height);
  // and the mouse drags it by its grip
  const g = await grip.boundingBox();
  await page.mouse.move(g.x + g.width / 2, g.y + g.height / 2);
  await page.mouse.down();
  await page.mouse.move(g.x + 40, g.y + 30, { steps: 4 });
  await page.mouse.up();
  await expect.poll(async () => (await note.boundingBox()).y).toBeGreaterThan(before.y + 10);
  await checkA11y(page, "a sticky note on the canvas");
  await screenshot(page, "editor-sticky-note");

  await page.getByRole("button", { name: "Save version" }).click();
  await expect(page.getByText("Saved as version 2.")).toBeVisible();
  const full = await studio.api(user, "GET", `/api/workflows/${w.id}/full`);
  const saved = full.currentVersion.ir.notes;
  expect(saved).toHaveLength(1);
  expect(saved[0].text).toBe("Ask finance before changing the limit.");
  expect(saved[0].height).toBeGreaterThan(120);

  await page.reload();
  await expect(page.getByRole("textbox", { name: "Note 1 text" })).toHaveValue(
    "Ask finance before changing the limit.",
  );
  // deleting it is one more edit
  await page.getByRole("button", { name: "Delete note 1" }).click();
  await expect(page.getByRole("group", { name: "Note 1" })).toHaveCount(0);
  await expect(page.getByText("unsaved changes")).toBeVisible();
  studio.assertClean(page);
});
