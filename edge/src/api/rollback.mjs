// The rollback of an ended Workflow instance as the engine tells it, and the statuses that end an instance. A leaf
// module: the archive (archive.mjs) reads an instance's rollback here before it archives the instance, and the
// readers that consult the archive (history.mjs, statuses.mjs) import this module, never the reverse.

// TERMINAL holds the statuses of an instance that has ended.
export const TERMINAL = new Set(["complete", "errored", "terminated"]);

// liveRollback answers the rollback of an ended instance (workerd name rt, id) that the engine still holds:
// {steps, rollback}, steps as Cloudflare lists rollback steps (type "rollback", name, start, end, success, attempts,
// config, output) and rollback {outcome: complete|failed, error} or null when none ran. It is read once from the
// instance's events and kept in the index (a restart forgets it).
export async function liveRollback(ctx, rt, id) {
  const rec = ctx.registry.instanceRecord(rt, id);
  if (rec?.rollback) return rec.rollback;
  const events = await ctx.runtime.control("/wf/rollback", { workflow: rt, id });
  const out = rollbackFromEvents(events);
  ctx.registry.noteInstance(rt, id, { rollback: out });
  return out;
}

// rollbackFromEvents builds {steps, rollback} from an instance's rollback events (oldest first).
export function rollbackFromEvents(events) {
  const iso = (ms) => (typeof ms === "number" ? new Date(ms).toISOString() : null);
  const steps = [];
  const open = new Map(); // stepName -> its step
  let rollback = null;
  let firstError = null;
  for (const ev of events) {
    const step = open.get(ev.stepName);
    switch (ev.type) {
      case "rollback_step_started": {
        const s = {
          name: String(ev.stepName).replace(/-\d+$/, ""),
          start: iso(ev.timestamp),
          end: null,
          success: null,
          type: "rollback",
          output: null,
          config: ev.config ?? null,
          attempts: [],
        };
        open.set(ev.stepName, s);
        steps.push(s);
        break;
      }
      case "rollback_attempt_started":
        step?.attempts.push({ start: iso(ev.timestamp), end: null, success: null, error: null });
        break;
      case "rollback_attempt_completed":
      case "rollback_attempt_errored": {
        const a = step?.attempts.at(-1);
        if (a) {
          a.end = iso(ev.timestamp);
          a.success = ev.type === "rollback_attempt_completed";
          a.error = ev.error ?? null;
        }
        break;
      }
      case "rollback_step_completed":
      case "rollback_step_errored":
        if (step) {
          step.end = iso(ev.timestamp);
          step.success = ev.type === "rollback_step_completed";
        }
        // the step's error, else its last attempt's
        if (ev.type === "rollback_step_errored")
          firstError ??= ev.error ?? step?.attempts.at(-1)?.error ?? { name: "Error", message: "rollback step failed" };
        break;
      case "rollback_completed":
        rollback = { outcome: "complete", error: null };
        break;
      case "rollback_errored":
        rollback = { outcome: "failed", error: firstError };
        break;
      default:
        break;
    }
  }
  return { steps, rollback };
}
