package nodes

import (
	"github.com/edgeflow/edgeflow/internal/ir"
)

// agentDefinition is the agent node's definition: a model called in turns,
// with tools (docs/nodes.md, docs/agents.md "The agent node"). Its structured
// fields carry the JSON Schema of their values, for forms and programs.
func agentDefinition(
	def func(id, name, desc, cat string, fn bool, cfg map[string]ir.ConfigField, out map[string]ir.OutputField) ir.NodeDefinition,
	durationField func(label, desc string, required bool, dflt any) ir.ConfigField,
) ir.NodeDefinition {
	approvalTimeout := durationField("Approval timeout", "How long a tool call waits for a person's approval (at most 365 days); then the run fails.", false, "24 hours")
	return def(ir.TypeAgent, "Agent",
		"Calls a model in turns and runs the tools it asks for (workflows, HTTP APIs, marketplace nodes); each model call and each tool call is a durable step, so a retry or a restart repeats none that succeeded.",
		CategoryAI, true,
		map[string]ir.ConfigField{
			"provider": {Type: ir.FieldSelect, Label: "Provider", Required: true, Default: ir.AgentOpenAI,
				Options:     []string{ir.AgentOpenAI, ir.AgentAnthropic, ir.AgentWorkersAI},
				Description: "openai: any OpenAI-compatible chat completions API; anthropic: the Messages API; workers-ai: Cloudflare's AI binding (on Cloudflare only)."},
			"model": {Type: ir.FieldString, Label: "Model", Required: true, Placeholder: "gpt-4o-mini",
				Validation: &ir.Validation{MaxLength: ptr(200)}},
			"baseUrl": {Type: ir.FieldString, Label: "Base URL", Placeholder: "https://api.openai.com/v1",
				Description: "The API's base URL (openai: up to /v1; anthropic: without /v1); omitted: the provider's own.",
				Validation:  &ir.Validation{Format: ir.FormatURL}},
			"apiKey": {Type: ir.FieldSecretRef, Label: "API key", Placeholder: "{{env.OPENAI_API_KEY}}",
				Description: "A reference to a secret env var, {{env.NAME}}; a literal key is refused. Omitted: no key is sent."},
			"system": {Type: ir.FieldTextarea, Label: "System prompt", Description: "Instructions for the model; expressions are interpolated."},
			"prompt": {Type: ir.FieldTextarea, Label: "Prompt", Required: true, Placeholder: "Sort this ticket: {{load.body.text}}",
				Description: "The user message the conversation starts with; expressions are interpolated."},
			"tools": {Type: ir.FieldAgentTools, Label: "Tools", Schema: agentToolsSchema,
				Description: `The tools the model may call (at most 32): {"workflow": id} runs a workflow of the project, {"http": {method, url, headers, description, inputSchema}} calls an API, {"node": type, "data": {...}} runs a marketplace node; each may have a "name".`},
			"maxTurns": {Type: ir.FieldNumber, Label: "Max turns", Default: float64(ir.AgentDefaultMaxTurns),
				Description: "How many model calls the agent may make before it fails.",
				Validation:  &ir.Validation{Min: ptr(1.0), Max: ptr(float64(ir.AgentMaxTurns)), Integer: true}},
			"maxTokens": {Type: ir.FieldNumber, Label: "Max tokens", Description: "The most tokens of one answer (anthropic: 4096 when omitted; openai: the server's default).",
				Validation: &ir.Validation{Min: ptr(1.0), Max: ptr(float64(ir.AgentMaxTokens)), Integer: true}},
			"maxTotalTokens": {Type: ir.FieldNumber, Label: "Max total tokens",
				Description: "A cap on the tokens (input and output) of all the node's model calls; past it the node fails. Omitted: no cap beyond maxTurns.",
				Validation:  &ir.Validation{Min: ptr(1.0), Max: ptr(float64(ir.AgentMaxTotalTokens)), Integer: true}},
			"output": {Type: ir.FieldJSONSchema, Label: "Output schema", Schema: map[string]any{"type": "object"},
				Description: "A JSON Schema the final answer must match; the answer is then the parsed JSON. A mismatch gets one more turn with the problem, then fails."},
			"approval": {Type: ir.FieldToolNames, Label: "Needs approval", Schema: map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
				Description: "Names of tools whose calls wait for a person: the run waits for an event approve-<tool call id> with {approved, note?}."},
			"approvalTimeout": approvalTimeout,
		},
		map[string]ir.OutputField{
			"answer": {Type: "any", Description: "the final answer: text, or the parsed JSON when output is set"},
			"turns":  {Type: "number", Description: "how many model calls were made"},
			"toolCalls": {Type: "array", Description: "the tool calls in order", Items: &ir.OutputField{Type: "object", Properties: map[string]ir.OutputField{
				"name": {Type: "string"}, "input": {Type: "any"}, "output": {Type: "any"}}}},
			"usage": {Type: "object", Description: "tokens of all model calls", Properties: map[string]ir.OutputField{
				"inputTokens": {Type: "number"}, "outputTokens": {Type: "number"}}},
		})
}

// agentToolsSchema is the JSON Schema of the agent's tools field.
var agentToolsSchema = map[string]any{
	"type":     "array",
	"maxItems": ir.AgentMaxTools,
	"items": map[string]any{
		"oneOf": []any{
			map[string]any{
				"type": "object", "required": []any{"workflow"}, "additionalProperties": false,
				"properties": map[string]any{
					"workflow":    map[string]any{"type": "string", "description": "id of a workflow of the same project"},
					"name":        toolNameSchema,
					"description": map[string]any{"type": "string"},
					"inputSchema": map[string]any{"type": "object", "description": "JSON Schema of the workflow's params; omitted: any object"},
				},
			},
			map[string]any{
				"type": "object", "required": []any{"http"}, "additionalProperties": false,
				"properties": map[string]any{
					"name": toolNameSchema,
					"http": map[string]any{
						"type": "object", "required": []any{"url"}, "additionalProperties": false,
						"properties": map[string]any{
							"method": map[string]any{"enum": []any{"GET", "POST", "PUT", "PATCH", "DELETE"}, "default": "GET"},
							"url": map[string]any{"type": "string", "description": "http or https URL; {name} and {+name} placeholders are filled from the model's input " +
								"(percent-encoded, or as given); the rest of the input is the query (GET, DELETE) or the JSON body"},
							"headers":     map[string]any{"type": "object", "additionalProperties": map[string]any{"type": "string"}},
							"description": map[string]any{"type": "string"},
							"inputSchema": map[string]any{"type": "object", "description": "JSON Schema of the input; omitted: the placeholders as strings"},
						},
					},
				},
			},
			map[string]any{
				"type": "object", "required": []any{"node"}, "additionalProperties": false,
				"properties": map[string]any{
					"node":        map[string]any{"type": "string", "description": "the type of an installed marketplace node"},
					"version":     map[string]any{"type": "string", "description": "omitted: the installed version"},
					"data":        map[string]any{"type": "object", "description": "fields fixed here; the model gives the others"},
					"name":        toolNameSchema,
					"description": map[string]any{"type": "string"},
				},
			},
		},
	},
}

var toolNameSchema = map[string]any{"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$",
	"description": "the name the model calls the tool by; omitted: workflow_<id>, http_<position>, or the node type"}
