// Workflows: their definitions (which class of which script runs each) and versions. Their instances are in
// instances.mjs, and what the edge knows of each instance in statuses.mjs. Every handler takes the account's context
// (ctx, see ../api.mjs) and the call (c); the route table (routes.mjs) lists them.

import { parseCron } from "../cron.mjs";
import {
  EdgeError,
  INVALID_REQUEST,
  SCRIPT_INVALID,
  SCRIPT_NOT_FOUND,
  VERSION_NOT_FOUND,
  WORKFLOW_NOT_FOUND,
} from "../errors.mjs";
import { intParam, pageInfo, requireObject } from "../http.mjs";
import { newId, now } from "../registry.mjs";
import { canonicalWorkflows } from "../plan.mjs";
import { followDeploy } from "../scripts.mjs";
import { defaultKeep, deriveRunning, refreshIndex, retentionParam } from "./statuses.mjs";

const WORKFLOW_NAME = /^[a-zA-Z0-9_][a-zA-Z0-9_-]{0,63}$/;

// findWorkflow is the account's workflow the call's path names (:workflow): 404 10200 when there is none.
export function findWorkflow(ctx, c) {
  const wf = ctx.state.workflows[c.params.workflow];
  if (!wf) throw new EdgeError(404, WORKFLOW_NOT_FOUND, `Workflow '${c.params.workflow}' not found`);
  return wf;
}

// runnable refuses (404 10007) workflow wf when no deployed script runs it.
export function runnable(ctx, wf) {
  const canonical = canonicalWorkflows(ctx.state)[wf.name];
  if (!canonical) {
    throw new EdgeError(404, SCRIPT_NOT_FOUND, `script '${wf.script_name}' of workflow '${wf.name}' is not deployed`);
  }
}

function workflowJSON(wf, counts) {
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
  // the Workflow's default_retention as the edge keeps it: milliseconds
  if (wf.default_retention) {
    out.default_retention = {
      ...(wf.default_retention.success_ms !== undefined ? { success_retention: wf.default_retention.success_ms } : {}),
      ...(wf.default_retention.error_ms !== undefined ? { error_retention: wf.default_retention.error_ms } : {}),
    };
  }
  if (counts) out.instances = counts;
  return out;
}

export async function putWorkflow(ctx, c) {
  const name = c.params.workflow;
  if (!WORKFLOW_NAME.test(name))
    throw new EdgeError(
      400,
      INVALID_REQUEST,
      `workflow name '${name}' is invalid: use 1-64 letters, digits, '-' and '_'`,
    );
  const body = requireObject(await c.json());
  for (const f of ["script_name", "class_name"]) {
    if (typeof body[f] !== "string" || body[f] === "") throw new EdgeError(400, INVALID_REQUEST, `${f} is required`);
  }
  const script = ctx.state.scripts[body.script_name];
  if (!script || !script.current) {
    throw new EdgeError(
      404,
      SCRIPT_NOT_FOUND,
      `script '${body.script_name}' does not exist; upload it before creating workflow '${name}'`,
    );
  }
  let schedules = [];
  if (body.schedules !== undefined && body.schedules !== null) {
    if (!Array.isArray(body.schedules))
      throw new EdgeError(400, INVALID_REQUEST, "schedules must be an array of {cron}");
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
  // default_retention: how long the Workflow's finished instances are kept unless an instance says otherwise
  // (statuses.mjs, retentionOf); expired ones are deleted by the retention sweep (retention.mjs)
  const defaultRetention = retentionParam(body.default_retention, undefined, "default_retention");
  const prevCanon = canonicalWorkflows(ctx.state)[name];
  const willChange = !prevCanon || prevCanon.className !== body.class_name || prevCanon.scriptName !== body.script_name;
  const wf = await ctx
    .apply(
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
        if (body.concurrency !== undefined) wf.concurrency = body.concurrency;
        if ("default_retention" in body) {
          if (defaultRetention) wf.default_retention = defaultRetention;
          else delete wf.default_retention;
        }
        if (changed || wf.versions.length === 0) {
          wf.versions.push({
            id: newId(),
            class_name: body.class_name,
            script_name: body.script_name,
            created_on: t,
            script_version: script.current,
          });
        }
        st.workflows[name] = wf;
        followDeploy(st, body.script_name);
        return wf;
      },
      { restart: willChange },
    )
    .catch((err) => {
      if (err.code === SCRIPT_INVALID) {
        throw new EdgeError(
          400,
          SCRIPT_INVALID,
          `workflow '${name}': class '${body.class_name}' could not be started from script '${body.script_name}' (is it exported and a WorkflowEntrypoint?): ${err.message}`,
        );
      }
      throw err;
    });
  return { result: workflowJSON(wf) };
}

