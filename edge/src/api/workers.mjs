// Workers scripts: upload, versions, deployments, settings, secrets, the workers.dev subdomain, routes and cron
// schedules. Methods of Api (../api.mjs), installed on it by installHandlers, so that `this` is the account's Api.

import { parseCron } from "../cron.mjs";
import { EdgeError, CRON_INVALID, D1_BINDING_INVALID, DEPLOYMENT_IS_LATEST, DEPLOYMENT_NOT_FOUND, INVALID_REQUEST, KV_BINDING_INVALID, R2_BINDING_INVALID, ROUTE_INVALID, SCRIPT_INVALID, SCRIPT_NOT_FOUND, SECRET_NOT_FOUND, SERVICE_NOT_FOUND, VERSION_NOT_FOUND } from "../errors.mjs";
import { intParam, pageInfo, parseJSON, requireObject } from "../http.mjs";
import { hexId, newId, now } from "../registry.mjs";
import { canonicalWorkflows } from "../runtime.mjs";
import { checkScriptName, currentVersion, deployVersion, emptyScript, followDeploy, nameInUse, newVersion, parseUpload, publicBindings, resolveBindings, scriptResult } from "../scripts.mjs";
import { JSON_LIMIT, UPLOAD_LIMIT } from "./common.mjs";

export class WorkerHandlers {
  // addWorkerRoutes adds the routes of this part of the API to the router r; A is the path of the account.
  addWorkerRoutes(r, A) {
    const S = `${A}/workers/scripts/:script`;
    r.add("GET", `${A}/workers/scripts`, () => ({
      result: Object.values(this.state.scripts).filter((s) => s.current).map((s) => scriptResult(s)),
    }));
    r.add("GET", `${A}/workers/scripts-search`, (c) => this.searchScripts(c));
    r.add("PUT", S, (c) => this.upload(c));
    r.add("GET", S, (c) => this.scriptContent(c));
    r.add("DELETE", S, (c) => this.deleteScript(c, SCRIPT_NOT_FOUND));
    r.add("GET", `${S}/content/v2`, (c) => this.scriptContent(c));
    r.add("GET", `${S}/settings`, (c) => ({ result: this.settings(this.script(c)) }));
    r.add("PATCH", `${S}/settings`, (c) => this.patchSettings(c));
    r.add("GET", `${S}/script-settings`, (c) => ({ result: this.script(c).settings }));
    r.add("PATCH", `${S}/script-settings`, (c) => this.patchScriptSettings(c));
    r.add("GET", `${S}/versions`, (c) => this.versions(c));
    r.add("POST", `${S}/versions`, (c) => this.upload(c, { deploy: false }));
    r.add("GET", `${S}/versions/:version`, (c) => ({ result: this.versionJSON(this.script(c), this.version(c)) }));
    r.add("GET", `${S}/deployments`, (c) => ({ result: { deployments: [...this.script(c, { missingOK: true })?.deployments ?? []].reverse() } }));
    r.add("POST", `${S}/deployments`, (c) => this.deploy(c));
    r.add("GET", `${S}/deployments/:deployment`, (c) => ({ result: this.deployment(c) }));
    r.add("DELETE", `${S}/deployments/:deployment`, (c) => this.deleteDeployment(c));
    r.add("GET", `${S}/secrets`, (c) => ({
      result: (currentVersion(this.script(c))?.metadata.bindings ?? [])
        .filter((b) => b.type === "secret_text")
        .map((b) => ({ name: b.name, type: "secret_text" })),
    }));
    r.add("PUT", `${S}/secrets`, (c) => this.putSecret(c));
    r.add("GET", `${S}/secrets/:secret`, (c) => this.getSecret(c));
    r.add("DELETE", `${S}/secrets/:secret`, (c) => this.deleteSecret(c));
    r.add("GET", `${S}/subdomain`, (c) => ({ result: this.script(c).subdomain }));
    r.add("POST", `${S}/subdomain`, (c) => this.setSubdomain(c));
    r.add("DELETE", `${S}/subdomain`, (c) => this.setSubdomain(c, false));
    r.add("GET", `${S}/routes`, (c) => ({ result: this.script(c).routes }));
    r.add("PUT", `${S}/routes`, (c) => this.putRoutes(c));
    r.add("GET", `${S}/schedules`, (c) => ({ result: { schedules: this.script(c).schedules } }));
    r.add("PUT", `${S}/schedules`, (c) => this.putSchedules(c));
    r.add("GET", `${A}/workers/services/:script`, (c) => ({ result: this.service(c) }));
    r.add("DELETE", `${A}/workers/services/:script`, (c) => this.deleteScript(c, SERVICE_NOT_FOUND));
    r.add("GET", `${A}/workers/subdomain`, () => ({ result: { subdomain: this.state.subdomain } }));
    r.add("PUT", `${A}/workers/subdomain`, (c) => this.putAccountSubdomain(c));
    r.add("GET", `${A}/workers/account-settings`, () => ({ result: { default_usage_model: "standard", green_compute: false } }));
  }

