// Worker script uploads: the multipart body wrangler and cloudflare-go send, the metadata's bindings, and the
// version records kept in the registry.

import { EdgeError, BINDING_NAME_IN_USE, BINDING_NOT_INHERITED, INVALID_REQUEST, SCRIPT_INVALID } from "./errors.mjs";
import { newId, now } from "./registry.mjs";

export const SCRIPT_NAME = /^[a-z0-9_][a-z0-9_-]{0,62}$/;
const KEEP_VERSIONS = 10;

export function checkScriptName(name) {
  if (!SCRIPT_NAME.test(name) || name.startsWith("__edgeflow")) {
    throw new EdgeError(
      400,
      SCRIPT_INVALID,
      `script name '${name}' is invalid: use 1-63 lowercase letters, digits, '-' and '_', not starting with '-'`,
    );
  }
}

// parseUpload reads a script upload body into {metadata, modules: [{name, type, bytes}], format}.
export async function parseUpload(contentType, body) {
  if (!contentType || !contentType.toLowerCase().startsWith("multipart/form-data")) {
    if (contentType && /javascript/i.test(contentType) && body.length > 0) {
      // A bare service-worker script without metadata.
      return {
        metadata: { body_part: "script", compatibility_date: "2021-11-02", bindings: [] },
        modules: [{ name: "script", type: "CommonJS", bytes: body }],
        format: "service-worker",
      };
    }
    throw new EdgeError(
      400,
      INVALID_REQUEST,
      "a script upload must be multipart/form-data with a 'metadata' part and the module parts",
    );
  }
  let form;
  try {
    form = await new Request("http://edge.invalid/", {
      method: "POST",
      headers: { "content-type": contentType },
      body,
    }).formData();
  } catch (err) {
    throw new EdgeError(400, INVALID_REQUEST, `malformed multipart body: ${err.message}`);
  }
  const mdPart = form.get("metadata");
  if (mdPart === null) throw new EdgeError(400, INVALID_REQUEST, "the multipart body has no 'metadata' part");
  const mdText = typeof mdPart === "string" ? mdPart : await mdPart.text();
  let metadata;
  try {
    metadata = JSON.parse(mdText);
  } catch (err) {
    throw new EdgeError(400, INVALID_REQUEST, `the 'metadata' part is not valid JSON: ${err.message}`);
  }
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) {
    throw new EdgeError(400, INVALID_REQUEST, "the 'metadata' part must be a JSON object");
  }
  const byFilename = new Map();
  const byPartName = new Map();
  for (const [partName, value] of form.entries()) {
    if (partName === "metadata") continue;
    let part;
    if (typeof value === "string") {
      part = { name: partName, contentType: "", bytes: Buffer.from(value, "utf8") };
      byPartName.set(partName, part);
      if (!byFilename.has(partName)) byFilename.set(partName, part);
    } else {
      const filename = value.name && value.name !== "blob" ? value.name : partName;
      part = { name: filename, contentType: value.type ?? "", bytes: Buffer.from(await value.arrayBuffer()) };
      byFilename.set(filename, part);
      byPartName.set(partName, part);
    }
  }
  const lookup = (name) => byFilename.get(name) ?? byPartName.get(name);
  const main = metadata.main_module;
  const bodyPart = metadata.body_part;
  if (typeof main === "string" && main !== "") {
    const mainPart = lookup(main);
    if (!mainPart) {
      throw new EdgeError(
        400,
        SCRIPT_INVALID,
        `main_module '${main}' is not among the uploaded parts (${[...byFilename.keys()].join(", ") || "none"}); name each module part's filename after its module path`,
      );
    }
    const modules = [];
    const seen = new Set();
    const pushModule = (p, isMain) => {
      if (seen.has(p.name)) return;
      seen.add(p.name);
      modules.push({ name: p.name, type: moduleType(p.name, p.contentType, isMain), bytes: p.bytes });
    };
    pushModule({ ...mainPart, name: main }, true);
    for (const p of byFilename.values()) {
      if (p === mainPart) continue;
      const type = moduleType(p.name, p.contentType, false);
      if (type === "SourceMap") continue;
      pushModule(p, false);
    }
    return { metadata, modules, format: "modules" };
  }
  if (typeof bodyPart === "string" && bodyPart !== "") {
    const p = lookup(bodyPart);
    if (!p) throw new EdgeError(400, SCRIPT_INVALID, `body_part '${bodyPart}' is not among the uploaded parts`);
    return { metadata, modules: [{ name: bodyPart, type: "CommonJS", bytes: p.bytes }], format: "service-worker" };
  }
  throw new EdgeError(400, SCRIPT_INVALID, "metadata must name main_module (ES modules) or body_part (service worker)");
}

