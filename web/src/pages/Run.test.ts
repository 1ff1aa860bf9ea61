import { describe, expect, it } from "vitest";
import { stepState } from "./Run";

describe("stepState", () => {
  it("names each step's state from its record and the run's", () => {
    expect(stepState({ name: "a", start: "t", end: "t", success: true }, false)).toBe("done");
    expect(stepState({ name: "a", start: "t", end: "t" }, false)).toBe("done");
    expect(stepState({ name: "a", start: "t", end: "t", success: false }, true)).toBe("failed");
    expect(stepState({ name: "a", start: "t", end: null }, false)).toBe("running");
    expect(stepState({ name: "a", start: "t", end: null }, true)).toBe("stopped");
    expect(stepState({ name: "a" }, false)).toBe("pending");
  });
});
