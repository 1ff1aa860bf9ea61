// Workflows and their instances. Methods of Api (../api.mjs), installed on it by installHandlers, so that `this` is
// the account's Api.

import fs from "node:fs";
import path from "node:path";
import { parseCron } from "../cron.mjs";
import { EdgeError, INSTANCE_EXISTS, INSTANCE_NOT_FOUND, INSTANCE_STATE, INTERNAL_ERROR, INVALID_REQUEST, SCRIPT_INVALID, SCRIPT_NOT_FOUND, VERSION_NOT_FOUND, WORKFLOW_NOT_FOUND } from "../errors.mjs";
import { intParam, pageInfo, parseJSON, requireObject, send } from "../http.mjs";
import { newId, now } from "../registry.mjs";
import { canonicalWorkflows } from "../runtime.mjs";
import { currentVersion, followDeploy } from "../scripts.mjs";
import { JSON_LIMIT, mapLimit } from "./common.mjs";

const INSTANCE_ID = /^[a-zA-Z0-9_][a-zA-Z0-9_-]{0,99}$/;
const EVENT_TYPE = /^[a-zA-Z0-9_][a-zA-Z0-9_-]{0,99}$/;
const WORKFLOW_NAME = /^[a-zA-Z0-9_][a-zA-Z0-9_-]{0,63}$/;
const TERMINAL = new Set(["complete", "errored", "terminated"]);

export class WorkflowHandlers {
  // addWorkflowRoutes adds the routes of this part of the API to the router r; A is the path of the account.
  addWorkflowRoutes(r, A) {
    const W = `${A}/workflows/:workflow`;
    r.add("GET", `${A}/workflows`, (c) => this.listWorkflows(c));
    r.add("PUT", W, (c) => this.putWorkflow(c));
    r.add("GET", W, (c) => this.getWorkflow(c));
    r.add("DELETE", W, (c) => this.deleteWorkflow(c));
    r.add("GET", `${W}/versions`, (c) => this.workflowVersions(c));
    r.add("GET", `${W}/versions/:version`, (c) => this.workflowVersion(c));
    r.add("GET", `${W}/instances`, (c) => this.listInstances(c));
    r.add("POST", `${W}/instances`, (c) => this.createInstance(c));
    r.add("POST", `${W}/instances/batch`, (c) => this.createBatch(c));
    r.add("GET", `${W}/instances/:instance`, (c) => this.getInstance(c));
    r.add("POST", `${W}/instances/read`, (c) => this.readInstances(c));
    r.add("PATCH", `${W}/instances/:instance/status`, (c) => this.changeStatus(c));
    r.add("POST", `${W}/instances/:instance/events/:type`, (c) => this.sendEvent(c));
  }

  workflow(c) {
    const wf = this.state.workflows[c.params.workflow];
    if (!wf) throw new EdgeError(404, WORKFLOW_NOT_FOUND, `Workflow '${c.params.workflow}' not found`);
    return wf;
  }

  runnable(wf) {
    const canonical = canonicalWorkflows(this.state)[wf.name];
    if (!canonical) {
      throw new EdgeError(404, SCRIPT_NOT_FOUND, `script '${wf.script_name}' of workflow '${wf.name}' is not deployed`);
    }
  }

