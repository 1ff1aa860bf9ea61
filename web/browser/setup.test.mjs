// A fresh server in the default sign-up mode (invite), as a user meets it: the setup link serve printed creates the
// owner account and is refused the second time; the plain sign-up page explains why it refuses; the owner invites a
// colleague, who signs up through the invitation's link and lands in the owner's organization; an invitation opened
// by a user with an account is accepted after signing in, and one accepted already is refused. Every new screen is
// checked with axe; the pages may make no failed request but the refusals the test provokes.
import { expect, test } from "@playwright/test";
import { checkA11y, scenario, screenshot, useStudio } from "./harness.mjs";

let studio;
let setupLink = "";
const owner = {
  name: "Grace Hopper",
  email: `grace-${process.pid}@example.com`,
  password: "compiler pioneer 1952",
  organization: "Harvard Computation Lab",
};
const colleague = {
  name: "Kathleen Booth",
  email: `kathleen-${process.pid}@example.com`,
  password: "assembly language 1947",
};
let ownerSignedIn; // { context, csrfToken } of the owner's browser
let organizationId = "";
let colleagueContext;
const pages = [];

useStudio({ signup: "invite", edge: false }, (s) => (studio = s));
test.beforeAll(async () => {
  setupLink = await studio.setupLink();
});

const step = scenario(() => ({ studio, pages }));

async function newPage(context) {
  const page = await studio.newPage(context ?? (await studio.newContext({ viewport: { width: 1280, height: 860 } })));
  pages.push(page);
  return page;
}

const heading = (page, name) => page.getByRole("heading", { name, exact: true });

async function sessionOf(context) {
  const res = await context.request.get("/api/auth/session");
  expect(res.status(), `session: ${await res.text()}`).toBe(200);
  return res.json();
}

step(
  "before any account exists, the sign-up page says above its form that the setup link makes the first",
  async () => {
    const page = await newPage();
    await studio.gotoApp(page, "/sign-up");
    await expect(heading(page, "Create your account")).toBeVisible();
    const note = page.getByRole("note");
    await expect(note).toContainText("This server has no account yet");
    expect(await note.locator("code").first().textContent()).toBe("edgeflow serve");
    const [noteBox, nameBox] = [await note.boundingBox(), await page.getByLabel("Name", { exact: true }).boundingBox()];
    expect(noteBox.y).toBeLessThan(nameBox.y);
    await checkA11y(page, "sign-up before the first account");
    await screenshot(page, "sign-up-first-account");
  },
);

step("the printed setup link creates the owner account and lands on the workflow list", async () => {
  const link = new URL(setupLink);
  expect(link.origin).toBe(new URL(studio.base).origin);
  expect(link.pathname).toBe("/setup");
  expect(link.searchParams.get("token") ?? "").toMatch(/^setup_/);

  const page = await newPage();
  await studio.gotoApp(page, link.pathname + link.search);
  await expect(heading(page, "Create the owner account")).toBeVisible();
  expect(await page.title()).toBe("Create the owner account · edgeflow Studio");
  // the form's own checks first
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Enter your name.")).toBeVisible();
  await page.getByLabel("Name", { exact: true }).fill(owner.name);
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByLabel("Organization name (optional)").fill(owner.organization);
  await checkA11y(page, "setup");
  await screenshot(page, "setup");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(heading(page, "Workflows and functions")).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/");
  expect(await page.locator("#org-switch option:checked").textContent()).toBe(owner.organization);

  const session = await sessionOf(page.context());
  expect(session.user.email).toBe(owner.email);
  expect(session.organizations.length).toBe(1);
  expect(session.organizations[0].role).toBe("owner");
  organizationId = session.activeOrganizationId;
  ownerSignedIn = { context: page.context(), csrfToken: session.csrfToken };
});

step("the same setup link again is refused with a clear message", async () => {
  const page = await newPage();
  const link = new URL(setupLink);
  await studio.gotoApp(page, link.pathname + link.search);
  await expect(heading(page, "Create the owner account")).toBeVisible();
  studio.allow(page, { method: "POST", path: "/api/auth/sign-up", status: 403 });
  await page.getByLabel("Name", { exact: true }).fill("Somebody Else");
  await page.getByLabel("Email").fill(`else-${process.pid}@example.com`);
  await page.getByLabel("Password").fill("another good password");
  await page.getByRole("button", { name: "Create account" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "cannot be used any more" });
  await expect(alert).toBeVisible();
  await expect(alert).toHaveText(/edgeflow admin setup-link/);
  expect(new URL(page.url()).pathname).toBe("/setup");
  await checkA11y(page, "setup refused");
  await screenshot(page, "setup-used");
  // nothing was created: the address can't sign in
  const res = await page.context().request.post("/api/auth/sign-in", {
    data: { email: `else-${process.pid}@example.com`, password: "another good password" },
  });
  expect(res.status()).toBe(401);
});