function moduleType(name, contentType, isMain) {
  const ct = contentType.split(";")[0].trim().toLowerCase();
  const lower = name.toLowerCase();
  switch (ct) {
    case "application/javascript+module":
    case "text/javascript+module":
      return "ESModule";
    case "application/javascript":
    case "text/javascript":
      if (isMain || lower.endsWith(".mjs")) return "ESModule";
      return "CommonJS";
    case "application/wasm":
      return "CompiledWasm";
    case "text/plain":
      return "Text";
    case "application/source-map":
      return "SourceMap";
    case "text/x-python":
    case "text/x-python-requirement":
      throw new EdgeError(400, SCRIPT_INVALID, `module '${name}': Python workers are not supported by the local edge`);
    default:
      break;
  }
  if (lower.endsWith(".mjs") || lower.endsWith(".js"))
    return isMain || lower.endsWith(".mjs") ? "ESModule" : "CommonJS";
  if (lower.endsWith(".cjs")) return "CommonJS";
  if (lower.endsWith(".wasm")) return "CompiledWasm";
  if (lower.endsWith(".map")) return "SourceMap";
  if (lower.endsWith(".txt") || lower.endsWith(".html")) return "Text";
  return "Data";
}

const BINDING_FIELDS = {
  plain_text: ["text"],
  secret_text: ["text"],
  json: [],
  kv_namespace: ["namespace_id"],
  d1: [],
  r2_bucket: ["bucket_name"],
  service: ["service"],
  workflow: ["workflow_name"],
  durable_object_namespace: ["class_name"],
  inherit: [],
  // Workers AI: accepted, and left out of the worker (plan.mjs), as wrangler's local mode without an account has no
  // AI; code that calls env.AI says so (the agent node's workers-ai provider fails its step with that message).
  ai: [],
};

// SECRET_TYPES are the binding types Cloudflare treats as secrets.
const SECRET_TYPES = new Set(["secret_text", "secret_key"]);

