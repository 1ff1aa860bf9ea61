// The team screen as its users meet it: the owner invites a colleague (the link shown once, with Copy), who accepts;
// the owner changes the colleague's role, is refused leaving as the last owner, revokes a second invitation, and
// transfers ownership; the audit log shows it all by actor email and filters it; a third member leaves. axe on every screen; no console errors or failed requests other than
// the refusal the test provokes.
import { expect, test } from "@playwright/test";
import { checkA11y, navTo, scenario, screenshot, useStudio } from "./harness.mjs";

let studio;
let owner;
let page;

useStudio({ edge: false }, (s) => (studio = s));
test.beforeAll(async () => {
  owner = await studio.apiSignUp({
    name: "Ada Owner",
    email: `ada-${process.pid}@example.com`,
    organizationName: "Analytical",
  });
  await owner.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: studio.base });
  page = await studio.newPage(owner.context);
  await page.setViewportSize({ width: 1360, height: 860 });
});
const step = scenario(() => ({ studio, pages: [page] }));

const heading = (p, name) => p.getByRole("heading", { name, exact: true });

/** invite creates an invitation through the dialog and resolves to its link. */
async function invite(email, role) {
  await page.getByRole("button", { name: "Invite member" }).click();
  const dialog = page.getByRole("dialog", { name: "Invite member" });
  await dialog.getByLabel("Email").fill(email);
  await dialog.getByLabel(new RegExp(`^\\s*${role} —`)).check();
  await dialog.getByRole("button", { name: "Create invitation" }).click();
  const shown = page.getByRole("dialog", { name: `Invitation for ${email}` });
  const link = await shown.getByLabel("Invitation link").inputValue();
  return { link, shown };
}

const colleague = { email: `grace-${process.pid}@example.com` };

step("the owner sees the members and invites a colleague, who accepts", async () => {
  await studio.gotoApp(page, "/");
  await navTo(page, "Team");
  await expect(heading(page, "Team")).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/team");
  await expect(
    page.getByRole("row").filter({ hasText: owner.email }).getByText("owner", { exact: true }),
  ).toBeVisible();
  await expect(page.getByText("No invitations yet.")).toBeVisible();

  await page.getByRole("button", { name: "Invite member" }).click();
  const dialog = page.getByRole("dialog", { name: "Invite member" });
  await dialog.getByLabel("Email").fill("not an address");
  await dialog.getByRole("button", { name: "Create invitation" }).click();
  await expect(dialog.getByText("Enter an email address such as ada@example.com.")).toBeVisible();
  await checkA11y(page, "invite dialog");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  const { link, shown } = await invite(colleague.email, "member");
  expect(link).toMatch(/\/invite\?token=inv_/);
  await shown.getByRole("button", { name: "Copy" }).click();
  await expect(shown.getByText("Copied to the clipboard.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  await checkA11y(page, "invitation link");
  await screenshot(page, "team-invitation");
  await shown.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("row").filter({ hasText: colleague.email }).getByText("pending")).toBeVisible();

  const signedUp = await studio.apiSignUp({ email: colleague.email, name: "Grace Colleague" });
  Object.assign(colleague, signedUp);
  await studio.api(colleague, "POST", "/api/invitations/accept", { token: new URL(link).searchParams.get("token") });
  await page.reload();
  await expect(heading(page, "Team")).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: colleague.email }).getByText("accepted")).toBeVisible();
  await expect(page.getByLabel(`Role of ${colleague.email}`)).toBeVisible();
});

step("the owner changes a role, is refused leaving as the last owner, and revokes an invitation", async () => {
  const changed = page.waitForResponse((r) => r.url().includes("/members/") && r.request().method() === "PATCH");
  await page.getByLabel(`Role of ${colleague.email}`).selectOption("admin");
  expect((await changed).status()).toBe(200);
  await expect(page.getByLabel(`Role of ${colleague.email}`)).toHaveValue("admin");
  const members = await studio.api(owner, "GET", `/api/organizations/${owner.session.activeOrganizationId}/members`);
  expect(members.data.find((m) => m.email === colleague.email).role).toBe("admin");

  studio.allow(page, { method: "DELETE", path: /\/members\/[^/]+$/, status: 409 });
  await page.getByRole("button", { name: "Leave the organization" }).click();
  let dialog = page.getByRole("dialog", { name: "Leave the organization?" });
  await dialog.getByRole("button", { name: "Leave organization" }).click();
  await expect(dialog.getByRole("alert").filter({ hasText: /owner/i })).toBeVisible();
  await checkA11y(page, "refused leave");
  await screenshot(page, "team-leave-refused");
  await dialog.getByRole("button", { name: "Cancel" }).click();

  const other = `charles-${process.pid}@example.com`;
  const { shown } = await invite(other, "viewer");
  await shown.getByRole("button", { name: "Done" }).click();
  await page.getByRole("button", { name: `Revoke the invitation of ${other}` }).click();
  dialog = page.getByRole("dialog", { name: `Revoke the invitation of ${other}?` });
  await dialog.getByRole("button", { name: "Revoke invitation" }).click();
  await expect(page.getByRole("row").filter({ hasText: other }).getByText("revoked")).toBeVisible();
  await checkA11y(page, "team");
  await screenshot(page, "team");
});

