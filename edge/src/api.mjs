// The Cloudflare REST API subset under /client/v4 for one account, and the proxy to its workers. gateway.mjs
// authenticates each request and hands it to the Api of its account.

import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { parseCron } from "./cron.mjs";
import {
  EdgeError,
  Router,
  envelope,
  errorEnvelope,
  intParam,
  pageInfo,
  parseJSON,
  readBody,
  requireObject,
  send,
  sendError,
} from "./http.mjs";
import { hexId, newId, now } from "./registry.mjs";
import { canonicalWorkflows } from "./runtime.mjs";
import {
  checkScriptName,
  currentVersion,
  deployVersion,
  emptyScript,
  newVersion,
  parseUpload,
  publicBindings,
  resolveBindings,
  scriptResult,
} from "./scripts.mjs";

const JSON_LIMIT = 10 << 20;
const UPLOAD_LIMIT = 100 << 20;
const VALUE_LIMIT = 25 << 20;
const INSTANCE_ID = /^[a-zA-Z0-9_][a-zA-Z0-9_-]{0,99}$/;
const EVENT_TYPE = /^[a-zA-Z0-9_][a-zA-Z0-9_-]{0,99}$/;
const WORKFLOW_NAME = /^[a-zA-Z0-9_][a-zA-Z0-9_-]{0,63}$/;
const BUCKET_NAME = /^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;
const TERMINAL = new Set(["complete", "errored", "terminated"]);

export class Api {
  // An Api serves one account (view: an AccountView of accounts.mjs); the gateway (gateway.mjs) authenticates
  // requests and hands each to the Api of its account.
  constructor({ registry, runtime, view, accounts, port, logger }) {
    this.registry = registry;
    this.runtime = runtime;
    this.view = view;
    this.names = view.names;
    this.accounts = accounts;
    this.port = port;
    this.logger = logger;
    this.pendingIds = new Set();
    this.agent = new http.Agent({ keepAlive: true, maxSockets: 512 });
    this.router = new Router();
    this.#routes();
    this.syncing = new Map();
  }

  get state() {
    return this.view.state;
  }

  get account() {
    return this.view.id;
  }