// resolveBindings validates the bindings of an upload and resolves `inherit` and keep_bindings against the
// previous version. With keepSecrets (a script upload, as Cloudflare does), the previous version's secrets that the
// upload does not name are kept, and a binding of another type that takes a kept secret's name is refused (10053).
export function resolveBindings(metadata, previous, { keepSecrets = false } = {}) {
  const bindings = metadata.bindings ?? [];
  if (!Array.isArray(bindings)) throw new EdgeError(400, SCRIPT_INVALID, "metadata.bindings must be an array");
  const prevBindings = previous?.metadata?.bindings ?? [];
  const out = [];
  const names = new Set();
  for (const [i, b] of bindings.entries()) {
    if (b === null || typeof b !== "object")
      throw new EdgeError(400, SCRIPT_INVALID, `bindings[${i}] must be an object`);
    if (typeof b.name !== "string" || !/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(b.name)) {
      throw new EdgeError(400, SCRIPT_INVALID, `bindings[${i}]: name '${b.name}' must be a JavaScript identifier`);
    }
    if (names.has(b.name)) {
      const first = bindings.find((x) => x?.name === b.name);
      if (SECRET_TYPES.has(b.type) !== SECRET_TYPES.has(first.type)) throw nameInUse(b.name);
      throw new EdgeError(400, SCRIPT_INVALID, `binding name '${b.name}' is used twice`);
    }
    names.add(b.name);
    const fields = BINDING_FIELDS[b.type];
    if (fields === undefined) {
      throw new EdgeError(
        400,
        SCRIPT_INVALID,
        `binding '${b.name}' has type '${b.type}', which the local edge does not support (supported: ${Object.keys(BINDING_FIELDS).join(", ")})`,
      );
    }
    for (const f of fields) {
      if (typeof b[f] !== "string" || b[f] === "") {
        throw new EdgeError(
          400,
          SCRIPT_INVALID,
          `binding '${b.name}' of type ${b.type} must have a valid \`${f}\` specified`,
        );
      }
    }
    if (b.type === "d1") {
      const id = b.id ?? b.database_id;
      if (typeof id !== "string" || id === "") {
        throw new EdgeError(400, SCRIPT_INVALID, `binding ${b.name} of type d1 must have a valid \`id\` specified`);
      }
      out.push({ ...b, id, database_id: id });
      continue;
    }
    if (b.type === "json" && !("json" in b)) {
      throw new EdgeError(400, SCRIPT_INVALID, `binding '${b.name}' of type json must have a \`json\` value`);
    }
    if (b.type === "workflow" && (typeof b.class_name !== "string" || b.class_name === "")) {
      throw new EdgeError(
        400,
        SCRIPT_INVALID,
        `binding '${b.name}' of type workflow must have a valid \`class_name\` specified`,
      );
    }
    if (b.type === "inherit") {
      const prev = prevBindings.find((p) => p.name === (b.old_name ?? b.name));
      if (!prev)
        throw new EdgeError(
          400,
          BINDING_NOT_INHERITED,
          `binding '${b.name}' inherits from the previous version, which has no such binding`,
        );
      out.push({ ...prev, name: b.name });
      continue;
    }
    out.push(b);
  }
  const keep = metadata.keep_bindings ?? [];
  if (!Array.isArray(keep))
    throw new EdgeError(400, SCRIPT_INVALID, "metadata.keep_bindings must be an array of binding types");
  for (const p of prevBindings) {
    if (keep.includes(p.type) && !names.has(p.name)) {
      out.push(p);
      names.add(p.name);
    }
  }
  if (keepSecrets) {
    for (const p of prevBindings) {
      if (!SECRET_TYPES.has(p.type)) continue;
      const named = out.find((b) => b.name === p.name);
      if (!named) {
        out.push(p);
        names.add(p.name);
      } else if (!SECRET_TYPES.has(named.type)) {
        throw nameInUse(p.name);
      }
    }
  }
  return out;
}

// nameInUse is Cloudflare's answer when a secret and another binding would share a name.
export function nameInUse(name) {
  return new EdgeError(
    400,
    BINDING_NAME_IN_USE,
    `Binding name '${name}' already in use. Please use a different name and try again.`,
  );
}

// newVersion builds a version record from a parsed upload and stores its modules as blobs.
export function newVersion(registry, script, upload, bindings, source) {
  const number = (script.lastNumber ?? 0) + 1;
  script.lastNumber = number;
  const md = { ...upload.metadata, bindings };
  delete md.keep_bindings;
  const version = {
    id: newId(),
    number,
    created_on: now(),
    source,
    format: upload.format,
    metadata: md,
    annotations: upload.metadata.annotations ?? {},
    modules: upload.modules.map((m) => ({
      name: m.name,
      type: m.type,
      blob: registry.putBlob(m.bytes),
      size: m.bytes.length,
    })),
    handlers: detectHandlers(upload),
  };
  script.versions.push(version);
  return version;
}

// deployVersion makes a version the one that serves, recording a deployment, and trims old versions.
export function deployVersion(script, version, { source, annotations = {} } = {}) {
  script.current = version.id;
  script.modified_on = now();
  script.etag = version.modules
    .map((m) => m.blob.slice(0, 8))
    .join("")
    .slice(0, 32);
  const dep = {
    id: newId(),
    created_on: now(),
    source: source ?? version.source,
    strategy: "percentage",
    author_email: "local@edgeflow.local",
    annotations: { "workers/triggered_by": source === "secret" ? "secret" : "upload", ...annotations },
    versions: [{ version_id: version.id, percentage: 100 }],
  };
  script.deployments.push(dep);
  if (script.deployments.length > KEEP_VERSIONS)
    script.deployments.splice(0, script.deployments.length - KEEP_VERSIONS);
  const keepIds = new Set(script.deployments.flatMap((d) => d.versions.map((v) => v.version_id)));
  const extra = script.versions.length - KEEP_VERSIONS;
  if (extra > 0) {
    script.versions = script.versions.filter((v, i) => i >= extra || keepIds.has(v.id) || v.id === script.current);
  }
  return dep;
}

