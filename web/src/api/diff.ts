// A line diff for the side-by-side comparison of two versions (their IR as pretty JSON, their generated code).

export type DiffKind = "same" | "changed" | "removed" | "added";

// DiffRow is one row of the side-by-side view: the left line (older), the right line (newer), 1-based numbers.
export interface DiffRow {
  kind: DiffKind;
  left?: { n: number; text: string };
  right?: { n: number; text: string };
}

// The middle part left after trimming the common head and tail is compared line by line with a longest common
// subsequence table; past this many cells it is shown as one changed block instead (still correct, less precise).
const maxCells = 4_000_000;

// diffLines compares two texts line by line. Removed lines followed by added lines pair up as "changed" rows.
export function diffLines(a: string, b: string): DiffRow[] {
  const left = splitLines(a);
  const right = splitLines(b);
  let head = 0;
  while (head < left.length && head < right.length && left[head] === right[head]) head++;
  let tail = 0;
  while (
    tail < left.length - head &&
    tail < right.length - head &&
    left[left.length - 1 - tail] === right[right.length - 1 - tail]
  )
    tail++;
  const ops: Array<{ op: "same" | "del" | "ins"; l?: number; r?: number }> = [];
  for (let i = 0; i < head; i++) ops.push({ op: "same", l: i, r: i });
  const l0 = head;
  const r0 = head;
  const ln = left.length - head - tail;
  const rn = right.length - head - tail;
  if (ln * rn > maxCells) {
    for (let i = 0; i < ln; i++) ops.push({ op: "del", l: l0 + i });
    for (let j = 0; j < rn; j++) ops.push({ op: "ins", r: r0 + j });
  } else {
    // lcs[i][j]: length of the longest common subsequence of left[l0+i..] and right[r0+j..]
    const w = rn + 1;
    const lcs = new Uint32Array((ln + 1) * w);
    for (let i = ln - 1; i >= 0; i--) {
      for (let j = rn - 1; j >= 0; j--) {
        lcs[i * w + j] =
          left[l0 + i] === right[r0 + j]
            ? lcs[(i + 1) * w + j + 1]! + 1
            : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
      }
    }
    let i = 0;
    let j = 0;
    while (i < ln || j < rn) {
      if (i < ln && j < rn && left[l0 + i] === right[r0 + j]) {
        ops.push({ op: "same", l: l0 + i, r: r0 + j });
        i++;
        j++;
      } else if (j < rn && (i === ln || lcs[i * w + j + 1]! >= lcs[(i + 1) * w + j]!)) {
        ops.push({ op: "ins", r: r0 + j });
        j++;
      } else {
        ops.push({ op: "del", l: l0 + i });
        i++;
      }
    }
  }
  for (let k = 0; k < tail; k++) {
    ops.push({ op: "same", l: left.length - tail + k, r: right.length - tail + k });
  }
  return pairRows(ops, left, right);
}

function pairRows(
  ops: Array<{ op: "same" | "del" | "ins"; l?: number; r?: number }>,
  left: string[],
  right: string[],
): DiffRow[] {
  const rows: DiffRow[] = [];
  let k = 0;
  while (k < ops.length) {
    const o = ops[k]!;
    if (o.op === "same") {
      rows.push({ kind: "same", left: line(left, o.l!), right: line(right, o.r!) });
      k++;
      continue;
    }
    const dels: number[] = [];
    const ins: number[] = [];
    while (k < ops.length && ops[k]!.op !== "same") {
      const c = ops[k]!;
      if (c.op === "del") dels.push(c.l!);
      else ins.push(c.r!);
      k++;
    }
    const n = Math.max(dels.length, ins.length);
    for (let x = 0; x < n; x++) {
      const l = dels[x];
      const r = ins[x];
      if (l !== undefined && r !== undefined)
        rows.push({ kind: "changed", left: line(left, l), right: line(right, r) });
      else if (l !== undefined) rows.push({ kind: "removed", left: line(left, l) });
      else rows.push({ kind: "added", right: line(right, r!) });
    }
  }
  return rows;
}

