// The JSON view's diagnostics (JsonView.tsx): where the text does not parse as JSON, where it is no IR, and where
// the server's validation problems point, each placed in the text so that CodeMirror's linter marks its line.
// Positions come from the JSON syntax tree of the text (@codemirror/lang-json), so they stay right while the text
// is laid out differently from JSON.stringify's (a user's own indentation, keys in another order).
import { ensureSyntaxTree, syntaxTree } from "@codemirror/language";
import type { Diagnostic } from "@codemirror/lint";
import type { EditorState } from "@codemirror/state";
import type { IrProblem, WorkflowIR } from "../ir/types";

// the longest a diagnostics pass waits for the syntax tree of the whole text (a 5,000-node IR is megabytes)
const TREE_TIMEOUT_MS = 100;

/** TextProblem is why the text is not an IR: a JSON syntax error at a position, or a shape that is no IR. */
export interface TextProblem {
  from: number;
  message: string;
}

/** ParsedText is the JSON view's text read as an IR: the IR, or the problem that stops it. */
export type ParsedText = { ir: WorkflowIR; problem?: undefined } | { ir?: undefined; problem: TextProblem };

// a node of the JSON syntax tree (the type is @lezer/common's, which is no direct dependency)
type SyntaxNode = ReturnType<typeof syntaxTree>["topNode"];

export const NOT_AN_IR = "The IR is an object with a nodes array and an edges array.";

function tree(state: EditorState) {
  return ensureSyntaxTree(state, state.doc.length, TREE_TIMEOUT_MS) ?? syntaxTree(state);
}

/**
 * errorPosition places a JSON.parse error in the text: the position the message names (V8 says "at position N"),
 * else the first error the JSON syntax tree found, else the text's end (the text stopped early).
 */
function errorPosition(state: EditorState, message: string): number {
  const m = /at position (\d+)/.exec(message);
  if (m) {
    const at = Math.min(Number(m[1]), state.doc.length);
    // a missing comma is reported where the next value starts, often on the next line: it is marked right after
    // the value it should follow, on that value's line
    if (!/after (property value|array element)/.test(message)) return at;
    return state.sliceDoc(0, at).trimEnd().length;
  }
  let at = -1;
  tree(state).iterate({
    enter: (n) => {
      if (at >= 0) return false;
      if (n.type.isError) at = n.from;
      return undefined;
    },
  });
  return at >= 0 ? at : state.doc.length;
}

/** parseText reads the editor's text as an IR, or says where and why it is not one. */
export function parseText(state: EditorState): ParsedText {
  let v: unknown;
  try {
    v = JSON.parse(state.doc.toString());
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { problem: { from: errorPosition(state, message), message } };
  }
  const ir = v as Partial<WorkflowIR> | null;
  if (!ir || typeof ir !== "object" || Array.isArray(ir) || !Array.isArray(ir.nodes) || !Array.isArray(ir.edges))
    return { problem: { from: 0, message: NOT_AN_IR } };
  return { ir: ir as WorkflowIR };
}

const VALUES = new Set(["Object", "Array", "String", "Number", "True", "False", "Null"]);

function children(n: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let c = n.firstChild; c; c = c.nextSibling) out.push(c);
  return out;
}

function keyText(state: EditorState, key: SyntaxNode): string | undefined {
  try {
    return JSON.parse(state.sliceDoc(key.from, key.to)) as string;
  } catch {
    return undefined;
  }
}

interface Found {
  value: SyntaxNode;
  // key: the property name the value stands under (none for an array's element or the top)
  key?: SyntaxNode;
  // complete: every segment of the pointer was found (else value is the deepest one that was)
  complete: boolean;
}

function member(state: EditorState, n: SyntaxNode, segment: string): { value: SyntaxNode; key?: SyntaxNode } | null {
  if (n.name === "Object") {
    for (const p of children(n)) {
      if (p.name !== "Property") continue;
      const key = p.getChild("PropertyName");
      const value = children(p).find((c) => VALUES.has(c.name));
      if (key && value && keyText(state, key) === segment) return { value, key };
    }
    return null;
  }
  if (n.name === "Array" && /^(0|[1-9]\d*)$/.test(segment)) {
    const value = children(n).filter((c) => VALUES.has(c.name))[Number(segment)];
    return value ? { value } : null;
  }
  return null;
}

/** valueAt follows a JSON pointer (RFC 6901, as the server's problem paths are) through the text's syntax tree. */
export function valueAt(state: EditorState, pointer: string): Found | null {
  const top = tree(state).topNode.getChild("Object") ?? tree(state).topNode.getChild("Array");
  if (!top) return null;
  let found: Found = { value: top, complete: true };
  const segments = pointer === "" || pointer === "/" ? [] : pointer.replace(/^\//, "").split("/");
  for (const raw of segments) {
    const next = member(state, found.value, raw.replace(/~1/g, "/").replace(/~0/g, "~"));
    if (!next) return { ...found, complete: false };
    found = { ...next, complete: true };
  }
  return found;
}

/** nodeIndexOf answers the index of the node with this id in the text's nodes array, or -1. */
export function nodeIndexOf(state: EditorState, id: string): number {
  const nodes = valueAt(state, "/nodes");
  if (!nodes?.complete || nodes.value.name !== "Array") return -1;
  const list = children(nodes.value).filter((c) => VALUES.has(c.name));
  return list.findIndex((n) => {
    const v = member(state, n, "id")?.value;
    return v?.name === "String" && keyText(state, v) === id;
  });
}

/**
 * problemPointer rewrites a problem's path for the text as it is now: a problem about a node (by its nodeId, or a
 * path into /nodes/N of the IR that was checked) points at that node wherever it now stands. Null when its node is
 * no longer in the text.
 */
export function problemPointer(state: EditorState, p: IrProblem, checked: WorkflowIR | null): string | null {
  const m = /^\/nodes\/(\d+)(\/.*)?$/.exec(p.path);
  const id = p.nodeId ?? (m ? checked?.nodes[Number(m[1])]?.id : undefined);
  if (typeof id !== "string") return p.path;
  const i = nodeIndexOf(state, id);
  if (i < 0) return null;
  return `/nodes/${i}${m ? (m[2] ?? "") : ""}`;
}

/** problemDiagnostics places the server's validation problems in the text (the lines of their nodes and fields). */
export function problemDiagnostics(
  state: EditorState,
  problems: IrProblem[],
  checked: WorkflowIR | null,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const p of problems) {
    const pointer = problemPointer(state, p, checked);
    if (pointer === null) continue;
    const at = valueAt(state, pointer);
    if (!at) continue;
    // an object or array is marked by its key (or its opening bracket): underlining all of it would hide the rest
    const scalar = at.complete && !["Object", "Array"].includes(at.value.name);
    const range = scalar ? at.value : (at.key ?? { from: at.value.from, to: at.value.from + 1 });
    out.push({
      from: range.from,
      to: range.to,
      severity: "error",
      source: "validation",
      message: `${p.message}${p.path ? ` (${p.path})` : ""}`,
    });
  }
  return out;
}

/** lineOf answers the 1-based line and column of a position, for the messages shown beside the editor. */
export function lineOf(state: EditorState, pos: number): { line: number; column: number } {
  const line = state.doc.lineAt(pos);
  return { line: line.number, column: pos - line.from + 1 };
}
