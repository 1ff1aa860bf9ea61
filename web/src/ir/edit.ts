// Edits of an IR, as the editor makes them. Each returns a new IR and leaves its input alone; the IR objects an
// edit does not touch are shared, so the canvas redraws only what changed.
import { defaultData, type NodeDefinition } from "./nodeDefs";
import type { IrEdge, IrNode, IrPosition, WorkflowIR } from "./types";

const SLUG = /[^A-Za-z0-9_-]+/g;

// freshId returns an id starting with base that no node (or edge, for edges) of the IR uses yet.
export function freshId(used: ReadonlySet<string>, base: string): string {
  let b = base.replace(SLUG, "_").replace(/^-+/, "").slice(0, 90) || "node";
  if (!/^[A-Za-z0-9_]/.test(b)) b = "n" + b;
  for (let i = 1; ; i++) {
    const id = `${b}_${i}`;
    if (!used.has(id)) return id;
  }
}

function nodeIds(ir: WorkflowIR): Set<string> {
  return new Set(ir.nodes.map((n) => n.id));
}

function edgeIds(ir: WorkflowIR): Set<string> {
  return new Set(ir.edges.map((e) => e.id));
}

function with_(ir: WorkflowIR, patch: Partial<WorkflowIR>): WorkflowIR {
  return { ...ir, ...patch };
}

export interface AddNodeOptions {
  position: IrPosition;
  // after: connect the new node after this one (a plain node's next node moves behind the new node).
  after?: string;
  // outlet: with after, the outlet of that node the new node hangs on (a label; undefined: the node's usual
  // outlet — a plain node's next, a container's then). "" is the unlabelled outlet (a plain node's next, a lane).
  outlet?: string;
}

