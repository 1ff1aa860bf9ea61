// Workers scripts: upload, content, versions, deployments, settings, the workers.dev subdomain and routes. Secrets
// are in secrets.mjs and cron schedules in schedules.mjs. Every handler takes the account's context (ctx, see
// ../api.mjs) and the call (c); the route table (routes.mjs) lists them.

import {
  EdgeError,
  D1_BINDING_INVALID,
  DEPLOYMENT_IS_LATEST,
  DEPLOYMENT_NOT_FOUND,
  INVALID_REQUEST,
  KV_BINDING_INVALID,
  R2_BINDING_INVALID,
  ROUTE_INVALID,
  SCRIPT_INVALID,
  SCRIPT_NOT_FOUND,
  SERVICE_NOT_FOUND,
  VERSION_NOT_FOUND,
} from "../errors.mjs";
import { intParam, pageInfo, parseJSON, requireObject } from "../http.mjs";
import { hexId, newId, now } from "../registry.mjs";
import {
  checkScriptName,
  currentVersion,
  deployVersion,
  emptyScript,
  followDeploy,
  newVersion,
  parseUpload,
  publicBindings,
  resolveBindings,
  scriptResult,
} from "../scripts.mjs";
import { JSON_LIMIT, UPLOAD_LIMIT } from "./common.mjs";
import { ensureZone } from "./zones.mjs";

// findScript is the deployed script the call's path names (:script); missing, it is 404 with code (10007, or 10090
// for the services routes), or null when missingOK.
export function findScript(ctx, c, { missingOK = false, code = SCRIPT_NOT_FOUND } = {}) {
  const s = ctx.state.scripts[c.params.script];
  if (!s || !s.current) {
    if (missingOK) return null;
    if (code === SERVICE_NOT_FOUND) throw new EdgeError(404, SERVICE_NOT_FOUND, "workers.api.error.service_not_found");
    throw new EdgeError(
      404,
      SCRIPT_NOT_FOUND,
      `This Worker does not exist on your account. (script '${c.params.script}' not found)`,
    );
  }
  return s;
}

export function listScripts(ctx) {
  return {
    result: Object.values(ctx.state.scripts)
      .filter((s) => s.current)
      .map((s) => scriptResult(s)),
  };
}

// uploadScript is PUT …/scripts/:script: a new version, deployed at once. uploadVersion is POST …/versions: a new
// version that a deployment deploys later.
export function uploadScript(ctx, c) {
  return upload(ctx, c, { deploy: true });
}

export function uploadVersion(ctx, c) {
  return upload(ctx, c, { deploy: false });
}

async function upload(ctx, c, { deploy = true } = {}) {
  const name = c.params.script;
  checkScriptName(name);
  const raw = await c.body(UPLOAD_LIMIT);
  const upload = await parseUpload(c.req.headers["content-type"], raw);
  const source = /wrangler/i.test(c.req.headers["user-agent"] ?? "") ? "wrangler" : "api";
  const started = Date.now();
  const result = await ctx.apply(
    (st) => {
      const script = st.scripts[name] ?? emptyScript(name);
      st.scripts[name] = script;
      const bindings = resolveBindings(upload.metadata, currentVersion(script), { keepSecrets: true });
      checkBoundResources(st, bindings);
      const version = newVersion(ctx.registry, script, upload, bindings, source);
      if (deploy && "tail_consumers" in upload.metadata)
        script.settings.tail_consumers = tailConsumers(upload.metadata.tail_consumers);
      if (deploy) {
        deployVersion(script, version, { source });
        followDeploy(st, name);
      }
      return { script, version };
    },
    { restart: deploy },
  );
  const { script, version } = result;
  if (!deploy) {
    return { result: versionJSON(script, version) };
  }
  const out = scriptResult(script);
  out.startup_time_ms = Date.now() - started;
  return { result: out };
}

