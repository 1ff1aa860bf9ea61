package codegen

// Access to a deployed workflow's worker (docs/compiler.md, "Who may call a
// workflow's worker"). Creating an instance, reading an instance's status
// and sending an event need the deployment's token, which the deploy binds
// as the secret WorkerTokenBinding and which callers send as
// "Authorization: Bearer <token>". When the deploy also binds
// TriggerSecretBinding (deployConfig.publicTrigger), a request signed with
// that secret may create an instance, and nothing else. A function's worker
// stays public (docs/deploy.md).

// WorkerTokenBinding is the secret binding holding a workflow deployment's
// token. The generated code reads it; the deploy supplies its value.
const WorkerTokenBinding = "EDGEFLOW_WORKER_TOKEN"

// TriggerSecretBinding is the secret binding holding the signing secret of a
// workflow's public trigger; unbound when the trigger is not public.
const TriggerSecretBinding = "EDGEFLOW_TRIGGER_SECRET"

// Headers of a signed public trigger request.
const (
	SignatureTimestampHeader = "X-Edgeflow-Timestamp"
	SignatureHeader          = "X-Edgeflow-Signature"
)

// SignatureWindowSeconds is how far a signed request's timestamp may be from
// the worker's clock.
const SignatureWindowSeconds = 300

// CreatePath is the path of a workflow worker's own create endpoint, which
// edgeflow's local-edge trigger uses: a POST with the deployment's token
// (never a signature), the instance id in InstanceIDHeader and the params as
// the body. The worker answers it before any triggerCode, so that user code
// never sees it: 200 {"instanceId"}, 409 when the id is taken, 401 without
// the token.
const CreatePath = "/__edgeflow/instances"

// InstanceIDHeader names the instance id a token holder chooses.
const InstanceIDHeader = "X-Edgeflow-Instance-Id"

// NewInstanceHeader, "1" on a CreatePath request, says that the caller made
// the id itself, new, so that the worker skips its check that the id is
// free: a lookup of the instance that costs the engine about a sixth of a
// create (decision 305). edgeflow's trigger sends it with its run id. A
// provider that refuses a taken id still answers 409 (checked after the
// create fails); miniflare, which does not, then answers 200 with the
// instance left as it was.
const NewInstanceHeader = "X-Edgeflow-New-Instance"

// BatchHeader, "1" on a CreatePath request, makes it a batch: the body is a
// JSON array of 1 to 100 {"id", "params"} with ids the caller made new, and
// the answer {"instanceIds": [...]} in the same order. A caller sends
// batches only to a worker whose answer to a single create carried
// BatchesHeader: a worker generated before batches would take a batch for
// one create (or for a trigger, before the create path existed).
const BatchHeader = "X-Edgeflow-Instance-Batch"

// BatchesHeader, "1" on the answer to a single create on CreatePath, says
// that the worker takes batches (BatchHeader).
const BatchesHeader = "X-Edgeflow-Batches"

// MaxBatch is the most instances of one batch (Cloudflare's createBatch
// limit).
const MaxBatch = 100

// workerAuthEnv declares the two secrets of a workflow's worker.
func (g *gen) workerAuthEnv() {
	g.env[WorkerTokenBinding] = "string"
	g.bindings[WorkerTokenBinding] = Binding{Name: WorkerTokenBinding, Type: BindingSecretText}
	g.env[TriggerSecretBinding] = "string | undefined"
	g.bindings[TriggerSecretBinding] = Binding{Name: TriggerSecretBinding, Type: BindingSecretText}
	g.helpers[helperWorkerAuth] = true
}

// workflowCreatePath writes, first in a workflow's fetch handler, the
// answer to CreatePath.
func (g *gen) workflowCreatePath() {
	g.line("if (new URL(request.url).pathname === %q) return await createTokenInstance(request, env.%s, env.%s);", CreatePath, WorkerTokenBinding, workflowBinding)
}

