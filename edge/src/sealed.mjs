// Secrets at rest. The edge keeps worker secret bindings (secret_text) in its registry; on disk their text is
// sealed with AES-256-GCM under a key the edge gets at start:
//
//   - from edgeflow serve, on standard input (--key-stdin): a key derived from edgeflow's secret key (HKDF), so
//     it is in no file and in no environment variable that the edge or workerd could pass on;
//   - when the edge is started by hand, from DIR/secrets.key, generated (0600) on the first start.
//
// A registry written by an older edge, with plaintext secrets (before decision 320, those of every account but the
// legacy one), is read once and written back sealed.

import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const PREFIX = "v1.";
const AAD = Buffer.from("edgeflow local edge secret_text");
export const KEY_FILE = "secrets.key";

// parseKey reads a key written as 64 hex digits.
export function parseKey(text, where) {
  const t = String(text).trim();
  if (!/^[0-9a-fA-F]{64}$/.test(t)) throw new Error(`${where}: the key must be 64 hex digits (32 bytes)`);
  return Buffer.from(t, "hex");
}

// readKeyFromStdin reads the key line edgeflow writes on the edge's standard input.
export async function readKeyFromStdin(stdin = process.stdin) {
  let text = "";
  for await (const chunk of stdin) {
    text += chunk.toString();
    if (text.includes("\n") || text.length > 200) break;
  }
  return parseKey(text.split("\n")[0], "--key-stdin");
}

// keyFromFile answers the key of DIR/secrets.key, creating it (0600) when it does not exist.
export function keyFromFile(dataDir) {
  const file = path.join(dataDir, KEY_FILE);
  try {
    fs.writeFileSync(file, `${randomBytes(32).toString("hex")}\n`, { mode: 0o600, flag: "wx" });
  } catch (err) {
    if (err.code !== "EEXIST") throw new Error(`cannot create key file ${file}: ${err.message}`, { cause: err });
  }
  fs.chmodSync(file, 0o600);
  return parseKey(fs.readFileSync(file, "utf8"), `key file ${file}`);
}

export function seal(key, text) {
  const iv = randomBytes(12);
  const c = createCipheriv("aes-256-gcm", key, iv);
  c.setAAD(AAD);
  const body = Buffer.concat([c.update(text, "utf8"), c.final(), c.getAuthTag()]);
  return `${PREFIX}${iv.toString("base64url")}.${body.toString("base64url")}`;
}

export function open(key, sealed) {
  if (typeof sealed !== "string" || !sealed.startsWith(PREFIX)) throw new Error("not a sealed value");
  const [ivText, bodyText] = sealed.slice(PREFIX.length).split(".");
  const iv = Buffer.from(ivText ?? "", "base64url");
  const body = Buffer.from(bodyText ?? "", "base64url");
  if (iv.length !== 12 || body.length < 16) throw new Error("not a sealed value");
  const d = createDecipheriv("aes-256-gcm", key, iv);
  d.setAAD(AAD);
  d.setAuthTag(body.subarray(body.length - 16));
  return Buffer.concat([d.update(body.subarray(0, body.length - 16)), d.final()]).toString("utf8");
}

// secretBindings yields every secret_text binding anywhere in a registry state: each such element of every
// `bindings` array, at any depth. So the versions of every account (the legacy one at the top and those under
// `accounts`), the versions a deployment or rollback points at, and any record added later that holds bindings
// are all covered, without a list of where bindings live to keep in step. A binding's own value (a json
// binding's `json`) is not searched.
function* secretBindings(node) {
  if (node === null || typeof node !== "object") return;
  if (Array.isArray(node)) {
    for (const v of node) yield* secretBindings(v);
    return;
  }
  for (const [k, v] of Object.entries(node)) {
    if (k === "bindings" && Array.isArray(v)) {
      for (const b of v) if (b !== null && typeof b === "object" && b.type === "secret_text") yield b;
    } else {
      yield* secretBindings(v);
    }
  }
}

// sealState answers a copy of the registry state for the disk: every secret_text binding's text sealed.
export function sealState(state, key) {
  const out = structuredClone(state);
  for (const b of secretBindings(out)) {
    if (typeof b.text === "string") {
      b.sealed = seal(key, b.text);
      delete b.text;
    }
  }
  return out;
}

// openState opens the sealed secrets of a state read from disk, in place. It answers true when the state held
// plaintext secrets (an older edge wrote it) and should be written back. A secret sealed with another key is an
// error that says so.
export function openState(state, key, file) {
  let plaintext = false;
  for (const b of secretBindings(state)) {
    if (typeof b.sealed === "string") {
      try {
        b.text = open(key, b.sealed);
      } catch {
        throw new Error(
          `${file} holds secrets sealed with another key: start the edge with the key it was started with before (edgeflow serve passes a key derived from its secret key; a hand-started edge uses ${KEY_FILE} in its data dir)`,
        );
      }
      delete b.sealed;
    } else if (typeof b.text === "string") {
      plaintext = true;
    }
  }
  return plaintext;
}

// tightenModes makes every file under dir readable by the owner only (0600, directories 0700; executables keep
// their owner's execute bit), for data dirs written by an older edge.
export function tightenModes(dir) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    try {
      if (e.isDirectory()) {
        fs.chmodSync(p, 0o700);
        tightenModes(p);
      } else if (e.isFile()) {
        const mode = fs.statSync(p).mode & 0o777;
        if (mode & 0o077) fs.chmodSync(p, mode & 0o700);
      }
    } catch {
      // a file that went away meanwhile
    }
  }
}
