// A fresh server in the default sign-up mode (invite), as a user meets it: the setup link serve printed creates the
// owner account and is refused the second time; the plain sign-up page explains why it refuses; the owner invites a
// colleague, who signs up through the invitation's link and lands in the owner's organization; an invitation opened
// by a user with an account is accepted after signing in, and one accepted already is refused. Every new screen is
// checked with axe; the pages may make no failed request but the refusals the test provokes.
import assert from "node:assert/strict";
import { after, before } from "node:test";
import { checkA11y, scenario, screenshot, startStudio } from "./harness.mjs";

let studio;
let setupLink = "";
const owner = {
  name: "Grace Hopper",
  email: `grace-${process.pid}@example.com`,
  password: "compiler pioneer 1952",
  organization: "Harvard Computation Lab",
};
const colleague = { name: "Kathleen Booth", email: `kathleen-${process.pid}@example.com`, password: "assembly language 1947" };
let ownerSignedIn; // { context, csrfToken } of the owner's browser
let organizationId = "";
let colleagueContext;
const pages = [];

before(async () => {
  studio = await startStudio({ signup: "invite", edge: false });
  if (studio.skip) return;
  setupLink = await studio.setupLink();
});
after(async () => {
  await studio?.close();
});

const step = scenario("setup", () => ({ studio, pages }));

async function newPage(context) {
  const page = await studio.newPage(context ?? (await studio.newContext({ viewport: { width: 1280, height: 860 } })));
  pages.push(page);
  return page;
}

const heading = (page, name) => page.getByRole("heading", { name, exact: true });

async function sessionOf(context) {
  const res = await context.request.get("/api/auth/session");
  assert.equal(res.status(), 200, `session: ${await res.text()}`);
  return res.json();
}

step("the printed setup link creates the owner account and lands on the workflow list", async () => {
  const link = new URL(setupLink);
  assert.equal(link.origin, new URL(studio.base).origin);
  assert.equal(link.pathname, "/setup");
  assert.match(link.searchParams.get("token") ?? "", /^setup_/);

  const page = await newPage();
  await studio.gotoApp(page, link.pathname + link.search);
  await heading(page, "Create the owner account").waitFor();
  assert.equal(await page.title(), "Create the owner account · edgeflow Studio");
  // the form's own checks first
  await page.getByRole("button", { name: "Create account" }).click();
  await page.getByText("Enter your name.").waitFor();
  await page.getByLabel("Name", { exact: true }).fill(owner.name);
  await page.getByLabel("Email").fill(owner.email);
  await page.getByLabel("Password").fill(owner.password);
  await page.getByLabel("Organization name (optional)").fill(owner.organization);
  await checkA11y(page, "setup");
  await screenshot(page, "setup");
  await page.getByRole("button", { name: "Create account" }).click();
  await heading(page, "Workflows and functions").waitFor();
  assert.equal(new URL(page.url()).pathname, "/");
  assert.equal(await page.locator("#org-switch option:checked").textContent(), owner.organization);

  const session = await sessionOf(page.context());
  assert.equal(session.user.email, owner.email);
  assert.equal(session.organizations.length, 1);
  assert.equal(session.organizations[0].role, "owner");
  organizationId = session.activeOrganizationId;
  ownerSignedIn = { context: page.context(), csrfToken: session.csrfToken };
});

step("the same setup link again is refused with a clear message", async () => {
  const page = await newPage();
  const link = new URL(setupLink);
  await studio.gotoApp(page, link.pathname + link.search);
  await heading(page, "Create the owner account").waitFor();
  studio.allow(page, { method: "POST", path: "/api/auth/sign-up", status: 403 });
  await page.getByLabel("Name", { exact: true }).fill("Somebody Else");
  await page.getByLabel("Email").fill(`else-${process.pid}@example.com`);
  await page.getByLabel("Password").fill("another good password");
  await page.getByRole("button", { name: "Create account" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "cannot be used any more" });
  await alert.waitFor();
  assert.match(await alert.textContent(), /edgeflow admin setup-link/);
  assert.equal(new URL(page.url()).pathname, "/setup");
  await checkA11y(page, "setup refused");
  await screenshot(page, "setup-used");
  // nothing was created: the address can't sign in
  const res = await page.context().request.post("/api/auth/sign-in", {
    data: { email: `else-${process.pid}@example.com`, password: "another good password" },
  });
  assert.equal(res.status(), 401);
});