// workflowFetch writes the default fetch body of a workflow.
func (g *gen) workflowFetch() {
	g.line("if (request.method === \"GET\") {")
	g.line(`  const instanceId = new URL(request.url).searchParams.get("instanceId");`)
	g.line("  if (!instanceId) return new Response(\"OK\");")
	g.line("  if (!(await workerTokenMatches(request, env.%s))) return workerUnauthorized(workerTokenRequired);", WorkerTokenBinding)
	g.line("  const instance = await env.%s.get(instanceId);", workflowBinding)
	g.line("  return Response.json({ instanceId, ...(await instance.status()) });")
	g.line("}")
	g.line(`if (request.method !== "POST") return new Response("OK");`)
	g.line("const text = await request.text();")
	g.line("// Without the deployment token, only a signed public trigger may create an instance.")
	if g.js {
		g.line("let signedId;")
	} else {
		g.line("let signedId: string | undefined;")
	}
	g.line("if (!(await workerTokenMatches(request, env.%s))) {", WorkerTokenBinding)
	g.line("  const verified = await verifyTriggerSignature(request, env.%s, text);", TriggerSecretBinding)
	g.line(`  if (typeof verified !== "string") return verified;`)
	g.line("  signedId = verified;")
	g.line("}")
	g.line("const params = parseBodyJSON(text);")
	g.line(`if (params === undefined) return Response.json({ message: "the request body is not valid JSON" }, { status: 400 });`)
	g.line("// An event for a waiting instance (wait_for_event nodes).")
	g.line(`if (typeof params?.instanceId === "string" && typeof params?.eventType === "string") {`)
	g.line(`  if (signedId) return workerUnauthorized("sending an event needs the deployment token");`)
	g.line("  const instance = await env.%s.get(params.instanceId);", workflowBinding)
	g.line("  await instance.sendEvent({ type: params.eventType, payload: params.payload ?? {} });")
	g.line("  return Response.json({ instanceId: params.instanceId, eventType: params.eventType });")
	g.line("}")
	g.line("if (signedId) return createSignedInstance(env.%s, signedId, params);", workflowBinding)
	g.line("// The token holder may choose the instance id (edgeflow uses its run id).")
	g.line(`const id = request.headers.get(%q);`, InstanceIDHeader)
	g.line("const instance = await env.%s.create(id ? { id, params } : { params });", workflowBinding)
	g.line("return Response.json({ instanceId: instance.id });")
}

// workflowTriggerGuard writes, before a workflow's triggerCode, the check
// that the request carries the token or, for a POST, a valid signature.
func (g *gen) workflowTriggerGuard() {
	g.line("{")
	g.line("  const denied = await authorizeWorkerTrigger(request, env.%s, env.%s);", WorkerTokenBinding, TriggerSecretBinding)
	g.line("  if (denied) return denied;")
	g.line("}")
}