// checkBoundResources refuses, as Cloudflare does, a binding to a KV namespace, D1 database or R2 bucket the
// account does not have: resources are created first (wrangler, edgeflow's deploy), then bound.
function checkBoundResources(st, bindings) {
  for (const b of bindings) {
    if (b.type === "kv_namespace" && !st.kv[b.namespace_id]) {
      throw new EdgeError(
        400,
        KV_BINDING_INVALID,
        `KV namespace '${b.namespace_id}' is not valid. Please verify the namespace_id of binding '${b.name}'.`,
      );
    } else if (b.type === "d1" && !st.d1[b.id]) {
      throw new EdgeError(
        400,
        D1_BINDING_INVALID,
        `D1 binding '${b.name}' references database '${b.id}' which was not found. Verify the database exists in your account.`,
      );
    } else if (b.type === "r2_bucket" && !st.r2[b.bucket_name]) {
      throw new EdgeError(
        400,
        R2_BINDING_INVALID,
        `R2 bucket '${b.bucket_name}' not found (binding '${b.name}'). Create the bucket first.`,
      );
    }
  }
}

export function scriptContent(ctx, c) {
  const v = currentVersion(findScript(ctx, c));
  const main = v.modules.find((m) => m.name === (v.metadata.main_module ?? v.metadata.body_part)) ?? v.modules[0];
  const bytes = ctx.registry.getBlob(main.blob);
  c.res.writeHead(200, { "content-type": "application/javascript+module", "content-length": bytes.length });
  c.res.end(bytes);
}

// deleteScript and deleteService delete a script, through the scripts and the services routes (which differ in
// the code of a missing script).
export function deleteScript(ctx, c) {
  return removeScript(ctx, c, SCRIPT_NOT_FOUND);
}

export function deleteService(ctx, c) {
  return removeScript(ctx, c, SERVICE_NOT_FOUND);
}

async function removeScript(ctx, c, code) {
  findScript(ctx, c, { code });
  const name = c.params.script;
  await ctx.apply((st) => {
    delete st.scripts[name];
  });
  return { result: { id: name } };
}

function settings(script) {
  const v = currentVersion(script);
  return {
    bindings: publicBindings(v),
    compatibility_date: v.metadata.compatibility_date ?? null,
    compatibility_flags: v.metadata.compatibility_flags ?? [],
    logpush: script.settings.logpush ?? false,
    observability: script.settings.observability ?? { enabled: false },
    placement: v.metadata.placement?.mode === "smart" ? { mode: "smart" } : {},
    tail_consumers: script.settings.tail_consumers ?? [],
    tags: script.settings.tags ?? null,
    usage_model: "standard",
    limits: {},
  };
}

export function getSettings(ctx, c) {
  return { result: settings(findScript(ctx, c)) };
}

export async function patchSettings(ctx, c) {
  const script = findScript(ctx, c);
  const raw = await c.body(JSON_LIMIT);
  const ct = c.req.headers["content-type"] ?? "";
  let patch;
  if (ct.startsWith("multipart/form-data")) {
    let form;
    try {
      form = await new Request("http://edge.invalid/", {
        method: "POST",
        headers: { "content-type": ct },
        body: raw,
      }).formData();
    } catch (err) {
      throw new EdgeError(400, INVALID_REQUEST, `malformed multipart body: ${err.message}`);
    }
    const part = form.get("settings") ?? form.get("metadata");
    if (part === null) throw new EdgeError(400, INVALID_REQUEST, "the multipart body has no 'settings' part");
    patch = parseJSON(Buffer.from(typeof part === "string" ? part : await part.text()), { what: "settings" });
  } else {
    patch = parseJSON(raw);
  }
  requireObject(patch, "settings");
  const needsVersion =
    "bindings" in patch || "compatibility_date" in patch || "compatibility_flags" in patch || "placement" in patch;
  if (
    "placement" in patch &&
    patch.placement !== null &&
    (typeof patch.placement !== "object" ||
      Array.isArray(patch.placement) ||
      (patch.placement.mode !== undefined && patch.placement.mode !== "smart"))
  ) {
    throw new EdgeError(400, SCRIPT_INVALID, "placement must be {} or {mode: 'smart'}");
  }
  await ctx.apply(
    (st) => {
      const s = st.scripts[script.name];
      for (const k of ["logpush", "observability", "tags"]) if (k in patch) s.settings[k] = patch[k];
      if ("tail_consumers" in patch) s.settings.tail_consumers = tailConsumers(patch.tail_consumers);
      if (needsVersion) {
        const prev = currentVersion(s);
        const md = { ...prev.metadata };
        if ("compatibility_date" in patch) md.compatibility_date = patch.compatibility_date;
        if ("compatibility_flags" in patch) md.compatibility_flags = patch.compatibility_flags;
        if ("placement" in patch) md.placement = patch.placement ?? {};
        let bindings = prev.metadata.bindings;
        if ("bindings" in patch) {
          // a binding given only as {type, name} keeps the existing one of that name (wrangler secret bulk)
          const kept = (patch.bindings ?? []).map((b, i) => keepExisting(b, i, prev));
          bindings = resolveBindings({ bindings: kept }, prev);
        }
        // bindings kept from the previous version are not checked again (a resource deleted since stays bound)
        const before = new Set((prev.metadata.bindings ?? []).map((b) => JSON.stringify(b)));
        checkBoundResources(
          st,
          bindings.filter((b) => !before.has(JSON.stringify(b))),
        );
        const v = {
          ...structuredClone(prev),
          id: newId(),
          number: (s.lastNumber ?? 0) + 1,
          created_on: now(),
          metadata: { ...md, bindings },
        };
        s.lastNumber = v.number;
        s.versions.push(v);
        deployVersion(s, v, { source: "api" });
        followDeploy(st, s.name);
      }
    },
    { restart: needsVersion },
  );
  return { result: settings(ctx.state.scripts[script.name]) };
}

