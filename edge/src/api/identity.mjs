// Who the caller is: the token verify routes, the user, the caller's accounts and memberships. Every handler takes
// the account's context (ctx, see ../api.mjs) and the call (c); the route table (routes.mjs) lists them.

import { EdgeError, INVALID_REQUEST } from "../errors.mjs";
import { intParam, pageInfo } from "../http.mjs";

// tokenId is the id of the account's token as Cloudflare shows it: the legacy account's is derived from the root
// token, another account's from the hash of its token (the token itself is not kept).
function tokenId(ctx) {
  return ctx.legacy ? ctx.accounts.rootTokenId() : ctx.state.tokenHash.slice(0, 32);
}

function accountJSON(ctx) {
  return {
    id: ctx.accountId,
    name: ctx.state.accountName,
    type: "standard",
    created_on: "2024-01-01T00:00:00Z",
    settings: { enforce_twofactor: false },
  };
}

export function verifyToken(ctx) {
  return { result: { id: tokenId(ctx), status: "active", not_before: null, expires_on: null } };
}

export function getUser(ctx) {
  return {
    result: {
      id: tokenId(ctx),
      email: "local@edgeflow.local",
      first_name: "Local",
      last_name: "Edge",
      suspended: false,
    },
  };
}

// listAccounts answers the token's own account. Cloudflare: per_page 5..50, `name` keeps the accounts of that
// name, direction asc|desc.
export function listAccounts(ctx, c) {
  const perPage = intParam(c.query, "per_page", { def: 20, min: 5, max: 50 });
  const direction = c.query.get("direction");
  if (direction !== null && direction !== "asc" && direction !== "desc")
    throw new EdgeError(400, INVALID_REQUEST, "direction must be asc or desc");
  const name = c.query.get("name");
  const list = [accountJSON(ctx)].filter((a) => name === null || name === "" || a.name === name);
  const { items, info } = pageInfo(list, intParam(c.query, "page", { def: 1, min: 1 }), perPage);
  return { result: items, info };
}

export function getAccount(ctx) {
  return { result: accountJSON(ctx) };
}

// listMemberships answers the token's membership of its account. Cloudflare: per_page 5..50, as for /accounts.
export function listMemberships(ctx, c) {
  const membership = {
    id: tokenId(ctx),
    status: "accepted",
    account: { id: ctx.accountId, name: ctx.state.accountName },
    roles: ["Administrator"],
  };
  const { items, info } = pageInfo(
    [membership],
    intParam(c.query, "page", { def: 1, min: 1 }),
    intParam(c.query, "per_page", { def: 20, min: 5, max: 50 }),
  );
  return { result: items, info };
}