const workerAuthTS = `
const workerTokenRequired = "this workflow's worker needs the deployment's token: Authorization: Bearer <token>";

/** A 401 answer with a JSON message. */
function workerUnauthorized(message: string): Response {
  return Response.json({ message }, { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="edgeflow"' } });
}

/** The SHA-256 digest of text. */
async function workerDigest(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/**
 * Whether the request carries the deployment's token as "Authorization:
 * Bearer <token>". The digests of both are compared in constant time.
 */
async function workerTokenMatches(request: Request, expected: string): Promise<boolean> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("Authorization") ?? "");
  if (!match || !expected) return false;
  const [got, want] = await Promise.all([workerDigest(match[1]), workerDigest(expected)]);
  let diff = 0;
  for (let i = 0; i < want.length; i++) diff |= got[i] ^ want[i];
  return diff === 0;
}

/**
 * Checks the signature of a public trigger request: X-Edgeflow-Timestamp
 * (Unix seconds, at most 5 minutes from now) and X-Edgeflow-Signature
 * ("v1=" and the hex HMAC-SHA256 of "<timestamp>.<body>" with the trigger
 * secret). Answers the instance id the request creates, derived from its
 * signature so that a replay finds it taken, or a 401 response.
 */
async function verifyTriggerSignature(request: Request, secret: string | undefined, body: string): Promise<string | Response> {
  if (!secret) return workerUnauthorized(workerTokenRequired);
  const timestamp = request.headers.get("X-Edgeflow-Timestamp") ?? "";
  const signature = /^v1=([0-9a-f]{64})$/i.exec((request.headers.get("X-Edgeflow-Signature") ?? "").trim());
  if (!timestamp && !signature) return workerUnauthorized(workerTokenRequired + ", or a signed request (X-Edgeflow-Timestamp, X-Edgeflow-Signature)");
  if (!/^[0-9]{1,12}$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) {
    return workerUnauthorized("X-Edgeflow-Timestamp must be the current time in Unix seconds (within 5 minutes)");
  }
  if (!signature) return workerUnauthorized("X-Edgeflow-Signature must be v1= and 64 hex digits");
  const mac = new Uint8Array(32);
  for (let i = 0; i < 32; i++) mac[i] = parseInt(signature[1].slice(2 * i, 2 * i + 2), 16);
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  if (!(await crypto.subtle.verify("HMAC", key, mac, encoder.encode(timestamp + "." + body)))) {
    return workerUnauthorized("the signature does not match the request");
  }
  return "sig_" + signature[1].slice(0, 40).toLowerCase();
}

/**
 * Lets a request reach a workflow's trigger code when it carries the token
 * or, for a POST, a valid signature; otherwise answers 401.
 */
async function authorizeWorkerTrigger(request: Request, token: string, secret: string | undefined): Promise<Response | null> {
  if (await workerTokenMatches(request, token)) return null;
  if (request.method !== "POST") return workerUnauthorized(workerTokenRequired);
  const verified = await verifyTriggerSignature(request, secret, await request.clone().text());
  return typeof verified === "string" ? null : verified;
}

/**
 * Creates the instance of a signed public trigger. Its id is taken when the
 * same signed request came before: that replay answers 409 (checked before
 * and, for a concurrent replay the provider refuses, after the create).
 */
async function createSignedInstance(workflow: Workflow, id: string, params: unknown): Promise<Response> {
  const replay = () => Response.json({ message: "this signed request was already accepted" }, { status: 409 });
  const exists = () => workflow.get(id).then(() => true, () => false);
  if (await exists()) return replay();
  try {
    const instance = await workflow.create({ id, params });
    return Response.json({ instanceId: instance.id });
  } catch (caught) {
    if (await exists()) return replay();
    throw caught;
  }
}

/**
 * edgeflow's own create (POST /__edgeflow/instances): the deployment token
 * only, the instance id in X-Edgeflow-Instance-Id, the params as the body.
 * An id already taken answers 409 (checked before the create, unless the
 * caller says with X-Edgeflow-New-Instance: 1 that it made the id new, and,
 * when the provider refuses it, after).
 */
async function createTokenInstance(request: Request, token: string, workflow: Workflow): Promise<Response> {
  if (request.method !== "POST") return Response.json({ message: "use POST" }, { status: 405, headers: { Allow: "POST" } });
  if (!(await workerTokenMatches(request, token))) return workerUnauthorized(workerTokenRequired);
  if (request.headers.get("X-Edgeflow-Instance-Batch") === "1") return await createTokenBatch(request, workflow);
  const id = request.headers.get("X-Edgeflow-Instance-Id") ?? "";
  if (id === "") return Response.json({ message: "X-Edgeflow-Instance-Id must name the instance" }, { status: 400 });
  const params = parseBodyJSON(await request.text());
  if (params === undefined) return Response.json({ message: "the request body is not valid JSON" }, { status: 400 });
  const taken = () => workflow.get(id).then(() => true, () => false);
  const conflict = () => Response.json({ message: "instance '" + id + "' already exists" }, { status: 409 });
  if (request.headers.get("X-Edgeflow-New-Instance") !== "1" && await taken()) return conflict();
  try {
    const instance = await workflow.create({ id, params });
    return Response.json({ instanceId: instance.id }, { headers: { "X-Edgeflow-Batches": "1" } });
  } catch (caught) {
    if (await taken()) return conflict();
    throw caught;
  }
}

/**
 * A batch of edgeflow's creates (X-Edgeflow-Instance-Batch: 1): the body is
 * 1 to 100 {id, params} whose ids the caller made new, created at once and
 * answered {"instanceIds"} in order. No id is looked up first.
 */
async function createTokenBatch(request: Request, workflow: Workflow): Promise<Response> {
  const list = parseBodyJSON(await request.text());
  if (!Array.isArray(list) || list.length === 0 || list.length > 100 ||
    !list.every((x: any) => x !== null && typeof x === "object" && typeof x.id === "string" && x.id !== "")) {
    return Response.json({ message: "a batch is a JSON array of 1 to 100 {id, params} objects" }, { status: 400 });
  }
  const created = await workflow.createBatch(list.map((x: any) => ({ id: x.id, params: x.params ?? {} })));
  return Response.json({ instanceIds: created.map((instance) => instance.id) });
}

/** text as JSON: {} when blank, undefined when not JSON. */
function parseBodyJSON(text: string): any {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
`

