// A script's secrets: secret_text bindings, each change a new version of the script that is deployed at once (as
// `wrangler secret put` does on Cloudflare). Every handler takes the account's context (ctx, see ../api.mjs) and the
// call (c); the route table (routes.mjs) lists them.

import { EdgeError, INVALID_REQUEST, SCRIPT_INVALID, SECRET_NOT_FOUND } from "../errors.mjs";
import { requireObject } from "../http.mjs";
import { newId, now } from "../registry.mjs";
import { currentVersion, deployVersion, followDeploy, nameInUse } from "../scripts.mjs";
import { findScript } from "./workers.mjs";

// listSecrets answers the names of a script's secrets, never their values.
export function listSecrets(ctx, c) {
  return {
    result: (currentVersion(findScript(ctx, c))?.metadata.bindings ?? [])
      .filter((b) => b.type === "secret_text")
      .map((b) => ({ name: b.name, type: "secret_text" })),
  };
}

export async function putSecret(ctx, c) {
  const s = findScript(ctx, c);
  const body = requireObject(await c.json());
  if (typeof body.name !== "string" || !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(body.name)) {
    throw new EdgeError(400, INVALID_REQUEST, "secret name must be a JavaScript identifier");
  }
  if (body.type === "secret_key") refuseSecretKey(body);
  if (body.type !== undefined && body.type !== "secret_text") {
    throw new EdgeError(
      400,
      INVALID_REQUEST,
      `secret type must be secret_text or secret_key, got ${JSON.stringify(body.type)}`,
    );
  }
  if (typeof body.text !== "string") throw new EdgeError(400, INVALID_REQUEST, "secret text must be a string");
  const taken = (currentVersion(s).metadata.bindings ?? []).find((b) => b.name === body.name);
  if (taken && taken.type !== "secret_text") throw nameInUse(body.name);
  await newVersionWith(ctx, s.name, (bindings) => [
    ...bindings.filter((b) => b.name !== body.name),
    { type: "secret_text", name: body.name, text: body.text },
  ]);
  return { result: { name: body.name, type: "secret_text" } };
}

export function getSecret(ctx, c) {
  const b = (currentVersion(findScript(ctx, c)).metadata.bindings ?? []).find(
    (x) => x.type === "secret_text" && x.name === c.params.secret,
  );
  if (!b) throw new EdgeError(404, SECRET_NOT_FOUND, `secret '${c.params.secret}' not found`);
  return { result: { name: b.name, type: "secret_text" } };
}

export async function deleteSecret(ctx, c) {
  const s = findScript(ctx, c);
  const has = (currentVersion(s).metadata.bindings ?? []).some(
    (x) => x.type === "secret_text" && x.name === c.params.secret,
  );
  if (!has) throw new EdgeError(404, SECRET_NOT_FOUND, `secret '${c.params.secret}' not found`);
  await newVersionWith(ctx, s.name, (bindings) =>
    bindings.filter((b) => !(b.type === "secret_text" && b.name === c.params.secret)),
  );
  return { result: {} };
}