// addNode adds a node of a definition with its default data; the first node of an IR becomes its entry.
export function addNode(ir: WorkflowIR, def: NodeDefinition, opts: AddNodeOptions): { ir: WorkflowIR; id: string } {
  const used = nodeIds(ir);
  const id = freshId(used, def.id.replace(/^.*\//, ""));
  const count = ir.nodes.filter((n) => n.type === def.id).length;
  const node: IrNode = {
    id,
    type: def.id,
    name: `${def.name} ${count + 1}`,
    position: { x: Math.round(opts.position.x), y: Math.round(opts.position.y) },
    version: def.version,
    data: defaultData(def),
  };
  let next = with_(ir, { nodes: [...ir.nodes, node] });
  if (ir.nodes.length === 0 || !used.has(ir.entryNodeId)) next = with_(next, { entryNodeId: id });
  if (opts.after !== undefined && used.has(opts.after)) {
    const after = ir.nodes.find((n) => n.id === opts.after)!;
    next = connectAfter(next, after, id, opts.outlet);
  }
  return { ir: next, id };
}

// connectAfter links source → id on an outlet (undefined: a plain node's next, a container's then): an outlet that
// takes one edge now leads to the new node, which leads on to the node the outlet led to; a parallel or race lane
// outlet takes a new lane.
function connectAfter(ir: WorkflowIR, source: IrNode, id: string, outlet?: string): WorkflowIR {
  const plain = !["branch", "parallel", "race", "try_catch", "loop", "break"].includes(source.type);
  if (source.type === "break") return ir;
  const label = outlet === undefined ? (plain ? undefined : "then") : outlet === "" ? undefined : outlet;
  const lane = (source.type === "parallel" || source.type === "race") && label === undefined;
  const existing = lane ? undefined : ir.edges.find((e) => e.source === source.id && e.label === label);
  if (!existing) return connect(ir, source.id, id, label);
  const edges = ir.edges.map((e) => (e === existing ? { ...e, target: id } : e));
  const used = edgeIds(ir);
  const onward: IrEdge = { id: freshId(used, `e_${id}`), source: id, target: existing.target };
  return with_(ir, { edges: [...edges, onward] });
}

// connect adds the edge source → target with a label (undefined: unlabelled). An outlet that takes one edge (a plain
// node's next, a container's then, try, catch, finally, body or an arm) is moved to the new target; a parallel or race
// lane outlet takes many. Self-edges and exact duplicates are not added.
export function connect(ir: WorkflowIR, source: string, target: string, label: string | undefined): WorkflowIR {
  if (source === target) return ir;
  const src = ir.nodes.find((n) => n.id === source);
  if (!src || !ir.nodes.some((n) => n.id === target)) return ir;
  if (ir.edges.some((e) => e.source === source && e.target === target && e.label === label)) return ir;
  const manyLanes = (src.type === "parallel" || src.type === "race") && label !== "then";
  let edges = ir.edges;
  if (!manyLanes) edges = edges.filter((e) => !(e.source === source && e.label === label));
  const edge: IrEdge = { id: freshId(edgeIds(ir), `e_${source}_${target}`), source, target };
  if (label !== undefined) edge.label = label;
  return with_(ir, { edges: [...edges, edge] });
}

// removeElements removes nodes (with their edges) and edges. A removed entry node passes the entry to the first
// remaining node without incoming edges (or the first remaining node).
export function removeElements(ir: WorkflowIR, nodes: ReadonlySet<string>, edges: ReadonlySet<string>): WorkflowIR {
  if (nodes.size === 0 && edges.size === 0) return ir;
  const keptNodes = ir.nodes.filter((n) => !nodes.has(n.id));
  const keptEdges = ir.edges.filter((e) => !edges.has(e.id) && !nodes.has(e.source) && !nodes.has(e.target));
  let entry = ir.entryNodeId;
  if (nodes.has(entry)) {
    const targets = new Set(keptEdges.map((e) => e.target));
    entry = (keptNodes.find((n) => !targets.has(n.id)) ?? keptNodes[0])?.id ?? "";
  }
  return with_(ir, { nodes: keptNodes, edges: keptEdges, entryNodeId: entry });
}

// moveNodes sets the positions of nodes by id.
export function moveNodes(ir: WorkflowIR, positions: ReadonlyMap<string, IrPosition>): WorkflowIR {
  if (positions.size === 0) return ir;
  return with_(ir, {
    nodes: ir.nodes.map((n) => {
      const p = positions.get(n.id);
      if (!p || (n.position?.x === p.x && n.position?.y === p.y)) return n;
      return { ...n, position: { x: Math.round(p.x), y: Math.round(p.y) } };
    }),
  });
}

// updateNode replaces the node at an index.
export function updateNode(ir: WorkflowIR, index: number, node: IrNode): WorkflowIR {
  if (ir.nodes[index] === node) return ir;
  const nodes = ir.nodes.slice();
  nodes[index] = node;
  return with_(ir, { nodes });
}

// setBranches sets a branch node's arms; an arm renamed in place (same index) takes its outgoing edge with it.
export function setBranches(
  ir: WorkflowIR,
  index: number,
  branches: Array<{ label: string; condition: string }>,
): WorkflowIR {
  const node = ir.nodes[index];
  if (!node) return ir;
  const old = Array.isArray(node.data.branches) ? (node.data.branches as Array<{ label?: unknown }>) : [];
  const renames = new Map<string, string>();
  branches.forEach((b, i) => {
    const before = old[i]?.label;
    if (typeof before === "string" && before !== b.label && !branches.some((x) => x.label === before))
      renames.set(before, b.label);
  });
  let next = updateNode(ir, index, { ...node, data: { ...node.data, branches } });
  if (renames.size > 0) {
    next = with_(next, {
      edges: next.edges.map((e) =>
        e.source === node.id && e.label !== undefined && renames.has(e.label)
          ? { ...e, label: renames.get(e.label)! }
          : e,
      ),
    });
  }
  return next;
}

export function setEntry(ir: WorkflowIR, id: string): WorkflowIR {
  return ir.entryNodeId === id ? ir : with_(ir, { entryNodeId: id });
}

// A clipboard holds copied nodes and the edges among them.
export interface Clipboard {
  nodes: IrNode[];
  edges: IrEdge[];
}

export function copyNodes(ir: WorkflowIR, ids: ReadonlySet<string>): Clipboard {
  return {
    nodes: structuredClone(ir.nodes.filter((n) => ids.has(n.id))),
    edges: structuredClone(ir.edges.filter((e) => ids.has(e.source) && ids.has(e.target))),
  };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

// renameRefs rewrites {{old...}} expressions in string values to {{new...}}; a value with nothing to rewrite is
// answered as it is (the same object).
function renameRefs(value: unknown, renames: ReadonlyMap<string, string>): unknown {
  if (typeof value === "string") {
    if (!value.includes("{{")) return value;
    let out = value;
    for (const [from, to] of renames) {
      out = out.replace(new RegExp(`(\\{\\{\\s*)${escapeRegExp(from)}(?=[.\\[\\s}])`, "g"), `$1${to}`);
    }
    return out;
  }
  if (Array.isArray(value)) {
    const out = value.map((v) => renameRefs(v, renames));
    return out.some((v, i) => v !== value[i]) ? out : value;
  }
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    let changed = false;
    for (const [k, v] of Object.entries(value)) {
      out[k] = renameRefs(v, renames);
      if (out[k] !== v) changed = true;
    }
    return changed ? out : value;
  }
  return value;
}

// renameNode gives a node a new id: its edges, the entry and output node, and every {{id…}} expression naming it
// follow. An id that another node has, or that is no slug, leaves the IR as it is.
export function renameNode(ir: WorkflowIR, from: string, to: string): WorkflowIR {
  if (from === to || !validId(to) || ir.nodes.some((n) => n.id === to) || !ir.nodes.some((n) => n.id === from))
    return ir;
  const renames = new Map([[from, to]]);
  const nodes = ir.nodes.map((n) => {
    const data = renameRefs(n.data, renames) as Record<string, unknown>;
    const config = n.config === undefined ? undefined : (renameRefs(n.config, renames) as IrNode["config"]);
    if (n.id !== from && data === n.data && config === n.config) return n;
    const out: IrNode = { ...n, data };
    if (n.id === from) out.id = to;
    if (config !== undefined) out.config = config;
    return out;
  });
  const edges = ir.edges.map((e) =>
    e.source === from || e.target === from
      ? { ...e, source: e.source === from ? to : e.source, target: e.target === from ? to : e.target }
      : e,
  );
  const next = with_(ir, { nodes, edges });
  if (next.entryNodeId === from) next.entryNodeId = to;
  if (next.outputNodeId === from) next.outputNodeId = to;
  return next;
}

// ID_RE is a node id as docs/ir.md allows it: letters, digits, - and _, starting with a letter, digit or _, at most
// 100 characters.
const ID_RE = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,99}$/;

export function validId(id: string): boolean {
  return ID_RE.test(id);
}

// idFromName suggests the id a node's name reads as (lower case, words joined by _), fresh among the other nodes;
// undefined when the name gives nothing usable.
export function idFromName(ir: WorkflowIR, name: string, self: string): string | undefined {
  const base = name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, 90);
  if (!base || !validId(base)) return undefined;
  const used = new Set(ir.nodes.filter((n) => n.id !== self).map((n) => n.id));
  return used.has(base) ? freshId(used, base) : base;
}