  script(c, { missingOK = false, code = SCRIPT_NOT_FOUND } = {}) {
    const s = this.state.scripts[c.params.script];
    if (!s || !s.current) {
      if (missingOK) return null;
      if (code === SERVICE_NOT_FOUND) throw new EdgeError(404, SERVICE_NOT_FOUND, "workers.api.error.service_not_found");
      throw new EdgeError(404, SCRIPT_NOT_FOUND, `This Worker does not exist on your account. (script '${c.params.script}' not found)`);
    }
    return s;
  }

  async upload(c, { deploy = true } = {}) {
    const name = c.params.script;
    checkScriptName(name);
    const raw = await c.body(UPLOAD_LIMIT);
    const upload = await parseUpload(c.req.headers["content-type"], raw);
    const source = /wrangler/i.test(c.req.headers["user-agent"] ?? "") ? "wrangler" : "api";
    const started = Date.now();
    const result = await this.apply(
      (st) => {
        const script = st.scripts[name] ?? emptyScript(name);
        st.scripts[name] = script;
        const bindings = resolveBindings(upload.metadata, currentVersion(script), { keepSecrets: true });
        this.checkBoundResources(st, bindings);
        const version = newVersion(this.registry, script, upload, bindings, source);
        if (deploy && "tail_consumers" in upload.metadata) script.settings.tail_consumers = tailConsumers(upload.metadata.tail_consumers);
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
      return { result: this.versionJSON(script, version) };
    }
    const out = scriptResult(script);
    out.startup_time_ms = Date.now() - started;
    return { result: out };
  }

  // checkBoundResources refuses, as Cloudflare does, a binding to a KV namespace, D1 database or R2 bucket the
  // account does not have: resources are created first (wrangler, edgeflow's deploy), then bound.
  checkBoundResources(st, bindings) {
    for (const b of bindings) {
      if (b.type === "kv_namespace" && !st.kv[b.namespace_id]) {
        throw new EdgeError(400, KV_BINDING_INVALID, `KV namespace '${b.namespace_id}' is not valid. Please verify the namespace_id of binding '${b.name}'.`);
      } else if (b.type === "d1" && !st.d1[b.id]) {
        throw new EdgeError(400, D1_BINDING_INVALID, `D1 binding '${b.name}' references database '${b.id}' which was not found. Verify the database exists in your account.`);
      } else if (b.type === "r2_bucket" && !st.r2[b.bucket_name]) {
        throw new EdgeError(400, R2_BINDING_INVALID, `R2 bucket '${b.bucket_name}' not found (binding '${b.name}'). Create the bucket first.`);
      }
    }
  }

  scriptContent(c) {
    const v = currentVersion(this.script(c));
    const main = v.modules.find((m) => m.name === (v.metadata.main_module ?? v.metadata.body_part)) ?? v.modules[0];
    const bytes = this.registry.getBlob(main.blob);
    c.res.writeHead(200, { "content-type": "application/javascript+module", "content-length": bytes.length });
    c.res.end(bytes);
  }

  async deleteScript(c, code) {
    this.script(c, { code });
    const name = c.params.script;
    await this.apply((st) => {
      delete st.scripts[name];
    });
    return { result: { id: name } };
  }

  settings(script) {
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

  async patchSettings(c) {
    const script = this.script(c);
    const raw = await c.body(JSON_LIMIT);
    const ct = c.req.headers["content-type"] ?? "";
    let patch;
    if (ct.startsWith("multipart/form-data")) {
      let form;
      try {
        form = await new Request("http://edge.invalid/", { method: "POST", headers: { "content-type": ct }, body: raw }).formData();
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
    const needsVersion = "bindings" in patch || "compatibility_date" in patch || "compatibility_flags" in patch || "placement" in patch;
    if ("placement" in patch && patch.placement !== null && (typeof patch.placement !== "object" || Array.isArray(patch.placement) || (patch.placement.mode !== undefined && patch.placement.mode !== "smart"))) {
      throw new EdgeError(400, SCRIPT_INVALID, "placement must be {} or {mode: 'smart'}");
    }
    await this.apply(
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
          this.checkBoundResources(st, bindings.filter((b) => !before.has(JSON.stringify(b))));
          const v = { ...structuredClone(prev), id: newId(), number: (s.lastNumber ?? 0) + 1, created_on: now(), metadata: { ...md, bindings } };
          s.lastNumber = v.number;
          s.versions.push(v);
          deployVersion(s, v, { source: "api" });
          followDeploy(st, s.name);
        }
      },
      { restart: needsVersion },
    );
    return { result: this.settings(this.state.scripts[script.name]) };
  }

  async patchScriptSettings(c) {
    const script = this.script(c);
    const patch = requireObject(await c.json());
    await this.apply(
      (st) => {
        const s = st.scripts[script.name];
        for (const k of ["logpush", "observability", "tags"]) if (k in patch) s.settings[k] = patch[k];
        if ("tail_consumers" in patch) s.settings.tail_consumers = tailConsumers(patch.tail_consumers);
      },
      { restart: false },
    );
    return { result: this.state.scripts[script.name].settings };
  }

  version(c) {
    const v = this.script(c).versions.find((x) => x.id === c.params.version);
    if (!v) throw new EdgeError(404, VERSION_NOT_FOUND, `version '${c.params.version}' not found`);
    return v;
  }

  versionJSON(script, v) {
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
        script: { etag: v.modules.map((m) => m.blob.slice(0, 8)).join("").slice(0, 32), handlers: v.handlers ?? [] },
        script_runtime: {
          compatibility_date: v.metadata.compatibility_date ?? null,
          compatibility_flags: v.metadata.compatibility_flags ?? [],
          usage_model: "standard",
        },
      },
      startup_time_ms: 0,
    };
  }

