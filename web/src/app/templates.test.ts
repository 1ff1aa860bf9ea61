import { describe, expect, it } from "vitest";
import { loadTemplates, parseIRText, starterIR } from "./templates";
import approvalText from "../../../examples/approval.json?raw";

describe("templates and imports", () => {
  it("loads the repository's examples as templates with their kind", async () => {
    const t = await loadTemplates();
    expect(t.map((x) => x.id).sort()).toEqual(["approval", "fan-out", "hello", "quote"]);
    expect(t.find((x) => x.id === "quote")?.kind).toBe("script");
    expect(t.find((x) => x.id === "approval")?.kind).toBe("workflow");
  });

  it("reads an IR file, or a version exported with its ir", () => {
    const text = approvalText;
    const r = parseIRText(text);
    expect("ir" in r && r.ir.nodes.length).toBeGreaterThan(3);
    const wrapped = parseIRText(JSON.stringify({ version: 3, ir: JSON.parse(text) }));
    expect("ir" in wrapped && wrapped.ir.entryNodeId).toBe("request");
  });

  it("refuses what is not an IR with a reason", () => {
    expect(parseIRText("{")).toHaveProperty("error");
    expect(parseIRText("[]")).toEqual({ error: "The file does not hold a JSON object." });
    expect(parseIRText('{"nodes":[]}')).toEqual({ error: "The file is not an IR: it has no edges list." });
  });

  it("starts a function with an http trigger and an EXPORT_ step", () => {
    const f = starterIR("F", "script");
    expect(f.kind).toBe("script");
    expect(f.trigger?.type).toBe("http");
    expect(f.nodes[0]?.name.startsWith("EXPORT_")).toBe(true);
    expect(starterIR("W", "workflow").entryNodeId).toBe("start");
  });
});