step("the plain sign-up page is refused with the invitation message and the setup link's hint", async () => {
  const page = await newPage();
  await studio.gotoApp(page, "/sign-up");
  await expect(heading(page, "Create your account")).toBeVisible();
  await expect(page.getByRole("note")).toContainText("Sign-up on this server is by invitation");
  studio.allow(page, { method: "POST", path: "/api/auth/sign-up", status: 403 });
  await page.getByLabel("Name", { exact: true }).fill("Walk In");
  await page.getByLabel("Email").fill(`walkin-${process.pid}@example.com`);
  await page.getByLabel("Password").fill("walking in freely");
  await page.getByRole("button", { name: "Sign up" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "Sign-up needs an invitation" });
  await expect(alert).toBeVisible();
  const text = await alert.textContent();
  expect(text).toMatch(/invite your email address/);
  expect(text).toMatch(/setup link that edgeflow serve prints/);
  expect(await alert.locator("code").first().textContent()).toBe("edgeflow serve");
  await checkA11y(page, "sign-up refused");
});

step("an invited colleague signs up through the invitation's link and lands in the owner's organization", async () => {
  const inv = await studio.api(ownerSignedIn, "POST", `/api/organizations/${organizationId}/invitations`, {
    email: colleague.email,
    role: "member",
  });
  const accept = new URL(inv.acceptUrl);
  expect(accept.pathname).toBe("/invite");

  colleagueContext = await studio.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await newPage(colleagueContext);
  await studio.gotoApp(page, accept.pathname + accept.search);
  await expect(heading(page, "Join an organization")).toBeVisible();
  await expect(page.getByText("You were invited to an organization on edgeflow.")).toBeVisible();
  const signIn = page.getByRole("link", { name: "Sign in to accept" });
  await expect(signIn).toHaveAttribute("href", `/sign-in?next=${encodeURIComponent(accept.pathname + accept.search)}`);

  await page.getByLabel("Name", { exact: true }).fill(colleague.name);
  await page.getByLabel("Email").fill(colleague.email);
  await page.getByLabel("Password").fill(colleague.password);
  await checkA11y(page, "invite");
  await screenshot(page, "invite");

  // another email than the invited one is refused, with the server's reason
  studio.allow(page, { method: "POST", path: "/api/auth/sign-up", status: 403 });
  await page.getByLabel("Email").fill(`not-${colleague.email}`);
  await page.getByRole("button", { name: "Sign up and join" }).click();
  await expect(
    page.getByRole("alert").filter({ hasText: "The invitation was sent to another email address" }),
  ).toBeVisible();
  await checkA11y(page, "invite refused");

  await page.getByLabel("Email").fill(colleague.email);
  await page.getByRole("button", { name: "Sign up and join" }).click();
  await expect(heading(page, "Workflows and functions")).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/");
  expect(await page.locator("#org-switch option:checked").textContent()).toBe(owner.organization);
  const session = await sessionOf(colleagueContext);
  expect(session.user.email).toBe(colleague.email);
  expect(session.activeOrganizationId).toBe(organizationId);
  expect(session.organizations.map((o) => [o.id, o.role])).toEqual([[organizationId, "member"]]);

  // the used link, opened signed in, offers to accept and is refused with the server's reason
  await studio.gotoApp(page, accept.pathname + accept.search);
  studio.allow(page, { method: "POST", path: "/api/invitations/accept", status: 409 });
  await page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /The invitation is accepted/ })).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/invite");
});

step("a user with an account signs in from an invitation's link and accepts it", async () => {
  // the owner's second organization invites the colleague, who has an account by now
  const org = await studio.api(ownerSignedIn, "POST", "/api/organizations", { name: "Naval Ordnance Lab" });
  const inv = await studio.api(ownerSignedIn, "POST", `/api/organizations/${org.id}/invitations`, {
    email: colleague.email,
    role: "admin",
  });
  const accept = new URL(inv.acceptUrl);

  const page = await newPage(); // signed out
  await studio.gotoApp(page, accept.pathname + accept.search);
  await page.getByRole("link", { name: "Sign in to accept" }).click();
  await expect(heading(page, "Sign in")).toBeVisible();
  await page.getByLabel("Email").fill(colleague.email);
  await page.getByLabel("Password").fill(colleague.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  const acceptButton = page.getByRole("button", { name: "Accept invitation" });
  await expect(acceptButton).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/invite");
  await expect(page.getByText(colleague.email, { exact: false }).first()).toBeVisible();
  await checkA11y(page, "invite signed in");
  await screenshot(page, "invite-accept");
  await acceptButton.click();
  await expect(heading(page, "Workflows and functions")).toBeVisible();
  expect(new URL(page.url()).pathname).toBe("/");
  expect(await page.locator("#org-switch option:checked").textContent()).toBe("Naval Ordnance Lab");
  const session = await sessionOf(page.context());
  expect(session.activeOrganizationId).toBe(org.id);
  expect(session.organizations.find((o) => o.id === org.id)?.role).toBe("admin");
});