  versions(c) {
    const s = this.script(c);
    const all = [...s.versions].reverse().map((v) => this.versionJSON(s, v));
    const deployable = c.query.get("deployable");
    if (deployable !== null && deployable !== "true" && deployable !== "false") throw new EdgeError(400, INVALID_REQUEST, "deployable must be true or false");
    if (deployable === "true") {
      // Cloudflare: the versions a deployment may use, all of them, without pages. Every version the edge keeps
      // (the last 10 and those of kept deployments) can be deployed.
      return { result: { items: all }, info: { page: 1, per_page: all.length, count: all.length, total_count: all.length, total_pages: 1 } };
    }
    const { items, info } = pageInfo(all, intParam(c.query, "page", { def: 1, min: 1 }), intParam(c.query, "per_page", { def: 100, min: 1, max: 100 }));
    return { result: { items }, info };
  }

  deployment(c) {
    const d = this.script(c).deployments.find((x) => x.id === c.params.deployment);
    if (!d) throw new EdgeError(404, DEPLOYMENT_NOT_FOUND, `deployment '${c.params.deployment}' not found`);
    return d;
  }

  // deleteDeployment removes a past deployment from the script's history; the latest one, which serves, cannot be
  // deleted (Cloudflare refuses it too; deploy another version first).
  async deleteDeployment(c) {
    const s = this.script(c);
    const d = this.deployment(c);
    if (s.deployments.at(-1).id === d.id) {
      throw new EdgeError(400, DEPLOYMENT_IS_LATEST, `deployment '${d.id}' is the latest deployment of '${s.name}' and cannot be deleted; deploy another version first`);
    }
    await this.apply((st) => {
      const script = st.scripts[s.name];
      script.deployments = script.deployments.filter((x) => x.id !== d.id);
    }, { restart: false });
    return { result: null };
  }