// WORKFLOW_VERSIONS is how many versions of a workflow the registry keeps.
const WORKFLOW_VERSIONS = 200;

// followDeploy gives every workflow that a script runs a new version when the script's deployed version changed
// since the workflow's last version: as on Cloudflare, an instance shows the version it started on.
export function followDeploy(st, scriptName) {
  const script = st.scripts[scriptName];
  if (!script?.current) return;
  for (const wf of Object.values(st.workflows)) {
    if (wf.script_name !== scriptName || wf.versions.length === 0) continue;
    const last = wf.versions.at(-1);
    if (last.script_version === script.current) continue;
    if (last.script_version === undefined) {
      last.script_version = script.current; // recorded by an edge before versions followed deploys
      continue;
    }
    wf.versions.push({
      id: newId(),
      class_name: wf.class_name,
      script_name: scriptName,
      created_on: now(),
      script_version: script.current,
    });
    if (wf.versions.length > WORKFLOW_VERSIONS) wf.versions.splice(0, wf.versions.length - WORKFLOW_VERSIONS);
  }
}

export function emptyScript(name) {
  return {
    name,
    tag: newId().replace(/-/g, ""),
    created_on: now(),
    modified_on: now(),
    current: null,
    versions: [],
    deployments: [],
    subdomain: { enabled: false, previews_enabled: false },
    routes: [],
    schedules: [],
    settings: { logpush: false, observability: { enabled: false }, tail_consumers: null, tags: null },
  };
}

export function currentVersion(script) {
  return script?.versions.find((v) => v.id === script.current) ?? null;
}

export function scriptResult(script) {
  const v = currentVersion(script);
  return {
    id: script.name,
    tag: script.tag,
    etag: script.etag ?? "",
    created_on: script.created_on,
    modified_on: script.modified_on,
    deployment_id: v?.id ?? null,
    compatibility_date: v?.metadata.compatibility_date ?? null,
    compatibility_flags: v?.metadata.compatibility_flags ?? [],
    has_modules: v?.format === "modules",
    logpush: script.settings.logpush ?? false,
    usage_model: "standard",
    handlers: v?.handlers ?? [],
    ...(v?.metadata.placement?.mode === "smart" ? { placement_mode: "smart", placement: { mode: "smart" } } : {}),
    tail_consumers: script.settings.tail_consumers ?? [],
    last_deployed_from: v?.source ?? "api",
  };
}

const HANDLER_NAMES = ["email", "fetch", "queue", "scheduled", "tail", "trace"];

// detectHandlers names the event handlers of an upload's main module, as Cloudflare lists them in a script's
// `handlers` (decision 264): for a module worker, the methods or properties of the default export with a
// handler's name, found in the module's text (a method `fetch(…) {`, or a property `fetch:` given a function or a
// name); for a service worker, its addEventListener("…") calls. Sorted, each name once.
export function detectHandlers(upload) {
  const main = upload.modules[0];
  if (!main) return [];
  const text = main.bytes.toString("utf8");
  const found = new Set();
  for (const name of HANDLER_NAMES) {
    if (upload.format === "service-worker") {
      if (new RegExp(`addEventListener\\(\\s*["'\`]${name}["'\`]`).test(text)) found.add(name);
      continue;
    }
    const method = new RegExp(`(?:^|[{,;}\\s])(?:async\\s+)?${name}\\s*\\([^()]*\\)\\s*\\{`, "m");
    const property = new RegExp(
      `(?:^|[{,\\s])["']?${name}["']?\\s*:\\s*(?:async\\b|function\\b|\\(|[A-Za-z_$][\\w$]*\\s*(?:=>|[,}]|$))`,
      "m",
    );
    if (method.test(text) || property.test(text)) found.add(name);
  }
  return [...found].sort();
}

// publicBindings lists a version's bindings as the API shows them: secret values never leave the edge.
export function publicBindings(version) {
  return (version?.metadata.bindings ?? []).map((b) => {
    if (b.type !== "secret_text") return b;
    return { name: b.name, type: b.type };
  });
}
