// The workflow IR as docs/ir.md defines it. Keys the server fills in are optional here too.

export type IrKind = "workflow" | "script";

export interface IrPosition {
  x: number;
  y: number;
}

export interface IrStepConfig {
  retries?: { limit: number; delay: number | string; backoff?: "constant" | "linear" | "exponential" };
  timeout?: number | string;
}

export interface IrNode {
  id: string;
  type: string;
  name: string;
  position?: IrPosition;
  version?: string;
  provider?: string;
  data: Record<string, unknown>;
  config?: IrStepConfig;
}

export interface IrEdge {
  id: string;
  source: string;
  target: string;
  label?: string;
}

export interface IrTrigger {
  type: "manual" | "http" | "cron" | "event";
  path?: string;
  method?: "GET" | "POST" | "PUT" | "DELETE";
  expression?: string;
  eventType?: string;
}

export interface IrMetadata {
  name: string;
  description?: string;
  version?: number;
  createdAt?: string;
  updatedAt?: string;
}

export interface WorkflowIR {
  kind?: IrKind;
  metadata: IrMetadata;
  nodes: IrNode[];
  edges: IrEdge[];
  entryNodeId: string;
  trigger?: IrTrigger;
}

// IrProblem is one validation problem as the API reports it (POST /api/ir/validate, version submit).
export interface IrProblem {
  path: string;
  message: string;
  nodeId?: string;
  rule: string;
}
