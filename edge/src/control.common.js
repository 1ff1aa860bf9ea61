// What the control worker's modules share (control.worker.js, control.workflows.js): its error, the lookup of a
// binding by the resource it stands for, and JSON answers.

// ControlError is an error the control worker answers as {ok: false, status, code, message}.
export class ControlError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const notFoundCode = { kv: 10013, d1: 7404, r2: 10006, wf: 10200 };

// binding is the binding of the resource key of kind (kv, d1, r2, wf), looked up in env.MAP; 404 when there is none.
export function binding(env, kind, key, what) {
  const name = env.MAP[kind][key];
  if (name === undefined) throw new ControlError(404, notFoundCode[kind], `${what} '${key}' not found`);
  return env[name];
}

// json is a JSON response.
export function json(body, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

// message is an error's message.
export function message(err) {
  return err instanceof Error ? err.message : String(err);
}
