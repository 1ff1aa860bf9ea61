// Webhooks in Studio: a user creates a webhook for a receiver this test runs (the secret is shown once, with
// Copy), a deploy sends it a signed deploy.completed message that the receiver first refuses and then accepts,
// the deliveries show both attempts, Redeliver sends the same message again, the events are edited, the secret
// rotated and the webhook deleted after confirming; a private address is refused with the reason.
import assert from "node:assert/strict";
import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";
import { after, before, test } from "node:test";
import { checkA11y, navTo, screenshot, startStudio } from "./harness.mjs";

let studio;
let receiver;
const received = []; // { headers, body }

before(async () => {
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
  // The operator allows the receiver's loopback address for webhooks.
  studio = await startStudio({ args: ["--allow-hosts", "127.0.0.1"] });
});
after(async () => {
  await studio?.close();
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

async function waitFor(what, fn, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await fn()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test("webhooks: create with a secret shown once, deliveries with attempts, redeliver, edit, rotate, delete", async (t) => {
  if (studio.skip) return t.skip(studio.skip);
  const user = await studio.apiSignUp();
  const page = await studio.newPage(user.context);
  const hookURL = `http://127.0.0.1:${receiver.address().port}/events`;

  await studio.gotoApp(page, "/");
  await navTo(page, "Webhooks");
  await page.getByRole("heading", { name: "Webhooks", level: 1 }).waitFor();
  await page.getByText("This project has no webhooks yet.").waitFor();
  await checkA11y(page, "webhooks, empty");

  // A private address is refused with the reason, at the URL field.
  await page.getByRole("button", { name: "New webhook" }).click();
  const dialog = page.getByRole("dialog", { name: "New webhook" });
  await dialog.getByLabel("Endpoint URL").fill("http://10.0.0.1/hook");
  studio.allow(page, { method: "POST", path: "/api/webhooks", status: 422 });
  await dialog.getByRole("button", { name: "Create webhook" }).click();
  await dialog.getByText(/private address/).waitFor();

  // The receiver's URL, for deploy results only.
  await dialog.getByLabel("Endpoint URL").fill(hookURL);
  await dialog.getByRole("checkbox", { name: "deploy.completed" }).check();
  await dialog.getByRole("checkbox", { name: "deploy.failed" }).check();
  await dialog.getByRole("button", { name: "Create webhook" }).click();
  const secretDialog = page.getByRole("dialog", { name: "Signing secret" });
  const secret = await secretDialog.getByLabel("Secret").inputValue();
  assert.match(secret, /^whsec_[A-Za-z0-9+/]{32}$/);
  await checkA11y(page, "webhooks, the secret");
  await screenshot(page, "webhooks-secret");
  await secretDialog.getByRole("button", { name: "Done" }).click();
  const row = page.getByRole("row", { name: new RegExp(hookURL) });
  await row.getByText("deploy.completed, deploy.failed").waitFor();
  // The secret is not shown again.
  assert.equal(await page.getByText(secret).count(), 0);

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
  await deliveries.getByText("delivered").waitFor({ timeout: 60_000 });
  await deliveries.getByText("2 attempts").click();
  await deliveries.getByText(/503 in \d+ ms — the endpoint answered 503/).waitFor();
  await checkA11y(page, "webhooks, deliveries");
  await screenshot(page, "webhooks-deliveries");
  assert.equal(received.length, 2);
  for (const r of received) assert.ok(verify(secret, r.headers, r.body), "the signature verifies");
  assert.equal(received[0].headers["webhook-id"], received[1].headers["webhook-id"]);
  const message = JSON.parse(received[1].body.toString("utf8"));
  assert.equal(message.type, "deploy.completed");
  assert.equal(message.data.workflowId, wf.id);

  // Redeliver: the same message again, as a new delivery.
  await deliveries.getByRole("button", { name: /^Redeliver deploy.completed/ }).click();
  await waitFor("the redelivery", () => received.length === 3);
  assert.equal(received[2].headers["webhook-id"], received[0].headers["webhook-id"]);
  assert.ok(verify(secret, received[2].headers, received[2].body));
  await deliveries.getByText("redelivery", { exact: false }).first().waitFor();

  // Edit the events: every event when none is checked.
  await row.getByRole("button", { name: `Edit ${hookURL}` }).click();
  const edit = page.getByRole("dialog", { name: "Edit webhook" });
  await edit.getByRole("checkbox", { name: "deploy.completed" }).uncheck();
  await edit.getByRole("checkbox", { name: "deploy.failed" }).uncheck();
  await edit.getByRole("button", { name: "Save changes" }).click();
  await row.getByText("All events").waitFor();

  // Rotate: a new secret, shown once.
  await row.getByRole("button", { name: `Rotate secret of ${hookURL}` }).click();
  await page.getByRole("dialog", { name: "Rotate the secret?" }).getByRole("button", { name: "Rotate secret" }).click();
  const rotated = await page.getByRole("dialog", { name: "Signing secret" }).getByLabel("Secret").inputValue();
  assert.match(rotated, /^whsec_/);
  assert.notEqual(rotated, secret);
  await page.getByRole("dialog", { name: "Signing secret" }).getByRole("button", { name: "Done" }).click();

  // Delete, after confirming.
  await row.getByRole("button", { name: `Delete ${hookURL}` }).click();
  await page.getByRole("dialog", { name: "Delete the webhook?" }).getByRole("button", { name: "Delete webhook" }).click();
  await page.getByText("This project has no webhooks yet.").waitFor();
  studio.assertClean(page);
});
