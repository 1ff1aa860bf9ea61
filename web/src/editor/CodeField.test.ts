import { CompletionContext } from "@codemirror/autocomplete";
import { EditorState } from "@codemirror/state";
import { describe, expect, it } from "vitest";
import { expressionSource } from "./CodeField";

const options = () => [
  { path: "fetch", detail: "Fetch (HTTP request)" },
  { path: "fetch.body", detail: "any" },
];

function complete(doc: string, pos = doc.length) {
  const state = EditorState.create({ doc });
  return expressionSource(options)(new CompletionContext(state, pos, false));
}

describe("expression completion in code fields", () => {
  it("completes inside {{ and closes the expression", () => {
    const r = complete("return {{fe");
    expect(r?.from).toBe(9);
    expect(r?.options.map((o) => [o.label, o.apply])).toEqual([
      ["fetch", "fetch}}"],
      ["fetch.body", "fetch.body}}"],
    ]);
  });

  it("does not close twice, and stays out of closed expressions", () => {
    const r = complete("return {{fe}};", 11);
    expect(r?.options[0]?.apply).toBe("fetch");
    expect(complete("return {{fetch}} + ")).toBeNull();
  });
});
