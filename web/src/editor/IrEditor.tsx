// IrEditor edits a workflow's or function's IR: a canvas (the default view) or the IR as JSON, live validation
// with a Problems panel, the generated code as a preview, and undo/redo over both views.
//
// The editor is controlled: every edit calls onChange with a new IR and the page passes that IR back as `ir`.
// An `ir` the editor did not hand out (a version loaded, a revert) starts a new undo history.
import { useCallback, useId, useLayoutEffect, useMemo, useRef, useState } from "react";
import { ReactFlowProvider } from "@xyflow/react";
import type { NodeDefinition } from "../ir/nodeDefs";
import type { WorkflowIR } from "../ir/types";
import { CanvasEditor, type FocusRequest } from "./CanvasEditor";
import { JsonView } from "./JsonView";
import { useLiveChecks } from "./liveChecks";
import { useNodeDefinitions } from "./nodeDefinitions";
import { PreviewPanel } from "./PreviewPanel";
import { ProblemsPanel } from "./ProblemsPanel";
import { ProblemStore, problemsByNode } from "./problemStore";
import "./editor.css";

export interface IrEditorProps {
  ir: WorkflowIR;
  onChange: (ir: WorkflowIR) => void;
  kind: "workflow" | "script";
  readOnly?: boolean;
  // definitions: the node definitions to use instead of loading GET /api/nodes.
  definitions?: NodeDefinition[];
  // envVars: names of the workflow's env vars, offered by expression completion as {{env.NAME}}.
  envVars?: readonly string[];
  // workflowId: the workflow the IR belongs to; validation and the preview then check the IR as its version
  // (its kind, env vars, dependencies), as a version submit does.
  workflowId?: string;
}

const HISTORY_LIMIT = 200;
const COALESCE_MS = 1500;

export function IrEditor(props: IrEditorProps) {
  const { ir, onChange, readOnly } = props;
  const uid = useId();
  const [view, setView] = useState<"canvas" | "json">("canvas");
  const [, setTick] = useState(0);
  const history = useRef({ past: [] as WorkflowIR[], future: [] as WorkflowIR[], key: "", at: 0 });
  const emitted = useRef<WorkflowIR | null>(null);
  const latest = useRef(ir);
  if (latest.current !== ir) {
    // an IR from outside (not one this editor handed out) starts a new history
    if (ir !== emitted.current) history.current = { past: [], future: [], key: "", at: 0 };
    latest.current = ir;
  }

  const emit = useCallback(
    (next: WorkflowIR) => {
      emitted.current = next;
      latest.current = next;
      onChange(next);
      setTick((t) => t + 1);
    },
    [onChange],
  );
  const commit = useCallback(
    (next: WorkflowIR, key?: string) => {
      const cur = latest.current;
      if (readOnly || next === cur) return;
      const h = history.current;
      const now = Date.now();
      if (!(key && key === h.key && now - h.at < COALESCE_MS)) {
        h.past.push(cur);
        if (h.past.length > HISTORY_LIMIT) h.past.shift();
      }
      h.future = [];
      h.key = key ?? "";
      h.at = now;
      emit(next);
    },
    [emit, readOnly],
  );
  const undo = useCallback(() => {
    const h = history.current;
    const prev = h.past.pop();
    if (!prev || readOnly) return;
    h.future.push(latest.current);
    h.key = "";
    emit(prev);
  }, [emit, readOnly]);
  const redo = useCallback(() => {
    const h = history.current;
    const next = h.future.pop();
    if (!next || readOnly) return;
    h.past.push(latest.current);
    h.key = "";
    emit(next);
  }, [emit, readOnly]);

  const defsQuery = useNodeDefinitions(props.definitions === undefined);
  const defList = useMemo(() => props.definitions ?? defsQuery.data ?? [], [props.definitions, defsQuery.data]);
  const defs = useMemo(() => new Map(defList.map((d) => [d.id, d])), [defList]);

  const checks = useLiveChecks(ir, props.workflowId);
  const store = useMemo(() => new ProblemStore(), []);
  useLayoutEffect(() => {
    store.set(checks.checkedIr ? problemsByNode(checks.checkedIr, checks.problems) : new Map());
  }, [store, checks.checkedIr, checks.problems]);

  const [focusRequest, setFocusRequest] = useState<FocusRequest | null>(null);
  const pick = (nodeId: string, path: string) => {
    setView("canvas");
    setFocusRequest((r) => ({ nodeId, path, seq: (r?.seq ?? 0) + 1 }));
  };

  const h = history.current;
  const preview = <PreviewPanel checks={checks} />;
  const tab = (v: "canvas" | "json", label: string) => (
    <button
      type="button"
      role="tab"
      id={`${uid}-view-${v}`}
      aria-controls={`${uid}-view-panel`}
      aria-selected={view === v}
      tabIndex={view === v ? 0 : -1}
      onClick={() => setView(v)}
    >
      {label}
    </button>
  );
  return (
    <div className="ir-editor">
      <div className="editor-toolbar">
        <div role="tablist" aria-label="Editor view" className="tabs">
          {tab("canvas", "Canvas")}
          {tab("json", "JSON")}
        </div>
        <button type="button" onClick={undo} disabled={readOnly || h.past.length === 0} aria-keyshortcuts="Control+Z Meta+Z">
          Undo
        </button>
        <button type="button" onClick={redo} disabled={readOnly || h.future.length === 0} aria-keyshortcuts="Control+Shift+Z Control+Y Meta+Shift+Z">
          Redo
        </button>
        {readOnly && <span className="muted">Read-only</span>}
      </div>
      <div id={`${uid}-view-panel`} role="tabpanel" aria-labelledby={`${uid}-view-${view}`} className="editor-body">
        {view === "canvas" ? (
          <ReactFlowProvider>
            <CanvasEditor
              ir={ir}
              commit={commit}
              undo={undo}
              redo={redo}
              kind={props.kind}
              readOnly={readOnly}
              defs={defs}
              defList={defList}
              defsLoading={props.definitions === undefined && defsQuery.isPending}
              defsError={defsQuery.error ? `Node types could not be loaded: ${defsQuery.error.message}` : undefined}
              problemStore={store}
              envVars={props.envVars}
              preview={preview}
              focusRequest={focusRequest}
            />
          </ReactFlowProvider>
        ) : (
          <div className="json-mode">
            <JsonView ir={ir} onChange={(next) => commit(next, "json")} readOnly={readOnly} />
            <aside className="side-panel">{preview}</aside>
          </div>
        )}
      </div>
      <ProblemsPanel
        problems={checks.problems}
        ir={checks.checkedIr}
        valid={checks.valid}
        pending={checks.pending}
        error={checks.error}
        onPick={pick}
      />
    </div>
  );
}
