// Expression completion: what `{{…}}` may name at a node (docs/ir.md, "Expressions"): the nodes upstream of it
// (an ancestor on every path from the entry node) with the fields they return where known, a loop's item and index
// inside its body, env vars and the trigger event.
import { adjacency, dominators, reachableFrom } from "./graph";
import { WHOLE_VALUE, type NodeDefinition, type OutputField } from "./nodeDefs";
import type { IrNode, WorkflowIR } from "./types";

export interface ExpressionOption {
  // path is what goes between {{ and }}: "fetch", "fetch.body", "env.API_TOKEN".
  path: string;
  detail: string;
  // value: the path's value in the last test run, written short (editor/stepValues.ts)
  value?: string;
}

// returnKeys reads the keys of the object literal a step's code returns last (`return { a: 1, b }` → a, b).
export function returnKeys(code: string): string[] {
  const re = /\breturn\s*\{/g;
  let last = -1;
  for (let m = re.exec(code); m; m = re.exec(code)) last = m.index + m[0].length;
  if (last < 0) return [];
  const keys: string[] = [];
  let depth = 1;
  let expectKey = true;
  for (let i = last; i < code.length && depth > 0; i++) {
    const c = code[i]!;
    if (c === '"' || c === "'" || c === "`") {
      const end = skipString(code, i);
      if (depth === 1 && expectKey) {
        const rest = code.slice(end + 1).trimStart();
        if (rest.startsWith(":")) keys.push(code.slice(i + 1, end));
        expectKey = false;
      }
      i = end;
      continue;
    }
    if (c === "{" || c === "[" || c === "(") depth++;
    else if (c === "}" || c === "]" || c === ")") depth--;
    else if (depth === 1 && c === ",") expectKey = true;
    else if (depth === 1 && expectKey && /[A-Za-z_$]/.test(c)) {
      const m = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(code.slice(i))!;
      const word = m[0];
      const before = code.slice(Math.max(last, i - 3), i);
      if (!before.endsWith("...")) {
        const rest = code.slice(i + word.length).trimStart();
        if (rest.startsWith(":") || rest.startsWith(",") || rest.startsWith("}") || rest.startsWith("("))
          keys.push(word);
      }
      expectKey = false;
      i += word.length - 1;
    } else if (depth === 1 && !/\s/.test(c)) expectKey = false;
  }
  return [...new Set(keys)];
}

function skipString(s: string, start: number): number {
  const q = s[start];
  for (let i = start + 1; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === q) return i;
  }
  return s.length - 1;
}

function outputPaths(
  schema: Record<string, OutputField>,
  prefix: string,
  out: ExpressionOption[],
  depth: number,
): void {
  for (const [key, f] of Object.entries(schema)) {
    if (key === WHOLE_VALUE) continue;
    const path = `${prefix}.${key}`;
    out.push({ path, detail: f.description ? `${f.type}: ${f.description}` : f.type });
    if (f.properties && depth < 2) outputPaths(f.properties, path, out, depth + 1);
  }
}

// nodeOptions lists a node and the fields of its value that are known.
function nodeOptions(node: IrNode, def: NodeDefinition | undefined): ExpressionOption[] {
  const out: ExpressionOption[] = [{ path: node.id, detail: `${node.name} (${def?.name ?? node.type})` }];
  if (node.type === "step" && typeof node.data?.code === "string") {
    for (const k of returnKeys(node.data.code))
      out.push({ path: `${node.id}.${k}`, detail: `returned by ${node.name}` });
  } else if (def) {
    outputPaths(def.outputSchema, node.id, out, 0);
  }
  return out;
}

export interface CompletionScope {
  kind?: "workflow" | "script";
  envVars?: readonly string[];
}

// expressionOptions lists what a node's fields may reference.
export function expressionOptions(
  ir: WorkflowIR,
  nodeId: string,
  defs: ReadonlyMap<string, NodeDefinition>,
  scope: CompletionScope = {},
): ExpressionOption[] {
  const out: ExpressionOption[] = [];
  const byId = new Map<string, IrNode>();
  for (const n of ir.nodes) if (!byId.has(n.id)) byId.set(n.id, n);
  const doms = dominators(ir).get(nodeId);
  const adj = adjacency(ir);
  if (doms) {
    // upstream nodes in IR order
    for (const n of ir.nodes) {
      if (n.id === nodeId || !doms.has(n.id) || byId.get(n.id) !== n) continue;
      if (n.type === "loop") {
        const body = ir.edges.find((e) => e.source === n.id && e.label === "body");
        if (body && reachableFrom(adj, body.target).has(nodeId)) {
          out.push({ path: n.id, detail: `${n.name} (loop)` });
          out.push({ path: `${n.id}.item`, detail: "the current item" });
          out.push({ path: `${n.id}.index`, detail: "the current index" });
          continue;
        }
      }
      out.push(...nodeOptions(n, defs.get(n.type)));
    }
  }
  for (const name of scope.envVars ?? []) out.push({ path: `env.${name}`, detail: "env var" });
  out.push({ path: "event.payload", detail: "the trigger payload" });
  if (scope.kind !== "script") {
    out.push({ path: "event.timestamp", detail: "when the run started" });
    out.push({ path: "event.instanceId", detail: "the run's instance id" });
    // run and step are roots only while no node has that id (docs/ir.md, "Expressions")
    if (!byId.has("run")) out.push({ path: "run.id", detail: "the run's id" });
    const self = byId.get(nodeId);
    if (self && stepContextNode(self.type, defs.get(self.type))) out.push(...stepContextOptions(ir));
  }
  return out;
}

// stepContextNode tells whether a node's fields are evaluated inside its durable step, where {{step.attempt}} and
// {{step.count}} exist: step, http_request, sub_workflow and marketplace nodes.
export function stepContextNode(type: string, def: NodeDefinition | undefined): boolean {
  if (type === "step" || type === "http_request" || type === "sub_workflow") return true;
  return def !== undefined && !def.builtin;
}

// stepContextOptions are {{step.attempt}} and {{step.count}}, unless a node of the IR is named step.
export function stepContextOptions(ir: WorkflowIR): ExpressionOption[] {
  if (ir.nodes.some((n) => n.id === "step")) return [];
  return [
    { path: "step.attempt", detail: "this step's attempt: 1, then 2 on the first retry, …" },
    { path: "step.count", detail: "how many steps of this name the run has started, this one included" },
  ];
}

// openExpression finds the `{{…` being typed before the cursor: the offset where its path starts and the typed part,
// or null when the cursor is not inside an open expression.
export function openExpression(textBefore: string): { from: number; typed: string } | null {
  const m = /\{\{\s*([A-Za-z0-9_.$\-[\]]*)$/.exec(textBefore);
  if (!m) return null;
  return { from: textBefore.length - m[1]!.length, typed: m[1]! };
}
