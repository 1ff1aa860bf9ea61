// Zones and their worker routes. Methods of Api (../api.mjs), installed on it by installHandlers, so that `this` is
// the account's Api.

import { createHash } from "node:crypto";
import { EdgeError, ROUTE_INVALID, ROUTE_NOT_FOUND, ZONE_NOT_FOUND } from "../errors.mjs";
import { intParam, pageInfo, requireObject } from "../http.mjs";
import { hexId, now } from "../registry.mjs";

export class ZoneHandlers {
  // addZoneRoutes adds the routes of this part of the API to the router r; A is the path of the account.
  addZoneRoutes(r, A) {
    r.add("GET", "/zones", (c) => this.zones(c));
    r.add("GET", "/zones/:zone", (c) => ({ result: this.zone(c.params.zone) }));
    r.add("GET", "/zones/:zone/workers/routes", (c) => this.zoneRoutes(c));
    r.add("POST", "/zones/:zone/workers/routes", (c) => this.zoneRouteCreate(c));
    r.add("GET", "/zones/:zone/workers/routes/:route", (c) => ({ result: this.findRoute(c.params.zone, c.params.route).route }));
    r.add("PUT", "/zones/:zone/workers/routes/:route", (c) => this.zoneRouteUpdate(c));
    r.add("DELETE", "/zones/:zone/workers/routes/:route", (c) => this.zoneRouteDelete(c));
  }

  zoneId(name) {
    return createHash("sha256").update(`zone:${name}`).digest("hex").slice(0, 32);
  }

  ensureZone(name) {
    const id = this.zoneId(name);
    if (!this.state.zones[id]) this.state.zones[id] = { id, name, created_on: now(), routes: [] };
    return this.state.zones[id];
  }

  zoneJSON(z) {
    return { id: z.id, name: z.name, status: "active", paused: false, type: "full", account: { id: this.account, name: this.state.accountName }, created_on: z.created_on };
  }

  async zones(c) {
    const name = c.query.get("name");
    let zones = Object.values(this.state.zones);
    if (name) {
      const known = zones.filter((z) => z.name === name.toLowerCase());
      // Every registrable domain (two labels) is a zone of this local account.
      if (known.length === 0 && /^[a-z0-9-]+\.[a-z0-9-]+$/i.test(name)) {
        const z = await this.apply(() => this.ensureZone(name.toLowerCase()), { restart: false });
        zones = [z];
      } else {
        zones = known;
      }
    }
    const { items, info } = pageInfo(zones.map((z) => this.zoneJSON(z)), intParam(c.query, "page", { def: 1, min: 1 }), intParam(c.query, "per_page", { def: 20, min: 1, max: 1000 }));
    return { result: items, info };
  }

  zone(id) {
    const z = this.state.zones[id];
    if (!z) throw new EdgeError(404, ZONE_NOT_FOUND, `Invalid zone identifier '${id}'`);
    return this.zoneJSON(z);
  }

  allRoutes() {
    const out = [];
    for (const s of Object.values(this.state.scripts)) {
      for (const r of s.routes) out.push({ ...r, script: s.name });
    }
    for (const z of Object.values(this.state.zones)) for (const r of z.routes ?? []) out.push({ ...r, zone_id: z.id });
    return out;
  }

  routeZone(pattern) {
    const host = pattern.replace(/^\*?\.?/, "").split("/")[0].toLowerCase();
    const zones = Object.values(this.state.zones);
    return zones.find((z) => host === z.name || host.endsWith(`.${z.name}`)) ?? null;
  }

  zoneRoutes(c) {
    const zone = this.state.zones[c.params.zone];
    if (!zone) throw new EdgeError(404, ZONE_NOT_FOUND, `Invalid zone identifier '${c.params.zone}'`);
    const routes = this.allRoutes()
      .filter((r) => r.zone_id === zone.id || this.routeZone(r.pattern)?.id === zone.id)
      .map((r) => ({ id: r.id, pattern: r.pattern, script: r.script ?? "" }));
    return { result: routes, info: { page: 1, per_page: 50, count: routes.length, total_count: routes.length, total_pages: 1 } };
  }

  async zoneRouteCreate(c) {
    const zone = this.state.zones[c.params.zone];
    if (!zone) throw new EdgeError(404, ZONE_NOT_FOUND, `Invalid zone identifier '${c.params.zone}'`);
    const body = requireObject(await c.json());
    if (typeof body.pattern !== "string" || body.pattern === "") throw new EdgeError(400, ROUTE_INVALID, "pattern is required");
    const route = { id: hexId(), pattern: body.pattern, script: body.script ?? "" };
    await this.apply((st) => {
      st.zones[zone.id].routes.push(route);
    }, { restart: false });
    return { result: route };
  }

  findRoute(zoneId, routeId) {
    const zone = this.state.zones[zoneId];
    if (!zone) throw new EdgeError(404, ZONE_NOT_FOUND, `Invalid zone identifier '${zoneId}'`);
    const i = zone.routes.findIndex((r) => r.id === routeId);
    if (i < 0) throw new EdgeError(404, ROUTE_NOT_FOUND, `route '${routeId}' not found`);
    return { zone, i, route: zone.routes[i] };
  }

  async zoneRouteUpdate(c) {
    const { zone, i } = this.findRoute(c.params.zone, c.params.route);
    const body = requireObject(await c.json());
    if (typeof body.pattern !== "string" || body.pattern === "") throw new EdgeError(400, ROUTE_INVALID, "pattern is required");
    const route = { id: c.params.route, pattern: body.pattern, script: body.script ?? "" };
    await this.apply((st) => {
      st.zones[zone.id].routes[i] = route;
    }, { restart: false });
    return { result: route };
  }

  async zoneRouteDelete(c) {
    const { zone, i } = this.findRoute(c.params.zone, c.params.route);
    await this.apply((st) => {
      st.zones[zone.id].routes.splice(i, 1);
    }, { restart: false });
    return { result: { id: c.params.route } };
  }
}
