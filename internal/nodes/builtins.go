// Package nodes holds the node definitions edgeflow validates IRs against:
// the thirteen builtin node types and, through NewCatalog, marketplace nodes
// from internal/nodes/registry. A Catalog implements ir.NodeCatalog.
package nodes

import (
	"github.com/edgeflow/edgeflow/internal/ir"
)

// BuiltinVersion is the version of every builtin node definition.
const BuiltinVersion = "1.0.0"

// WholeValue is the output schema key that describes a node's whole value
// when that value is not an object with named keys (step, parallel, race,
// wait_for_event).
const WholeValue = "$"

// Categories of the builtin nodes.
const (
	CategoryCode     = "Code"
	CategoryFlow     = "Control flow"
	CategoryTiming   = "Timing"
	CategoryHTTP     = "HTTP"
	CategoryWorkflow = "Workflows"
	CategoryAI       = "AI"
)

func ptr[T any](v T) *T { return &v }

var identifier = &ir.Validation{Pattern: `^[A-Za-z_$][A-Za-z0-9_$]*$`, MaxLength: ptr(64)}

// Builtins returns the definitions of the thirteen builtin node types in the
// order of docs/nodes.md. Each call returns fresh values the caller may modify.
func Builtins() []ir.NodeDefinition {
	def := func(id, name, desc, cat string, fn bool, cfg map[string]ir.ConfigField, out map[string]ir.OutputField) ir.NodeDefinition {
		if cfg == nil {
			cfg = map[string]ir.ConfigField{}
		}
		if out == nil {
			out = map[string]ir.OutputField{}
		}
		return ir.NodeDefinition{
			ID: id, Name: name, Description: desc, Category: cat, Version: BuiltinVersion,
			ConfigSchema: cfg, OutputSchema: out, AllowedInFunctions: fn, Builtin: true,
			Author: "edgeflow", License: "MIT",
		}
	}
	durationField := func(label, desc string, required bool, dflt any) ir.ConfigField {
		return ir.ConfigField{Type: ir.FieldString, Label: label, Description: desc, Required: required, Default: dflt,
			Placeholder: "30 seconds", Validation: &ir.Validation{Format: ir.FormatDuration}}
	}
	return []ir.NodeDefinition{
		def(ir.TypeStep, "Step", "Runs a block of JavaScript/TypeScript as a durable step; its return value is the node's value.", CategoryCode, true,
			map[string]ir.ConfigField{
				"code": {Type: ir.FieldCode, Label: "Code", Required: true, Placeholder: "return { ok: true };",
					Description: "Body of an async function. Expressions ({{node.path}}) become JavaScript values."},
				"retryLimit": {Type: ir.FieldNumber, Label: "Retry limit (legacy)", Description: "Read when config is absent; prefer config.retries.",
					Validation: &ir.Validation{Min: ptr(0.0), Integer: true}},
				"retryDelay": durationField("Retry delay (legacy)", "Read when config is absent; prefer config.retries.", false, nil),
				"backoff": {Type: ir.FieldSelect, Label: "Backoff (legacy)", Options: []string{ir.BackoffConstant, ir.BackoffLinear, ir.BackoffExponential},
					Description: "Read when config is absent; prefer config.retries."},
				"timeout": durationField("Timeout (legacy)", "Read when config is absent; prefer config.timeout.", false, nil),
			},
			map[string]ir.OutputField{WholeValue: {Type: "any", Description: "whatever the code returns"}}),
		def(ir.TypeSleep, "Sleep", "Pauses the workflow for a duration (at most 365 days).", CategoryTiming, false,
			map[string]ir.ConfigField{"duration": durationField("Duration", "Seconds or e.g. \"10 minutes\", \"1 day\".", true, nil)},
			nil),
		def(ir.TypeSleepUntil, "Sleep until", "Pauses the workflow until a point in time.", CategoryTiming, false,
			map[string]ir.ConfigField{"timestamp": {Type: ir.FieldString, Label: "Timestamp", Required: true, Placeholder: "2026-01-31T09:00:00Z",
				Description: "ISO 8601 date-time.", Validation: &ir.Validation{Format: ir.FormatDateTime}}},
			nil),
		def(ir.TypeBranch, "Branch", "Routes to the first arm whose condition is true (if / else if / else).", CategoryFlow, true,
			map[string]ir.ConfigField{"branches": {Type: ir.FieldBranches, Label: "Arms", Required: true,
				Description: "[{\"label\", \"condition\"}]: labels name the outgoing edges; an empty condition is the else arm (at most one, last)."}},
			map[string]ir.OutputField{"label": {Type: "string", Nullable: true, Description: "label of the arm taken, null when none matched"}}),
		def(ir.TypeParallel, "Parallel", "Runs its lanes concurrently and waits for all of them; a failing lane fails the node.", CategoryFlow, true,
			nil, map[string]ir.OutputField{WholeValue: {Type: "array", Description: "value of each lane's last node, in edge order", Items: &ir.OutputField{Type: "any"}}}),
		def(ir.TypeRace, "Race", "Runs its lanes concurrently; the first lane to settle decides.", CategoryFlow, true,
			nil, map[string]ir.OutputField{WholeValue: {Type: "any", Description: "value of the last node of the lane that settled first"}}),
		def(ir.TypeHTTPRequest, "HTTP request", "Calls an HTTP API; a non-2xx status fails the node unless allowed.", CategoryHTTP, true,
			map[string]ir.ConfigField{
				"method": {Type: ir.FieldSelect, Label: "Method", Default: "GET", Options: []string{"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"}},
				"url": {Type: ir.FieldString, Label: "URL", Required: true, Placeholder: "https://api.example.com/items/{{fetch.body.id}}",
					Validation: &ir.Validation{Format: ir.FormatURL}},
				"headers": {Type: ir.FieldJSON, Label: "Headers", Placeholder: `{"Authorization": "Bearer {{env.API_TOKEN}}"}`,
					Description: "A JSON object of header names to values."},
				"body":             {Type: ir.FieldJSON, Label: "Body", Placeholder: `{"id": {{fetch.body.id}}}`, Description: "JSON sent as the request body."},
				"allowErrorStatus": {Type: ir.FieldBoolean, Label: "Allow error status", Default: false, Description: "When true a non-2xx status does not fail the node."},
			},
			map[string]ir.OutputField{
				"status":  {Type: "number"},
				"headers": {Type: "object"},
				"body":    {Type: "any", Description: "parsed JSON, or text"},
			}),
		def(ir.TypeWaitForEvent, "Wait for event", "Pauses until an event of a type is sent to the instance, or the timeout passes.", CategoryTiming, false,
			map[string]ir.ConfigField{
				"eventType": {Type: ir.FieldString, Label: "Event type", Required: true, Placeholder: "approval",
					Description: "1 to 100 letters, digits, _ or -."},
				"timeout": durationField("Timeout", "How long to wait (at most 365 days).", false, "24 hours"),
			},
			map[string]ir.OutputField{WholeValue: {Type: "any", Description: "payload of the received event"}}),
		def(ir.TypeTryCatch, "Try / catch", "Runs the try block; on failure runs the catch block; then the finally block.", CategoryFlow, true,
			nil, map[string]ir.OutputField{"error": {Type: "object", Nullable: true, Properties: map[string]ir.OutputField{
				"name": {Type: "string"}, "message": {Type: "string"}}}}),
		def(ir.TypeLoop, "Loop", "Runs its body for each item, while a condition holds, or a number of times.", CategoryFlow, true,
			map[string]ir.ConfigField{
				"loopType":      {Type: ir.FieldSelect, Label: "Loop type", Required: true, Options: []string{"forEach", "while", "times"}},
				"collection":    {Type: ir.FieldCode, Label: "Collection", Description: "forEach: an expression giving an array.", Placeholder: "{{fetch.body.items}}"},
				"condition":     {Type: ir.FieldCode, Label: "Condition", Description: "while: JavaScript evaluated before each iteration."},
				"count":         {Type: ir.FieldNumber, Label: "Count", Description: "times: how many iterations.", Validation: &ir.Validation{Min: ptr(1.0), Integer: true}},
				"itemVar":       {Type: ir.FieldString, Label: "Item variable", Default: "item", Validation: identifier},
				"indexVar":      {Type: ir.FieldString, Label: "Index variable", Default: "index", Validation: identifier},
				"maxIterations": {Type: ir.FieldNumber, Label: "Max iterations", Default: 1000.0, Validation: &ir.Validation{Min: ptr(1.0), Integer: true}},
			},
			map[string]ir.OutputField{"results": {Type: "array", Items: &ir.OutputField{Type: "any"}, Description: "value of the body's last node per completed iteration"}}),
		def(ir.TypeBreak, "Break", "Leaves the enclosing loop (when its condition, if any, is true).", CategoryFlow, true,
			map[string]ir.ConfigField{"condition": {Type: ir.FieldCode, Label: "Condition", Description: "Optional: break only when truthy."}},
			nil),
		def(ir.TypeSubWorkflow, "Sub-workflow", "Starts another deployed edgeflow workflow and optionally waits for it.", CategoryWorkflow, true,
			map[string]ir.ConfigField{
				"workflowId":        {Type: ir.FieldString, Label: "Workflow", Required: true, Description: "Id of a workflow deployed on the same connection."},
				"input":             {Type: ir.FieldJSON, Label: "Input", Description: "JSON given to the child as event.payload."},
				"waitForCompletion": {Type: ir.FieldBoolean, Label: "Wait for completion", Default: true, Description: "Functions never wait (fire-and-forget)."},
				"timeout":           durationField("Timeout", "How long to wait for the child.", false, "1 hour"),
			},
			map[string]ir.OutputField{
				"instanceId": {Type: "string"},
				"status":     {Type: "string", Description: "when waiting for completion"},
				"output":     {Type: "any", Description: "when waiting for completion"},
			}),
		agentDefinition(def, durationField),
	}
}