  workflowJSON(wf, counts) {
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

  async putWorkflow(c) {
    const name = c.params.workflow;
    if (!WORKFLOW_NAME.test(name)) throw new EdgeError(400, INVALID_REQUEST, `workflow name '${name}' is invalid: use 1-64 letters, digits, '-' and '_'`);
    const body = requireObject(await c.json());
    for (const f of ["script_name", "class_name"]) {
      if (typeof body[f] !== "string" || body[f] === "") throw new EdgeError(400, INVALID_REQUEST, `${f} is required`);
    }
    const script = this.state.scripts[body.script_name];
    if (!script || !script.current) {
      throw new EdgeError(404, SCRIPT_NOT_FOUND, `script '${body.script_name}' does not exist; upload it before creating workflow '${name}'`);
    }
    let schedules = [];
    if (body.schedules !== undefined && body.schedules !== null) {
      if (!Array.isArray(body.schedules)) throw new EdgeError(400, INVALID_REQUEST, "schedules must be an array of {cron}");
      schedules = body.schedules.map((x, i) => {
        const cron = typeof x === "string" ? x : x?.cron;
        try {
          parseCron(cron);
        } catch (err) {
          throw new EdgeError(400, INVALID_REQUEST, `schedules[${i}]: invalid cron: ${err.message}`);
        }
        return { cron: cron.trim() };
      });
    }
    const prevCanon = canonicalWorkflows(this.state)[name];
    const willChange = !prevCanon || prevCanon.className !== body.class_name || prevCanon.scriptName !== body.script_name;
    const wf = await this.apply(
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
          wf.versions.push({ id: newId(), class_name: body.class_name, script_name: body.script_name, created_on: t, script_version: script.current });
        }
        st.workflows[name] = wf;
        followDeploy(st, body.script_name);
        return wf;
      },
      { restart: willChange },
    ).catch((err) => {
      if (err.code === SCRIPT_INVALID) {
        throw new EdgeError(
          400,
          SCRIPT_INVALID,
          `workflow '${name}': class '${body.class_name}' could not be started from script '${body.script_name}' (is it exported and a WorkflowEntrypoint?): ${err.message}`,
        );
      }
      throw err;
    });
    return { result: this.workflowJSON(wf) };
  }

  async counts(wf) {
    const counts = { queued: 0, running: 0, paused: 0, errored: 0, terminated: 0, complete: 0, waiting: 0, waitingForPause: 0 };
    if (!canonicalWorkflows(this.state)[wf.name]) return counts;
    const rt = this.names.workflow(wf.name);
    for (const it of await this.derivedInstances(rt)) {
      if (!this.expired(this.registry.instanceRecord(rt, it.id))) counts[it.status] = (counts[it.status] ?? 0) + 1;
    }
    return counts;
  }

  async listWorkflows(c) {
    const search = c.query.get("search");
    let wfs = Object.values(this.state.workflows).sort((a, b) => a.name.localeCompare(b.name));
    if (search) wfs = wfs.filter((w) => w.name.includes(search));
    const { items, info } = pageInfo(wfs, intParam(c.query, "page", { def: 1, min: 1 }), intParam(c.query, "per_page", { def: 50, min: 1, max: 100 }));
    const result = [];
    for (const wf of items) result.push(this.workflowJSON(wf, await this.counts(wf)));
    return { result, info };
  }

  async getWorkflow(c) {
    const wf = this.workflow(c);
    return { result: this.workflowJSON(wf, await this.counts(wf)) };
  }

  async deleteWorkflow(c) {
    const wf = this.workflow(c);
    if (canonicalWorkflows(this.state)[wf.name]) {
      await this.runtime.explorer(`/workflows/${encodeURIComponent(this.names.workflow(wf.name))}`, { method: "DELETE" });
    }
    await this.apply((st) => {
      delete st.workflows[wf.name];
    });
    this.registry.forgetWorkflowInstances(this.names.workflow(wf.name));
    return { result: { status: "ok", success: true } };
  }

  workflowVersions(c) {
    const wf = this.workflow(c);
    const all = [...wf.versions].reverse().map((v) => ({ id: v.id, workflow_id: wf.id, class_name: v.class_name, created_on: v.created_on, modified_on: v.created_on }));
    const { items, info } = pageInfo(all, intParam(c.query, "page", { def: 1, min: 1 }), intParam(c.query, "per_page", { def: 50, min: 1, max: 100 }));
    return { result: items, info };
  }

  workflowVersion(c) {
    const wf = this.workflow(c);
    const v = wf.versions.find((x) => x.id === c.params.version);
    if (!v) throw new EdgeError(404, VERSION_NOT_FOUND, `workflow version '${c.params.version}' not found`);
    return { result: { id: v.id, workflow_id: wf.id, class_name: v.class_name, created_on: v.created_on, modified_on: v.created_on } };
  }

  // derivedInstances lists a workflow's instances from the index with Cloudflare's statuses. Only instances whose
  // last known status is not final are asked again (in one call to the control worker per 100); miniflare reports
  // `running` while an instance sleeps, waits for an event or backs off before a retry, which Cloudflare reports as
  // `waiting`, so those are looked at closer when the caller asks for running or waiting ones.
  async derivedInstances(name, status) {
    await this.syncIndex(name);
    await this.refreshStatuses(name, this.registry.unfinishedOf(name));
    const list = [];
    for (const r of this.registry.instancesOf(name).values()) {
      if (!status || status === r.status || ((status === "running" || status === "waiting") && r.status === "running")) {
        list.push({ id: r.id, status: r.status, created_on: r.created_on });
      }
    }
    if (status && status !== "running" && status !== "waiting") return list;
    const running = list.filter((it) => it.status === "running");
    await mapLimit(running, 16, async (it) => {
      const d = await this.details(name, it.id).catch(() => null);
      if (d) it.status = deriveStatus(d);
    });
    return list;
  }

  async refreshStatuses(name, ids) {
    const ended = [];
    for (let i = 0; i < ids.length; i += 100) {
      const got = await this.runtime.control("/wf/statuses", { workflow: name, ids: ids.slice(i, i + 100) });
      for (const { id, status } of got) {
        if (status) this.registry.setStatus(name, id, status);
        if (TERMINAL.has(status)) ended.push(id);
      }
    }
    // an instance seen finished for the first time: its end time is read once and kept in the index
    await mapLimit(ended, 8, async (id) => {
      const d = await this.details(name, id).catch(() => null);
      if (d?.end) this.registry.setEnded(name, id, d.end);
    });
  }

  // unfinished returns the instances of a workflow that may need reviving: those not final and not paused.
  async unfinished(name) {
    await this.syncIndex(name);
    await this.refreshStatuses(name, this.registry.unfinishedOf(name));
    return this.registry.unfinishedOf(name).filter((id) => this.registry.instanceRecord(name, id).status !== "paused");
  }

  // syncIndex adds to the index the instances that workers created through their bindings (the edge does not see
  // those calls). It counts the instance files in miniflare's storage of the workflow, a directory listing, and
  // only when there are more than the index holds reads miniflare's instance list, newest first, until it has
  // found them all.
  syncIndex(name) {
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

  async details(workflow, id) {
    const { status, body } = await this.runtime.explorer(`/workflows/${encodeURIComponent(workflow)}/instances/${encodeURIComponent(id)}`);
    if (status === 404) throw new EdgeError(404, INSTANCE_NOT_FOUND, `Workflow instance '${id}' not found in workflow '${workflow}'`);
    if (!body.success) throw new EdgeError(502, INTERNAL_ERROR, body.errors?.[0]?.message ?? "instance lookup failed");
    return body.result;
  }

  async listInstances(c) {
    const wf = this.workflow(c);
    const status = c.query.get("status");
    const page = intParam(c.query, "page", { def: 1, min: 1 });
    const perPage = intParam(c.query, "per_page", { def: 50, min: 1, max: 100 });
    const direction = c.query.get("direction") ?? "desc";
    if (direction !== "asc" && direction !== "desc") throw new EdgeError(400, INVALID_REQUEST, "direction must be asc or desc");
    const valid = ["queued", "running", "paused", "errored", "terminated", "complete", "waiting", "waitingForPause"];
    if (status && !valid.includes(status)) throw new EdgeError(400, INVALID_REQUEST, `status must be one of ${valid.join(", ")}`);
    const dateStart = dateParam(c.query, "date_start");
    const dateEnd = dateParam(c.query, "date_end");
    const cursor = c.query.get("cursor");
    if (cursor !== null && cursor !== "" && c.query.get("page") !== null) throw new EdgeError(400, INVALID_REQUEST, "page and cursor are mutually exclusive; use one or the other");
    const after = cursor ? decodeCursor(cursor) : null;
    const rt = this.names.workflow(wf.name);
    let list = canonicalWorkflows(this.state)[wf.name] ? await this.derivedInstances(rt, status) : [];
    if (status) list = list.filter((it) => it.status === status);
    const versionId = wf.versions.at(-1).id;
    list = list
      .map((it) => {
        const rec = this.registry.instanceRecord(rt, it.id);
        return { it, rec, created: rec?.created_on ?? it.created_on ?? null };
      })
      .filter(({ rec, created }) => !this.expired(rec) && (!dateStart || (created ?? "") >= dateStart) && (!dateEnd || (created ?? "") <= dateEnd));
    const dir = direction === "asc" ? 1 : -1;
    const order = (a, b) => ((a.created ?? "").localeCompare(b.created ?? "") || a.it.id.localeCompare(b.it.id)) * dir;
    list.sort(order);
    let pageRows;
    let info;
    if (after) {
      // a cursor names the last instance of the previous page: the next page starts after it
      const rest = list.filter((x) => order(x, { created: after.created_on, it: { id: after.id } }) > 0);
      pageRows = rest.slice(0, perPage);
      const next = rest.length > perPage ? encodeCursor(pageRows.at(-1)) : "";
      info = { per_page: perPage, count: pageRows.length, total_count: list.length, cursor: next };
    } else {
      const paged = pageInfo(list, page, perPage);
      pageRows = paged.items;
      info = { ...paged.info, cursor: page * perPage < list.length && pageRows.length > 0 ? encodeCursor(pageRows.at(-1)) : "" };
    }
    // the times an instance started, last changed and ended come from its details, read once it is final
    await mapLimit(pageRows, 16, async (x) => {
      if (x.rec && TERMINAL.has(x.it.status) && x.rec.ended_on) return;
      const d = await this.details(rt, x.it.id).catch(() => null);
      if (d && x.rec) this.noteTimes(rt, x.it.id, d, x.it.status);
    });
    const result = pageRows.map(({ it, rec, created }) => ({
      id: it.id,
      status: it.status,
      created_on: created,
      modified_on: rec?.modified_on ?? created,
      started_on: rec?.started_on ?? null,
      ended_on: TERMINAL.has(it.status) ? rec?.ended_on ?? null : null,
      version_id: rec?.version_id ?? versionId,
      workflow_id: wf.id,
    }));
    return { result, info };
  }

  // noteTimes keeps in the index when an instance started, last changed (its latest step or status event) and
  // ended, from its details d.
  noteTimes(rt, id, d, status) {
    const stamps = [d.queued, d.start, d.end, ...(d.steps ?? []).flatMap((st) => [st.start, st.end, ...(st.attempts ?? []).flatMap((a) => [a.start, a.end])])];
    const latest = stamps.filter((x) => typeof x === "string" && x !== "").sort().at(-1);
    this.registry.noteInstance(rt, id, {
      started_on: d.start ?? undefined,
      modified_on: latest,
      ended_on: TERMINAL.has(status) ? d.end ?? latest : undefined,
    });
  }

  // sleepDue tells when a running sleep step wakes (decision 268): miniflare keeps the duration to itself, so it is
  // read from the workflow script's code, when that has exactly one step.sleep of this name with a literal
  // duration (milliseconds or a string such as "1 hour") or one step.sleepUntil with a literal time (an ISO string or
  // epoch milliseconds). Otherwise null.
  sleepDue(wf, name, start) {
    const v = currentVersion(this.state.scripts[wf.script_name]);
    if (!v || typeof name !== "string" || typeof start !== "string") return null;
    const quoted = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const call = new RegExp(`\\.(sleep|sleepUntil)\\(\\s*(["'\`])${quoted}\\2\\s*,\\s*([^,)]*)\\)`, "g");
    const found = new Set();
    for (const m of v.modules) {
      if (m.type !== "ESModule" && m.type !== "CommonJS") continue;
      for (const hit of this.registry.getBlob(m.blob).toString("utf8").matchAll(call)) found.add(`${hit[1]} ${hit[3].trim()}`);
    }
    if (found.size !== 1) return null;
    const [kind, arg] = [...found][0].split(/ (.*)/s);
    if (kind === "sleepUntil") {
      const lit = /^(["'`])([^"'`]+)\1$/.exec(arg);
      const t = lit ? Date.parse(lit[2]) : /^\d+$/.test(arg) ? Number(arg) : NaN;
      return Number.isNaN(t) ? null : new Date(t).toISOString();
    }
    const ms = durationLiteral(arg);
    return ms === null ? null : new Date(Date.parse(start) + ms).toISOString();
  }

  // expired reports whether an instance finished longer ago than the instance_retention it was created with: such
  // an instance is gone from lists and answers 404, as on Cloudflare once its retention ran out.
  expired(rec) {
    if (!rec?.retention || !rec.ended_on || !TERMINAL.has(rec.status)) return false;
    const keep = rec.status === "complete" ? rec.retention.success_ms : rec.retention.error_ms;
    return keep !== undefined && Date.now() > Date.parse(rec.ended_on) + keep;
  }

  instanceInput(item, i) {
    if (item === null || typeof item !== "object" || Array.isArray(item)) {
      throw new EdgeError(400, INVALID_REQUEST, `${i === undefined ? "body" : `[${i}]`} must be a JSON object`);
    }
    const id = item.instance_id ?? item.id;
    if (id !== undefined && (typeof id !== "string" || !INSTANCE_ID.test(id))) {
      throw new EdgeError(400, INVALID_REQUEST, `instance_id '${id}' is invalid: use 1-100 letters, digits, '-' and '_'`);
    }
    const params = item.params ?? {};
    checkPayloadSize(params, i === undefined ? "params" : `[${i}].params`);
    const retention = retentionParam(item.instance_retention, i);
    return { id, params, ...(retention ? { retention } : {}) };
  }

  async createInstances(wf, inputs, source) {
    this.runnable(wf);
    const ids = inputs.map((x) => x.id).filter((x) => x !== undefined);
    if (new Set(ids).size !== ids.length) throw new EdgeError(409, INSTANCE_EXISTS, "the batch names the same instance_id twice");
    for (const id of ids) {
      if (this.pendingIds.has(`${wf.name}\n${id}`)) {
        throw new EdgeError(409, INSTANCE_EXISTS, `Workflow instance '${id}' already exists in workflow '${wf.name}'`);
      }
    }
    for (const id of ids) this.pendingIds.add(`${wf.name}\n${id}`);
    try {
      const rt = this.names.workflow(wf.name);
      const t = now(); // before the create, so that created_on never follows the instance's start
      let created = await this.runtime.control("/wf/create", { workflow: rt, instances: inputs.map(({ id, params }) => ({ id, params })) });
      if (created.retried) {
        // our first attempt may have gone through before its connection died: the ids are ours (pendingIds)
        created = created.map((r) => (r.error?.code === INSTANCE_EXISTS ? { id: r.id } : r));
      }
      const versionId = wf.versions.at(-1).id;
      created.forEach((r, i) => {
        if (r.error) return;
        const retention = inputs[i]?.retention;
        this.registry.recordInstance({ workflow: rt, id: r.id, source, created_on: t, version_id: versionId, status: "queued", ...(retention ? { retention } : {}) });
      });
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

  async createInstance(c) {
    const wf = this.workflow(c);
    const body = (await c.json({ allowEmpty: true })) ?? {};
    const input = this.instanceInput(body);
    const [r] = await this.createInstances(wf, [input], "api");
    if (r.error) {
      const status = r.error.code === INSTANCE_EXISTS ? 409 : 400;
      throw new EdgeError(status, r.error.code, r.error.code === INSTANCE_EXISTS ? `${r.error.message} in workflow '${wf.name}'` : r.error.message);
    }
    return { result: r };
  }

  async createBatch(c) {
    const wf = this.workflow(c);
    const body = await c.json();
    if (!Array.isArray(body) || body.length === 0) throw new EdgeError(400, INVALID_REQUEST, "body must be a non-empty JSON array of {instance_id?, params?}");
    if (body.length > 100) throw new EdgeError(400, INVALID_REQUEST, "a batch holds at most 100 instances");
    const inputs = body.map((x, i) => this.instanceInput(x, i));
    const out = await this.createInstances(wf, inputs, "api");
    const failed = out.find((r) => r.error);
    if (failed) throw new EdgeError(failed.error.code === INSTANCE_EXISTS ? 409 : 400, failed.error.code, failed.error.message);
    return { result: out };
  }

  async getInstance(c) {
    const wf = this.workflow(c);
    this.runnable(wf);
    return { result: await this.instanceDetails(wf, c.params.instance) };
  }

  // readInstances is the local edge's addition for edgeflow's run refresher: POST …/instances/read {"ids": [...]}
  // (1 to 100 instance ids) answers, in order, {id, result} with what GET …/instances/:id answers, or {id, errors}
  // with its error, one request for many instances (docs/edge.md, decision 308).
  async readInstances(c) {
    const wf = this.workflow(c);
    this.runnable(wf);
    const body = requireObject(await c.json());
    const ids = body.ids;
    if (!Array.isArray(ids) || ids.length === 0 || ids.length > 100 || !ids.every((id) => typeof id === "string" && INSTANCE_ID.test(id))) {
      throw new EdgeError(400, INVALID_REQUEST, "ids must be an array of 1 to 100 instance ids");
    }
    const out = new Array(ids.length);
    await mapLimit(ids.map((id, i) => [id, i]), 16, async ([id, i]) => {
      try {
        out[i] = { id, result: await this.instanceDetails(wf, id) };
      } catch (err) {
        if (!(err instanceof EdgeError)) throw err;
        out[i] = { id, errors: [{ code: err.code, message: err.message }] };
      }
    });
    return { result: out };
  }

  // instanceDetails is an instance of workflow wf as Cloudflare shows it, with the edge's log_lines.
  async instanceDetails(wf, id) {
    const rt = this.names.workflow(wf.name);
    const d = await this.details(rt, id);
    let rec = this.registry.instanceRecord(rt, id);
    if (this.expired(rec)) throw new EdgeError(404, INSTANCE_NOT_FOUND, `Workflow instance '${id}' not found in workflow '${wf.name}'`);
    if (!rec) {
      rec = { workflow: rt, id, source: "binding", created_on: d.queued ?? now(), version_id: wf.versions.at(-1).id, status: d.status };
      this.registry.recordInstance(rec);
    } else {
      this.registry.setStatus(rt, id, d.status);
    }
    if (TERMINAL.has(d.status) && d.end) this.registry.setEnded(rt, id, d.end);
    const status = deriveStatus(d);
    const steps = d.steps.map((s) => {
      // miniflare names steps "<name>-<n>" (its cache key); Cloudflare shows the name the code gave.
      s = { ...s, name: typeof s.name === "string" ? s.name.replace(/-\d+$/, "") : s.name };
      if (s.type === "step") {
        return { ...s, output: s.output === undefined ? null : s.output };
      }
      if (s.type === "sleep") {
        const end = s.end ?? (s.finished ? null : this.sleepDue(wf, s.name, s.start));
        return { name: s.name, start: s.start, end, finished: s.finished, type: "sleep", error: s.error ?? null };
      }
      return s;
    });
    if (status === "terminated") steps.push({ type: "termination", trigger: { source: "api" } });
    this.noteTimes(rt, id, d, status);
    return {
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
      // The edge's addition: how many log lines of the instance it holds (edgeflow reads them only when some).
      log_lines: this.runtime.logs.instanceLines(this.names.script(wf.script_name), id),
    };
  }

  async changeStatus(c) {
    const wf = this.workflow(c);
    this.runnable(wf);
    const body = requireObject(await c.json());
    const action = body.status ?? body.action;
    const actions = ["pause", "resume", "terminate", "restart"];
    if (!actions.includes(action)) throw new EdgeError(400, INVALID_REQUEST, `status must be one of ${actions.join(", ")}, got '${action}'`);
    const id = c.params.instance;
    const rt = this.names.workflow(wf.name);
    const d = await this.details(rt, id);
    if (this.expired(this.registry.instanceRecord(rt, id))) throw new EdgeError(404, INSTANCE_NOT_FOUND, `Workflow instance '${id}' not found in workflow '${wf.name}'`);
    const current = deriveStatus(d);
    const refuse = (why) => {
      throw new EdgeError(409, INSTANCE_STATE, `cannot ${action} instance '${id}': ${why}`);
    };
    if (action === "pause" && TERMINAL.has(current)) refuse(`it is ${current}`);
    if (action === "resume" && current !== "paused" && current !== "waitingForPause") refuse(`it is ${current}, not paused`);
    if (action === "terminate" && TERMINAL.has(current)) refuse(`it is already ${current}`);
    const r = await this.runtime.control("/wf/action", { workflow: rt, id, action });
    this.registry.setStatus(rt, id, r.status);
    if (action === "restart") this.registry.noteInstance(rt, id, { ended_on: null }); // it runs again; its end is read anew
    let status = r.status;
    if (status === "running" && (action === "resume" || action === "restart")) status = "running";
    return { result: { status, timestamp: now() } };
  }

  async sendEvent(c) {
    const wf = this.workflow(c);
    this.runnable(wf);
    const type = c.params.type;
    if (!EVENT_TYPE.test(type)) throw new EdgeError(400, INVALID_REQUEST, `event type '${type}' is invalid: use 1-100 letters, digits, '-' and '_'`);
    const raw = await c.body(JSON_LIMIT);
    const payload = parseJSON(raw, { allowEmpty: true, what: "event payload" }) ?? null;
    checkPayloadSize(payload, "event payload");
    const id = c.params.instance;
    const rt = this.names.workflow(wf.name);
    const d = await this.details(rt, id);
    if (this.expired(this.registry.instanceRecord(rt, id))) throw new EdgeError(404, INSTANCE_NOT_FOUND, `Workflow instance '${id}' not found in workflow '${wf.name}'`);
    const status = deriveStatus(d);
    if (TERMINAL.has(status)) throw new EdgeError(409, INSTANCE_STATE, `cannot send an event to instance '${id}': it is ${status}`);
    await this.runtime.control("/wf/event", { workflow: rt, id, type, payload });
    return { result: {} };
  }
}

// PAYLOAD_LIMIT is Cloudflare's limit on an instance's params and on an event's payload: 1 MiB of JSON.
export const PAYLOAD_LIMIT = 1 << 20;

// checkPayloadSize refuses params or an event payload whose JSON is larger than PAYLOAD_LIMIT.
function checkPayloadSize(value, what) {
  const size = Buffer.byteLength(JSON.stringify(value) ?? "");
  if (size > PAYLOAD_LIMIT) {
    throw new EdgeError(413, INVALID_REQUEST, `${what}: ${size} bytes of JSON is over the Workflows limit of 1 MiB (${PAYLOAD_LIMIT} bytes)`);
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

// dateParam reads date_start or date_end of an instance list: an ISO 8601 time in UTC (Cloudflare: no offset),
// returned in the form the index keeps (toISOString).
function dateParam(query, name) {
  const v = query.get(name);
  if (v === null || v === "") return null;
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?Z?)?$/.test(v) || Number.isNaN(Date.parse(v.endsWith("Z") || v.length === 10 ? v : `${v}Z`))) {
    throw new EdgeError(400, INVALID_REQUEST, `${name} must be an ISO 8601 time in UTC without an offset (e.g. 2025-01-31T12:00:00Z), got '${v}'`);
  }
  return new Date(v.endsWith("Z") || v.length === 10 ? v : `${v}Z`).toISOString();
}

function encodeCursor(row) {
  return Buffer.from(JSON.stringify({ c: row.created, i: row.it.id })).toString("base64url");
}

function decodeCursor(cursor) {
  try {
    const o = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    if (typeof o.i === "string" && (typeof o.c === "string" || o.c === null)) return { created_on: o.c, id: o.i };
  } catch {
    // answered below
  }
  throw new EdgeError(400, INVALID_REQUEST, "cursor is not one this list gave; start again without it");
}

// RETENTION_MAX is the longest instance_retention Cloudflare allows (30 days, the paid plan's limit).
const RETENTION_MAX = 30 * 24 * 3600 * 1000;
const UNIT_MS = { millisecond: 1, second: 1000, minute: 60000, hour: 3600000, day: 86400000, week: 604800000 };

// retentionParam reads an instance's instance_retention {success_retention?, error_retention?}, each a number of
// milliseconds or a duration such as "5 minutes", into {success_ms?, error_ms?} (decision 267).
function retentionParam(v, i) {
  if (v === undefined || v === null) return null;
  const where = i === undefined ? "instance_retention" : `[${i}].instance_retention`;
  if (typeof v !== "object" || Array.isArray(v)) throw new EdgeError(400, INVALID_REQUEST, `${where} must be an object {success_retention?, error_retention?}`);
  const out = {};
  for (const [field, key] of [["success_retention", "success_ms"], ["error_retention", "error_ms"]]) {
    const x = v[field];
    if (x === undefined || x === null) continue;
    let ms;
    if (typeof x === "number" && Number.isInteger(x) && x >= 0) ms = x;
    else if (typeof x === "string") {
      const m = /^\s*(\d+)\s*(millisecond|second|minute|hour|day|week)s?\s*$/i.exec(x);
      if (m) ms = Number(m[1]) * UNIT_MS[m[2].toLowerCase()];
    }
    if (ms === undefined) throw new EdgeError(400, INVALID_REQUEST, `${where}.${field} must be milliseconds or a duration such as "5 minutes", got ${JSON.stringify(x)}`);
    if (ms > RETENTION_MAX) throw new EdgeError(400, INVALID_REQUEST, `${where}.${field} is longer than the 30 days an instance can be kept`);
    out[key] = ms;
  }
  for (const k of Object.keys(v)) {
    if (k !== "success_retention" && k !== "error_retention") throw new EdgeError(400, INVALID_REQUEST, `${where}: unknown field '${k}'`);
  }
  return out;
}

// durationLiteral reads the duration argument of a step.sleep as written in code: a number of milliseconds
// (digits, maybe with _ separators) or a quoted duration such as "1 hour" or '30 seconds'; null for anything else.
function durationLiteral(arg) {
  if (/^\d[\d_]*$/.test(arg)) return Number(arg.replace(/_/g, ""));
  const m = /^(["'`])\s*(\d+)\s*(millisecond|second|minute|hour|day|week)s?\s*\1$/i.exec(arg);
  return m ? Number(m[2]) * UNIT_MS[m[3].toLowerCase()] : null;
}
