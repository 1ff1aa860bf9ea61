// Templates for a new workflow or function: the examples shipped in the repository's examples/ directory (each a
// complete IR that runs on the local edge as it is), loaded only when the New workflow dialog asks for them.
import type { WorkflowIR } from "../ir/types";

const files = import.meta.glob<{ default: WorkflowIR }>([
  "../../../examples/hello.json",
  "../../../examples/approval.json",
  "../../../examples/fan-out.json",
  "../../../examples/quote.json",
]);

export interface Template {
  id: string;
  name: string;
  description: string;
  kind: "workflow" | "script";
  ir: WorkflowIR;
}

export async function loadTemplates(): Promise<Template[]> {
  const out: Template[] = [];
  for (const [path, load] of Object.entries(files)) {
    const ir = (await load()).default;
    const id = path.replace(/^.*\//, "").replace(/\.json$/, "");
    out.push({
      id,
      name: ir.metadata.name,
      description: ir.metadata.description ?? "",
      kind: ir.kind === "script" ? "script" : "workflow",
      ir,
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

// starterIR is the IR a new workflow or function starts from when it has no version yet: one step.
export function starterIR(name: string, kind: "workflow" | "script"): WorkflowIR {
  if (kind === "script") {
    return {
      kind: "script",
      metadata: { name },
      trigger: { type: "http", method: "POST" },
      nodes: [
        {
          id: "answer",
          type: "step",
          name: "EXPORT_answer",
          data: { code: "return { received: event.payload };" },
        },
      ],
      edges: [],
      entryNodeId: "answer",
    };
  }
  return {
    metadata: { name },
    nodes: [{ id: "start", type: "step", name: "Start", data: { code: "return { hello: 'world' };" } }],
    edges: [],
    entryNodeId: "start",
  };
}

// parseIRText reads an imported .json / .ir.json file and checks it has the IR's outline; the server validates the
// rest when the version is stored.
export function parseIRText(text: string): { ir: WorkflowIR } | { error: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    return { error: `The file is not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (v === null || typeof v !== "object" || Array.isArray(v))
    return { error: "The file does not hold a JSON object." };
  const o = v as Record<string, unknown>;
  // An exported version (GET …/versions/:id) holds the IR under "ir": accept it too.
  const ir = (o.ir && typeof o.ir === "object" && !Array.isArray(o.ir) ? o.ir : o) as Record<string, unknown>;
  if (!Array.isArray(ir.nodes)) return { error: "The file is not an IR: it has no nodes list." };
  if (!Array.isArray(ir.edges)) return { error: "The file is not an IR: it has no edges list." };
  return { ir: ir as unknown as WorkflowIR };
}
