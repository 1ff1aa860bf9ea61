import { describe, expect, it } from "vitest";
import { canonicalJSON } from "./canonical";

describe("canonicalJSON", () => {
  it("ignores key order at every depth but not array order or values", () => {
    expect(canonicalJSON({ b: 1, a: { d: [2, { y: 1, x: 2 }], c: null } })).toBe(
      canonicalJSON({ a: { c: null, d: [2, { x: 2, y: 1 }] }, b: 1 }),
    );
    expect(canonicalJSON({ a: [1, 2] })).not.toBe(canonicalJSON({ a: [2, 1] }));
    expect(canonicalJSON({ a: 1 })).not.toBe(canonicalJSON({ a: "1" }));
    expect(canonicalJSON({ a: undefined, b: 1 })).toBe(canonicalJSON({ b: 1 }));
  });
});