function line(lines: string[], i: number): { n: number; text: string } {
  return { n: i + 1, text: lines[i]! };
}

function splitLines(s: string): string[] {
  if (s === "") return [];
  const lines = s.split(/\r\n|\n/);
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

// diffStats counts the rows that differ.
export function diffStats(rows: DiffRow[]): { added: number; removed: number; changed: number } {
  let added = 0;
  let removed = 0;
  let changed = 0;
  for (const r of rows) {
    if (r.kind === "added") added++;
    else if (r.kind === "removed") removed++;
    else if (r.kind === "changed") changed++;
  }
  return { added, removed, changed };
}

// DiffGap stands for a run of unchanged lines left out of the view.
export interface DiffGap {
  kind: "gap";
  count: number;
}

// collapseSame keeps the changed rows with `context` unchanged rows around each, and folds every longer run of
// unchanged rows into one gap.
export function collapseSame(rows: DiffRow[], context = 3): Array<DiffRow | DiffGap> {
  const keep = new Array<boolean>(rows.length).fill(false);
  rows.forEach((r, i) => {
    if (r.kind === "same") return;
    for (let j = Math.max(0, i - context); j <= Math.min(rows.length - 1, i + context); j++) keep[j] = true;
  });
  const out: Array<DiffRow | DiffGap> = [];
  let gap = 0;
  rows.forEach((r, i) => {
    if (keep[i]) {
      if (gap > 0) out.push({ kind: "gap", count: gap });
      gap = 0;
      out.push(r);
    } else gap++;
  });
  if (gap > 0) out.push({ kind: "gap", count: gap });
  return out;
}

interface NodeLike {
  id: string;
  name?: string;
  type?: string;
  position?: unknown;
  data?: Record<string, unknown>;
  [key: string]: unknown;
}

// withoutStamps drops what the server sets on every version (metadata.version and its times), which would show as a
// change between any two versions.
export function withoutStamps<T>(ir: T): T {
  const doc = ir as unknown as { metadata?: Record<string, unknown> };
  if (!doc.metadata) return ir;
  const { version: _v, createdAt: _c, updatedAt: _u, ...metadata } = doc.metadata;
  return { ...doc, metadata } as unknown as T;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

// nodeChanges sums up, per node, what changed between two IRs: "Notify: added", "Summarize: code changed",
// "Old step: removed"; a node whose data, name, type, position or config changed names each such part.
export function nodeChanges(older: { nodes: readonly NodeLike[] }, newer: { nodes: readonly NodeLike[] }): string[] {
  const before = new Map(older.nodes.map((n) => [n.id, n]));
  const after = new Map(newer.nodes.map((n) => [n.id, n]));
  const out: string[] = [];
  const label = (n: NodeLike) => n.name || n.id;
  for (const n of newer.nodes) {
    const o = before.get(n.id);
    if (!o) {
      out.push(`${label(n)}: added`);
      continue;
    }
    const parts: string[] = [];
    if (o.name !== n.name) parts.push(`renamed from ${label(o)}`);
    if (o.type !== n.type) parts.push("type changed");
    const keys = new Set([...Object.keys(o.data ?? {}), ...Object.keys(n.data ?? {})]);
    for (const k of keys) if (!same(o.data?.[k], n.data?.[k])) parts.push(`${k} changed`);
    for (const k of new Set([...Object.keys(o), ...Object.keys(n)])) {
      if (["id", "name", "type", "data", "position"].includes(k)) continue;
      if (!same(o[k], n[k])) parts.push(`${k} changed`);
    }
    if (!same(o.position, n.position)) parts.push("moved");
    if (parts.length > 0) out.push(`${label(n)}: ${parts.join(", ")}`);
  }
  for (const o of older.nodes) if (!after.has(o.id)) out.push(`${label(o)}: removed`);
  return out;
}
