// Drives edgeflow's MCP server with the official MCP TypeScript SDK's client, for internal/mcp's and
// internal/e2e's tests. The plan comes as JSON on standard input:
//
//   {"transport": "http", "url": "http://…/api/mcp", "key": "ask_…",      (Streamable HTTP)
//    "transport": "stdio", "command": "…/edgeflow", "args": ["mcp"], "env": {…},   (or stdio)
//    "calls": [{"tool": "create_workflow", "args": {…}}, …]}
//
// A string argument "${N.path}" is replaced by the value at path (dot-separated, numbers index arrays) of
// the structured content of call N. The report, JSON on standard output, holds the server's name, every
// tool with whether its schemas compile (Ajv, as the SDK validates) and its annotations, the resources, the
// build-workflow prompt's first text, and each call's result (a protocol error as `protocolError`: the SDK
// also refuses structured content that does not fit the tool's output schema).
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

const readStdin = async () => {
  const chunks = [];
  for await (const c of process.stdin) chunks.push(c);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
};

const resolve = (value, results) => {
  if (typeof value === 'string') {
    const m = /^\$\{(\d+)\.([^}]+)\}$/.exec(value);
    if (!m) return value;
    let v = results[Number(m[1])]?.structured;
    for (const part of m[2].split('.')) v = v?.[/^\d+$/.test(part) ? Number(part) : part];
    return v;
  }
  if (Array.isArray(value)) return value.map((v) => resolve(v, results));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, results)]));
  }
  return value;
};

const plan = await readStdin();
const transport = plan.transport === 'stdio'
  ? new StdioClientTransport({ command: plan.command, args: plan.args ?? [], env: plan.env ?? {}, stderr: 'inherit' })
  : new StreamableHTTPClientTransport(new URL(plan.url), { requestInit: { headers: { Authorization: `Bearer ${plan.key}` } } });
const client = new Client({ name: 'edgeflow-ts-test', version: '1.0.0' });
await client.connect(transport);

const report = { server: client.getServerVersion(), instructions: client.getInstructions(), tools: [], resources: [], results: [] };
const validator = new AjvJsonSchemaValidator();
const { tools } = await client.listTools();
for (const t of tools) {
  const entry = { name: t.name, annotations: t.annotations ?? null, inputSchemaValid: true, outputSchemaValid: true };
  try { validator.getValidator(t.inputSchema); } catch (e) { entry.inputSchemaValid = false; entry.inputError = String(e); }
  try { validator.getValidator(t.outputSchema); } catch (e) { entry.outputSchemaValid = false; entry.outputError = String(e); }
  report.tools.push(entry);
}
report.resources = (await client.listResources()).resources.map((r) => r.uri);
const prompt = await client.getPrompt({ name: 'build-workflow', arguments: { description: 'says hello' } });
report.prompt = prompt.messages[0]?.content?.text ?? null;

for (const call of plan.calls ?? []) {
  const args = resolve(call.args ?? {}, report.results);
  try {
    const res = await client.callTool({ name: call.tool, arguments: args }, undefined, { timeout: 330_000 });
    report.results.push({
      tool: call.tool,
      isError: res.isError === true,
      text: res.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n'),
      structured: res.structuredContent ?? null,
    });
  } catch (e) {
    report.results.push({ tool: call.tool, protocolError: String(e?.message ?? e) });
  }
}
await client.close();
process.stdout.write(JSON.stringify(report));