  // searchScripts is Cloudflare's GET …/workers/scripts-search: `name` matches part of a name, `id` a script's tag
  // exactly; sorted by order_by (created_on, modified_on or name, ascending); paged.
  searchScripts(c) {
    const name = c.query.get("name");
    const id = c.query.get("id");
    const orderBy = c.query.get("order_by") ?? "created_on";
    if (!["created_on", "modified_on", "name"].includes(orderBy)) throw new EdgeError(400, INVALID_REQUEST, "order_by must be created_on, modified_on or name");
    const page = intParam(c.query, "page", { def: 1, min: 1 });
    const perPage = intParam(c.query, "per_page", { def: 50, min: 1, max: 100 });
    let list = Object.values(this.state.scripts).filter((s) => s.current);
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

  async deploy(c) {
    const s = this.script(c);
    const body = requireObject(await c.json());
    const versions = body.versions;
    if (!Array.isArray(versions) || versions.length === 0) throw new EdgeError(400, INVALID_REQUEST, "versions must be a non-empty array");
    const live = versions.filter((v) => Number(v?.percentage) > 0);
    if (live.length !== 1 || Number(live[0].percentage) !== 100) {
      throw new EdgeError(400, INVALID_REQUEST, "the local edge deploys exactly one version at 100%; gradual deployments are not supported");
    }
    const vid = live[0].version_id;
    if (!s.versions.some((v) => v.id === vid)) throw new EdgeError(404, VERSION_NOT_FOUND, `version '${vid}' not found`);
    const dep = await this.apply((st) => {
      const script = st.scripts[s.name];
      const dep = deployVersion(script, script.versions.find((v) => v.id === vid), { source: script.versions.find((v) => v.id === vid).source, annotations: body.annotations ?? {} });
      followDeploy(st, s.name);
      return dep;
    });
    return { result: dep };
  }

  async putSecret(c) {
    const s = this.script(c);
    const body = requireObject(await c.json());
    if (typeof body.name !== "string" || !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(body.name)) {
      throw new EdgeError(400, INVALID_REQUEST, "secret name must be a JavaScript identifier");
    }
    if (body.type === "secret_key") refuseSecretKey(body);
    if (body.type !== undefined && body.type !== "secret_text") {
      throw new EdgeError(400, INVALID_REQUEST, `secret type must be secret_text or secret_key, got ${JSON.stringify(body.type)}`);
    }
    if (typeof body.text !== "string") throw new EdgeError(400, INVALID_REQUEST, "secret text must be a string");
    const taken = (currentVersion(s).metadata.bindings ?? []).find((b) => b.name === body.name);
    if (taken && taken.type !== "secret_text") throw nameInUse(body.name);
    await this.newVersionWith(s.name, (bindings) => [
      ...bindings.filter((b) => b.name !== body.name),
      { type: "secret_text", name: body.name, text: body.text },
    ]);
    return { result: { name: body.name, type: "secret_text" } };
  }

  getSecret(c) {
    const b = (currentVersion(this.script(c)).metadata.bindings ?? []).find((x) => x.type === "secret_text" && x.name === c.params.secret);
    if (!b) throw new EdgeError(404, SECRET_NOT_FOUND, `secret '${c.params.secret}' not found`);
    return { result: { name: b.name, type: "secret_text" } };
  }

  async deleteSecret(c) {
    const s = this.script(c);
    const has = (currentVersion(s).metadata.bindings ?? []).some((x) => x.type === "secret_text" && x.name === c.params.secret);
    if (!has) throw new EdgeError(404, SECRET_NOT_FOUND, `secret '${c.params.secret}' not found`);
    await this.newVersionWith(s.name, (bindings) => bindings.filter((b) => !(b.type === "secret_text" && b.name === c.params.secret)));
    return { result: {} };
  }

  newVersionWith(name, edit) {
    return this.apply((st) => {
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

  async setSubdomain(c, enabled) {
    const s = this.script(c);
    let body = {};
    if (enabled === undefined) body = requireObject(await c.json());
    const next = {
      enabled: enabled ?? body.enabled !== false,
      previews_enabled: enabled === false ? false : body.previews_enabled ?? s.subdomain.previews_enabled ?? false,
    };
    await this.apply((st) => {
      st.scripts[s.name].subdomain = next;
    }, { restart: false });
    return { result: next };
  }

  async putRoutes(c) {
    const s = this.script(c);
    const body = await c.json();
    if (!Array.isArray(body)) throw new EdgeError(400, INVALID_REQUEST, "routes must be a JSON array");
    const routes = body.map((r, i) => {
      if (r === null || typeof r !== "object" || typeof r.pattern !== "string" || r.pattern === "") {
        throw new EdgeError(400, ROUTE_INVALID, `routes[${i}]: pattern is required`);
      }
      return { id: hexId(), pattern: r.pattern, ...(r.zone_name ? { zone_name: r.zone_name } : {}), ...(r.custom_domain ? { custom_domain: true } : {}) };
    });
    await this.apply((st) => {
      for (const r of routes) if (r.zone_name) this.ensureZone(r.zone_name.toLowerCase());
      st.scripts[s.name].routes = routes;
    }, { restart: false });
    return { result: routes };
  }

  async putSchedules(c) {
    const s = this.script(c);
    const body = await c.json();
    const list = Array.isArray(body) ? body : body?.schedules;
    if (!Array.isArray(list)) throw new EdgeError(400, INVALID_REQUEST, "schedules must be a JSON array of {cron}");
    const schedules = list.map((x, i) => {
      try {
        parseCron(x?.cron);
      } catch (err) {
        throw new EdgeError(400, CRON_INVALID, `schedules[${i}]: invalid cron: ${err.message}`);
      }
      return { cron: x.cron.trim(), created_on: now(), modified_on: now() };
    });
    await this.apply((st) => {
      st.scripts[s.name].schedules = schedules;
    }, { restart: false });
    return { result: { schedules } };
  }

  service(c) {
    const s = this.script(c, { code: SERVICE_NOT_FOUND });
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

  async putAccountSubdomain(c) {
    const body = requireObject(await c.json());
    this.accounts.checkSubdomain(body.subdomain, this.account);
    await this.apply((st) => {
      st.subdomain = body.subdomain;
    }, { restart: false });
    return { result: { subdomain: body.subdomain } };
  }

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
          const [r] = await this.createInstances(wf, [{ params: { cron: s.cron, scheduledTime: minute.getTime() } }], "cron");
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
          const outcome = await this.runtime.scheduled(this.names.script(script.name), s.cron, minute);
          if (outcome !== "ok") this.logger(`cron trigger '${s.cron}' of script ${script.name} ended with outcome ${outcome}`);
          started.push({ script: script.name, cron: s.cron });
        } catch (err) {
          this.logger(`cron trigger '${s.cron}' of script ${script.name} failed: ${err.message}`);
        }
      }
    }
    return started;
  }
}

const KEY_FORMATS = ["raw", "pkcs8", "spki", "jwk"];
const KEY_USAGES = ["encrypt", "decrypt", "sign", "verify", "deriveKey", "deriveBits", "wrapKey", "unwrapKey"];

// refuseSecretKey checks a secret_key secret as Cloudflare does (format, algorithm, usages, and the key in
// key_base64, or key_jwk for format jwk), then refuses it: a secret_key binding gives the worker a CryptoKey, which
// the local edge's runtime cannot bind (decision 265). The message says what to do instead.
function refuseSecretKey(body) {
  if (!KEY_FORMATS.includes(body.format)) throw new EdgeError(400, INVALID_REQUEST, `secret_key: format must be one of ${KEY_FORMATS.join(", ")}`);
  if (body.algorithm === null || typeof body.algorithm !== "object" || Array.isArray(body.algorithm) || typeof body.algorithm.name !== "string") {
    throw new EdgeError(400, INVALID_REQUEST, "secret_key: algorithm must be an object with a name, as crypto.subtle.importKey takes it");
  }
  if (!Array.isArray(body.usages) || body.usages.length === 0 || body.usages.some((u) => !KEY_USAGES.includes(u))) {
    throw new EdgeError(400, INVALID_REQUEST, `secret_key: usages must be a non-empty array of ${KEY_USAGES.join(", ")}`);
  }
  if (body.format === "jwk" ? body.key_jwk === null || typeof body.key_jwk !== "object" : typeof body.key_base64 !== "string" || body.key_base64 === "") {
    throw new EdgeError(400, INVALID_REQUEST, body.format === "jwk" ? "secret_key: format jwk needs key_jwk (a JSON Web Key object)" : "secret_key: key_base64 is required");
  }
  throw new EdgeError(
    400,
    SCRIPT_INVALID,
    `secret '${body.name}' is of type secret_key, which the local edge cannot bind (its workers receive text secrets only); store the key as a secret_text (for example the JWK text) and import it with crypto.subtle.importKey`,
  );
}

// tailConsumers checks a script's tail_consumers (null or an array of {service, environment?, namespace?}) and
// returns it as an array, the type Cloudflare answers with.
function tailConsumers(v) {
  if (v === null || v === undefined) return [];
  if (!Array.isArray(v) || v.some((t) => t === null || typeof t !== "object" || typeof t.service !== "string" || t.service === "")) {
    throw new EdgeError(400, SCRIPT_INVALID, "tail_consumers must be an array of {service, environment?, namespace?}");
  }
  return v.map((t) => ({ service: t.service, ...(t.environment ? { environment: t.environment } : {}), ...(t.namespace ? { namespace: t.namespace } : {}) }));
}

// keepExisting reads one binding of a settings PATCH: one given only as {type, name} (what wrangler secret bulk sends
// for every binding it does not change) stands for the existing binding of that name, of any type.
function keepExisting(b, i, prev) {
  if (b === null || typeof b !== "object" || Array.isArray(b) || b.type === "inherit") return b;
  if (Object.keys(b).some((k) => k !== "type" && k !== "name")) return b;
  const existing = (prev.metadata.bindings ?? []).find((p) => p.name === b.name);
  if (!existing) return b; // validated as given: its missing fields are reported
  if (existing.type !== b.type) {
    throw new EdgeError(400, SCRIPT_INVALID, `bindings[${i}]: '${b.name}' is given as ${b.type} without its value, but the existing binding of that name is ${existing.type}`);
  }
  return { type: "inherit", name: b.name };
}