// putSecretsBulk is PATCH …/secrets-bulk (application/merge-patch+json, what `wrangler secret bulk` of wrangler 4
// sends): {secrets: {NAME: {name, text, type: "secret_text"} | null}}, each secret set or, when null, deleted, all in
// one new version. It answers the script's secrets after the change, as the list does.
export async function putSecretsBulk(ctx, c) {
  const s = findScript(ctx, c);
  const body = requireObject(await c.json());
  const secrets = body.secrets;
  if (secrets === null || typeof secrets !== "object" || Array.isArray(secrets))
    throw new EdgeError(400, INVALID_REQUEST, "secrets must be an object of name: {name, text, type} or null");
  const bindings = currentVersion(s).metadata.bindings ?? [];
  const set = new Map();
  const drop = new Set();
  for (const [name, v] of Object.entries(secrets)) {
    if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name))
      throw new EdgeError(400, INVALID_REQUEST, `secrets.${name}: a secret name must be a JavaScript identifier`);
    if (v === null) {
      drop.add(name);
      continue;
    }
    if (typeof v !== "object" || Array.isArray(v))
      throw new EdgeError(400, INVALID_REQUEST, `secrets.${name} must be {name, text, type} or null`);
    if (v.type === "secret_key") refuseSecretKey({ ...v, name });
    if (v.type !== undefined && v.type !== "secret_text")
      throw new EdgeError(400, INVALID_REQUEST, `secrets.${name}.type must be secret_text`);
    if (typeof v.text !== "string") throw new EdgeError(400, INVALID_REQUEST, `secrets.${name}.text must be a string`);
    const taken = bindings.find((b) => b.name === name);
    if (taken && taken.type !== "secret_text") throw nameInUse(name);
    set.set(name, v.text);
  }
  if (set.size + drop.size > 0) {
    await newVersionWith(ctx, s.name, (prev) => [
      ...prev.filter((b) => !(b.type === "secret_text" && (set.has(b.name) || drop.has(b.name)))),
      ...[...set].map(([name, text]) => ({ type: "secret_text", name, text })),
    ]);
  }
  return listSecrets(ctx, c);
}

function newVersionWith(ctx, name, edit) {
  return ctx.apply((st) => {
    const script = st.scripts[name];
    const prev = currentVersion(script);
    const v = structuredClone(prev);
    v.id = newId();
    v.number = (script.lastNumber ?? 0) + 1;
    v.created_on = now();
    v.metadata.bindings = edit(prev.metadata.bindings ?? []);
    script.lastNumber = v.number;
    script.versions.push(v);
    deployVersion(script, v, { source: "secret" });
    followDeploy(st, name);
  });
}

const KEY_FORMATS = ["raw", "pkcs8", "spki", "jwk"];

const KEY_USAGES = ["encrypt", "decrypt", "sign", "verify", "deriveKey", "deriveBits", "wrapKey", "unwrapKey"];

// refuseSecretKey checks a secret_key secret as Cloudflare does (format, algorithm, usages, and the key in
// key_base64, or key_jwk for format jwk), then refuses it: a secret_key binding gives the worker a CryptoKey, which
// the local edge's runtime cannot bind (decision 265). The message says what to do instead.
function refuseSecretKey(body) {
  if (!KEY_FORMATS.includes(body.format))
    throw new EdgeError(400, INVALID_REQUEST, `secret_key: format must be one of ${KEY_FORMATS.join(", ")}`);
  if (
    body.algorithm === null ||
    typeof body.algorithm !== "object" ||
    Array.isArray(body.algorithm) ||
    typeof body.algorithm.name !== "string"
  ) {
    throw new EdgeError(
      400,
      INVALID_REQUEST,
      "secret_key: algorithm must be an object with a name, as crypto.subtle.importKey takes it",
    );
  }
  if (!Array.isArray(body.usages) || body.usages.length === 0 || body.usages.some((u) => !KEY_USAGES.includes(u))) {
    throw new EdgeError(
      400,
      INVALID_REQUEST,
      `secret_key: usages must be a non-empty array of ${KEY_USAGES.join(", ")}`,
    );
  }
  if (
    body.format === "jwk"
      ? body.key_jwk === null || typeof body.key_jwk !== "object"
      : typeof body.key_base64 !== "string" || body.key_base64 === ""
  ) {
    throw new EdgeError(
      400,
      INVALID_REQUEST,
      body.format === "jwk"
        ? "secret_key: format jwk needs key_jwk (a JSON Web Key object)"
        : "secret_key: key_base64 is required",
    );
  }
  throw new EdgeError(
    400,
    SCRIPT_INVALID,
    `secret '${body.name}' is of type secret_key, which the local edge cannot bind (its workers receive text secrets only); store the key as a secret_text (for example the JWK text) and import it with crypto.subtle.importKey`,
  );
}
