// A worker's Workflow binding when its Workflow may run in shards (decision 776). Instances of one Workflow live in
// several workerds, and a worker's request runs in one of them, so the engine its own workerd holds knows only part
// of them. The edge binds this in place of miniflare's Workflow binding, as a workerd wrapped binding made by its
// miniflare plugin (shardwfplugin.mjs): get, create and createBatch, and every operation on an instance (status,
// pause, resume, terminate, restart, sendEvent, delete), go to the edge's binding proxy (EDGE, at PATH, naming the
// binding in MF-Binding), which sends each to the shard that holds the instance (a create to the shard its id
// picks) as the edge's own calls go. The calls that watch one workerd's engine (subscribe, the unsafe test hooks)
// use the local binding (LOCAL: the engine of this shard).

// failure is the error of a call through the binding (the edge's answer), with the message the engine's binding
// gives for a missing instance or an id that exists.
function failure(answer) {
  const code = answer?.code;
  if (answer?.status === 404 || code === 10201) return new Error("instance.not_found");
  if (code === 10405 && answer?.id !== undefined)
    return new Error(`(instance.already_exists) Workflow instance with id "${answer.id}" already exists`);
  return new Error(String(answer?.message ?? "Workflow binding call failed"));
}

// SKIPPED are the refusals a list-form createBatch passes over without a word, as the engine's binding does: an id
// that exists, and one named twice in the list.
const SKIPPED = new Set([10405, 10415]);

class Edge {
  constructor(env) {
    this.env = env;
  }

  // call sends one operation of the binding to the edge and answers its result, or throws the engine's error.
  async call(op, body) {
    const res = await this.env.EDGE.fetch(`http://edge${this.env.PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json", "mf-binding": this.env.BINDING },
      body: JSON.stringify({ op, ...body }),
    });
    let answer;
    try {
      answer = await res.json();
    } catch {
      answer = { status: res.status, message: `Workflow binding call failed: HTTP ${res.status}` };
    }
    if (!res.ok || answer?.ok !== true) throw failure(answer);
    return answer.result;
  }
}

class Instance {
  #edge;
  #local;
  constructor(id, edge, local) {
    this.id = id;
    this.#edge = edge;
    this.#local = local;
  }
  async status() {
    const s = await this.#edge.call("status", { id: this.id });
    const out = { status: s.status };
    if (s.error !== null && s.error !== undefined) out.error = s.error;
    if (s.output !== null && s.output !== undefined) out.output = s.output;
    return out;
  }
  async pause() {
    await this.#edge.call("action", { id: this.id, action: "pause" });
  }
  async resume() {
    await this.#edge.call("action", { id: this.id, action: "resume" });
  }
  async terminate(options) {
    await this.#edge.call("action", { id: this.id, action: "terminate", rollback: options?.rollback === true });
  }
  async restart(options) {
    await this.#edge.call("action", { id: this.id, action: "restart", from: options?.from });
  }
  async sendEvent(args) {
    await this.#edge.call("event", { id: this.id, type: args?.type, payload: args?.payload });
  }
  async delete() {
    await this.#edge.call("delete", { ids: [this.id] });
  }
  async subscribe(options) {
    using instance = await this.#local.get(this.id);
    return await instance.subscribe(options);
  }
}

// LOCAL holds each binding's local engine binding, out of reach of the worker's code
const LOCAL = new WeakMap();

class Workflow {
  #edge;
  #local;
  constructor(env) {
    this.#edge = new Edge(env);
    this.#local = env.LOCAL;
    LOCAL.set(this, env.LOCAL);
  }
  #handle(id) {
    return new Instance(id, this.#edge, this.#local);
  }
  async get(id) {
    await this.#edge.call("status", { id: String(id) });
    return this.#handle(String(id));
  }
  async create(options) {
    const r = await this.#edge.call("create", { instances: [item(options)] });
    if (r.errors.length > 0) throw failure(r.errors[0]);
    return this.#handle(r.created[0]);
  }
  // createBatch takes a list (answering the instances it created) or the 2026 object form ({instances} or {count,
  // params}, answering {created, errors}).
  async createBatch(options) {
    if (Array.isArray(options)) {
      if (options.length === 0) throw new Error("WorkflowError: batchCreate should have at least 1 instance");
      const r = await this.#edge.call("create", { instances: options.map(item) });
      const refused = r.errors.find((e) => !SKIPPED.has(e.code));
      if (refused !== undefined) throw failure(refused);
      return r.created.map((id) => this.#handle(id));
    }
    const body =
      options?.count !== undefined
        ? { count: options.count, params: options.params }
        : { instances: (options?.instances ?? []).map(item) };
    const r = await this.#edge.call("create", body);
    return { created: r.created.map((id) => this.#handle(id)), errors: r.errors };
  }
  async deleteBatch(ids) {
    return await this.#edge.call("delete", { ids: (ids ?? []).map(String) });
  }
}

// item is one instance of a create as the edge takes it.
function item(options) {
  const o = options ?? {};
  return { ...(o.id !== undefined ? { id: String(o.id) } : {}), params: o.params ?? {} };
}

// the unsafe test hooks go to this shard's engine, as miniflare's binding sends them
for (const name of [
  "unsafeGetBindingName",
  "unsafeStartIntrospection",
  "unsafeStopIntrospection",
  "unsafeSetIntrospectionOperations",
  "unsafeGetIntrospectionInstances",
  "unsafeAbort",
  "unsafeDeletePersistedInstance",
  "unsafeGetInstanceModifier",
  "unsafeWaitForStepResult",
  "unsafeWaitForStatus",
  "unsafeGetOutputOrError",
]) {
  Workflow.prototype[name] = function (...args) {
    return LOCAL.get(this)[name](...args);
  };
}

// workflow builds the binding from its inner bindings: EDGE (a service to the edge's binding proxy), PATH (the
// proxy's path, with its secret), BINDING (the binding's name), LOCAL (this workerd's engine).
export function workflow(env) {
  return new Workflow(env);
}
