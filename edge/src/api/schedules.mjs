// Cron schedules: a script's cron triggers (its scheduled handler) and the schedules of Workflows (each starts an
// instance), and running those due at a minute. Every handler takes the account's context (ctx, see ../api.mjs) and
// the call (c); the route table (routes.mjs) lists them.

import { parseCron } from "../cron.mjs";
import { EdgeError, CRON_INVALID, INVALID_REQUEST } from "../errors.mjs";
import { now } from "../registry.mjs";
import { canonicalWorkflows } from "../plan.mjs";
import { createInstances } from "./instances.mjs";
import { findScript } from "./workers.mjs";

export function getSchedules(ctx, c) {
  return { result: { schedules: findScript(ctx, c).schedules } };
}

export async function putSchedules(ctx, c) {
  const s = findScript(ctx, c);
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
  await ctx.apply(
    (st) => {
      st.scripts[s.name].schedules = schedules;
    },
    { restart: false },
  );
  return { result: { schedules } };
}

// runSchedules starts the instances and scheduled handlers whose cron expressions match minute.
export async function runSchedules(ctx, minute) {
  const started = [];
  const canonical = canonicalWorkflows(ctx.state);
  for (const wf of Object.values(ctx.state.workflows)) {
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
        const [r] = await createInstances(
          ctx,
          wf,
          [{ params: { cron: s.cron, scheduledTime: minute.getTime() } }],
          "cron",
        );
        started.push({ workflow: wf.name, id: r.id });
        ctx.logger(`schedule '${s.cron}' of workflow ${wf.name} started instance ${r.id}`);
      } catch (err) {
        ctx.logger(`schedule '${s.cron}' of workflow ${wf.name} failed: ${err.message}`);
      }
    }
  }
  for (const script of Object.values(ctx.state.scripts)) {
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
        const outcome = await ctx.runtime.scheduled(ctx.names.script(script.name), s.cron, minute);
        if (outcome !== "ok")
          ctx.logger(`cron trigger '${s.cron}' of script ${script.name} ended with outcome ${outcome}`);
        started.push({ script: script.name, cron: s.cron });
      } catch (err) {
        ctx.logger(`cron trigger '${s.cron}' of script ${script.name} failed: ${err.message}`);
      }
    }
  }
  return started;
}
