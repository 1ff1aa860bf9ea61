import type { RunStep } from "../../api/models";
import { Json } from "../../app/ui";

// The steps of an agent node, as the generated code names them (docs/agents.md, "Durability"): a model call
// "agent <node> turn N", a tool call "agent <node> tool <name> N" and an approval "agent <node> approval N", where
// <node> is the node's step name (with its loop suffix inside loops).
const agentStep = /^agent (.+) (?:turn (\d+)|tool ([A-Za-z0-9_-]+) (\d+)|approval (\d+))$/;

/** A tool call a model turn asked for. */
interface Call {
  id: string;
  name: string;
  input: unknown;
}

/** One entry of an agent's conversation. */
export type AgentEntry =
  | { kind: "turn"; n: number; step: RunStep; text: string; calls: Call[]; usage?: { in: number; out: number } }
  | { kind: "tool"; n: number; step: RunStep; name: string; input: unknown; output: unknown }
  | { kind: "approval"; n: number; step: RunStep; call?: Call; decision?: { approved: boolean; note: string } };

/** An agent node's conversation in a run: its name and entries in execution order. */
export interface AgentConversationData {
  nodeId: string;
  name: string;
  entries: AgentEntry[];
}

function asCalls(v: unknown): Call[] {
  if (!Array.isArray(v)) return [];
  return v
    .filter((c): c is Record<string, unknown> => typeof c === "object" && c !== null)
    .map((c) => ({ id: String(c.id ?? ""), name: String(c.name ?? ""), input: c.input }));
}

// approvalEvent is the event type an approval of a tool call waits for (the generated code's agentApprovalEvent).
export function approvalEvent(callId: string): string {
  return ("approve-" + callId.replace(/[^A-Za-z0-9_-]/g, "_")).slice(0, 100);
}

/**
 * agentConversations groups a run's steps into the conversations of its agent nodes: each model turn with its text,
 * the tool calls it asked for and its tokens; each tool call with its input (from the turn that asked for it) and
 * output; each approval with the call it holds and the decision, if any.
 */
export function agentConversations(steps: readonly RunStep[]): AgentConversationData[] {
  const byName = new Map<string, AgentConversationData & { pending: Call[] }>();
  for (const step of steps) {
    const m = agentStep.exec(step.name);
    if (!m) continue;
    const name = m[1] ?? "";
    let conv = byName.get(name);
    if (!conv) {
      conv = { nodeId: step.nodeId, name, entries: [], pending: [] };
      byName.set(name, conv);
    }
    const out = (typeof step.output === "object" && step.output !== null ? step.output : {}) as Record<string, unknown>;
    if (m[2] !== undefined) {
      const calls = asCalls(out.toolCalls);
      const u = out.usage as { inputTokens?: number; outputTokens?: number } | undefined;
      conv.pending = [...calls];
      conv.entries.push({
        kind: "turn",
        n: Number(m[2]),
        step,
        text: typeof out.text === "string" ? out.text : "",
        calls,
        usage: u ? { in: u.inputTokens ?? 0, out: u.outputTokens ?? 0 } : undefined,
      });
    } else if (m[3] !== undefined) {
      const tool = m[3];
      // The input is the first call of that tool the last turn asked for and no entry has taken yet.
      const at = conv.pending.findIndex((c) => c.name === tool);
      const call = at >= 0 ? conv.pending.splice(at, 1)[0] : undefined;
      conv.entries.push({ kind: "tool", n: Number(m[4]), step, name: tool, input: call?.input, output: step.output });
    } else {
      // An approval holds the next call not taken yet; the tool step of the same number, if approved, follows it.
      const call = conv.pending[0];
      const payload = (out.payload ?? step.output) as { approved?: unknown; note?: unknown } | null;
      const decision =
        step.state === "complete" && payload && typeof payload === "object"
          ? { approved: payload.approved === true, note: typeof payload.note === "string" ? payload.note : "" }
          : undefined;
      if (call && decision && !decision.approved) conv.pending.shift();
      conv.entries.push({ kind: "approval", n: Number(m[5]), step, call, decision });
    }
  }
  return [...byName.values()].map(({ nodeId, name, entries }) => ({ nodeId, name, entries }));
}

// AgentConversations shows the conversation of each agent node of the run, turn by turn: the model's messages and
// the tool calls it asked for, each tool call's input and output, and the approvals the run waits for (with the
// event to send). Nothing is shown for a run without agent nodes.
export function AgentConversations({ steps }: { steps: readonly RunStep[] }) {
  const convs = agentConversations(steps);
  if (convs.length === 0) return null;
  return (
    <>
      {convs.map((c) => (
        <section key={c.name} className="agent-conversation" aria-label={`Conversation of ${c.name}`}>
          <h2>Agent {c.name}</h2>
          <ol className="steps">
            {c.entries.map((e) => (
              <li key={e.step.name} className={`step state-${e.step.state}`}>
                <AgentEntryView entry={e} />
              </li>
            ))}
          </ol>
        </section>
      ))}
    </>
  );
}

function StepProblem({ step }: { step: RunStep }) {
  if (step.error)
    return (
      <p className="step-error">
        <strong>{step.error.name}:</strong> {step.error.message}
      </p>
    );
  if (step.state === "running" || step.state === "retrying") return <p className="muted small">{step.state}…</p>;
  return null;
}

function AgentEntryView({ entry: e }: { entry: AgentEntry }) {
  switch (e.kind) {
    case "turn":
      return (
        <>
          <div className="step-head">
            <strong>Turn {e.n}</strong> <span className="muted small">model</span>
            {e.usage && (
              <span className="muted small">
                {" "}
                · {e.usage.in} tokens in, {e.usage.out} out
              </span>
            )}
          </div>
          {e.text !== "" && <p className="agent-message">{e.text}</p>}
          {e.calls.map((c) => (
            <details key={c.id}>
              <summary>
                Asks for <code>{c.name}</code>
              </summary>
              <Json value={c.input} label={`Input of ${c.name} (turn ${e.n})`} />
            </details>
          ))}
          <StepProblem step={e.step} />
        </>
      );
    case "tool":
      return (
        <>
          <div className="step-head">
            <strong>
              Tool <code>{e.name}</code>
            </strong>{" "}
            <span className="muted small">call {e.n}</span>
          </div>
          <details>
            <summary>Input</summary>
            <Json value={e.input} label={`Input of ${e.name} call ${e.n}`} />
          </details>
          {e.step.state === "complete" && (
            <details>
              <summary>Output{e.step.outputTruncated ? " (first 64 KiB)" : ""}</summary>
              <Json value={e.output} label={`Output of ${e.name} call ${e.n}`} />
            </details>
          )}
          <StepProblem step={e.step} />
        </>
      );
    case "approval":
      return (
        <>
          <div className="step-head">
            <strong>Approval {e.n}</strong>
            {e.call && (
              <>
                {" "}
                of <code>{e.call.name}</code>
              </>
            )}
          </div>
          {e.step.state === "waiting" && (
            <p role="status">
              Waiting for approval: send the event{" "}
              <code>{e.call ? approvalEvent(e.call.id) : "approve-<tool call id>"}</code> with{" "}
              <code>{'{"approved": true}'}</code> or <code>{'{"approved": false, "note": "…"}'}</code>.
            </p>
          )}
          {e.call && e.step.state === "waiting" && <Json value={e.call.input} label={`Input awaiting approval`} />}
          {e.decision && (
            <p>
              {e.decision.approved ? "Approved" : "Denied"}
              {e.decision.note ? `: ${e.decision.note}` : ""}
            </p>
          )}
          <StepProblem step={e.step} />
        </>
      );
  }
}
