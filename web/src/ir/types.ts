// The workflow IR as docs/ir.md defines it. The types come from the IR's JSON Schema, which the OpenAPI document
// carries as components (schema.gen.ts, `make apidoc`); the editor keeps its own short names for them. Keys the
// server fills in are optional here too.
import type { components } from "../api/schema.gen";

type Schemas = components["schemas"];

export type WorkflowIR = Schemas["IR"];
export type IrKind = NonNullable<WorkflowIR["kind"]>;
export type IrNode = Schemas["IRNode"];
export type IrPosition = NonNullable<IrNode["position"]>;
export type IrStepConfig = Schemas["IRStepConfig"];
export type IrEdge = Schemas["IREdge"];
export type IrTrigger = Schemas["IRTrigger"];
export type IrMetadata = Schemas["IRMetadata"];

// IrProblem is one validation problem as the API reports it (POST /api/ir/validate, version submit).
export type IrProblem = Schemas["IRProblem"];
