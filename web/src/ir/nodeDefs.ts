// Node definitions as GET /api/nodes serves them (docs/api.md, "Node definitions and schemas").
import type { components } from "../api/schema.gen";

type Schemas = components["schemas"];

export type ConfigFieldType =
  | "string"
  | "number"
  | "boolean"
  | "select"
  | "multiselect"
  | "secret"
  | "code"
  | "json"
  | "expression"
  | "textarea"
  | "branches";

// The records of a node definition, from the OpenAPI document (schema.gen.ts). A config field's type is a string
// there; ConfigFieldType names the ones Studio has an input for.
export type FieldValidation = Schemas["ConfigValidation"];
export type ConfigField = Schemas["ConfigField"];
export type OutputField = Schemas["OutputField"];
export type NodeDefinition = Schemas["NodeDefinition"];

// WHOLE_VALUE is the output schema key that describes the node's whole value rather than one of its keys.
export const WHOLE_VALUE = "$";

// Node types whose nodes run as durable steps in workflows and so accept `config` (retries, timeout).
const STEP_TYPES = new Set(["step", "http_request", "sub_workflow"]);

export function runsAsDurableStep(type: string, def: NodeDefinition | undefined): boolean {
  if (STEP_TYPES.has(type)) return true;
  return def !== undefined && !def.builtin;
}

// defaultData is the data of a new node of a definition: every field that has a default.
export function defaultData(def: NodeDefinition): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const [key, f] of Object.entries(def.configSchema)) {
    if (f.type === "secret") continue;
    if (f.default !== undefined && f.default !== null) data[key] = structuredClone(f.default);
    else if (f.type === "branches" && f.required) data[key] = [{ label: "yes", condition: "" }];
  }
  return data;
}

// orderedFields lists a definition's fields required first, each group in the order the definition gives.
export function orderedFields(def: NodeDefinition): Array<[string, ConfigField]> {
  const all = Object.entries(def.configSchema);
  return [...all.filter(([, f]) => f.required), ...all.filter(([, f]) => !f.required)];
}
