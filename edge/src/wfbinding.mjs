// A worker's Workflow binding served by the edge (decision 776): the binding of a Workflow that may run in shards
// (shardwf.worker.js) sends each of its calls to the edge's binding proxy (d1host.mjs), which hands it here with the
// Workflow's runtime name ({wf: name}, from the binding's address). The call goes where the edge's own calls go
// (runtime.mjs): a create to the shard its id picks, an operation on an instance to the shard that holds it.

// WF_BODY_LIMIT bounds one call's body (a create's params: a Workflow's params are at most 1 MiB each on Cloudflare,
// and a batch holds at most 100 instances).
const WF_BODY_LIMIT = 110 * 1024 * 1024;

// workflowBinding serves one call ({op, ...}) of a worker's binding to Workflow entry.wf and answers {ok: true,
// result} or {ok: false, status, code, message}.
export async function workflowBinding(runtime, entry, req, res) {
  const answer = (status, body) =>
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  const read = await runtime.d1.budget.read(req, WF_BODY_LIMIT);
  if (read.error === "too_large")
    return answer(413, { ok: false, status: 413, code: 10001, message: "Workflow binding call too large" });
  if (read.error === "busy")
    return answer(503, {
      ok: false,
      status: 503,
      code: 10001,
      message: "the edge is holding too many binding calls at once (EDGEFLOW_EDGE_BINDING_BUFFER); try again",
    });
  let call;
  try {
    call = JSON.parse(read.body.toString("utf8"));
    if (typeof call?.op !== "string") throw new Error("no op");
  } catch {
    read.release();
    return answer(400, {
      ok: false,
      status: 400,
      code: 10001,
      message: "Workflow binding call is not JSON with an op",
    });
  }
  try {
    return answer(200, { ok: true, result: await carryOut(runtime, entry.wf, call) });
  } catch (err) {
    const status = Number.isInteger(err?.status) ? err.status : 500;
    return answer(status, { ok: false, status, code: err?.code ?? 10001, message: String(err?.message ?? err) });
  } finally {
    read.release(); // the call's bytes count until it is done (its parsed params are held as long)
  }
}

// FROM_WORKER marks a control call made for a worker's request, which may enter a group its drain waits for
// (Groups.enter).
const FROM_WORKER = { fromWorker: true };

async function carryOut(runtime, rt, call) {
  const id = typeof call.id === "string" ? call.id : undefined;
  switch (call.op) {
    case "create": {
      const body =
        call.count !== undefined
          ? { workflow: rt, count: call.count, params: call.params }
          : { workflow: rt, instances: Array.isArray(call.instances) ? call.instances : [] };
      const r = await runtime.control("/wf/create", body, FROM_WORKER);
      // the index holds them at once, each in its shard (a shard the index says is empty may stop: decision 803)
      runtime.recordCreated?.(rt, r.created, r.shards ?? {});
      return { created: r.created, errors: r.errors };
    }
    case "status":
      return await runtime.control("/wf/status", { workflow: rt, id }, FROM_WORKER);
    case "action":
      return await runtime.control(
        "/wf/action",
        {
          workflow: rt,
          id,
          action: call.action,
          ...(call.rollback ? { rollback: true } : {}),
          ...(call.from !== undefined ? { from: call.from } : {}),
        },
        FROM_WORKER,
      );
    case "event":
      return await runtime.control(
        "/wf/event",
        { workflow: rt, id, type: call.type, payload: call.payload },
        FROM_WORKER,
      );
    case "delete": {
      const ids = Array.isArray(call.ids) ? call.ids.filter((x) => typeof x === "string") : [];
      const r = await runtime.control("/wf/delete", { workflow: rt, ids }, FROM_WORKER);
      for (const { id: gone } of r.deleted) runtime.registry.forgetInstance(rt, gone);
      return r;
    }
    default: {
      const err = new Error(`unknown Workflow binding call '${call.op}'`);
      err.status = 400;
      throw err;
    }
  }
}