const workerAuthJS = `
const workerTokenRequired = "this workflow's worker needs the deployment's token: Authorization: Bearer <token>";

/** A 401 answer with a JSON message. */
function workerUnauthorized(message) {
  return Response.json({ message }, { status: 401, headers: { "WWW-Authenticate": 'Bearer realm="edgeflow"' } });
}

/** The SHA-256 digest of text. */
async function workerDigest(text) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/**
 * Whether the request carries the deployment's token as "Authorization:
 * Bearer <token>". The digests of both are compared in constant time.
 */
async function workerTokenMatches(request, expected) {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get("Authorization") ?? "");
  if (!match || !expected) return false;
  const [got, want] = await Promise.all([workerDigest(match[1]), workerDigest(expected)]);
  let diff = 0;
  for (let i = 0; i < want.length; i++) diff |= got[i] ^ want[i];
  return diff === 0;
}

/**
 * Checks the signature of a public trigger request: X-Edgeflow-Timestamp
 * (Unix seconds, at most 5 minutes from now) and X-Edgeflow-Signature
 * ("v1=" and the hex HMAC-SHA256 of "<timestamp>.<body>" with the trigger
 * secret). Answers the instance id the request creates, derived from its
 * signature so that a replay finds it taken, or a 401 response.
 */
async function verifyTriggerSignature(request, secret, body) {
  if (!secret) return workerUnauthorized(workerTokenRequired);
  const timestamp = request.headers.get("X-Edgeflow-Timestamp") ?? "";
  const signature = /^v1=([0-9a-f]{64})$/i.exec((request.headers.get("X-Edgeflow-Signature") ?? "").trim());
  if (!timestamp && !signature) return workerUnauthorized(workerTokenRequired + ", or a signed request (X-Edgeflow-Timestamp, X-Edgeflow-Signature)");
  if (!/^[0-9]{1,12}$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) {
    return workerUnauthorized("X-Edgeflow-Timestamp must be the current time in Unix seconds (within 5 minutes)");
  }
  if (!signature) return workerUnauthorized("X-Edgeflow-Signature must be v1= and 64 hex digits");
  const mac = new Uint8Array(32);
  for (let i = 0; i < 32; i++) mac[i] = parseInt(signature[1].slice(2 * i, 2 * i + 2), 16);
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  if (!(await crypto.subtle.verify("HMAC", key, mac, encoder.encode(timestamp + "." + body)))) {
    return workerUnauthorized("the signature does not match the request");
  }
  return "sig_" + signature[1].slice(0, 40).toLowerCase();
}

/**
 * Lets a request reach a workflow's trigger code when it carries the token
 * or, for a POST, a valid signature; otherwise answers 401.
 */
async function authorizeWorkerTrigger(request, token, secret) {
  if (await workerTokenMatches(request, token)) return null;
  if (request.method !== "POST") return workerUnauthorized(workerTokenRequired);
  const verified = await verifyTriggerSignature(request, secret, await request.clone().text());
  return typeof verified === "string" ? null : verified;
}

/**
 * Creates the instance of a signed public trigger. Its id is taken when the
 * same signed request came before: that replay answers 409 (checked before
 * and, for a concurrent replay the provider refuses, after the create).
 */
async function createSignedInstance(workflow, id, params) {
  const replay = () => Response.json({ message: "this signed request was already accepted" }, { status: 409 });
  const exists = () => workflow.get(id).then(() => true, () => false);
  if (await exists()) return replay();
  try {
    const instance = await workflow.create({ id, params });
    return Response.json({ instanceId: instance.id });
  } catch (caught) {
    if (await exists()) return replay();
    throw caught;
  }
}

/**
 * edgeflow's own create (POST /__edgeflow/instances): the deployment token
 * only, the instance id in X-Edgeflow-Instance-Id, the params as the body.
 * An id already taken answers 409 (checked before the create, unless the
 * caller says with X-Edgeflow-New-Instance: 1 that it made the id new, and,
 * when the provider refuses it, after).
 */
async function createTokenInstance(request, token, workflow) {
  if (request.method !== "POST") return Response.json({ message: "use POST" }, { status: 405, headers: { Allow: "POST" } });
  if (!(await workerTokenMatches(request, token))) return workerUnauthorized(workerTokenRequired);
  if (request.headers.get("X-Edgeflow-Instance-Batch") === "1") return await createTokenBatch(request, workflow);
  const id = request.headers.get("X-Edgeflow-Instance-Id") ?? "";
  if (id === "") return Response.json({ message: "X-Edgeflow-Instance-Id must name the instance" }, { status: 400 });
  const params = parseBodyJSON(await request.text());
  if (params === undefined) return Response.json({ message: "the request body is not valid JSON" }, { status: 400 });
  const taken = () => workflow.get(id).then(() => true, () => false);
  const conflict = () => Response.json({ message: "instance '" + id + "' already exists" }, { status: 409 });
  if (request.headers.get("X-Edgeflow-New-Instance") !== "1" && await taken()) return conflict();
  try {
    const instance = await workflow.create({ id, params });
    return Response.json({ instanceId: instance.id }, { headers: { "X-Edgeflow-Batches": "1" } });
  } catch (caught) {
    if (await taken()) return conflict();
    throw caught;
  }
}

/**
 * A batch of edgeflow's creates (X-Edgeflow-Instance-Batch: 1): the body is
 * 1 to 100 {id, params} whose ids the caller made new, created at once and
 * answered {"instanceIds"} in order. No id is looked up first.
 */
async function createTokenBatch(request, workflow) {
  const list = parseBodyJSON(await request.text());
  if (!Array.isArray(list) || list.length === 0 || list.length > 100 ||
    !list.every((x) => x !== null && typeof x === "object" && typeof x.id === "string" && x.id !== "")) {
    return Response.json({ message: "a batch is a JSON array of 1 to 100 {id, params} objects" }, { status: 400 });
  }
  const created = await workflow.createBatch(list.map((x) => ({ id: x.id, params: x.params ?? {} })));
  return Response.json({ instanceIds: created.map((instance) => instance.id) });
}

/** text as JSON: {} when blank, undefined when not JSON. */
function parseBodyJSON(text) {
  if (text.trim() === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
`
