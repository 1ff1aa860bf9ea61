import { describe, expect, it } from "vitest";
import { collapseSame, diffLines, diffStats, nodeChanges, withoutStamps } from "./diff";

describe("diffLines", () => {
  it("marks nothing in equal texts", () => {
    const rows = diffLines("a\nb\nc\n", "a\nb\nc\n");
    expect(rows.map((r) => r.kind)).toEqual(["same", "same", "same"]);
    expect(rows[2]).toEqual({ kind: "same", left: { n: 3, text: "c" }, right: { n: 3, text: "c" } });
  });

  it("pairs a replaced line as changed and keeps line numbers of both sides", () => {
    const rows = diffLines("a\nb\nc", "a\nB\nc");
    expect(rows).toEqual([
      { kind: "same", left: { n: 1, text: "a" }, right: { n: 1, text: "a" } },
      { kind: "changed", left: { n: 2, text: "b" }, right: { n: 2, text: "B" } },
      { kind: "same", left: { n: 3, text: "c" }, right: { n: 3, text: "c" } },
    ]);
  });

  it("shows insertions and removals with the other side empty", () => {
    const rows = diffLines("a\nc\nd", "a\nb\nc");
    expect(rows.map((r) => [r.kind, r.left?.n, r.right?.n])).toEqual([
      ["same", 1, 1],
      ["added", undefined, 2],
      ["same", 2, 3],
      ["removed", 3, undefined],
    ]);
    expect(diffStats(rows)).toEqual({ added: 1, removed: 1, changed: 0 });
  });

  it("handles empty sides", () => {
    expect(diffLines("", "x\ny").map((r) => r.kind)).toEqual(["added", "added"]);
    expect(diffLines("x", "").map((r) => r.kind)).toEqual(["removed"]);
    expect(diffLines("", "")).toEqual([]);
  });

  it("finds the common lines between two edits (the longest common subsequence)", () => {
    const a = ["{", '  "a": 1,', '  "b": 2,', '  "c": 3', "}"].join("\n");
    const b = ["{", '  "a": 1,', '  "x": 9,', '  "b": 2,', '  "c": 4', "}"].join("\n");
    const rows = diffLines(a, b);
    expect(rows.filter((r) => r.kind === "same").map((r) => r.left?.text)).toEqual([
      "{",
      '  "a": 1,',
      '  "b": 2,',
      "}",
    ]);
    expect(diffStats(rows)).toEqual({ added: 1, removed: 0, changed: 1 });
  });

  it("every line of both texts appears once, in order", () => {
    const a = Array.from({ length: 300 }, (_, i) => `line ${i % 17} ${i % 5}`).join("\n");
    const b = Array.from({ length: 280 }, (_, i) => `line ${i % 13} ${i % 5}`).join("\n");
    const rows = diffLines(a, b);
    const left = rows.filter((r) => r.left).map((r) => r.left!.text);
    const right = rows.filter((r) => r.right).map((r) => r.right!.text);
    expect(left.join("\n")).toBe(a);
    expect(right.join("\n")).toBe(b);
  });
});

describe("the version diff, changes only", () => {
  it("folds long runs of unchanged lines and keeps three around each change", () => {
    const a = Array.from({ length: 20 }, (_, i) => `line ${i}`).join("\n");
    const b = a.replace("line 10", "line ten");
    const shown = collapseSame(diffLines(a, b));
    expect(shown[0]).toEqual({ kind: "gap", count: 7 });
    expect(shown.filter((r) => r.kind !== "gap")).toHaveLength(7);
    expect(shown.at(-1)).toEqual({ kind: "gap", count: 6 });
  });
  it("leaves out the server's version stamps", () => {
    const ir = { metadata: { name: "x", version: 3, createdAt: "t", updatedAt: "t" }, nodes: [] };
    expect(withoutStamps(ir)).toEqual({ metadata: { name: "x" }, nodes: [] });
  });
  it("sums up what changed per node", () => {
    const older = {
      nodes: [
        { id: "a", name: "Summarize", type: "step", data: { code: "return 1;" } },
        { id: "b", name: "Old", type: "step", data: {} },
      ],
    };
    const newer = {
      nodes: [
        { id: "a", name: "Summarize", type: "step", data: { code: "return 2;" } },
        { id: "c", name: "Notify", type: "step", data: {} },
      ],
    };
    expect(nodeChanges(older, newer)).toEqual(["Summarize: code changed", "Notify: added", "Old: removed"]);
  });
});