export function getScriptSettings(ctx, c) {
  return { result: findScript(ctx, c).settings };
}

export async function patchScriptSettings(ctx, c) {
  const script = findScript(ctx, c);
  const patch = requireObject(await c.json());
  await ctx.apply(
    (st) => {
      const s = st.scripts[script.name];
      for (const k of ["logpush", "observability", "tags"]) if (k in patch) s.settings[k] = patch[k];
      if ("tail_consumers" in patch) s.settings.tail_consumers = tailConsumers(patch.tail_consumers);
    },
    { restart: false },
  );
  return { result: ctx.state.scripts[script.name].settings };
}

function findVersion(ctx, c) {
  const v = findScript(ctx, c).versions.find((x) => x.id === c.params.version);
  if (!v) throw new EdgeError(404, VERSION_NOT_FOUND, `version '${c.params.version}' not found`);
  return v;
}

function versionJSON(script, v) {
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
      script: {
        etag: v.modules
          .map((m) => m.blob.slice(0, 8))
          .join("")
          .slice(0, 32),
        handlers: v.handlers ?? [],
      },
      script_runtime: {
        compatibility_date: v.metadata.compatibility_date ?? null,
        compatibility_flags: v.metadata.compatibility_flags ?? [],
        usage_model: "standard",
      },
    },
    startup_time_ms: 0,
  };
}

export function getVersion(ctx, c) {
  return { result: versionJSON(findScript(ctx, c), findVersion(ctx, c)) };
}

export function listVersions(ctx, c) {
  const s = findScript(ctx, c);
  const all = [...s.versions].reverse().map((v) => versionJSON(s, v));
  const deployable = c.query.get("deployable");
  if (deployable !== null && deployable !== "true" && deployable !== "false")
    throw new EdgeError(400, INVALID_REQUEST, "deployable must be true or false");
  if (deployable === "true") {
    // Cloudflare: the versions a deployment may use, all of them, without pages. Every version the edge keeps
    // (the last 10 and those of kept deployments) can be deployed.
    return {
      result: { items: all },
      info: { page: 1, per_page: all.length, count: all.length, total_count: all.length, total_pages: 1 },
    };
  }
  const { items, info } = pageInfo(
    all,
    intParam(c.query, "page", { def: 1, min: 1 }),
    intParam(c.query, "per_page", { def: 100, min: 1, max: 100 }),
  );
  return { result: { items }, info };
}

function findDeployment(ctx, c) {
  const d = findScript(ctx, c).deployments.find((x) => x.id === c.params.deployment);
  if (!d) throw new EdgeError(404, DEPLOYMENT_NOT_FOUND, `deployment '${c.params.deployment}' not found`);
  return d;
}

export function listDeployments(ctx, c) {
  return { result: { deployments: [...(findScript(ctx, c, { missingOK: true })?.deployments ?? [])].reverse() } };
}

export function getDeployment(ctx, c) {
  return { result: findDeployment(ctx, c) };
}

