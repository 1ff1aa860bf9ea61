// Accounts of the local edge. The edge hosts any number of accounts, as Cloudflare does; each has its own id,
// API token, workers.dev subdomain, scripts, Workflows, KV namespaces, D1 databases, R2 buckets and zones.
//
// - The legacy account is the one every edge had before accounts existed: its state stays at the top of
//   registry.json, its token is the root token (DIR/token) and its names in workerd are the names users chose, so
//   existing data directories, URLs and instances keep working unchanged.
// - Every other account lives under `accounts[<id>]` in registry.json with the same shape. Only a SHA-256 hash of
//   its token is kept. Its names in workerd (workers, Workflows, R2 buckets) are prefixed with `<account id>.`, a
//   character no user-chosen name may hold, so two accounts may use the same names without colliding and a
//   binding always resolves inside its own account. KV namespace and D1 database ids are random 128-bit ids the
//   edge generates, so they are unique across accounts as they are; a binding is accepted only for the account's
//   own ids (plan.mjs, api/workers.mjs).
// - Accounts are created (or given a fresh token) by POST /__edge/accounts with the root token; see gateway.mjs.

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { EdgeError, INVALID_REQUEST, SUBDOMAIN_TAKEN, UNAUTHORIZED } from "./errors.mjs";
import { hexId, now } from "./registry.mjs";

const SUBDOMAIN = /^[a-z0-9][a-z0-9-]{0,62}$/;
const REF = /^[A-Za-z0-9_.:-]{1,128}$/;

export function hashToken(token) {
  return createHash("sha256").update(token).digest("hex");
}

// accountStates lists [id, state, legacy] of every account of a registry state.
export function accountStates(root) {
  const out = [[root.accountId, root, true]];
  for (const [id, st] of Object.entries(root.accounts ?? {})) out.push([id, st, false]);
  return out;
}

// Naming maps an account's names onto workerd's: identity for the legacy account, `<id>.<name>` for the others.
export class Naming {
  constructor(id, legacy) {
    this.prefix = legacy ? "" : `${id}.`;
  }
  script(name) {
    return this.prefix + name;
  }
  workflow(name) {
    return this.prefix + name;
  }
  bucket(name) {
    return this.prefix + name;
  }
}

function emptyAccount(id, name, subdomain, ref) {
  return {
    accountId: id,
    accountName: name,
    subdomain,
    ref,
    created_on: now(),
    tokenHash: "",
    scripts: {},
    workflows: {},
    kv: {},
    d1: {},
    r2: {},
    zones: {},
  };
}

// AccountView is one account as the API handlers see it: its state (looked up afresh on every use, since a
// rolled-back change replaces the registry's state object), its id and its names in workerd.
export class AccountView {
  constructor(registry, id, legacy) {
    this.registry = registry;
    this.id = id;
    this.legacy = legacy;
    this.names = new Naming(id, legacy);
  }
  get state() {
    return this.of(this.registry.state);
  }
  // of returns this account's state inside a registry state (the live one or one being changed).
  of(root) {
    if (this.legacy) return root;
    const st = root.accounts?.[this.id];
    if (!st) throw new EdgeError(403, UNAUTHORIZED, "Unauthorized to access requested resource");
    return st;
  }
}

// Accounts creates accounts and tells which account a token belongs to.
export class Accounts {
  constructor({ registry, runtime, rootToken }) {
    this.registry = registry;
    this.runtime = runtime;
    this.root = Buffer.from(rootToken);
    this.rootId = hashToken(rootToken).slice(0, 32);
  }

  // rootTokenId is the id of the root token as the identity routes show it (api/identity.mjs).
  rootTokenId() {
    return this.rootId;
  }

  get state() {
    return this.registry.state;
  }

  // principal returns {root: true} for the root token, {root: false, id} for an account's token, null otherwise.
  principal(token) {
    const given = Buffer.from(token);
    if (given.length === this.root.length && timingSafeEqual(given, this.root))
      return { root: true, id: this.state.accountId };
    const h = Buffer.from(hashToken(token), "hex");
    for (const [id, st] of Object.entries(this.state.accounts ?? {})) {
      if (st.tokenHash && timingSafeEqual(h, Buffer.from(st.tokenHash, "hex"))) return { root: false, id };
    }
    return null;
  }

  exists(id) {
    return id === this.state.accountId || Boolean(this.state.accounts?.[id]);
  }

  isLegacy(id) {
    return id === this.state.accountId;
  }

  // bySubdomain returns the id of the account whose workers.dev subdomain is sub, or null.
  bySubdomain(sub) {
    for (const [id, st] of accountStates(this.state)) if (st.subdomain === sub) return id;
    return null;
  }

  // subdomainTaken reports whether sub may not become account id's subdomain: another account has it, or (since
  // `<workers>/<subdomain>/<script>` and the legacy `<workers>/<script>` share a path) a legacy script has it.
  subdomainTaken(sub, id) {
    const owner = this.bySubdomain(sub);
    if (owner !== null && owner !== id) return true;
    return !this.isLegacy(id) && Boolean(this.state.scripts[sub]);
  }

  list() {
    return Object.values(this.state.accounts ?? {}).map((st) => this.json(st));
  }

  json(st) {
    return {
      id: st.accountId,
      name: st.accountName,
      subdomain: st.subdomain,
      ref: st.ref ?? null,
      created_on: st.created_on,
    };
  }

  // provision creates an account, or, when one with the same ref exists, gives that account a new token (the old
  // one stops working). It answers the token once; only its hash is kept.
  async provision(body) {
    const name = body.name ?? "Local Edge Account";
    if (typeof name !== "string" || name.trim() === "" || name.length > 200) {
      throw new EdgeError(400, INVALID_REQUEST, "name must be a non-empty string of at most 200 characters");
    }
    const ref = body.ref ?? null;
    if (ref !== null && (typeof ref !== "string" || !REF.test(ref))) {
      throw new EdgeError(400, INVALID_REQUEST, "ref must be 1-128 letters, digits, '_', '.', ':' and '-'");
    }
    const token = randomBytes(30).toString("base64url");
    return this.runtime.apply(
      (root) => {
        root.accounts ??= {};
        let st = ref === null ? undefined : Object.values(root.accounts).find((a) => a.ref === ref);
        const created = !st;
        if (!st) {
          const id = hexId();
          let sub = `edge-${id.slice(0, 12)}`;
          while (this.subdomainTaken(sub, id)) sub = `edge-${hexId().slice(0, 12)}`;
          st = emptyAccount(id, name.trim(), sub, ref);
          root.accounts[id] = st;
        }
        st.tokenHash = hashToken(token);
        return { created, account: { ...this.json(st), token } };
      },
      { restart: false },
    );
  }

  checkSubdomain(sub, id) {
    if (typeof sub !== "string" || !SUBDOMAIN.test(sub)) {
      throw new EdgeError(400, INVALID_REQUEST, "subdomain must be 1-63 lowercase letters, digits and dashes");
    }
    if (this.subdomainTaken(sub, id)) throw new EdgeError(409, SUBDOMAIN_TAKEN, `the subdomain '${sub}' is taken`);
  }
}
