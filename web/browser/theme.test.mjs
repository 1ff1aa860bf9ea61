// Studio's themes (issue 37, item 2): the theme follows the system's setting until the user chooses Light or Dark in
// the top bar, and the choice outlives a reload; in the dark theme the main pages (workflows, editor with a code
// field and the canvas, run page with a failed run, runs list, settings) pass axe-core with no serious or critical
// violation, the canvas, CodeMirror and dialogs included. The docs' theme screenshots (light and dark) come from here.
import { expect, test } from "@playwright/test";
import { checkA11y, screenshot, useStudio } from "./harness.mjs";
import { canvasNode, codeField, select } from "./editor-steps.mjs";

let studio;
useStudio({}, (s) => (studio = s));

/** background is the computed background colour of the page's root element. */
const background = (page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const LIGHT_BG = "rgb(255, 255, 255)";
const DARK_BG = "rgb(22, 24, 29)";

const step = (id, name, code, x) => ({
  id,
  type: "step",
  name,
  position: { x, y: 80 },
  version: "1.0.0",
  provider: "cloudflare",
  data: { code },
  config: { retries: { limit: 0, delay: "1 second", backoff: "constant" } },
});

test("the theme follows the system's setting until the user chooses one, and the choice is remembered", async () => {
  const user = await studio.apiSignUp();
  const page = await studio.newPage(user.context);
  await page.emulateMedia({ colorScheme: "dark" });
  await studio.gotoApp(page, "/");
  const theme = page.getByLabel("Theme");
  await expect(theme).toHaveValue("system");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(await background(page)).toBe(DARK_BG);
  // the system's setting changes while the page is open: System follows it
  await page.emulateMedia({ colorScheme: "light" });
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  expect(await background(page)).toBe(LIGHT_BG);

  // Dark chosen: kept over a light system and after a reload
  await theme.selectOption("Dark");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await page.reload();
  await expect(page.getByLabel("Theme")).toHaveValue("dark");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(await background(page)).toBe(DARK_BG);
  // Light chosen: kept over a dark system
  await page.emulateMedia({ colorScheme: "dark" });
  await page.getByLabel("Theme").selectOption("Light");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-theme", "light");
  // System again: the system's setting (dark) once more, nothing stored
  await page.getByLabel("Theme").selectOption("System");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  expect(await page.evaluate(() => localStorage.getItem("edgeflow.theme"))).toBeNull();
  studio.assertClean(page);
});

test("in the dark theme the main pages pass axe-core: workflows, editor, run page, runs list, settings", async () => {
  const user = await studio.apiSignUp({ name: "Grace Hopper" });
  const conn = await studio.api(user, "POST", "/api/connections", { provider: "local", name: "Local edge" });
  const wf = await studio.api(user, "POST", "/api/workflows", { name: "Invoice sync", kind: "workflow" });
  const ir = {
    metadata: { name: "Invoice sync" },
    nodes: [
      step("load", "Load", "return { amount: event.payload.amount };", 0),
      step(
        "check",
        "Check",
        "if ({{load.amount}} < 0) throw new Error('a negative amount');\nreturn { ok: true };",
        260,
      ),
      step("book", "Book", "return { booked: {{load.amount}} };", 520),
    ],
    edges: [
      { id: "e1", source: "load", target: "check" },
      { id: "e2", source: "check", target: "book" },
    ],
    entryNodeId: "load",
  };
  await studio.api(user, "POST", `/api/workflows/${wf.id}/versions`, { ir });
  await studio.api(user, "POST", `/api/workflows/${wf.id}/deploy`, { connectionId: conn.id });
  const good = await studio.api(user, "POST", `/api/workflows/${wf.id}/trigger`, {
    connectionId: conn.id,
    params: { amount: 120, invoice: "INV-2001" },
  });
  const bad = await studio.api(user, "POST", `/api/workflows/${wf.id}/trigger`, {
    connectionId: conn.id,
    params: { amount: -5, invoice: "INV-2002" },
  });

  const context = await studio.browser.newContext({
    baseURL: studio.base,
    colorScheme: "dark",
    storageState: await user.context.storageState(),
  });
  const page = await studio.newPage(context);
  await page.setViewportSize({ width: 1440, height: 900 });

  // the workflow list
  await studio.gotoApp(page, "/");
  await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
  await expect(page.getByRole("link", { name: "Invoice sync", exact: true })).toBeVisible();
  await checkA11y(page, "the workflow list, dark");
  await screenshot(page, "theme-workflows");

  // the editor: the canvas and a node's settings with a code field
  await page.getByRole("link", { name: "Invoice sync", exact: true }).click();
  await expect(canvasNode(page, "Check")).toBeVisible();
  await select(page, "Check");
  await expect(codeField(page, "Code")).toContainText("a negative amount");
  await checkA11y(page, "the editor, dark");
  await screenshot(page, "theme-editor");

  // a dialog: the canvas's Save version is a form; the top bar's New project is a dialog on every page
  await page.getByRole("button", { name: "New project" }).click();
  const dialog = page.getByRole("dialog", { name: "New project" });
  await expect(dialog).toBeVisible();
  await checkA11y(page, "a dialog, dark");
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toBeHidden();

  // the run page of the failed run: the graph coloured by state
  await studio.gotoApp(page, `/workflows/${wf.id}/runs/${bad.id}`, { networkIdle: false });
  await expect(page.getByText("errored").first()).toBeVisible({ timeout: 90_000 });
  await expect(page.getByText("a negative amount").first()).toBeVisible();
  await checkA11y(page, "the run page, dark");
  await screenshot(page, "theme-run");

  // the runs list: both runs with their states
  await studio.gotoApp(page, "/runs", { networkIdle: false });
  await expect(page.getByRole("row").filter({ hasText: bad.id }).getByText("errored")).toBeVisible({ timeout: 90_000 });
  await expect(page.getByRole("row").filter({ hasText: good.id }).getByText("complete")).toBeVisible({
    timeout: 90_000,
  });
  await checkA11y(page, "the runs list, dark");
  await screenshot(page, "theme-runs");

  // settings: the connections and the API keys
  await studio.gotoApp(page, "/connections");
  await expect(page.getByRole("heading", { name: "Connections" })).toBeVisible();
  await checkA11y(page, "the connections, dark");
  await studio.gotoApp(page, "/api-keys");
  await expect(page.getByRole("heading", { name: "API keys" })).toBeVisible();
  await checkA11y(page, "the API keys, dark");
  await screenshot(page, "theme-settings");
  studio.assertClean(page);
});

test("in the dark theme the other screens pass axe-core too: sign-in, versions, events, settings", async () => {
  const signedOut = await studio.newPage(await studio.newContext({ colorScheme: "dark" }));
  await studio.gotoApp(signedOut, "/sign-in");
  await expect(signedOut.getByRole("heading", { name: "Sign in" })).toBeVisible();
  await expect(signedOut.locator("html")).toHaveAttribute("data-theme", "dark");
  await checkA11y(signedOut, "the sign-in page, dark");
  studio.assertClean(signedOut);

  const user = await studio.apiSignUp();
  const wf = await studio.api(user, "POST", "/api/workflows", { name: "Nightly report", kind: "workflow" });
  const ir = {
    metadata: { name: "Nightly report" },
    nodes: [step("collect", "Collect", "return { rows: 3 };", 0)],
    edges: [],
    entryNodeId: "collect",
  };
  await studio.api(user, "POST", `/api/workflows/${wf.id}/versions`, { ir });
  ir.nodes[0].data.code = "return { rows: 4 };";
  await studio.api(user, "POST", `/api/workflows/${wf.id}/versions`, { ir });
  const context = await studio.browser.newContext({
    baseURL: studio.base,
    colorScheme: "dark",
    storageState: await user.context.storageState(),
  });
  const page = await studio.newPage(context);
  await page.setViewportSize({ width: 1440, height: 900 });
  for (const [path, heading] of [
    [`/workflows/${wf.id}/versions`, "Versions of Nightly report"],
    ["/events", "Events"],
    ["/webhooks", "Webhooks"],
    ["/env-vars", "Environment variables"],
    ["/connect-assistant", "Connect an assistant"],
    ["/team", "Team"],
    ["/audit", "Audit log"],
    ["/resources", "Resources"],
  ]) {
    await studio.gotoApp(page, path);
    await expect(page.getByRole("heading", { name: heading, exact: true })).toBeVisible();
    await expect(page.locator("html")).toHaveAttribute("data-theme", "dark");
    await checkA11y(page, `${path}, dark`);
  }
  studio.assertClean(page);
});