step("the plain sign-up page is refused with the invitation message and the setup link's hint", async () => {
  const page = await newPage();
  await studio.gotoApp(page, "/sign-up");
  await heading(page, "Create your account").waitFor();
  studio.allow(page, { method: "POST", path: "/api/auth/sign-up", status: 403 });
  await page.getByLabel("Name", { exact: true }).fill("Walk In");
  await page.getByLabel("Email").fill(`walkin-${process.pid}@example.com`);
  await page.getByLabel("Password").fill("walking in freely");
  await page.getByRole("button", { name: "Sign up" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "Sign-up needs an invitation" });
  await alert.waitFor();
  const text = await alert.textContent();
  assert.match(text, /invite your email address/);
  assert.match(text, /setup link that edgeflow serve prints/);
  assert.equal(await alert.locator("code").first().textContent(), "edgeflow serve");
  await checkA11y(page, "sign-up refused");
});

step("an invited colleague signs up through the invitation's link and lands in the owner's organization", async () => {
  const inv = await studio.api(ownerSignedIn, "POST", `/api/organizations/${organizationId}/invitations`, {
    email: colleague.email,
    role: "member",
  });
  const accept = new URL(inv.acceptUrl);
  assert.equal(accept.pathname, "/invite");

  colleagueContext = await studio.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await newPage(colleagueContext);
  await studio.gotoApp(page, accept.pathname + accept.search);
  await heading(page, "Join an organization").waitFor();
  await page.getByText("You were invited to an organization on edgeflow.").waitFor();
  const signIn = page.getByRole("link", { name: "Sign in to accept" });
  assert.equal(await signIn.getAttribute("href"), `/sign-in?next=${encodeURIComponent(accept.pathname + accept.search)}`);

  await page.getByLabel("Name", { exact: true }).fill(colleague.name);
  await page.getByLabel("Email").fill(colleague.email);
  await page.getByLabel("Password").fill(colleague.password);
  await checkA11y(page, "invite");
  await screenshot(page, "invite");

  // another email than the invited one is refused, with the server's reason
  studio.allow(page, { method: "POST", path: "/api/auth/sign-up", status: 403 });
  await page.getByLabel("Email").fill(`not-${colleague.email}`);
  await page.getByRole("button", { name: "Sign up and join" }).click();
  await page.getByRole("alert").filter({ hasText: "The invitation was sent to another email address" }).waitFor();
  await checkA11y(page, "invite refused");

  await page.getByLabel("Email").fill(colleague.email);
  await page.getByRole("button", { name: "Sign up and join" }).click();
  await heading(page, "Workflows and functions").waitFor();
  assert.equal(new URL(page.url()).pathname, "/");
  assert.equal(await page.locator("#org-switch option:checked").textContent(), owner.organization);
  const session = await sessionOf(colleagueContext);
  assert.equal(session.user.email, colleague.email);
  assert.equal(session.activeOrganizationId, organizationId);
  assert.deepEqual(
    session.organizations.map((o) => [o.id, o.role]),
    [[organizationId, "member"]],
  );

  // the used link, opened signed in, offers to accept and is refused with the server's reason
  await studio.gotoApp(page, accept.pathname + accept.search);
  studio.allow(page, { method: "POST", path: "/api/invitations/accept", status: 409 });
  await page.getByRole("button", { name: "Accept invitation" }).click();
  await page.getByRole("alert").filter({ hasText: /The invitation is accepted/ }).waitFor();
  assert.equal(new URL(page.url()).pathname, "/invite");
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
  await heading(page, "Sign in").waitFor();
  await page.getByLabel("Email").fill(colleague.email);
  await page.getByLabel("Password").fill(colleague.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  const acceptButton = page.getByRole("button", { name: "Accept invitation" });
  await acceptButton.waitFor();
  assert.equal(new URL(page.url()).pathname, "/invite");
  await page.getByText(colleague.email, { exact: false }).first().waitFor();
  await checkA11y(page, "invite signed in");
  await screenshot(page, "invite-accept");
  await acceptButton.click();
  await heading(page, "Workflows and functions").waitFor();
  assert.equal(new URL(page.url()).pathname, "/");
  assert.equal(await page.locator("#org-switch option:checked").textContent(), "Naval Ordnance Lab");
  const session = await sessionOf(page.context());
  assert.equal(session.activeOrganizationId, org.id);
  assert.equal(session.organizations.find((o) => o.id === org.id)?.role, "admin");
});