// deleteDeployment removes a past deployment from the script's history; the latest one, which serves, cannot be
// deleted (Cloudflare refuses it too; deploy another version first).
export async function deleteDeployment(ctx, c) {
  const s = findScript(ctx, c);
  const d = findDeployment(ctx, c);
  if (s.deployments.at(-1).id === d.id) {
    throw new EdgeError(
      400,
      DEPLOYMENT_IS_LATEST,
      `deployment '${d.id}' is the latest deployment of '${s.name}' and cannot be deleted; deploy another version first`,
    );
  }
  await ctx.apply(
    (st) => {
      const script = st.scripts[s.name];
      script.deployments = script.deployments.filter((x) => x.id !== d.id);
    },
    { restart: false },
  );
  return { result: null };
}

// searchScripts is Cloudflare's GET …/workers/scripts-search: `name` matches part of a name, `id` a script's tag
// exactly; sorted by order_by (created_on, modified_on or name, ascending); paged.
export function searchScripts(ctx, c) {
  const name = c.query.get("name");
  const id = c.query.get("id");
  const orderBy = c.query.get("order_by") ?? "created_on";
  if (!["created_on", "modified_on", "name"].includes(orderBy))
    throw new EdgeError(400, INVALID_REQUEST, "order_by must be created_on, modified_on or name");
  const page = intParam(c.query, "page", { def: 1, min: 1 });
  const perPage = intParam(c.query, "per_page", { def: 50, min: 1, max: 100 });
  let list = Object.values(ctx.state.scripts).filter((s) => s.current);
  if (name) list = list.filter((s) => s.name.includes(name));
  if (id) list = list.filter((s) => s.tag === id);
  const key = orderBy === "name" ? (s) => s.name : (s) => s[orderBy] ?? "";
  list.sort((a, b) => key(a).localeCompare(key(b)));
  const rows = list.map((s) => ({
    id: s.tag,
    script_name: s.name,
    script_tag: s.tag,
    created_on: s.created_on,
    modified_on: s.modified_on,
    environment_is_default: true,
    environment_name: "production",
    service_name: s.name,
  }));
  const { items, info } = pageInfo(rows, page, perPage);
  return { result: items, info };
}

export async function deployScript(ctx, c) {
  const s = findScript(ctx, c);
  const body = requireObject(await c.json());
  const versions = body.versions;
  if (!Array.isArray(versions) || versions.length === 0)
    throw new EdgeError(400, INVALID_REQUEST, "versions must be a non-empty array");
  const live = versions.filter((v) => Number(v?.percentage) > 0);
  if (live.length !== 1 || Number(live[0].percentage) !== 100) {
    throw new EdgeError(
      400,
      INVALID_REQUEST,
      "the local edge deploys exactly one version at 100%; gradual deployments are not supported",
    );
  }
  const vid = live[0].version_id;
  if (!s.versions.some((v) => v.id === vid)) throw new EdgeError(404, VERSION_NOT_FOUND, `version '${vid}' not found`);
  const dep = await ctx.apply((st) => {
    const script = st.scripts[s.name];
    const dep = deployVersion(
      script,
      script.versions.find((v) => v.id === vid),
      { source: script.versions.find((v) => v.id === vid).source, annotations: body.annotations ?? {} },
    );
    followDeploy(st, s.name);
    return dep;
  });
  return { result: dep };
}

export function getSubdomain(ctx, c) {
  return { result: findScript(ctx, c).subdomain };
}

// setSubdomain is POST …/subdomain ({enabled, previews_enabled}); disableSubdomain is its DELETE.
export function setSubdomain(ctx, c) {
  return changeSubdomain(ctx, c, undefined);
}

export function disableSubdomain(ctx, c) {
  return changeSubdomain(ctx, c, false);
}

async function changeSubdomain(ctx, c, enabled) {
  const s = findScript(ctx, c);
  let body = {};
  if (enabled === undefined) body = requireObject(await c.json());
  const next = {
    enabled: enabled ?? body.enabled !== false,
    previews_enabled: enabled === false ? false : (body.previews_enabled ?? s.subdomain.previews_enabled ?? false),
  };
  await ctx.apply(
    (st) => {
      st.scripts[s.name].subdomain = next;
    },
    { restart: false },
  );
  return { result: next };
}

export function getRoutes(ctx, c) {
  return { result: findScript(ctx, c).routes };
}

