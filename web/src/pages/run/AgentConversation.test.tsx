import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { RunStep } from "../../api/models";
import { AgentConversations, agentConversations } from "./AgentConversation";

afterEach(cleanup);

function step(name: string, output: unknown, state: RunStep["state"] = "complete", type = "step"): RunStep {
  return {
    nodeId: "triage",
    name,
    type,
    state,
    attempts: 1,
    startedAt: null,
    endedAt: null,
    error: null,
    output,
    outputTruncated: false,
  };
}

// A conversation as the generated code records it: turn 1 asks for lookup, turn 2 says something and asks for
// refund, which needs an approval the run waits for.
const waiting: RunStep[] = [
  step("Load", { id: "c 1" }),
  step("agent Triage turn 1", {
    text: "",
    toolCalls: [{ id: "call_1", name: "lookup", input: { id: "c 1" } }],
    usage: { inputTokens: 10, outputTokens: 5 },
  }),
  step("agent Triage tool lookup 1", { status: 200, body: { plan: "pro" } }),
  step("agent Triage turn 2", {
    text: "Refunding.",
    toolCalls: [{ id: "call_2", name: "refund", input: { amount: 5 } }],
    usage: { inputTokens: 20, outputTokens: 5 },
  }),
  step("agent Triage approval 2", null, "waiting", "waitForEvent"),
];

describe("AgentConversations", () => {
  it("shows the conversation turn by turn, with tool inputs and outputs and the approval waited for", () => {
    render(<AgentConversations steps={waiting} />);
    const conv = screen.getByRole("region", { name: "Conversation of Triage" });
    const items = within(conv).getAllByRole("listitem") as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    expect(items.map((li) => li.querySelector("strong")?.textContent)).toEqual([
      "Turn 1",
      "Tool lookup",
      "Turn 2",
      "Approval 2",
    ]);
    expect(items[0].textContent).toContain("10 tokens in, 5 out");
    expect(within(items[0]).getByLabelText("Input of lookup (turn 1)").textContent).toContain('"id": "c 1"');
    expect(within(items[1]).getByLabelText("Input of lookup call 1").textContent).toContain('"id": "c 1"');
    expect(within(items[1]).getByLabelText("Output of lookup call 1").textContent).toContain('"plan": "pro"');
    expect(items[2].textContent).toContain("Refunding.");
    expect(items[3].textContent).toContain("of refund");
    expect(within(items[3]).getByRole("status").textContent).toContain("approve-call_2");
    expect(within(items[3]).getByLabelText("Input awaiting approval").textContent).toContain('"amount": 5');
  });

  it("pairs an approved call with its tool step and shows a denial's note", () => {
    const done = [
      ...waiting.slice(0, 4),
      step(
        "agent Triage approval 2",
        { type: "approve-call_2", payload: { approved: true } },
        "complete",
        "waitForEvent",
      ),
      step("agent Triage tool refund 2", { refunded: 5 }),
      step("agent Triage turn 3", {
        text: "",
        toolCalls: [{ id: "call_3", name: "refund", input: { amount: 900 } }],
        usage: { inputTokens: 30, outputTokens: 5 },
      }),
      step("agent Triage approval 3", { payload: { approved: false, note: "too much" } }, "complete", "waitForEvent"),
      step("agent Triage turn 4", { text: "Done.", toolCalls: [], usage: { inputTokens: 40, outputTokens: 2 } }),
    ];
    const [conv] = agentConversations(done);
    if (!conv) throw new Error("no conversation");
    const tool = conv.entries.find((e) => e.kind === "tool" && e.name === "refund");
    expect(tool).toMatchObject({ input: { amount: 5 }, output: { refunded: 5 } });
    expect(conv.entries.filter((e) => e.kind === "approval").map((e) => e.kind === "approval" && e.decision)).toEqual([
      { approved: true, note: "" },
      { approved: false, note: "too much" },
    ]);
    render(<AgentConversations steps={done} />);
    expect(screen.getByText("Denied: too much")).toBeTruthy();
    expect(screen.queryByRole("status")).toBeNull();
  });

  it("shows nothing for a run without agent nodes", () => {
    const { container } = render(<AgentConversations steps={[step("Load", 1)]} />);
    expect(container.textContent).toBe("");
  });
});