step("the owner transfers ownership and becomes an admin", async () => {
  await page.getByRole("button", { name: "Transfer ownership" }).click();
  const dialog = page.getByRole("dialog", { name: "Transfer ownership" });
  await dialog.getByLabel("New owner").selectOption({ label: colleague.email });
  await dialog.getByRole("button", { name: "Transfer ownership" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(
    page.getByRole("row").filter({ hasText: colleague.email }).getByText("owner", { exact: true }),
  ).toBeVisible();
  await expect(page.getByText("You are an admin.")).toBeVisible();
  await expect(page.getByRole("button", { name: "Transfer ownership" })).toHaveCount(0);
});

step("the audit log shows entries by actor email, filters them, and shows a refused filter at its field", async () => {
  await navTo(page, "Audit log");
  await expect(heading(page, "Audit log")).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/audit");
  const change = page.getByRole("row").filter({ hasText: "member.role_change" });
  await expect(change.getByText(owner.email)).toBeVisible();
  await checkA11y(page, "audit log");
  await screenshot(page, "audit");

  await page.getByLabel("Actor").selectOption({ label: owner.email });
  await page.getByLabel("Action").fill("invitation.revoke");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByRole("row").filter({ hasText: "member.role_change" })).toHaveCount(0);
  const rows = page.getByRole("row").filter({ hasText: "invitation.revoke" });
  await expect(rows.getByText(owner.email)).toBeVisible();
  await expect(rows).toHaveCount(1);
  await page.getByLabel("Actor").selectOption({ label: colleague.email });
  await page.getByLabel("Action").fill("");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByText("No entries match.")).toBeVisible();

  studio.allow(page, { method: "GET", path: "/api/audit", status: 422 });
  await page.getByLabel("From").fill("2026-01-02T00:00");
  await page.getByLabel("Until").fill("2026-01-01T00:00");
  await page.getByRole("button", { name: "Apply filters" }).click();
  await expect(page.getByText("until must be later than since")).toBeVisible();
  await checkA11y(page, "refused audit filter");
  await page.getByRole("button", { name: "Clear" }).click();
  await expect(change.getByText(owner.email)).toBeVisible();
});

step("a member leaves the organization and Studio goes on in their own", async () => {
  await navTo(page, "Team");
  await expect(heading(page, "Team")).toBeVisible();
  const { link, shown } = await invite(`hedy-${process.pid}@example.com`, "viewer");
  await shown.getByRole("button", { name: "Done" }).click();
  const third = await studio.apiSignUp({ email: `hedy-${process.pid}@example.com`, name: "Hedy Viewer" });
  await studio.api(third, "POST", "/api/invitations/accept", { token: new URL(link).searchParams.get("token") });
  const thirdPage = await studio.newPage(third.context);
  await studio.gotoApp(thirdPage, "/team");
  await expect(heading(thirdPage, "Team")).toBeVisible();
  await expect(thirdPage.getByText("You are a viewer.")).toBeVisible();
  await expect(thirdPage.getByRole("button", { name: "Invite member" })).toHaveCount(0);
  await checkA11y(thirdPage, "team as a viewer");
  await thirdPage.getByRole("button", { name: "Leave the organization" }).click();
  await thirdPage
    .getByRole("dialog", { name: "Leave the organization?" })
    .getByRole("button", { name: "Leave organization" })
    .click();
  await expect(heading(thirdPage, "Workflows and functions")).toBeVisible();
  const orgs = await thirdPage.getByLabel("Organization").locator("option").allInnerTexts();
  expect(orgs, `still listed: ${orgs}`).not.toContain("Analytical");
  studio.assertClean(thirdPage);
});