  // #apply runs change on this account's state through the runtime (see Runtime.apply).
  #apply(change, opts) {
    return this.runtime.apply((root) => change(this.view.of(root)), opts);
  }

  // unfinished returns the instances of the workflow whose workerd name is rtName that may need reviving.
  unfinished(rtName) {
    return this.#unfinished(rtName);
  }

  // ownsWorkflow reports whether the workerd name rtName is one of this account's Workflows.
  ownsWorkflow(rtName) {
    return Object.keys(this.state.workflows).some((n) => this.names.workflow(n) === rtName);
  }

  // proxyWorker sends a request to this account's script name, whose workers.dev URL must be enabled.
  async proxyWorker(req, res, name, path) {
    const script = this.state.scripts[name];
    if (!script || !script.current) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end(`There is no worker named '${name}' on this local edge.\n`);
      return;
    }
    if (!script.subdomain.enabled) {
      res.writeHead(404, { "content-type": "text/plain" });
      res.end(
        `The workers.dev URL of worker '${name}' is disabled. Enable it with POST /client/v4/accounts/${this.account}/workers/scripts/${name}/subdomain {"enabled":true}.\n`,
      );
      return;
    }
    await this.runtime.enter();
    let left = false;
    const leave = () => {
      if (!left) {
        left = true;
        this.runtime.leave();
      }
    };
    res.on("close", leave);
    const target = new URL(this.runtime.url);
    const publicHost = this.view.legacy ? `${name}.localhost:${this.port}` : `${name}.${this.state.subdomain}.localhost:${this.port}`;
    const headers = { ...req.headers };
    delete headers.connection;
    delete headers["keep-alive"];
    delete headers["mf-route-override"];
    delete headers["mf-original-url"];
    headers.host = publicHost;
    headers["mf-route-override"] = this.names.script(name);
    headers["mf-original-url"] = `http://${publicHost}${path}`;
    await new Promise((resolve, reject) => {
      const up = http.request(
        { host: target.hostname, port: target.port, method: req.method, path, headers, agent: this.agent },
        (upRes) => {
          const h = { ...upRes.headers };
          delete h.connection;
          delete h["keep-alive"];
          res.writeHead(upRes.statusCode, h);
          upRes.pipe(res);
          upRes.on("end", resolve);
          upRes.on("error", reject);
        },
      );
      up.on("error", (e) => {
        leave();
        reject(e);
      });
      req.pipe(up);
    });
  }

  // dispatch answers a /client/v4 request the gateway has authenticated and found to be for this account.
  async dispatch(req, res, principal) {
    const url = new URL(req.url, "http://edge.invalid");
    const rawPath = req.url.split("?")[0].slice("/client/v4".length);
    const m = this.router.match(req.method, rawPath);
    if (!m.handler) {
      if (m.pathMatched) throw new EdgeError(405, 10405, `Method ${req.method} not allowed for ${url.pathname}`);
      throw new EdgeError(404, 7003, `Could not route to ${url.pathname}, perhaps your object identifier is invalid?`);
    }
    const ctx = {
      req,
      res,
      params: m.params,
      query: url.searchParams,
      body: (limit = JSON_LIMIT) => readBody(req, limit),
      json: async (opts) => parseJSON(await readBody(req, JSON_LIMIT), opts),
    };
    const out = await m.handler(ctx);
    if (out === undefined) return; // the handler answered itself
    send(res, out.status ?? 200, envelope(out.result, out.info));
  }

  #routes() {
    const r = this.router;
    const A = "/accounts/:account";
    // identity
    r.add("GET", "/user/tokens/verify", () => ({ result: { id: this.#tokenId(), status: "active", not_before: null, expires_on: null } }));
    r.add("GET", `${A}/tokens/verify`, () => ({ result: { id: this.#tokenId(), status: "active", not_before: null, expires_on: null } }));
    r.add("GET", "/user", () => ({
      result: { id: this.#tokenId(), email: "local@edgeflow.local", first_name: "Local", last_name: "Edge", suspended: false },
    }));
    r.add("GET", "/accounts", (c) => {
      const { items, info } = pageInfo([this.#accountJSON()], intParam(c.query, "page", { def: 1, min: 1 }), intParam(c.query, "per_page", { def: 20, min: 1, max: 50 }));
      return { result: items, info };
    });
    r.add("GET", A, () => ({ result: this.#accountJSON() }));
    r.add("GET", "/memberships", () => ({
      result: [{ id: this.#tokenId(), status: "accepted", account: { id: this.account, name: this.state.accountName }, roles: ["Administrator"] }],
      info: { page: 1, per_page: 20, count: 1, total_count: 1, total_pages: 1 },
    }));
    // zones and routes
    r.add("GET", "/zones", (c) => this.#zones(c));
    r.add("GET", "/zones/:zone", (c) => ({ result: this.#zone(c.params.zone) }));
    r.add("GET", "/zones/:zone/workers/routes", (c) => this.#zoneRoutes(c));
    r.add("POST", "/zones/:zone/workers/routes", (c) => this.#zoneRouteCreate(c));
    r.add("GET", "/zones/:zone/workers/routes/:route", (c) => ({ result: this.#findRoute(c.params.zone, c.params.route).route }));
    r.add("PUT", "/zones/:zone/workers/routes/:route", (c) => this.#zoneRouteUpdate(c));
    r.add("DELETE", "/zones/:zone/workers/routes/:route", (c) => this.#zoneRouteDelete(c));
    // workers
    const S = `${A}/workers/scripts/:script`;
    r.add("GET", `${A}/workers/scripts`, () => ({
      result: Object.values(this.state.scripts).filter((s) => s.current).map((s) => scriptResult(s)),
    }));
    r.add("PUT", S, (c) => this.#upload(c));
    r.add("GET", S, (c) => this.#scriptContent(c));
    r.add("DELETE", S, (c) => this.#deleteScript(c, 10007));
    r.add("GET", `${S}/content/v2`, (c) => this.#scriptContent(c));
    r.add("GET", `${S}/settings`, (c) => ({ result: this.#settings(this.#script(c)) }));
    r.add("PATCH", `${S}/settings`, (c) => this.#patchSettings(c));
    r.add("GET", `${S}/script-settings`, (c) => ({ result: this.#script(c).settings }));
    r.add("PATCH", `${S}/script-settings`, (c) => this.#patchScriptSettings(c));
    r.add("GET", `${S}/versions`, (c) => this.#versions(c));
    r.add("POST", `${S}/versions`, (c) => this.#upload(c, { deploy: false }));
    r.add("GET", `${S}/versions/:version`, (c) => ({ result: this.#versionJSON(this.#script(c), this.#version(c)) }));
    r.add("GET", `${S}/deployments`, (c) => ({ result: { deployments: [...this.#script(c, { missingOK: true })?.deployments ?? []].reverse() } }));
    r.add("POST", `${S}/deployments`, (c) => this.#deploy(c));
    r.add("GET", `${S}/secrets`, (c) => ({
      result: (currentVersion(this.#script(c))?.metadata.bindings ?? [])
        .filter((b) => b.type === "secret_text")
        .map((b) => ({ name: b.name, type: "secret_text" })),
    }));
    r.add("PUT", `${S}/secrets`, (c) => this.#putSecret(c));
    r.add("GET", `${S}/secrets/:secret`, (c) => this.#getSecret(c));
    r.add("DELETE", `${S}/secrets/:secret`, (c) => this.#deleteSecret(c));
    r.add("GET", `${S}/subdomain`, (c) => ({ result: this.#script(c).subdomain }));
    r.add("POST", `${S}/subdomain`, (c) => this.#setSubdomain(c));
    r.add("DELETE", `${S}/subdomain`, (c) => this.#setSubdomain(c, false));
    r.add("GET", `${S}/routes`, (c) => ({ result: this.#script(c).routes }));
    r.add("PUT", `${S}/routes`, (c) => this.#putRoutes(c));
    r.add("GET", `${S}/schedules`, (c) => ({ result: { schedules: this.#script(c).schedules } }));
    r.add("PUT", `${S}/schedules`, (c) => this.#putSchedules(c));
    r.add("GET", `${A}/workers/services/:script`, (c) => ({ result: this.#service(c) }));
    r.add("DELETE", `${A}/workers/services/:script`, (c) => this.#deleteScript(c, 10090));
    r.add("GET", `${A}/workers/subdomain`, () => ({ result: { subdomain: this.state.subdomain } }));
    r.add("PUT", `${A}/workers/subdomain`, (c) => this.#putAccountSubdomain(c));
    r.add("GET", `${A}/workers/account-settings`, () => ({ result: { default_usage_model: "standard", green_compute: false } }));
    // workflows
    const W = `${A}/workflows/:workflow`;
    r.add("GET", `${A}/workflows`, (c) => this.#listWorkflows(c));
    r.add("PUT", W, (c) => this.#putWorkflow(c));
    r.add("GET", W, (c) => this.#getWorkflow(c));
    r.add("DELETE", W, (c) => this.#deleteWorkflow(c));
    r.add("GET", `${W}/versions`, (c) => this.#workflowVersions(c));
    r.add("GET", `${W}/versions/:version`, (c) => this.#workflowVersion(c));
    r.add("GET", `${W}/instances`, (c) => this.#listInstances(c));
    r.add("POST", `${W}/instances`, (c) => this.#createInstance(c));
    r.add("POST", `${W}/instances/batch`, (c) => this.#createBatch(c));
    r.add("GET", `${W}/instances/:instance`, (c) => this.#getInstance(c));
    r.add("PATCH", `${W}/instances/:instance/status`, (c) => this.#changeStatus(c));
    r.add("POST", `${W}/instances/:instance/events/:type`, (c) => this.#sendEvent(c));
    // KV
    const K = `${A}/storage/kv/namespaces`;
    r.add("GET", K, (c) => this.#listNamespaces(c));
    r.add("POST", K, (c) => this.#createNamespace(c));
    r.add("GET", `${K}/:ns`, (c) => ({ result: this.#nsJSON(this.#namespace(c)) }));
    r.add("PUT", `${K}/:ns`, (c) => this.#renameNamespace(c));
    r.add("DELETE", `${K}/:ns`, (c) => this.#deleteNamespace(c));
    r.add("GET", `${K}/:ns/keys`, (c) => this.#listKeys(c));
    r.add("GET", `${K}/:ns/values/*key`, (c) => this.#getValue(c));
    r.add("PUT", `${K}/:ns/values/*key`, (c) => this.#putValue(c));
    r.add("DELETE", `${K}/:ns/values/*key`, (c) => this.#deleteValue(c));
    r.add("GET", `${K}/:ns/metadata/*key`, (c) => this.#getKeyMetadata(c));
    r.add("PUT", `${K}/:ns/bulk`, (c) => this.#bulkPut(c));
    r.add("DELETE", `${K}/:ns/bulk`, (c) => this.#bulkDelete(c));
    r.add("POST", `${K}/:ns/bulk/delete`, (c) => this.#bulkDelete(c));
    // D1
    const D = `${A}/d1/database`;
    r.add("GET", D, (c) => this.#listDatabases(c));
    r.add("POST", D, (c) => this.#createDatabase(c));
    r.add("GET", `${D}/:db`, (c) => ({ result: this.#dbJSON(this.#database(c)) }));
    r.add("DELETE", `${D}/:db`, (c) => this.#deleteDatabase(c));
    r.add("POST", `${D}/:db/query`, (c) => this.#query(c, false));
    r.add("POST", `${D}/:db/raw`, (c) => this.#query(c, true));
    // R2
    const R = `${A}/r2/buckets`;
    r.add("GET", R, (c) => this.#listBuckets(c));
    r.add("POST", R, (c) => this.#createBucket(c));
    r.add("GET", `${R}/:bucket`, (c) => ({ result: this.#bucketJSON(this.#bucket(c)) }));
    r.add("DELETE", `${R}/:bucket`, (c) => this.#deleteBucket(c));
    r.add("GET", `${R}/:bucket/objects`, (c) => this.#listObjects(c));
    r.add("GET", `${R}/:bucket/objects/*key`, (c) => this.#getObject(c));
    r.add("PUT", `${R}/:bucket/objects/*key`, (c) => this.#putObject(c));
    r.add("DELETE", `${R}/:bucket/objects/*key`, (c) => this.#deleteObject(c));
  }

  #tokenId() {
    return this.view.legacy ? this.accounts.rootTokenId() : this.state.tokenHash.slice(0, 32);
  }

  #accountJSON() {
    return {
      id: this.account,
      name: this.state.accountName,
      type: "standard",
      created_on: "2024-01-01T00:00:00Z",
      settings: { enforce_twofactor: false },
    };
  }

  // ---- zones -------------------------------------------------------------------------------------------------

  #zoneId(name) {
    return createHash("sha256").update(`zone:${name}`).digest("hex").slice(0, 32);
  }

  #ensureZone(name) {
    const id = this.#zoneId(name);
    if (!this.state.zones[id]) this.state.zones[id] = { id, name, created_on: now(), routes: [] };
    return this.state.zones[id];
  }

  #zoneJSON(z) {
    return { id: z.id, name: z.name, status: "active", paused: false, type: "full", account: { id: this.account, name: this.state.accountName }, created_on: z.created_on };
  }

  async #zones(c) {
    const name = c.query.get("name");
    let zones = Object.values(this.state.zones);
    if (name) {
      const known = zones.filter((z) => z.name === name.toLowerCase());
      // Every registrable domain (two labels) is a zone of this local account.
      if (known.length === 0 && /^[a-z0-9-]+\.[a-z0-9-]+$/i.test(name)) {
        const z = await this.#apply(() => this.#ensureZone(name.toLowerCase()), { restart: false });
        zones = [z];
      } else {
        zones = known;
      }
    }
    const { items, info } = pageInfo(zones.map((z) => this.#zoneJSON(z)), intParam(c.query, "page", { def: 1, min: 1 }), intParam(c.query, "per_page", { def: 20, min: 1, max: 1000 }));
    return { result: items, info };
  }

  #zone(id) {
    const z = this.state.zones[id];
    if (!z) throw new EdgeError(404, 1001, `Invalid zone identifier '${id}'`);
    return this.#zoneJSON(z);
  }

  #allRoutes() {
    const out = [];
    for (const s of Object.values(this.state.scripts)) {
      for (const r of s.routes) out.push({ ...r, script: s.name });
    }
    for (const z of Object.values(this.state.zones)) for (const r of z.routes ?? []) out.push({ ...r, zone_id: z.id });
    return out;
  }

  #routeZone(pattern) {
    const host = pattern.replace(/^\*?\.?/, "").split("/")[0].toLowerCase();
    const zones = Object.values(this.state.zones);
    return zones.find((z) => host === z.name || host.endsWith(`.${z.name}`)) ?? null;
  }

  #zoneRoutes(c) {
    const zone = this.state.zones[c.params.zone];
    if (!zone) throw new EdgeError(404, 1001, `Invalid zone identifier '${c.params.zone}'`);
    const routes = this.#allRoutes()
      .filter((r) => r.zone_id === zone.id || this.#routeZone(r.pattern)?.id === zone.id)
      .map((r) => ({ id: r.id, pattern: r.pattern, script: r.script ?? "" }));
    return { result: routes, info: { page: 1, per_page: 50, count: routes.length, total_count: routes.length, total_pages: 1 } };
  }

  async #zoneRouteCreate(c) {
    const zone = this.state.zones[c.params.zone];
    if (!zone) throw new EdgeError(404, 1001, `Invalid zone identifier '${c.params.zone}'`);
    const body = requireObject(await c.json());
    if (typeof body.pattern !== "string" || body.pattern === "") throw new EdgeError(400, 10022, "pattern is required");
    const route = { id: hexId(), pattern: body.pattern, script: body.script ?? "" };
    await this.#apply((st) => {
      st.zones[zone.id].routes.push(route);
    }, { restart: false });
    return { result: route };
  }

  #findRoute(zoneId, routeId) {
    const zone = this.state.zones[zoneId];
    if (!zone) throw new EdgeError(404, 1001, `Invalid zone identifier '${zoneId}'`);
    const i = zone.routes.findIndex((r) => r.id === routeId);
    if (i < 0) throw new EdgeError(404, 10020, `route '${routeId}' not found`);
    return { zone, i, route: zone.routes[i] };
  }

  async #zoneRouteUpdate(c) {
    const { zone, i } = this.#findRoute(c.params.zone, c.params.route);
    const body = requireObject(await c.json());
    if (typeof body.pattern !== "string" || body.pattern === "") throw new EdgeError(400, 10022, "pattern is required");
    const route = { id: c.params.route, pattern: body.pattern, script: body.script ?? "" };
    await this.#apply((st) => {
      st.zones[zone.id].routes[i] = route;
    }, { restart: false });
    return { result: route };
  }

  async #zoneRouteDelete(c) {
    const { zone, i } = this.#findRoute(c.params.zone, c.params.route);
    await this.#apply((st) => {
      st.zones[zone.id].routes.splice(i, 1);
    }, { restart: false });
    return { result: { id: c.params.route } };
  }

  // ---- scripts -----------------------------------------------------------------------------------------------

  #script(c, { missingOK = false, code = 10007 } = {}) {
    const s = this.state.scripts[c.params.script];
    if (!s || !s.current) {
      if (missingOK) return null;
      if (code === 10090) throw new EdgeError(404, 10090, "workers.api.error.service_not_found");
      throw new EdgeError(404, 10007, `This Worker does not exist on your account. (script '${c.params.script}' not found)`);
    }
    return s;
  }

  async #upload(c, { deploy = true } = {}) {
    const name = c.params.script;
    checkScriptName(name);
    const raw = await c.body(UPLOAD_LIMIT);
    const upload = await parseUpload(c.req.headers["content-type"], raw);
    const source = /wrangler/i.test(c.req.headers["user-agent"] ?? "") ? "wrangler" : "api";
    const started = Date.now();
    const result = await this.#apply(
      (st) => {
        const script = st.scripts[name] ?? emptyScript(name);
        st.scripts[name] = script;
        const bindings = resolveBindings(upload.metadata, currentVersion(script));
        this.#checkBoundResources(st, bindings);
        const version = newVersion(this.registry, script, upload, bindings, source);
        if (deploy) deployVersion(script, version, { source });
        return { script, version };
      },
      { restart: deploy },
    );
    const { script, version } = result;
    if (!deploy) {
      return { result: this.#versionJSON(script, version) };
    }
    const out = scriptResult(script);
    out.startup_time_ms = Date.now() - started;
    return { result: out };
  }

  // #checkBoundResources refuses, as Cloudflare does, a binding to a KV namespace, D1 database or R2 bucket the
  // account does not have: resources are created first (wrangler, edgeflow's deploy), then bound.
  #checkBoundResources(st, bindings) {
    for (const b of bindings) {
      if (b.type === "kv_namespace" && !st.kv[b.namespace_id]) {
        throw new EdgeError(400, 10042, `KV namespace '${b.namespace_id}' is not valid. Please verify the namespace_id of binding '${b.name}'.`);
      } else if (b.type === "d1" && !st.d1[b.id]) {
        throw new EdgeError(400, 10181, `D1 binding '${b.name}' references database '${b.id}' which was not found. Verify the database exists in your account.`);
      } else if (b.type === "r2_bucket" && !st.r2[b.bucket_name]) {
        throw new EdgeError(400, 10085, `R2 bucket '${b.bucket_name}' not found (binding '${b.name}'). Create the bucket first.`);
      }
    }
  }

  #scriptContent(c) {
    const v = currentVersion(this.#script(c));
    const main = v.modules.find((m) => m.name === (v.metadata.main_module ?? v.metadata.body_part)) ?? v.modules[0];
    const bytes = this.registry.getBlob(main.blob);
    c.res.writeHead(200, { "content-type": "application/javascript+module", "content-length": bytes.length });
    c.res.end(bytes);
  }

  async #deleteScript(c, code) {
    this.#script(c, { code });
    const name = c.params.script;
    await this.#apply((st) => {
      delete st.scripts[name];
    });
    return { result: { id: name } };
  }

  #settings(script) {
    const v = currentVersion(script);
    return {
      bindings: publicBindings(v),
      compatibility_date: v.metadata.compatibility_date ?? null,
      compatibility_flags: v.metadata.compatibility_flags ?? [],
      logpush: script.settings.logpush ?? false,
      observability: script.settings.observability ?? { enabled: false },
      placement: {},
      tail_consumers: script.settings.tail_consumers ?? null,
      tags: script.settings.tags ?? null,
      usage_model: "standard",
      limits: {},
    };
  }

  async #patchSettings(c) {
    const script = this.#script(c);
    const raw = await c.body(JSON_LIMIT);
    const ct = c.req.headers["content-type"] ?? "";
    let patch;
    if (ct.startsWith("multipart/form-data")) {
      let form;
      try {
        form = await new Request("http://edge.invalid/", { method: "POST", headers: { "content-type": ct }, body: raw }).formData();
      } catch (err) {
        throw new EdgeError(400, 10001, `malformed multipart body: ${err.message}`);
      }
      const part = form.get("settings") ?? form.get("metadata");
      if (part === null) throw new EdgeError(400, 10001, "the multipart body has no 'settings' part");
      patch = parseJSON(Buffer.from(typeof part === "string" ? part : await part.text()), { what: "settings" });
    } else {
      patch = parseJSON(raw);
    }
    requireObject(patch, "settings");
    const needsVersion = "bindings" in patch || "compatibility_date" in patch || "compatibility_flags" in patch;
    await this.#apply(
      (st) => {
        const s = st.scripts[script.name];
        for (const k of ["logpush", "observability", "tail_consumers", "tags"]) if (k in patch) s.settings[k] = patch[k];
        if (needsVersion) {
          const prev = currentVersion(s);
          const md = { ...prev.metadata };
          if ("compatibility_date" in patch) md.compatibility_date = patch.compatibility_date;
          if ("compatibility_flags" in patch) md.compatibility_flags = patch.compatibility_flags;
          let bindings = prev.metadata.bindings;
          if ("bindings" in patch) {
            // secrets listed without text keep their value
            const withSecrets = (patch.bindings ?? []).map((b) =>
              b?.type === "secret_text" && b.text === undefined ? { type: "inherit", name: b.name } : b,
            );
            bindings = resolveBindings({ bindings: withSecrets }, prev);
          }
          this.#checkBoundResources(st, bindings);
          const v = { ...structuredClone(prev), id: newId(), number: (s.lastNumber ?? 0) + 1, created_on: now(), metadata: { ...md, bindings } };
          s.lastNumber = v.number;
          s.versions.push(v);
          deployVersion(s, v, { source: "api" });
        }
      },
      { restart: needsVersion },
    );
    return { result: this.#settings(this.state.scripts[script.name]) };
  }

  async #patchScriptSettings(c) {
    const script = this.#script(c);
    const patch = requireObject(await c.json());
    await this.#apply(
      (st) => {
        const s = st.scripts[script.name];
        for (const k of ["logpush", "observability", "tail_consumers", "tags"]) if (k in patch) s.settings[k] = patch[k];
      },
      { restart: false },
    );
    return { result: this.state.scripts[script.name].settings };
  }

  #version(c) {
    const v = this.#script(c).versions.find((x) => x.id === c.params.version);
    if (!v) throw new EdgeError(404, 10214, `version '${c.params.version}' not found`);
    return v;
  }

  #versionJSON(script, v) {
    return {
      id: v.id,
      number: v.number,
      metadata: {
        created_on: v.created_on,
        modified_on: v.created_on,
        source: v.source,
        author_email: "local@edgeflow.local",
        hasPreview: false,
      },
      annotations: v.annotations ?? {},
      resources: {
        bindings: publicBindings(v),
        script: { etag: v.modules.map((m) => m.blob.slice(0, 8)).join("").slice(0, 32), handlers: [] },
        script_runtime: {
          compatibility_date: v.metadata.compatibility_date ?? null,
          compatibility_flags: v.metadata.compatibility_flags ?? [],
          usage_model: "standard",
        },
      },
      startup_time_ms: 0,
    };
  }

  #versions(c) {
    const s = this.#script(c);
    const all = [...s.versions].reverse().map((v) => this.#versionJSON(s, v));
    const { items, info } = pageInfo(all, intParam(c.query, "page", { def: 1, min: 1 }), intParam(c.query, "per_page", { def: 100, min: 1, max: 100 }));
    return { result: { items }, info };
  }

  async #deploy(c) {
    const s = this.#script(c);
    const body = requireObject(await c.json());
    const versions = body.versions;
    if (!Array.isArray(versions) || versions.length === 0) throw new EdgeError(400, 10001, "versions must be a non-empty array");
    const live = versions.filter((v) => Number(v?.percentage) > 0);
    if (live.length !== 1 || Number(live[0].percentage) !== 100) {
      throw new EdgeError(400, 10001, "the local edge deploys exactly one version at 100%; gradual deployments are not supported");
    }
    const vid = live[0].version_id;
    if (!s.versions.some((v) => v.id === vid)) throw new EdgeError(404, 10214, `version '${vid}' not found`);
    const dep = await this.#apply((st) => {
      const script = st.scripts[s.name];
      return deployVersion(script, script.versions.find((v) => v.id === vid), { source: script.versions.find((v) => v.id === vid).source, annotations: body.annotations ?? {} });
    });
    return { result: dep };
  }

  async #putSecret(c) {
    const s = this.#script(c);
    const body = requireObject(await c.json());
    if (typeof body.name !== "string" || !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(body.name)) {
      throw new EdgeError(400, 10001, "secret name must be a JavaScript identifier");
    }
    if (typeof body.text !== "string") throw new EdgeError(400, 10001, "secret text must be a string");
    if (body.type !== undefined && body.type !== "secret_text") {
      throw new EdgeError(400, 10001, `secret type '${body.type}' is not supported; use secret_text`);
    }
    await this.#newVersionWith(s.name, (bindings) => [
      ...bindings.filter((b) => b.name !== body.name),
      { type: "secret_text", name: body.name, text: body.text },
    ]);
    return { result: { name: body.name, type: "secret_text" } };
  }

  #getSecret(c) {
    const b = (currentVersion(this.#script(c)).metadata.bindings ?? []).find((x) => x.type === "secret_text" && x.name === c.params.secret);
    if (!b) throw new EdgeError(404, 10056, `secret '${c.params.secret}' not found`);
    return { result: { name: b.name, type: "secret_text" } };
  }

  async #deleteSecret(c) {
    const s = this.#script(c);
    const has = (currentVersion(s).metadata.bindings ?? []).some((x) => x.type === "secret_text" && x.name === c.params.secret);
    if (!has) throw new EdgeError(404, 10056, `secret '${c.params.secret}' not found`);
    await this.#newVersionWith(s.name, (bindings) => bindings.filter((b) => !(b.type === "secret_text" && b.name === c.params.secret)));
    return { result: {} };
  }

  #newVersionWith(name, edit) {
    return this.#apply((st) => {
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
    });
  }

  async #setSubdomain(c, enabled) {
    const s = this.#script(c);
    let body = {};
    if (enabled === undefined) body = requireObject(await c.json());
    const next = {
      enabled: enabled ?? body.enabled !== false,
      previews_enabled: enabled === false ? false : body.previews_enabled ?? s.subdomain.previews_enabled ?? false,
    };
    await this.#apply((st) => {
      st.scripts[s.name].subdomain = next;
    }, { restart: false });
    return { result: next };
  }

  async #putRoutes(c) {
    const s = this.#script(c);
    const body = await c.json();
    if (!Array.isArray(body)) throw new EdgeError(400, 10001, "routes must be a JSON array");
    const routes = body.map((r, i) => {
      if (r === null || typeof r !== "object" || typeof r.pattern !== "string" || r.pattern === "") {
        throw new EdgeError(400, 10022, `routes[${i}]: pattern is required`);
      }
      return { id: hexId(), pattern: r.pattern, ...(r.zone_name ? { zone_name: r.zone_name } : {}), ...(r.custom_domain ? { custom_domain: true } : {}) };
    });
    await this.#apply((st) => {
      for (const r of routes) if (r.zone_name) this.#ensureZone(r.zone_name.toLowerCase());
      st.scripts[s.name].routes = routes;
    }, { restart: false });
    return { result: routes };
  }

  async #putSchedules(c) {
    const s = this.#script(c);
    const body = await c.json();
    const list = Array.isArray(body) ? body : body?.schedules;
    if (!Array.isArray(list)) throw new EdgeError(400, 10001, "schedules must be a JSON array of {cron}");
    const schedules = list.map((x, i) => {
      try {
        parseCron(x?.cron);
      } catch (err) {
        throw new EdgeError(400, 10100, `schedules[${i}]: invalid cron: ${err.message}`);
      }
      return { cron: x.cron.trim(), created_on: now(), modified_on: now() };
    });
    await this.#apply((st) => {
      st.scripts[s.name].schedules = schedules;
    }, { restart: false });
    return { result: { schedules } };
  }

  #service(c) {
    const s = this.#script(c, { code: 10090 });
    const v = currentVersion(s);
    return {
      id: s.name,
      default_environment: {
        environment: "production",
        created_on: s.created_on,
        modified_on: s.modified_on,
        script: {
          id: s.name,
          tag: s.tag,
          tags: null,
          etag: s.etag ?? "",
          handlers: [],
          last_deployed_from: v.source,
          migration_tag: null,
          compatibility_date: v.metadata.compatibility_date ?? null,
        },
      },
      created_on: s.created_on,
      modified_on: s.modified_on,
    };
  }

  async #putAccountSubdomain(c) {
    const body = requireObject(await c.json());
    this.accounts.checkSubdomain(body.subdomain, this.account);
    await this.#apply((st) => {
      st.subdomain = body.subdomain;
    }, { restart: false });
    return { result: { subdomain: body.subdomain } };
  }

  // ---- workflows ---------------------------------------------------------------------------------------------

  #workflow(c) {
    const wf = this.state.workflows[c.params.workflow];
    if (!wf) throw new EdgeError(404, 10200, `Workflow '${c.params.workflow}' not found`);
    return wf;
  }

  #runnable(wf) {
    const canonical = canonicalWorkflows(this.state)[wf.name];
    if (!canonical) {
      throw new EdgeError(404, 10007, `script '${wf.script_name}' of workflow '${wf.name}' is not deployed`);
    }
  }

  #workflowJSON(wf, counts) {
    const out = {
      id: wf.id,
      name: wf.name,
      script_name: wf.script_name,
      class_name: wf.class_name,
      created_on: wf.created_on,
      modified_on: wf.modified_on,
      triggered_on: wf.triggered_on ?? null,
      version_id: wf.versions.at(-1).id,
      is_deleted: 0,
      terminator_running: 0,
      schedules: wf.schedules ?? [],
    };
    if (counts) out.instances = counts;
    return out;
  }

  async #putWorkflow(c) {
    const name = c.params.workflow;
    if (!WORKFLOW_NAME.test(name)) throw new EdgeError(400, 10001, `workflow name '${name}' is invalid: use 1-64 letters, digits, '-' and '_'`);
    const body = requireObject(await c.json());
    for (const f of ["script_name", "class_name"]) {
      if (typeof body[f] !== "string" || body[f] === "") throw new EdgeError(400, 10001, `${f} is required`);
    }
    const script = this.state.scripts[body.script_name];
    if (!script || !script.current) {
      throw new EdgeError(404, 10007, `script '${body.script_name}' does not exist; upload it before creating workflow '${name}'`);
    }
    let schedules = [];
    if (body.schedules !== undefined && body.schedules !== null) {
      if (!Array.isArray(body.schedules)) throw new EdgeError(400, 10001, "schedules must be an array of {cron}");
      schedules = body.schedules.map((x, i) => {
        const cron = typeof x === "string" ? x : x?.cron;
        try {
          parseCron(cron);
        } catch (err) {
          throw new EdgeError(400, 10001, `schedules[${i}]: invalid cron: ${err.message}`);
        }
        return { cron: cron.trim() };
      });
    }
    const prevCanon = canonicalWorkflows(this.state)[name];
    const willChange = !prevCanon || prevCanon.className !== body.class_name || prevCanon.scriptName !== body.script_name;
    const wf = await this.#apply(
      (st) => {
        const old = st.workflows[name];
        const t = now();
        const wf = old ?? { id: newId(), name, created_on: t, versions: [] };
        const changed = !old || old.class_name !== body.class_name || old.script_name !== body.script_name;
        wf.script_name = body.script_name;
        wf.class_name = body.class_name;
        wf.modified_on = t;
        wf.schedules = schedules;
        if (body.limits !== undefined) wf.limits = body.limits;
        if (changed || wf.versions.length === 0) {
          wf.versions.push({ id: newId(), class_name: body.class_name, script_name: body.script_name, created_on: t });
        }
        st.workflows[name] = wf;
        return wf;
      },
      { restart: willChange },
    ).catch((err) => {
      if (err.code === 10021) {
        throw new EdgeError(
          400,
          10021,
          `workflow '${name}': class '${body.class_name}' could not be started from script '${body.script_name}' (is it exported and a WorkflowEntrypoint?): ${err.message}`,
        );
      }
      throw err;
    });
    return { result: this.#workflowJSON(wf) };
  }

  async #counts(wf) {
    const counts = { queued: 0, running: 0, paused: 0, errored: 0, terminated: 0, complete: 0, waiting: 0, waitingForPause: 0 };
    if (!canonicalWorkflows(this.state)[wf.name]) return counts;
    for (const it of await this.#derivedInstances(this.names.workflow(wf.name))) counts[it.status] = (counts[it.status] ?? 0) + 1;
    return counts;
  }

  async #listWorkflows(c) {
    const search = c.query.get("search");
    let wfs = Object.values(this.state.workflows).sort((a, b) => a.name.localeCompare(b.name));
    if (search) wfs = wfs.filter((w) => w.name.includes(search));
    const { items, info } = pageInfo(wfs, intParam(c.query, "page", { def: 1, min: 1 }), intParam(c.query, "per_page", { def: 50, min: 1, max: 100 }));
    const result = [];
    for (const wf of items) result.push(this.#workflowJSON(wf, await this.#counts(wf)));
    return { result, info };
  }

  async #getWorkflow(c) {
    const wf = this.#workflow(c);
    return { result: this.#workflowJSON(wf, await this.#counts(wf)) };
  }

  async #deleteWorkflow(c) {
    const wf = this.#workflow(c);
    if (canonicalWorkflows(this.state)[wf.name]) {
      await this.runtime.explorer(`/workflows/${encodeURIComponent(this.names.workflow(wf.name))}`, { method: "DELETE" });
    }
    await this.#apply((st) => {
      delete st.workflows[wf.name];
    });
    this.registry.forgetWorkflowInstances(this.names.workflow(wf.name));
    return { result: { status: "ok", success: true } };
  }

  #workflowVersions(c) {
    const wf = this.#workflow(c);
    const all = [...wf.versions].reverse().map((v) => ({ id: v.id, workflow_id: wf.id, class_name: v.class_name, created_on: v.created_on, modified_on: v.created_on }));
    const { items, info } = pageInfo(all, intParam(c.query, "page", { def: 1, min: 1 }), intParam(c.query, "per_page", { def: 50, min: 1, max: 100 }));
    return { result: items, info };
  }

  #workflowVersion(c) {
    const wf = this.#workflow(c);
    const v = wf.versions.find((x) => x.id === c.params.version);
    if (!v) throw new EdgeError(404, 10214, `workflow version '${c.params.version}' not found`);
    return { result: { id: v.id, workflow_id: wf.id, class_name: v.class_name, created_on: v.created_on, modified_on: v.created_on } };
  }

  // #derivedInstances lists a workflow's instances from the index with Cloudflare's statuses. Only instances whose
  // last known status is not final are asked again (in one call to the control worker per 100); miniflare reports
  // `running` while an instance sleeps, waits for an event or backs off before a retry, which Cloudflare reports as
  // `waiting`, so those are looked at closer when the caller asks for running or waiting ones.
  async #derivedInstances(name, status) {
    await this.#syncIndex(name);
    await this.#refreshStatuses(name, this.registry.unfinishedOf(name));
    const list = [];
    for (const r of this.registry.instancesOf(name).values()) {
      if (!status || status === r.status || ((status === "running" || status === "waiting") && r.status === "running")) {
        list.push({ id: r.id, status: r.status, created_on: r.created_on });
      }
    }
    if (status && status !== "running" && status !== "waiting") return list;
    const running = list.filter((it) => it.status === "running");
    await mapLimit(running, 16, async (it) => {
      const d = await this.#details(name, it.id).catch(() => null);
      if (d) it.status = deriveStatus(d);
    });
    return list;
  }

  async #refreshStatuses(name, ids) {
    for (let i = 0; i < ids.length; i += 100) {
      const got = await this.runtime.control("/wf/statuses", { workflow: name, ids: ids.slice(i, i + 100) });
      for (const { id, status } of got) if (status) this.registry.setStatus(name, id, status);
    }
  }

  // #unfinished returns the instances of a workflow that may need reviving: those not final and not paused.
  async #unfinished(name) {
    await this.#syncIndex(name);
    await this.#refreshStatuses(name, this.registry.unfinishedOf(name));
    return this.registry.unfinishedOf(name).filter((id) => this.registry.instanceRecord(name, id).status !== "paused");
  }

  // #syncIndex adds to the index the instances that workers created through their bindings (the edge does not see
  // those calls). It counts the instance files in miniflare's storage of the workflow, a directory listing, and
  // only when there are more than the index holds reads miniflare's instance list, newest first, until it has
  // found them all.
  #syncIndex(name) {
    const running = this.syncing.get(name);
    if (running) return running;
    const p = (async () => {
      let files;
      try {
        files = fs.readdirSync(path.join(this.runtime.persistDir, "workflows", `miniflare-workflows-${name}`));
      } catch {
        return;
      }
      const count = files.filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite").length;
      const known = this.registry.instancesOf(name);
      let missing = count - known.size;
      const versionId = this.state.workflows[name.slice(this.names.prefix.length)]?.versions.at(-1).id;
      for (let page = 1; missing > 0; page++) {
        const q = new URLSearchParams({ page: String(page), per_page: "100" });
        const { status, body } = await this.runtime.explorer(`/workflows/${encodeURIComponent(name)}/instances?${q}`);
        if (status !== 200 || !body.success || body.result.length === 0) break;
        for (const it of body.result) {
          if (it.status === undefined || known.has(it.id)) continue;
          this.registry.recordInstance({ workflow: name, id: it.id, source: "binding", created_on: it.created_on ?? now(), version_id: versionId, status: it.status });
          missing--;
        }
        if (page >= (body.result_info?.total_pages ?? 1)) break;
      }
    })().finally(() => this.syncing.delete(name));
    this.syncing.set(name, p);
    return p;
  }

  async #details(workflow, id) {
    const { status, body } = await this.runtime.explorer(`/workflows/${encodeURIComponent(workflow)}/instances/${encodeURIComponent(id)}`);
    if (status === 404) throw new EdgeError(404, 10201, `Workflow instance '${id}' not found in workflow '${workflow}'`);
    if (!body.success) throw new EdgeError(502, 10001, body.errors?.[0]?.message ?? "instance lookup failed");
    return body.result;
  }

  async #listInstances(c) {
    const wf = this.#workflow(c);
    const status = c.query.get("status");
    const page = intParam(c.query, "page", { def: 1, min: 1 });
    const perPage = intParam(c.query, "per_page", { def: 50, min: 1, max: 100 });
    const direction = c.query.get("direction") ?? "desc";
    if (direction !== "asc" && direction !== "desc") throw new EdgeError(400, 10001, "direction must be asc or desc");
    const valid = ["queued", "running", "paused", "errored", "terminated", "complete", "waiting", "waitingForPause"];
    if (status && !valid.includes(status)) throw new EdgeError(400, 10001, `status must be one of ${valid.join(", ")}`);
    const rt = this.names.workflow(wf.name);
    let list = canonicalWorkflows(this.state)[wf.name] ? await this.#derivedInstances(rt, status) : [];
    if (status) list = list.filter((it) => it.status === status);
    const versionId = wf.versions.at(-1).id;
    list = list.map((it) => {
      const rec = this.registry.instanceRecord(rt, it.id);
      const created = rec?.created_on ?? it.created_on ?? null;
      return {
        id: it.id,
        status: it.status,
        created_on: created,
        modified_on: created,
        started_on: created,
        ended_on: null,
        version_id: rec?.version_id ?? versionId,
        workflow_id: wf.id,
      };
    });
    list.sort((a, b) => (a.created_on ?? "").localeCompare(b.created_on ?? "") * (direction === "asc" ? 1 : -1));
    const { items, info } = pageInfo(list, page, perPage);
    return { result: items, info };
  }

  #instanceInput(item, i) {
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      throw new EdgeError(400, 10001, `${i === undefined ? "body" : `[${i}]`} must be a JSON object`);
    }
    const id = item.instance_id ?? item.id;
    if (id !== undefined && (typeof id !== "string" || !INSTANCE_ID.test(id))) {
      throw new EdgeError(400, 10001, `instance_id '${id}' is invalid: use 1-100 letters, digits, '-' and '_'`);
    }
    return { id, params: item.params ?? {} };
  }

  async #createInstances(wf, inputs, source) {
    this.#runnable(wf);
    const ids = inputs.map((x) => x.id).filter((x) => x !== undefined);
    if (new Set(ids).size !== ids.length) throw new EdgeError(409, 10202, "the batch names the same instance_id twice");
    for (const id of ids) {
      if (this.pendingIds.has(`${wf.name}\n${id}`)) {
        throw new EdgeError(409, 10202, `Workflow instance '${id}' already exists in workflow '${wf.name}'`);
      }
    }
    for (const id of ids) this.pendingIds.add(`${wf.name}\n${id}`);
    try {
      const rt = this.names.workflow(wf.name);
      let created = await this.runtime.control("/wf/create", { workflow: rt, instances: inputs });
      if (created.retried) {
        // our first attempt may have gone through before its connection died: the ids are ours (pendingIds)
        created = created.map((r) => (r.error?.code === 10202 ? { id: r.id } : r));
      }
      const versionId = wf.versions.at(-1).id;
      const t = now();
      for (const r of created) {
        if (!r.error) this.registry.recordInstance({ workflow: rt, id: r.id, source, created_on: t, version_id: versionId, status: "queued" });
      }
      if (this.state.workflows[wf.name]) this.state.workflows[wf.name].triggered_on = t;
      this.registry.saveSoon();
      return created.map((r) => {
        if (r.error) return r;
        return { id: r.id, status: "queued", version_id: versionId, workflow_id: wf.id };
      });
    } finally {
      for (const id of ids) this.pendingIds.delete(`${wf.name}\n${id}`);
    }
  }

  async #createInstance(c) {
    const wf = this.#workflow(c);
    const body = (await c.json({ allowEmpty: true })) ?? {};
    const input = this.#instanceInput(body);
    const [r] = await this.#createInstances(wf, [input], "api");
    if (r.error) {
      const status = r.error.code === 10202 ? 409 : 400;
      throw new EdgeError(status, r.error.code, r.error.code === 10202 ? `${r.error.message} in workflow '${wf.name}'` : r.error.message);
    }
    return { result: r };
  }

  async #createBatch(c) {
    const wf = this.#workflow(c);
    const body = await c.json();
    if (!Array.isArray(body) || body.length === 0) throw new EdgeError(400, 10001, "body must be a non-empty JSON array of {instance_id?, params?}");
    if (body.length > 100) throw new EdgeError(400, 10001, "a batch holds at most 100 instances");
    const inputs = body.map((x, i) => this.#instanceInput(x, i));
    const out = await this.#createInstances(wf, inputs, "api");
    const failed = out.find((r) => r.error);
    if (failed) throw new EdgeError(failed.error.code === 10202 ? 409 : 400, failed.error.code, failed.error.message);
    return { result: out };
  }

  async #getInstance(c) {
    const wf = this.#workflow(c);
    this.#runnable(wf);
    const id = c.params.instance;
    const rt = this.names.workflow(wf.name);
    const d = await this.#details(rt, id);
    let rec = this.registry.instanceRecord(rt, id);
    if (!rec) {
      rec = { workflow: rt, id, source: "binding", created_on: d.queued ?? now(), version_id: wf.versions.at(-1).id, status: d.status };
      this.registry.recordInstance(rec);
    } else {
      this.registry.setStatus(rt, id, d.status);
    }
    const status = deriveStatus(d);
    const steps = d.steps.map((s) => {
      // miniflare names steps "<name>-<n>" (its cache key); Cloudflare shows the name the code gave.
      s = { ...s, name: typeof s.name === "string" ? s.name.replace(/-\d+$/, "") : s.name };
      if (s.type === "step") {
        return { ...s, output: s.output === undefined ? null : s.output };
      }
      if (s.type === "sleep") return { name: s.name, start: s.start, end: s.end, finished: s.finished, type: "sleep" };
      return s;
    });
    if (status === "terminated") steps.push({ type: "termination", trigger: { source: "api" } });
    return {
      result: {
        status,
        params: d.params ?? {},
        trigger: { source: rec?.source ?? "binding" },
        versionId: rec?.version_id ?? wf.versions.at(-1).id,
        queued: d.queued,
        start: d.start,
        end: TERMINAL.has(status) ? d.end : null,
        success: status === "complete" ? true : status === "errored" || status === "terminated" ? false : null,
        error: d.error ?? null,
        output: d.output ?? null,
        step_count: steps.filter((s) => s.type !== "termination").length,
        steps,
      },
    };
  }

  async #changeStatus(c) {
    const wf = this.#workflow(c);
    this.#runnable(wf);
    const body = requireObject(await c.json());
    const action = body.status ?? body.action;
    const actions = ["pause", "resume", "terminate", "restart"];
    if (!actions.includes(action)) throw new EdgeError(400, 10001, `status must be one of ${actions.join(", ")}, got '${action}'`);
    const id = c.params.instance;
    const rt = this.names.workflow(wf.name);
    const d = await this.#details(rt, id);
    const current = deriveStatus(d);
    const refuse = (why) => {
      throw new EdgeError(409, 10203, `cannot ${action} instance '${id}': ${why}`);
    };
    if (action === "pause" && TERMINAL.has(current)) refuse(`it is ${current}`);
    if (action === "resume" && current !== "paused" && current !== "waitingForPause") refuse(`it is ${current}, not paused`);
    if (action === "terminate" && TERMINAL.has(current)) refuse(`it is already ${current}`);
    const r = await this.runtime.control("/wf/action", { workflow: rt, id, action });
    this.registry.setStatus(rt, id, r.status);
    let status = r.status;
    if (status === "running" && (action === "resume" || action === "restart")) status = "running";
    return { result: { status, timestamp: now() } };
  }

  async #sendEvent(c) {
    const wf = this.#workflow(c);
    this.#runnable(wf);
    const type = c.params.type;
    if (!EVENT_TYPE.test(type)) throw new EdgeError(400, 10001, `event type '${type}' is invalid: use 1-100 letters, digits, '-' and '_'`);
    const raw = await c.body(JSON_LIMIT);
    const payload = parseJSON(raw, { allowEmpty: true, what: "event payload" }) ?? null;
    const id = c.params.instance;
    const rt = this.names.workflow(wf.name);
    const d = await this.#details(rt, id);
    const status = deriveStatus(d);
    if (TERMINAL.has(status)) throw new EdgeError(409, 10203, `cannot send an event to instance '${id}': it is ${status}`);
    await this.runtime.control("/wf/event", { workflow: rt, id, type, payload });
    return { result: {} };
  }

  // ---- KV ----------------------------------------------------------------------------------------------------

  #namespace(c) {
    const ns = this.state.kv[c.params.ns];
    if (!ns) throw new EdgeError(404, 10013, `namespace '${c.params.ns}' not found`);
    return ns;
  }

  #nsJSON(ns) {
    return { id: ns.id, title: ns.title, supports_url_encoding: true };
  }

  #listNamespaces(c) {
    const order = c.query.get("order") ?? "title";
    const dir = c.query.get("direction") === "desc" ? -1 : 1;
    const list = Object.values(this.state.kv)
      .map((ns) => this.#nsJSON(ns))
      .sort((a, b) => String(a[order === "id" ? "id" : "title"]).localeCompare(String(b[order === "id" ? "id" : "title"])) * dir);
    const { items, info } = pageInfo(list, intParam(c.query, "page", { def: 1, min: 1 }), intParam(c.query, "per_page", { def: 20, min: 1, max: 1000 }));
    return { result: items, info };
  }

  async #createNamespace(c) {
    const body = requireObject(await c.json());
    if (typeof body.title !== "string" || body.title.trim() === "" || body.title.length > 512) {
      throw new EdgeError(400, 10019, "title must be a non-empty string of at most 512 characters");
    }
    if (Object.values(this.state.kv).some((ns) => ns.title === body.title)) {
      throw new EdgeError(400, 10014, "a namespace with this account ID and title already exists");
    }
    const id = hexId();
    await this.#apply((st) => {
      st.kv[id] = { id, title: body.title, created_on: now() };
    });
    return { result: this.#nsJSON(this.state.kv[id]) };
  }

  async #renameNamespace(c) {
    const ns = this.#namespace(c);
    const body = requireObject(await c.json());
    if (typeof body.title !== "string" || body.title.trim() === "") throw new EdgeError(400, 10019, "title must be a non-empty string");
    if (Object.values(this.state.kv).some((x) => x.title === body.title && x.id !== ns.id)) {
      throw new EdgeError(400, 10014, "a namespace with this account ID and title already exists");
    }
    await this.#apply((st) => {
      st.kv[ns.id].title = body.title;
    }, { restart: false });
    return { result: this.#nsJSON(this.state.kv[ns.id]) };
  }

  async #deleteNamespace(c) {
    const ns = this.#namespace(c);
    await this.#clearNamespace(ns.id);
    await this.#apply((st) => {
      delete st.kv[ns.id];
    });
    return { result: {} };
  }

  async #clearNamespace(id) {
    let cursor = "";
    do {
      const r = await this.runtime.control("/kv/list", { ns: id, cursor, limit: 1000 });
      await mapLimit(r.keys, 16, (k) => this.#kvFetch(id, k.name, { method: "DELETE" }));
      cursor = r.cursor;
    } while (cursor);
  }

  async #listKeys(c) {
    const ns = this.#namespace(c);
    const limit = intParam(c.query, "limit", { def: 1000, min: 10, max: 1000 });
    const r = await this.runtime.control("/kv/list", { ns: ns.id, prefix: c.query.get("prefix") ?? "", cursor: c.query.get("cursor") ?? "", limit });
    return { result: r.keys, info: { count: r.keys.length, cursor: r.cursor } };
  }

  #kvFetch(ns, key, init = {}, extra = "") {
    const q = new URLSearchParams({ ns, key });
    return this.runtime.control(`/kv/value?${q}${extra}`, undefined, { ...init, response: true });
  }

  async #getValue(c) {
    const ns = this.#namespace(c);
    const res = await this.#kvFetch(ns.id, c.params.key, { method: "GET" });
    if (res.status === 404) {
      await res.arrayBuffer();
      throw new EdgeError(404, 10009, "get: 'key not found'");
    }
    const bytes = Buffer.from(await res.arrayBuffer());
    const headers = { "content-type": "application/octet-stream", "content-length": bytes.length };
    const md = res.headers.get("cf-kv-metadata");
    if (md) headers["cf-kv-metadata"] = md;
    c.res.writeHead(200, headers);
    c.res.end(bytes);
  }

  async #getKeyMetadata(c) {
    const ns = this.#namespace(c);
    const res = await this.#kvFetch(ns.id, c.params.key, { method: "GET" });
    await res.arrayBuffer();
    if (res.status === 404) throw new EdgeError(404, 10009, "get: 'key not found'");
    const md = res.headers.get("cf-kv-metadata");
    return { result: md ? JSON.parse(md) : null };
  }

  async #putValue(c) {
    const ns = this.#namespace(c);
    const key = c.params.key;
    checkKey(key);
    const raw = await c.body(VALUE_LIMIT);
    let value = raw;
    let metadata = null;
    const ct = c.req.headers["content-type"] ?? "";
    if (ct.startsWith("multipart/form-data")) {
      let form;
      try {
        form = await new Request("http://edge.invalid/", { method: "POST", headers: { "content-type": ct }, body: raw }).formData();
      } catch (err) {
        throw new EdgeError(400, 10001, `malformed multipart body: ${err.message}`);
      }
      const v = form.get("value");
      if (v === null) throw new EdgeError(400, 10001, "the multipart body has no 'value' part");
      value = typeof v === "string" ? Buffer.from(v) : Buffer.from(await v.arrayBuffer());
      const m = form.get("metadata");
      if (m !== null) metadata = parseJSON(Buffer.from(typeof m === "string" ? m : await m.text()), { what: "metadata" });
    }
    let extra = "";
    for (const k of ["expiration", "expiration_ttl"]) {
      const v = c.query.get(k);
      if (v !== null && v !== "") {
        if (!/^\d+$/.test(v)) throw new EdgeError(400, 10001, `${k} must be a whole number of seconds`);
        if (k === "expiration_ttl" && Number(v) < 60) throw new EdgeError(400, 10001, "expiration_ttl must be at least 60 seconds");
        extra += `&${k}=${v}`;
      }
    }
    if (metadata !== null) extra += `&metadata=${encodeURIComponent(JSON.stringify(metadata))}`;
    const res = await this.#kvFetch(ns.id, key, { method: "PUT", raw: value }, extra);
    const out = await res.json();
    if (!out.ok) throw new EdgeError(out.status, out.code, out.message);
    return { result: {} };
  }

  async #deleteValue(c) {
    const ns = this.#namespace(c);
    const res = await this.#kvFetch(ns.id, c.params.key, { method: "DELETE" });
    await res.arrayBuffer();
    return { result: {} };
  }

  async #bulkPut(c) {
    const ns = this.#namespace(c);
    const body = await c.json();
    if (!Array.isArray(body)) throw new EdgeError(400, 10001, "body must be a JSON array of {key, value}");
    if (body.length > 10000) throw new EdgeError(400, 10001, "a bulk write holds at most 10000 pairs");
    body.forEach((p, i) => {
      if (p === null || typeof p !== "object" || typeof p.key !== "string" || typeof p.value !== "string") {
        throw new EdgeError(400, 10001, `[${i}] must be {key: string, value: string}`);
      }
      checkKey(p.key);
    });
    await mapLimit(body, 16, async (p) => {
      const value = p.base64 ? Buffer.from(p.value, "base64") : Buffer.from(p.value);
      let extra = "";
      if (p.expiration) extra += `&expiration=${Number(p.expiration)}`;
      if (p.expiration_ttl) extra += `&expiration_ttl=${Number(p.expiration_ttl)}`;
      if (p.metadata !== undefined) extra += `&metadata=${encodeURIComponent(JSON.stringify(p.metadata))}`;
      const res = await this.#kvFetch(ns.id, p.key, { method: "PUT", raw: value }, extra);
      await res.arrayBuffer();
    });
    return { result: { successful_key_count: body.length, unsuccessful_keys: [] } };
  }

  async #bulkDelete(c) {
    const ns = this.#namespace(c);
    const body = await c.json();
    if (!Array.isArray(body) || body.some((k) => typeof k !== "string")) throw new EdgeError(400, 10001, "body must be a JSON array of key names");
    await mapLimit(body, 16, async (k) => (await this.#kvFetch(ns.id, k, { method: "DELETE" })).arrayBuffer());
    return { result: { successful_key_count: body.length, unsuccessful_keys: [] } };
  }

  // ---- D1 ----------------------------------------------------------------------------------------------------

  #database(c) {
    const db = this.state.d1[c.params.db];
    if (!db) throw new EdgeError(404, 7404, `The database ${c.params.db} could not be found`);
    return db;
  }

  #dbJSON(db) {
    return { uuid: db.uuid, name: db.name, version: "production", created_at: db.created_at, num_tables: null, file_size: null };
  }

  #listDatabases(c) {
    const name = c.query.get("name");
    let list = Object.values(this.state.d1).sort((a, b) => a.name.localeCompare(b.name));
    if (name) list = list.filter((d) => d.name === name);
    const { items, info } = pageInfo(list.map((d) => this.#dbJSON(d)), intParam(c.query, "page", { def: 1, min: 1 }), intParam(c.query, "per_page", { def: 100, min: 1, max: 10000 }));
    return { result: items, info };
  }

  async #createDatabase(c) {
    const body = requireObject(await c.json());
    if (typeof body.name !== "string" || !/^[a-z0-9][a-z0-9_-]{0,63}$/i.test(body.name)) {
      throw new EdgeError(400, 7400, "name must be 1-64 letters, digits, '-' and '_'");
    }
    if (Object.values(this.state.d1).some((d) => d.name === body.name)) {
      throw new EdgeError(400, 7502, `A database with name '${body.name}' already exists`);
    }
    const uuid = newId();
    await this.#apply((st) => {
      st.d1[uuid] = { uuid, name: body.name, created_at: now() };
    });
    return { result: this.#dbJSON(this.state.d1[uuid]) };
  }

  async #deleteDatabase(c) {
    const db = this.#database(c);
    await this.#apply((st) => {
      delete st.d1[db.uuid];
    });
    return { result: null };
  }

  async #query(c, raw) {
    const db = this.#database(c);
    const body = requireObject(await c.json());
    if (body.batch !== undefined) {
      if (!Array.isArray(body.batch) || body.batch.length === 0) throw new EdgeError(400, 7400, "batch must be a non-empty array of {sql, params}");
    } else if (typeof body.sql !== "string" || body.sql.trim() === "") {
      throw new EdgeError(400, 7400, "sql must be a non-empty string");
    }
    if (body.params !== undefined && !Array.isArray(body.params)) throw new EdgeError(400, 7400, "params must be an array");
    const readOnly = readOnlyParam(c.query);
    const result = await this.runtime.control("/d1/query", { db: db.uuid, sql: body.sql, params: body.params, batch: body.batch, raw, readOnly });
    return { result };
  }

  // ---- R2 ----------------------------------------------------------------------------------------------------

  #bucket(c) {
    const b = this.state.r2[c.params.bucket];
    if (!b) throw new EdgeError(404, 10006, "The specified bucket does not exist.");
    return b;
  }

  #bucketJSON(b) {
    return { name: b.name, creation_date: b.creation_date, location: "ENAM", storage_class: "Standard" };
  }

  #listBuckets(c) {
    const contains = c.query.get("name_contains");
    const startAfter = c.query.get("start_after") ?? c.query.get("cursor") ?? "";
    const perPage = intParam(c.query, "per_page", { def: 20, min: 1, max: 1000 });
    let list = Object.values(this.state.r2).sort((a, b) => a.name.localeCompare(b.name));
    if (c.query.get("direction") === "desc") list.reverse();
    if (contains) list = list.filter((b) => b.name.includes(contains));
    if (startAfter) list = list.filter((b) => b.name > startAfter);
    const page = list.slice(0, perPage);
    const cursor = list.length > perPage ? page.at(-1).name : "";
    return { result: { buckets: page.map((b) => this.#bucketJSON(b)) }, info: { cursor, per_page: perPage } };
  }

  async #createBucket(c) {
    const body = requireObject(await c.json());
    if (typeof body.name !== "string" || !BUCKET_NAME.test(body.name)) {
      throw new EdgeError(400, 10005, "bucket name must be 3-63 lowercase letters, digits and dashes, starting and ending with a letter or digit");
    }
    if (this.state.r2[body.name]) throw new EdgeError(409, 10004, "The bucket you tried to create already exists, and you own it.");
    await this.#apply((st) => {
      st.r2[body.name] = { name: body.name, creation_date: now() };
    });
    return { result: this.#bucketJSON(this.state.r2[body.name]) };
  }

  async #deleteBucket(c) {
    const b = this.#bucket(c);
    const r = await this.runtime.control("/r2/list", { bucket: this.names.bucket(b.name), limit: 1 });
    if (r.objects.length > 0) throw new EdgeError(409, 10008, "The bucket you tried to delete is not empty.");
    await this.#apply((st) => {
      delete st.r2[b.name];
    });
    return { result: {} };
  }

  async #listObjects(c) {
    const b = this.#bucket(c);
    const perPage = intParam(c.query, "per_page", { def: 1000, min: 1, max: 1000 });
    const r = await this.runtime.control("/r2/list", {
      bucket: this.names.bucket(b.name),
      prefix: c.query.get("prefix") ?? "",
      cursor: c.query.get("cursor") ?? "",
      delimiter: c.query.get("delimiter") ?? "",
      start_after: c.query.get("start_after") ?? "",
      limit: perPage,
    });
    return {
      result: r.objects,
      info: { cursor: r.cursor, per_page: perPage, is_truncated: r.truncated ? "true" : "false", delimited: r.delimited },
    };
  }

  #r2Fetch(bucket, key, init) {
    const q = new URLSearchParams({ bucket: this.names.bucket(bucket), key });
    return this.runtime.control(`/r2/object?${q}`, undefined, { ...init, response: true });
  }

  async #getObject(c) {
    const b = this.#bucket(c);
    const res = await this.#r2Fetch(b.name, c.params.key, { method: "GET" });
    if (res.status === 404) {
      await res.arrayBuffer();
      throw new EdgeError(404, 10007, "The specified key does not exist.");
    }
    const bytes = Buffer.from(await res.arrayBuffer());
    const headers = { "content-length": bytes.length };
    for (const h of ["content-type", "etag", "last-modified", "content-disposition", "content-language", "cache-control"]) {
      const v = res.headers.get(h);
      if (v) headers[h] = v;
    }
    c.res.writeHead(200, headers);
    c.res.end(bytes);
  }

  async #putObject(c) {
    const b = this.#bucket(c);
    if (c.params.key.length > 1024) throw new EdgeError(400, 10001, "object keys are at most 1024 bytes");
    const body = await c.body(UPLOAD_LIMIT);
    const headers = {};
    if (c.req.headers["content-type"]) headers["content-type"] = c.req.headers["content-type"];
    const res = await this.#r2Fetch(b.name, c.params.key, { method: "PUT", raw: body, headers });
    const out = await res.json();
    if (!out.ok) throw new EdgeError(out.status, out.code, out.message);
    return { result: out.result };
  }

  async #deleteObject(c) {
    const b = this.#bucket(c);
    const res = await this.#r2Fetch(b.name, c.params.key, { method: "DELETE" });
    await res.arrayBuffer();
    return { result: {} };
  }

  // ---- schedules ---------------------------------------------------------------------------------------------

  // runSchedules starts the instances and scheduled handlers whose cron expressions match minute.
  async runSchedules(minute) {
    const started = [];
    const canonical = canonicalWorkflows(this.state);
    for (const wf of Object.values(this.state.workflows)) {
      if (!canonical[wf.name]) continue;
      for (const s of wf.schedules ?? []) {
        let cron;
        try {
          cron = parseCron(s.cron);
        } catch {
          continue;
        }
        if (!cron.matches(minute)) continue;
        try {
          const [r] = await this.#createInstances(wf, [{ params: { cron: s.cron, scheduledTime: minute.getTime() } }], "cron");
          started.push({ workflow: wf.name, id: r.id });
          this.logger(`schedule '${s.cron}' of workflow ${wf.name} started instance ${r.id}`);
        } catch (err) {
          this.logger(`schedule '${s.cron}' of workflow ${wf.name} failed: ${err.message}`);
        }
      }
    }
    for (const script of Object.values(this.state.scripts)) {
      if (!script.current) continue;
      for (const s of script.schedules ?? []) {
        let cron;
        try {
          cron = parseCron(s.cron);
        } catch {
          continue;
        }
        if (!cron.matches(minute)) continue;
        try {
          await this.runtime.enter();
          try {
            const worker = await this.runtime.mf.getWorker(this.names.script(script.name));
            await worker.scheduled({ cron: s.cron, scheduledTime: minute });
            started.push({ script: script.name, cron: s.cron });
          } finally {
            this.runtime.leave();
          }
        } catch (err) {
          this.logger(`cron trigger '${s.cron}' of script ${script.name} failed: ${err.message}`);
        }
      }
    }
    return started;
  }
}

// deriveStatus maps miniflare's instance details onto Cloudflare's statuses.
export function deriveStatus(d) {
  if (d.status !== "running") return d.status;
  const last = d.steps.at(-1);
  if (!last) return "running";
  if ((last.type === "sleep" || last.type === "waitForEvent") && !last.finished) return "waiting";
  if (last.type === "step" && last.success === null) {
    const a = last.attempts ?? [];
    const lastAttempt = a.at(-1);
    if (lastAttempt && lastAttempt.success === false) return "waiting"; // backing off before the next retry
  }
  return "running";
}

function checkKey(key) {
  if (key === "" || key === "." || key === "..") throw new EdgeError(400, 10019, `key name '${key}' is not allowed`);
  if (Buffer.byteLength(key) > 512) throw new EdgeError(414, 10019, "key names are at most 512 bytes");
}

export async function mapLimit(items, limit, fn) {
  let i = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (i < items.length) {
      const idx = i++;
      await fn(items[idx], idx);
    }
  });
  await Promise.all(workers);
}

export { errorEnvelope };

// readOnlyParam reads the edgeflow extension ?edgeflow_read_only=true|false of the D1 query endpoints: true runs the
// statements so that the database refuses to change (docs/edge.md).
function readOnlyParam(query) {
  const v = query.get("edgeflow_read_only");
  if (v === null || v === "false") return false;
  if (v === "true") return true;
  throw new EdgeError(400, 7400, "edgeflow_read_only must be true or false");
}