export async function putRoutes(ctx, c) {
  const s = findScript(ctx, c);
  const body = await c.json();
  if (!Array.isArray(body)) throw new EdgeError(400, INVALID_REQUEST, "routes must be a JSON array");
  const routes = body.map((r, i) => {
    if (r === null || typeof r !== "object" || typeof r.pattern !== "string" || r.pattern === "") {
      throw new EdgeError(400, ROUTE_INVALID, `routes[${i}]: pattern is required`);
    }
    return {
      id: hexId(),
      pattern: r.pattern,
      ...(r.zone_name ? { zone_name: r.zone_name } : {}),
      ...(r.custom_domain ? { custom_domain: true } : {}),
    };
  });
  await ctx.apply(
    (st) => {
      for (const r of routes) if (r.zone_name) ensureZone(ctx, r.zone_name.toLowerCase());
      st.scripts[s.name].routes = routes;
    },
    { restart: false },
  );
  return { result: routes };
}

export function getService(ctx, c) {
  return { result: service(ctx, c) };
}

function service(ctx, c) {
  const s = findScript(ctx, c, { code: SERVICE_NOT_FOUND });
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
        handlers: v.handlers ?? [],
        last_deployed_from: v.source,
        migration_tag: null,
        compatibility_date: v.metadata.compatibility_date ?? null,
      },
    },
    created_on: s.created_on,
    modified_on: s.modified_on,
  };
}

// getWorker is GET /accounts/{a}/workers/workers/{name}: the worker in Cloudflare's Workers API (what wrangler 4
// reads for a worker's workers.dev subdomain before and after a deploy).
export function getWorker(ctx, c) {
  const s = findScript(ctx, c);
  const v = currentVersion(s);
  return {
    result: {
      id: s.tag,
      name: s.name,
      created_on: s.created_on,
      updated_on: s.modified_on,
      deployed_on: v?.created_on ?? null,
      logpush: false,
      tags: [],
      tail_consumers: (s.settings?.tail_consumers ?? []).map((t) => ({ name: t.service })),
      observability: { enabled: false },
      references: { dispatch_namespace_outbounds: [], domains: [], durable_objects: [], queues: [], workers: [] },
      subdomain: {
        enabled: s.subdomain?.enabled ?? false,
        previews_enabled: s.subdomain?.previews_enabled ?? false,
        url: `https://${s.name}.${ctx.state.subdomain}.workers.dev`,
      },
    },
  };
}

export function getAccountSubdomain(ctx) {
  return { result: { subdomain: ctx.state.subdomain } };
}

export async function putAccountSubdomain(ctx, c) {
  const body = requireObject(await c.json());
  ctx.accounts.checkSubdomain(body.subdomain, ctx.accountId);
  await ctx.apply(
    (st) => {
      st.subdomain = body.subdomain;
    },
    { restart: false },
  );
  return { result: { subdomain: body.subdomain } };
}

export function accountSettings() {
  return { result: { default_usage_model: "standard", green_compute: false } };
}

// tailConsumers checks a script's tail_consumers (null or an array of {service, environment?, namespace?}) and
// returns it as an array, the type Cloudflare answers with.
function tailConsumers(v) {
  if (v === null || v === undefined) return [];
  if (
    !Array.isArray(v) ||
    v.some((t) => t === null || typeof t !== "object" || typeof t.service !== "string" || t.service === "")
  ) {
    throw new EdgeError(400, SCRIPT_INVALID, "tail_consumers must be an array of {service, environment?, namespace?}");
  }
  return v.map((t) => ({
    service: t.service,
    ...(t.environment ? { environment: t.environment } : {}),
    ...(t.namespace ? { namespace: t.namespace } : {}),
  }));
}

// keepExisting reads one binding of a settings PATCH: one given only as {type, name} (what wrangler secret bulk sends
// for every binding it does not change) stands for the existing binding of that name, of any type.
function keepExisting(b, i, prev) {
  if (b === null || typeof b !== "object" || Array.isArray(b) || b.type === "inherit") return b;
  if (Object.keys(b).some((k) => k !== "type" && k !== "name")) return b;
  const existing = (prev.metadata.bindings ?? []).find((p) => p.name === b.name);
  if (!existing) return b; // validated as given: its missing fields are reported
  if (existing.type !== b.type) {
    throw new EdgeError(
      400,
      SCRIPT_INVALID,
      `bindings[${i}]: '${b.name}' is given as ${b.type} without its value, but the existing binding of that name is ${existing.type}`,
    );
  }
  return { type: "inherit", name: b.name };
}
