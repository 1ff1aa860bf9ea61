import { describe, expect, it } from "vitest";
import {
  cellText,
  classifyValue,
  countPlaceholders,
  destructiveStatements,
  formatBytes,
  formatExpiry,
  hexDump,
  jsonTokens,
  parseParams,
} from "./format";

describe("resources format", () => {
  it("tells JSON, text and binary values apart", () => {
    expect(classifyValue('{"total":42}', "utf-8")).toEqual({
      kind: "json",
      value: { total: 42 },
      pretty: '{\n  "total": 42\n}',
    });
    expect(classifyValue("order 7", "utf-8")).toEqual({ kind: "text", text: "order 7" });
    expect(classifyValue("{not json", "utf-8").kind).toBe("text");
    const bin = classifyValue(btoa("\x89PNG\x00"), "base64");
    expect(bin.kind).toBe("binary");
    expect(bin.kind === "binary" && Array.from(bin.bytes)).toEqual([0x89, 0x50, 0x4e, 0x47, 0]);
  });

  it("dumps bytes as hex lines with offsets and printable text", () => {
    const bytes = new Uint8Array([...new TextEncoder().encode("ABCDEFGHIJKLMNOP"), 0, 255]);
    expect(hexDump(bytes).split("\n")).toEqual([
      "00000000  41 42 43 44 45 46 47 48 49 4a 4b 4c 4d 4e 4f 50  ABCDEFGHIJKLMNOP",
      "00000010  00 ff                                            ..",
    ]);
    expect(hexDump(new Uint8Array(1000), 32).split("\n")).toHaveLength(2);
  });

  it("tokenizes JSON for highlighting without losing text", () => {
    const pretty = JSON.stringify({ a: "x", n: -1.5e3, ok: true, z: null, l: [1] }, null, 2);
    const toks = jsonTokens(pretty);
    expect(toks.map((t) => t.text).join("")).toBe(pretty);
    expect(toks.filter((t) => t.type === "key").map((t) => t.text)).toEqual(['"a"', '"n"', '"ok"', '"z"', '"l"']);
    expect(toks.filter((t) => t.type === "literal").map((t) => t.text)).toEqual(["true", "null"]);
  });

  it("reads parameters as a JSON array", () => {
    expect(parseParams("")).toEqual({});
    expect(parseParams('[1, "a", null]')).toEqual({ params: [1, "a", null] });
    expect(parseParams('{"a":1}').error).toMatch(/must be a JSON array/);
    expect(parseParams("[1,").error).toMatch(/not JSON/);
  });

  it("counts placeholders outside strings and comments", () => {
    expect(countPlaceholders("SELECT * FROM t WHERE a = ? AND b = ?")).toBe(2);
    expect(countPlaceholders("SELECT '?' , \"?\" -- ?\n, ? /* ? */")).toBe(1);
    expect(countPlaceholders("SELECT ?2, ?1, ?2")).toBe(2);
  });

  it("formats sizes, cells and expiry", () => {
    expect(formatBytes(512)).toBe("512 B");
    expect(formatBytes(1536)).toBe("1.5 KiB");
    expect(formatBytes(64 * 1024 * 1024)).toBe("64 MiB");
    expect(cellText(null)).toBe("NULL");
    expect(cellText(42)).toBe("42");
    expect(cellText({ a: 1 })).toBe('{"a":1}');
    expect(formatExpiry(undefined)).toBe("never");
    expect(formatExpiry(1798761600, 1798761600_000 - 2 * 3600_000)).toBe("2027-01-01 00:00:00 UTC (in 2 h)");
  });

  it("finds the statements that delete or change data", () => {
    expect(destructiveStatements("SELECT * FROM t")).toEqual([]);
    expect(destructiveStatements("SELECT 'DROP TABLE t'; -- DELETE FROM t\nSELECT 1")).toEqual([]);
    expect(destructiveStatements("INSERT INTO t VALUES (1); delete from t where a = ';'")).toEqual(["DELETE"]);
    expect(destructiveStatements("/* x */ DROP TABLE t; UPDATE t SET a = 1")).toEqual(["DROP", "UPDATE"]);
    expect(destructiveStatements("WITH old AS (SELECT id FROM t) DELETE FROM t WHERE id IN old")).toEqual(["DELETE"]);
  });
});