// pasteNodes adds copies of the clipboard's nodes with fresh ids and names marked (copy), moved by offset; edges among them and expressions
// naming them follow the new ids. It returns the new ids.
export function pasteNodes(ir: WorkflowIR, clip: Clipboard, offset: IrPosition): { ir: WorkflowIR; ids: string[] } {
  const used = nodeIds(ir);
  const renames = new Map<string, string>();
  for (const n of clip.nodes) {
    const id = freshId(used, n.id.replace(/_\d+$/, ""));
    used.add(id);
    renames.set(n.id, id);
  }
  const nodes = clip.nodes.map((n) => {
    const copy: IrNode = { ...structuredClone(n), id: renames.get(n.id)! };
    if (typeof n.name === "string") copy.name = `${n.name} (copy)`.slice(0, 256);
    const p = n.position ?? { x: 0, y: 0 };
    copy.position = { x: p.x + offset.x, y: p.y + offset.y };
    copy.data = renameRefs(copy.data, renames) as Record<string, unknown>;
    return copy;
  });
  const usedEdges = edgeIds(ir);
  const edges = clip.edges.map((e) => {
    const source = renames.get(e.source)!;
    const target = renames.get(e.target)!;
    const id = freshId(usedEdges, `e_${source}_${target}`);
    usedEdges.add(id);
    return { ...structuredClone(e), id, source, target };
  });
  let next = with_(ir, { nodes: [...ir.nodes, ...nodes], edges: [...ir.edges, ...edges] });
  if (ir.nodes.length === 0 && nodes[0]) next = with_(next, { entryNodeId: nodes[0].id });
  return { ir: next, ids: nodes.map((n) => n.id) };
}
