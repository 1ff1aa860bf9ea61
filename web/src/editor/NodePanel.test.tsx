import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { IrNode } from "../ir/types";
import { NodePanel } from "./NodePanel";

afterEach(cleanup);

function setup(node: IrNode, kind: "workflow" | "script" = "workflow") {
  const onNodeChange = vi.fn();
  render(
    <NodePanel
      node={node}
      index={0}
      def={undefined}
      entry={false}
      kind={kind}
      problems={[{ path: "/nodes/0/config/rollback/code", message: "rollback.code is required", rule: "step-config" }]}
      idPrefix="t"
      expressionOptions={() => []}
      onNodeChange={onNodeChange}
      onDataChange={vi.fn()}
      onSetEntry={vi.fn()}
      onDelete={vi.fn()}
    />,
  );
  return onNodeChange;
}

describe("NodePanel", () => {
  const http: IrNode = { id: "call", type: "http_request", name: "Call", data: {} };

  it("has a Rollback section on durable nodes of workflows, which writes config.rollback beside the retries", () => {
    const onNodeChange = setup({ ...http, config: { retries: { limit: 2, delay: 5 }, rollback: { code: "undo();" } } });
    expect(screen.getByRole("group", { name: "Rollback" })).toBeTruthy();
    expect(screen.getByText("rollback.code is required")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Rollback timeout"), { target: { value: "1 minute" } });
    expect(onNodeChange).toHaveBeenLastCalledWith(
      { ...http, config: { retries: { limit: 2, delay: 5 }, rollback: { code: "undo();", timeout: "1 minute" } } },
      "config",
    );
  });

  it("has none in functions, nor on nodes that are not durable steps", () => {
    setup(http, "script");
    expect(screen.queryByRole("group", { name: "Rollback" })).toBeNull();
    cleanup();
    setup({ id: "b", type: "branch", name: "B", data: {} });
    expect(screen.queryByRole("group", { name: "Rollback" })).toBeNull();
  });

  it("asks for the longest wait only with a retry-after delay, and drops it with another delay", () => {
    const onNodeChange = setup({
      ...http,
      config: { retries: { limit: 2, delay: "retry-after", maxDelay: "10 minutes" } },
    });
    expect((screen.getByLabelText("Longest Retry-After wait") as HTMLInputElement).value).toBe("10 minutes");
    fireEvent.change(screen.getByLabelText("Retry delay"), { target: { value: "5" } });
    expect(onNodeChange).toHaveBeenLastCalledWith({ ...http, config: { retries: { limit: 2, delay: 5 } } }, "config");
  });
});
