// Webhooks in Studio: a user creates a webhook for a receiver this test runs (the secret is shown once, with
// Copy), a deploy sends it a signed deploy.completed message that the receiver first refuses and then accepts,
// the deliveries show both attempts, Redeliver sends the same message again, the events are edited, the secret
// rotated and the webhook deleted after confirming; a private address is refused with the reason.
import { expect, test } from "@playwright/test";
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import { checkA11y, navTo, screenshot, useStudio } from "./harness.mjs";

let studio;
let receiver;
const received = []; // { headers, body }

// The operator allows the receiver's loopback address for webhooks.
useStudio({ args: ["--allow-hosts", "127.0.0.1"] }, (s) => (studio = s));
test.beforeAll(async () => {
  // The receiver refuses the first message (503) and accepts every later one.
  receiver = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(received.length === 1 ? 503 : 204);
      res.end();
    });
  });
  await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));
});
test.afterAll(() => {
  receiver?.close();
});

// verify checks a message as a receiver following the Standard Webhooks specification does.
function verify(secret, headers, body) {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key)
    .update(`${headers["webhook-id"]}.${headers["webhook-timestamp"]}.`)
    .update(body)
    .digest();
  return String(headers["webhook-signature"] ?? "")
    .split(" ")
    .some((s) => {
      const [v, b64] = s.split(",");
      const got = Buffer.from(b64 ?? "", "base64");
      return v === "v1" && got.length === expected.length && timingSafeEqual(got, expected);
    });
}

test("webhooks: create with a secret shown once, deliveries with attempts, redeliver, edit, rotate, delete", async () => {
  const user = await studio.apiSignUp();
  const page = await studio.newPage(user.context);
  const hookURL = `http://127.0.0.1:${receiver.address().port}/events`;

  await studio.gotoApp(page, "/");
  await navTo(page, "Webhooks");
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();
  await expect(page.getByText("This project has no webhooks yet.")).toBeVisible();
  await checkA11y(page, "webhooks, empty");

  // A private address is refused with the reason, at the URL field.
  await page.getByRole("button", { name: "New webhook" }).click();
  const dialog = page.getByRole("dialog", { name: "New webhook" });
  await dialog.getByLabel("Endpoint URL").fill("http://10.0.0.1/hook");
  studio.allow(page, { method: "POST", path: "/api/webhooks", status: 422 });
  await dialog.getByRole("button", { name: "Create webhook" }).click();
  await expect(dialog.getByText(/private address/)).toBeVisible();

  // The receiver's URL, for deploy results only.
  await dialog.getByLabel("Endpoint URL").fill(hookURL);
  await dialog.getByRole("checkbox", { name: "deploy.completed" }).check();
  await dialog.getByRole("checkbox", { name: "deploy.failed" }).check();
  await dialog.getByRole("button", { name: "Create webhook" }).click();
  const secretDialog = page.getByRole("dialog", { name: "Signing secret" });
  const secret = await secretDialog.getByLabel("Secret").inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
  await checkA11y(page, "webhooks, the secret");
  await screenshot(page, "webhooks-secret");
  await secretDialog.getByRole("button", { name: "Done" }).click();
  const row = page.getByRole("row", { name: new RegExp(hookURL) });
  await expect(row.getByText("deploy.completed, deploy.failed")).toBeVisible();
  // The secret is not shown again.
  expect(await page.getByText(secret).count()).toBe(0);

  // A deploy to the local edge sends deploy.completed.
  const connection = await studio.api(user, "POST", "/api/connections", { provider: "local", name: "Local edge" });
  const wf = await studio.api(user, "POST", "/api/workflows", { name: "Hooked" });
  const ir = {
    metadata: { name: "Hooked" },
    nodes: [{ id: "hello", type: "step", name: "Hello", data: { code: "return { hello: 'world' };" } }],
    edges: [],
    entryNodeId: "hello",
  };
  await studio.api(user, "POST", `/api/workflows/${wf.id}/versions`, { ir });
  await studio.api(user, "POST", `/api/workflows/${wf.id}/deploy`, { connectionId: connection.id });

  // The first attempt is refused (503), the retry 5 s later accepted (204); the page follows the deliveries.
  const deliveries = page.getByRole("region", { name: /Deliveries to/ });
  await expect(deliveries.getByText("delivered")).toBeVisible({ timeout: 60_000 });
  await deliveries.getByText("2 attempts").click();
  await expect(deliveries.getByText(/503 in \d+ ms — the endpoint answered 503/)).toBeVisible();
  await checkA11y(page, "webhooks, deliveries");
  await screenshot(page, "webhooks-deliveries");
  expect(received.length).toBe(2);
  for (const r of received) expect(verify(secret, r.headers, r.body), "the signature verifies").toBeTruthy();
  expect(received[0].headers["webhook-id"]).toBe(received[1].headers["webhook-id"]);
  const message = JSON.parse(received[1].body.toString("utf8"));
  expect(message.type).toBe("deploy.completed");
  expect(message.data.workflowId).toBe(wf.id);

  // Redeliver: the same message again, as a new delivery.
  await deliveries.getByRole("button", { name: /^Redeliver deploy.completed/ }).click();
  await expect.poll(() => received.length, { message: "the redelivery arrives", timeout: 60_000 }).toBe(3);
  expect(received[2].headers["webhook-id"]).toBe(received[0].headers["webhook-id"]);
  expect(verify(secret, received[2].headers, received[2].body)).toBeTruthy();
  await expect(deliveries.getByText("redelivery", { exact: false }).first()).toBeVisible();

  // Edit the events: every event when none is checked.
  await row.getByRole("button", { name: `Edit ${hookURL}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit webhook" });
  await edit.getByRole("checkbox", { name: "deploy.completed" }).uncheck();
  await edit.getByRole("checkbox", { name: "deploy.failed" }).uncheck();
  await edit.getByRole("button", { name: "Save changes" }).click();
  await expect(row.getByText("All events")).toBeVisible();

  // Rotate: a new secret, shown once.
  await row.getByRole("button", { name: `Rotate secret of ${hookURL}` }).click();
  await page.getByRole("dialog", { name: "Rotate the secret?" }).getByRole("button", { name: "Rotate secret" }).click();
  const rotated = await page.getByRole("dialog", { name: "Signing secret" }).getByLabel("Secret").inputValue();
  expect(rotated).toMatch(/^whsec_/);
  expect(rotated).not.toBe(secret);
  await page.getByRole("dialog", { name: "Signing secret" }).getByRole("button", { name: "Done" }).click();

  // Delete, after confirming.
  await row.getByRole("button", { name: `Delete ${hookURL}` }).click();
  await page
    .getByRole("dialog", { name: "Delete the webhook?" })
    .getByRole("button", { name: "Delete webhook" })
    .click();
  await expect(page.getByText("This project has no webhooks yet.")).toBeVisible();
  studio.assertClean(page);
});
