// Zones and their worker routes. Every handler takes the account's context (ctx, see ../api.mjs) and the call (c);
// the route table (routes.mjs) lists them.

import { createHash } from "node:crypto";
import { EdgeError, ROUTE_INVALID, ROUTE_NOT_FOUND, ZONE_NOT_FOUND } from "../errors.mjs";
import { intParam, pageInfo, requireObject } from "../http.mjs";
import { hexId, now } from "../registry.mjs";

function zoneId(name) {
  return createHash("sha256").update(`zone:${name}`).digest("hex").slice(0, 32);
}

// ensureZone returns the account's zone of the domain name, created when it has none (every registrable domain is
// a zone of a local account). Call it inside ctx.apply: it changes the account's state.
export function ensureZone(ctx, name) {
  const id = zoneId(name);
  if (!ctx.state.zones[id]) ctx.state.zones[id] = { id, name, created_on: now(), routes: [] };
  return ctx.state.zones[id];
}

function zoneJSON(ctx, z) {
  return {
    id: z.id,
    name: z.name,
    status: "active",
    paused: false,
    type: "full",
    account: { id: ctx.accountId, name: ctx.state.accountName },
    created_on: z.created_on,
  };
}

export async function listZones(ctx, c) {
  const name = c.query.get("name");
  let zones = Object.values(ctx.state.zones);
  if (name) {
    const known = zones.filter((z) => z.name === name.toLowerCase());
    // Every registrable domain (two labels) is a zone of this local account.
    if (known.length === 0 && /^[a-z0-9-]+\.[a-z0-9-]+$/i.test(name)) {
      const z = await ctx.apply(() => ensureZone(ctx, name.toLowerCase()), { restart: false });
      zones = [z];
    } else {
      zones = known;
    }
  }
  const { items, info } = pageInfo(
    zones.map((z) => zoneJSON(ctx, z)),
    intParam(c.query, "page", { def: 1, min: 1 }),
    intParam(c.query, "per_page", { def: 20, min: 1, max: 1000 }),
  );
  return { result: items, info };
}

export function getZone(ctx, c) {
  const z = ctx.state.zones[c.params.zone];
  if (!z) throw new EdgeError(404, ZONE_NOT_FOUND, `Invalid zone identifier '${c.params.zone}'`);
  return { result: zoneJSON(ctx, z) };
}

function allRoutes(ctx) {
  const out = [];
  for (const s of Object.values(ctx.state.scripts)) {
    for (const r of s.routes) out.push({ ...r, script: s.name });
  }
  for (const z of Object.values(ctx.state.zones)) for (const r of z.routes ?? []) out.push({ ...r, zone_id: z.id });
  return out;
}

function routeZone(ctx, pattern) {
  const host = pattern
    .replace(/^\*?\.?/, "")
    .split("/")[0]
    .toLowerCase();
  const zones = Object.values(ctx.state.zones);
  return zones.find((z) => host === z.name || host.endsWith(`.${z.name}`)) ?? null;
}

export function listZoneRoutes(ctx, c) {
  const zone = ctx.state.zones[c.params.zone];
  if (!zone) throw new EdgeError(404, ZONE_NOT_FOUND, `Invalid zone identifier '${c.params.zone}'`);
  const routes = allRoutes(ctx)
    .filter((r) => r.zone_id === zone.id || routeZone(ctx, r.pattern)?.id === zone.id)
    .map((r) => ({ id: r.id, pattern: r.pattern, script: r.script ?? "" }));
  return {
    result: routes,
    info: { page: 1, per_page: 50, count: routes.length, total_count: routes.length, total_pages: 1 },
  };
}

export async function createZoneRoute(ctx, c) {
  const zone = ctx.state.zones[c.params.zone];
  if (!zone) throw new EdgeError(404, ZONE_NOT_FOUND, `Invalid zone identifier '${c.params.zone}'`);
  const body = requireObject(await c.json());
  if (typeof body.pattern !== "string" || body.pattern === "")
    throw new EdgeError(400, ROUTE_INVALID, "pattern is required");
  const route = { id: hexId(), pattern: body.pattern, script: body.script ?? "" };
  await ctx.apply(
    (st) => {
      st.zones[zone.id].routes.push(route);
    },
    { restart: false },
  );
  return { result: route };
}

function findRoute(ctx, zoneId, routeId) {
  const zone = ctx.state.zones[zoneId];
  if (!zone) throw new EdgeError(404, ZONE_NOT_FOUND, `Invalid zone identifier '${zoneId}'`);
  const i = zone.routes.findIndex((r) => r.id === routeId);
  if (i < 0) throw new EdgeError(404, ROUTE_NOT_FOUND, `route '${routeId}' not found`);
  return { zone, i, route: zone.routes[i] };
}

export function getZoneRoute(ctx, c) {
  return { result: findRoute(ctx, c.params.zone, c.params.route).route };
}

export async function updateZoneRoute(ctx, c) {
  const { zone, i } = findRoute(ctx, c.params.zone, c.params.route);
  const body = requireObject(await c.json());
  if (typeof body.pattern !== "string" || body.pattern === "")
    throw new EdgeError(400, ROUTE_INVALID, "pattern is required");
  const route = { id: c.params.route, pattern: body.pattern, script: body.script ?? "" };
  await ctx.apply(
    (st) => {
      st.zones[zone.id].routes[i] = route;
    },
    { restart: false },
  );
  return { result: route };
}

export async function deleteZoneRoute(ctx, c) {
  const { zone, i } = findRoute(ctx, c.params.zone, c.params.route);
  await ctx.apply(
    (st) => {
      st.zones[zone.id].routes.splice(i, 1);
    },
    { restart: false },
  );
  return { result: { id: c.params.route } };
}