async function counts(ctx, wf) {
  const counts = {
    queued: 0,
    running: 0,
    paused: 0,
    errored: 0,
    terminated: 0,
    complete: 0,
    waiting: 0,
    waitingForPause: 0,
  };
  if (!canonicalWorkflows(ctx.state)[wf.name]) return counts;
  const rt = ctx.names.workflow(wf.name);
  await refreshIndex(ctx, rt);
  for (const [status, n] of ctx.registry.instances.statusCounts(rt, Date.now(), defaultKeep(wf)))
    counts[status] = (counts[status] ?? 0) + n;
  // miniflare's running is Cloudflare's running or waiting: the running ones are looked at closer
  const running = ctx.registry.instances.summaries(rt, ["running"]);
  await deriveRunning(ctx, rt, running);
  for (const it of running) {
    if (it.status === "running") continue;
    counts.running--;
    counts[it.status] = (counts[it.status] ?? 0) + 1;
  }
  return counts;
}

export async function listWorkflows(ctx, c) {
  const search = c.query.get("search");
  let wfs = Object.values(ctx.state.workflows).sort((a, b) => a.name.localeCompare(b.name));
  if (search) wfs = wfs.filter((w) => w.name.includes(search));
  const { items, info } = pageInfo(
    wfs,
    intParam(c.query, "page", { def: 1, min: 1 }),
    intParam(c.query, "per_page", { def: 50, min: 1, max: 100 }),
  );
  const result = [];
  for (const wf of items) result.push(workflowJSON(wf, await counts(ctx, wf)));
  return { result, info };
}

export async function getWorkflow(ctx, c) {
  const wf = findWorkflow(ctx, c);
  return { result: workflowJSON(wf, await counts(ctx, wf)) };
}

export async function deleteWorkflow(ctx, c) {
  const wf = findWorkflow(ctx, c);
  if (canonicalWorkflows(ctx.state)[wf.name]) {
    await ctx.runtime.explorer(`/workflows/${encodeURIComponent(ctx.names.workflow(wf.name))}`, { method: "DELETE" });
  }
  await ctx.apply((st) => {
    delete st.workflows[wf.name];
  });
  ctx.registry.forgetWorkflowInstances(ctx.names.workflow(wf.name));
  return { result: { status: "ok", success: true } };
}

export function workflowVersions(ctx, c) {
  const wf = findWorkflow(ctx, c);
  const all = [...wf.versions].reverse().map((v) => ({
    id: v.id,
    workflow_id: wf.id,
    class_name: v.class_name,
    created_on: v.created_on,
    modified_on: v.created_on,
  }));
  const { items, info } = pageInfo(
    all,
    intParam(c.query, "page", { def: 1, min: 1 }),
    intParam(c.query, "per_page", { def: 50, min: 1, max: 100 }),
  );
  return { result: items, info };
}

export function workflowVersion(ctx, c) {
  const wf = findWorkflow(ctx, c);
  const v = wf.versions.find((x) => x.id === c.params.version);
  if (!v) throw new EdgeError(404, VERSION_NOT_FOUND, `workflow version '${c.params.version}' not found`);
  return {
    result: {
      id: v.id,
      workflow_id: wf.id,
      class_name: v.class_name,
      created_on: v.created_on,
      modified_on: v.created_on,
    },
  };
}
