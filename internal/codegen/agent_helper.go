package codegen

import (
	"sync"

	"github.com/evanw/esbuild/pkg/api"
)

// agentHelperJS is agentHelperTS without its types, for Options.JavaScript:
// esbuild strips them once, on first use, so that the two cannot drift.
var agentHelperJS = sync.OnceValue(func() string {
	r := api.Transform(agentHelperTS, api.TransformOptions{Loader: api.LoaderTS, Target: api.ES2022})
	if len(r.Errors) > 0 {
		panic("codegen: the agent helper does not transform: " + r.Errors[0].Text)
	}
	return "\n/** The runtime of agent nodes (see the TypeScript output for its comments). */\n" + string(r.Code)
})

// agentHelperTS is the runtime of agent nodes (docs/agents.md, "The agent
// node"): runAgent calls the model in turns and runs the tools it asks
// for. Each model call is the durable step "agent <node> turn N", each
// tool call "agent <node> tool <name> N" and each approval the event wait
// "agent <node> approval N"; the conversation is rebuilt from those steps'
// outputs on every replay, so a retry or a restart repeats none that
// succeeded. The provider's key is read from env by the caller and never
// written to a step output, an error or a log line.
const agentHelperTS = `
/** One tool of an agent node, as the generated code describes it. */
interface AgentToolSpec {
  name: string;
  description: string;
  inputSchema: any;
  run: (input: any, callId: string) => Promise<any>;
}

/** An agent node's settings, as the generated code passes them. */
interface AgentSpec {
  name: string;
  provider: string;
  model: string;
  baseUrl?: string;
  apiKey?: string;
  system?: string;
  prompt: string;
  tools: AgentToolSpec[];
  maxTurns: number;
  maxTokens?: number;
  maxTotalTokens?: number;
  output?: any;
  approval: string[];
  approvalTimeout: any;
  stepConfig?: any;
}

/** A model call's outcome as a step records it (no provider secrets). */
interface AgentTurn {
  text: string;
  toolCalls: { id: string; name: string; input: any }[];
  usage: { inputTokens: number; outputTokens: number };
}

/** The steps of a function's agent: a function has no durable steps, so each runs inline. */
const agentInlineSteps = {
  do: (_name: string, a: any, b?: any) => (typeof a === "function" ? a() : b()),
  waitForEvent: (): any => {
    throw new Error("a function cannot wait for an approval");
  },
};

/** The most tool calls of one turn that run; the model is told of the rest. */
const agentMaxCallsPerTurn = 16;

/** The event type an approval of a tool call waits for. */
function agentApprovalEvent(callId: string): string {
  return ("approve-" + callId.replace(/[^A-Za-z0-9_-]/g, "_")).slice(0, 100);
}

/** Runs an agent node and returns its value {answer, turns, toolCalls, usage}. */
async function runAgent(step: any, env: any, spec: AgentSpec): Promise<any> {
  const history: { turn: AgentTurn; results: { id: string; name: string; output: any }[]; note?: string }[] = [];
  const toolCalls: { name: string; input: any; output: any }[] = [];
  const usage = { inputTokens: 0, outputTokens: 0 };
  const byName = new Map(spec.tools.map((t) => [t.name, t] as [string, AgentToolSpec]));
  let calls = 0;
  let schemaRetried = false;
  for (let n = 1; n <= spec.maxTurns; n++) {
    const doTurn = () => agentModelCall(env, spec, history);
    const turn: AgentTurn = spec.stepConfig
      ? await step.do(` + "`agent ${spec.name} turn ${n}`" + `, spec.stepConfig, doTurn)
      : await step.do(` + "`agent ${spec.name} turn ${n}`" + `, doTurn);
    usage.inputTokens += turn.usage.inputTokens;
    usage.outputTokens += turn.usage.outputTokens;
    if (spec.maxTotalTokens !== undefined && usage.inputTokens + usage.outputTokens > spec.maxTotalTokens) {
      throw new Error(` + "`agent ${spec.name}: ${usage.inputTokens + usage.outputTokens} tokens used, over maxTotalTokens ${spec.maxTotalTokens}`" + `);
    }
    const entry: (typeof history)[number] = { turn, results: [] };
    history.push(entry);
    if (turn.toolCalls.length === 0) {
      if (spec.output === undefined) return { answer: turn.text, turns: n, toolCalls, usage };
      let answer: any;
      let problem = "";
      try {
        answer = JSON.parse(agentStripFence(turn.text));
        problem = agentSchemaProblem(spec.output, answer, "");
      } catch {
        problem = "the answer is not JSON";
      }
      if (problem === "") return { answer, turns: n, toolCalls, usage };
      if (schemaRetried) throw new Error(` + "`agent ${spec.name}: the answer does not match the output schema: ${problem}`" + `);
      schemaRetried = true;
      entry.note = ` + "`Your answer does not match the required JSON Schema: ${problem}. Answer again with JSON only, matching this schema: ${JSON.stringify(spec.output)}`" + `;
      continue;
    }
    for (const [k, call] of turn.toolCalls.entries()) {
      if (k >= agentMaxCallsPerTurn) {
        entry.results.push({ id: call.id, name: call.name, output: { error: ` + "`not run: at most ${agentMaxCallsPerTurn} tool calls per turn`" + ` } });
        continue;
      }
      const tool = byName.get(call.name);
      if (tool === undefined) {
        entry.results.push({ id: call.id, name: call.name, output: { error: ` + "`there is no tool named ${call.name}`" + ` } });
        continue;
      }
      calls++;
      if (spec.approval.includes(call.name)) {
        const event: any = await step.waitForEvent(` + "`agent ${spec.name} approval ${calls}`" + `, {
          type: agentApprovalEvent(call.id),
          timeout: spec.approvalTimeout,
        });
        const decision = event && typeof event === "object" && "payload" in event ? event.payload : event;
        if (!decision || decision.approved !== true) {
          const output = { denied: true, note: typeof decision?.note === "string" ? decision.note : "" };
          entry.results.push({ id: call.id, name: call.name, output });
          toolCalls.push({ name: call.name, input: call.input, output });
          continue;
        }
      }
      const stepName = ` + "`agent ${spec.name} tool ${call.name} ${calls}`" + `;
      const run = async () => {
        const out = await tool.run(call.input, String(calls));
        return out === undefined ? null : out;
      };
      const output = spec.stepConfig ? await step.do(stepName, spec.stepConfig, run) : await step.do(stepName, run);
      entry.results.push({ id: call.id, name: call.name, output });
      toolCalls.push({ name: call.name, input: call.input, output });
    }
  }
  throw new Error(` + "`agent ${spec.name}: no final answer after ${spec.maxTurns} turns (maxTurns)`" + `);
}

/** Calls the model once with the conversation so far. */
async function agentModelCall(env: any, spec: AgentSpec, history: any[]): Promise<AgentTurn> {
  if (spec.provider === "anthropic") return agentAnthropic(spec, history);
  if (spec.provider === "workers-ai") {
    if (!env.AI || typeof env.AI.run !== "function") {
      throw new Error("the workers-ai provider needs Cloudflare's AI binding: deploy to a Cloudflare account (the local edge has none without one), or use the openai or anthropic provider");
    }
    const result: any = await env.AI.run(spec.model, {
      messages: agentOpenAIMessages(spec, history),
      tools: spec.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.inputSchema })),
      ...(spec.maxTokens !== undefined ? { max_tokens: spec.maxTokens } : {}),
    });
    return {
      text: typeof result?.response === "string" ? result.response : "",
      toolCalls: (result?.tool_calls ?? []).map((c: any, i: number) => ({ id: c.id ?? ` + "`call_${i + 1}`" + `, name: String(c.name), input: c.arguments ?? {} })),
      usage: { inputTokens: result?.usage?.prompt_tokens ?? 0, outputTokens: result?.usage?.completion_tokens ?? 0 },
    };
  }
  const base = (spec.baseUrl ?? "https://api.openai.com/v1").replace(/\/+$/, "");
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (spec.apiKey) headers.authorization = "Bearer " + spec.apiKey;
  const body: any = { model: spec.model, messages: agentOpenAIMessages(spec, history) };
  if (spec.tools.length > 0) {
    body.tools = spec.tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.inputSchema } }));
  }
  if (spec.maxTokens !== undefined) body.max_tokens = spec.maxTokens;
  const data = await agentPost(base + "/chat/completions", headers, body, spec.apiKey);
  const message = data?.choices?.[0]?.message ?? {};
  return {
    text: typeof message.content === "string" ? message.content : "",
    toolCalls: (message.tool_calls ?? []).map((c: any) => ({
      id: String(c.id),
      name: String(c.function?.name),
      input: agentParseArguments(c.function?.arguments),
    })),
    usage: { inputTokens: data?.usage?.prompt_tokens ?? 0, outputTokens: data?.usage?.completion_tokens ?? 0 },
  };
}

/** The conversation in the chat completions shape. */
function agentOpenAIMessages(spec: AgentSpec, history: any[]): any[] {
  const messages: any[] = [];
  if (spec.system) messages.push({ role: "system", content: spec.system });
  messages.push({ role: "user", content: spec.prompt });
  for (const h of history) {
    const m: any = { role: "assistant", content: h.turn.text === "" ? null : h.turn.text };
    if (h.turn.toolCalls.length > 0) {
      m.tool_calls = h.turn.toolCalls.map((c: any) => ({ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.input) } }));
    }
    messages.push(m);
    for (const r of h.results) messages.push({ role: "tool", tool_call_id: r.id, content: JSON.stringify(r.output) });
    if (h.note) messages.push({ role: "user", content: h.note });
  }
  return messages;
}

/** Calls the Messages API once with the conversation so far. */
async function agentAnthropic(spec: AgentSpec, history: any[]): Promise<AgentTurn> {
  const base = (spec.baseUrl ?? "https://api.anthropic.com").replace(/\/+$/, "");
  const headers: Record<string, string> = { "content-type": "application/json", "anthropic-version": "2023-06-01" };
  if (spec.apiKey) headers["x-api-key"] = spec.apiKey;
  const messages: any[] = [{ role: "user", content: spec.prompt }];
  for (const h of history) {
    const content: any[] = [];
    if (h.turn.text !== "") content.push({ type: "text", text: h.turn.text });
    for (const c of h.turn.toolCalls) content.push({ type: "tool_use", id: c.id, name: c.name, input: c.input });
    messages.push({ role: "assistant", content });
    const answers: any[] = h.results.map((r: any) => ({ type: "tool_result", tool_use_id: r.id, content: JSON.stringify(r.output) }));
    if (h.note) answers.push({ type: "text", text: h.note });
    if (answers.length > 0) messages.push({ role: "user", content: answers });
  }
  const body: any = { model: spec.model, max_tokens: spec.maxTokens ?? 4096, messages };
  if (spec.system) body.system = spec.system;
  if (spec.tools.length > 0) body.tools = spec.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema }));
  const data = await agentPost(base + "/v1/messages", headers, body, spec.apiKey);
  const blocks: any[] = Array.isArray(data?.content) ? data.content : [];
  return {
    text: blocks.filter((b) => b.type === "text").map((b) => String(b.text)).join(""),
    toolCalls: blocks.filter((b) => b.type === "tool_use").map((b) => ({ id: String(b.id), name: String(b.name), input: b.input ?? {} })),
    usage: { inputTokens: data?.usage?.input_tokens ?? 0, outputTokens: data?.usage?.output_tokens ?? 0 },
  };
}

/** POSTs JSON to a model API; an error names the status, never the key. */
async function agentPost(url: string, headers: Record<string, string>, body: any, key: string | undefined): Promise<any> {
  const response = await fetch(url, { method: "POST", headers, body: JSON.stringify(body) });
  const text = await response.text();
  if (!response.ok) {
    let detail = text.slice(0, 300);
    if (key) detail = detail.split(key).join("[redacted]");
    throw new Error(` + "`model API ${new URL(url).host}: HTTP ${response.status}: ${detail}`" + `);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new Error(` + "`model API ${new URL(url).host}: the answer is not JSON`" + `);
  }
}

/** A tool call's arguments: the JSON object the model wrote, or {}. */
function agentParseArguments(raw: unknown): any {
  if (typeof raw !== "string") return raw ?? {};
  try {
    return JSON.parse(raw);
  } catch {
    return { arguments: raw };
  }
}

/** The JSON in an answer, without a Markdown code fence around it. */
function agentStripFence(text: string): string {
  const m = /^\s*` + "```" + `(?:json)?\s*([\s\S]*?)\s*` + "```" + `\s*$/.exec(text);
  return m ? m[1] : text;
}

/** The first way value fails schema (the keywords the IR allows), or "". */
function agentSchemaProblem(schema: any, value: any, at: string): string {
  if (schema === true || schema === undefined) return "";
  if (schema === false) return ` + "`${at || \"/\"}: no value is allowed`" + `;
  const where = at || "/";
  const kind = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  if (schema.type !== undefined) {
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    const ok = types.some((t) => t === kind || (t === "integer" && kind === "number" && Number.isInteger(value)));
    if (!ok) return ` + "`${where}: expected ${types.join(\" or \")}, got ${kind}`" + `;
  }
  if (schema.const !== undefined && JSON.stringify(schema.const) !== JSON.stringify(value)) return ` + "`${where}: must be ${JSON.stringify(schema.const)}`" + `;
  if (Array.isArray(schema.enum) && !schema.enum.some((e: any) => JSON.stringify(e) === JSON.stringify(value))) {
    return ` + "`${where}: must be one of ${JSON.stringify(schema.enum)}`" + `;
  }
  if (Array.isArray(schema.anyOf) && !schema.anyOf.some((s: any) => agentSchemaProblem(s, value, at) === "")) return ` + "`${where}: matches none of anyOf`" + `;
  if (kind === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) return ` + "`${where}: below ${schema.minimum}`" + `;
    if (schema.maximum !== undefined && value > schema.maximum) return ` + "`${where}: above ${schema.maximum}`" + `;
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) return ` + "`${where}: not above ${schema.exclusiveMinimum}`" + `;
    if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) return ` + "`${where}: not below ${schema.exclusiveMaximum}`" + `;
  }
  if (kind === "string") {
    if (schema.minLength !== undefined && value.length < schema.minLength) return ` + "`${where}: shorter than ${schema.minLength}`" + `;
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return ` + "`${where}: longer than ${schema.maxLength}`" + `;
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(value)) return ` + "`${where}: does not match ${schema.pattern}`" + `;
  }
  if (kind === "array") {
    if (schema.minItems !== undefined && value.length < schema.minItems) return ` + "`${where}: fewer than ${schema.minItems} items`" + `;
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return ` + "`${where}: more than ${schema.maxItems} items`" + `;
    if (schema.items !== undefined) {
      for (const [i, item] of value.entries()) {
        const p = agentSchemaProblem(schema.items, item, ` + "`${at}/${i}`" + `);
        if (p !== "") return p;
      }
    }
  }
  if (kind === "object") {
    for (const name of schema.required ?? []) {
      if (!(name in value)) return ` + "`${where}: ${name} is required`" + `;
    }
    const props = schema.properties ?? {};
    for (const [name, v] of Object.entries(value)) {
      const sub = name in props ? props[name] : schema.additionalProperties;
      if (sub === false) return ` + "`${where}: ${name} is not allowed`" + `;
      const p = agentSchemaProblem(sub, v, ` + "`${at}/${name}`" + `);
      if (p !== "") return p;
    }
  }
  return "";
}

/**
 * Calls an agent's http tool: {name} placeholders of the URL take the
 * input's values percent-encoded, {+name} as they are; the rest of the
 * input is the query (GET, DELETE) or the JSON body. A non-2xx status is
 * the tool's output ({status, body}), for the model to read.
 */
async function agentHTTP(method: string, url: string, headers: Record<string, string>, input: any): Promise<any> {
  const rest: Record<string, any> = { ...(input && typeof input === "object" ? input : {}) };
  const target = url.replace(/\{(\+?)([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m: string, plus: string, name: string) => {
    const v = rest[name];
    delete rest[name];
    const s = v === undefined || v === null ? "" : String(v);
    return plus ? s : encodeURIComponent(s);
  });
  const init: RequestInit = { method, headers: { ...headers } };
  const u = new URL(target);
  if (method === "GET" || method === "DELETE") {
    for (const [k, v] of Object.entries(rest)) u.searchParams.set(k, typeof v === "string" ? v : JSON.stringify(v));
  } else {
    (init.headers as Record<string, string>)["content-type"] = "application/json";
    init.body = JSON.stringify(rest);
  }
  const response = await fetch(u.toString(), init);
  const text = await response.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    body = text.slice(0, 20000);
  }
  return { status: response.status, body };
}
`
