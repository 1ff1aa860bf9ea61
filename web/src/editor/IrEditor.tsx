// IrEditor edits a workflow's or function's IR: a canvas (the default view) or the IR as JSON, live validation
// with a Problems panel, the generated code as a preview, and undo/redo over both views.
//
// The editor is controlled: every edit calls onChange with a new IR and the page passes that IR back as `ir`.
// An `ir` the editor did not hand out (a version loaded, a revert) starts a new undo history. Its state lives in one
// store (store.ts) and its actions run through one command manager (commands/manager.ts), both made here and shared
// by the views.
import { lazy, startTransition, Suspense, useEffect, useId, useLayoutEffect, useMemo, useState } from "react";
import { ReactFlowProvider } from "@xyflow/react";
import type { NodeDefinition } from "../ir/nodeDefs";
import type { WorkflowIR } from "../ir/types";
import { CanvasEditor } from "./CanvasEditor";
import { ActionButton } from "./commands/ActionButton";
import { editorActions } from "./commands";
import { createCommandManager } from "./commands/manager";
import { browserCommandOptions, CommandsContext } from "./commands/useCommands";
import { useLiveChecks } from "./liveChecks";
import { useNodeDefinitions } from "./nodeDefinitions";
import { PreviewPanel } from "./PreviewPanel";
import { ProblemsPanel } from "./ProblemsPanel";
import { ProblemStore, problemsByNode } from "./problemStore";
import { createEditorStore, EditorStoreContext, primeCanvas, STAGED_OPEN_NODES } from "./store";
import { Loading } from "../app/ui";
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

/**
 * IrEditor opens a large IR in stages, each a task of its own, so that no single task blocks the page for long: its
 * canvas is drawn first (primeCanvas), then the editor is rendered as a transition (React renders it in slices and
 * lets the browser in between), and the canvas then hands React Flow its view in a transition of its own
 * (CanvasEditor).
 */
// The JSON tab's editor (CodeMirror's full setup, the JSON language and linter) loads when the tab is first opened,
// not with the canvas (decision 741).
const JsonView = lazy(() => import("./JsonView").then((m) => ({ default: m.JsonView })));

export function IrEditor(props: IrEditorProps) {
  const nodes = Array.isArray(props.ir.nodes) ? props.ir.nodes.length : 0;
  const [ready, setReady] = useState(nodes <= STAGED_OPEN_NODES);
  const opening = ready ? null : props.ir;
  useEffect(() => {
    if (!opening) return;
    const timer = setTimeout(() => {
      primeCanvas(opening);
      startTransition(() => setReady(true));
    }, 0);
    return () => clearTimeout(timer);
  }, [opening]);
  if (!ready) return <Loading what="the editor" />;
  return <OpenIrEditor {...props} />;
}

function OpenIrEditor(props: IrEditorProps) {
  const { ir, onChange, readOnly } = props;
  const uid = useId();
  const [view, setView] = useState<"canvas" | "json">("canvas");
  const [store] = useState(() => createEditorStore({ ir, readOnly, onChange }));
  const commands = useMemo(() => createCommandManager(store, editorActions, browserCommandOptions), [store]);
  useLayoutEffect(() => store.getState().receive(ir, !!readOnly, onChange), [store, ir, readOnly, onChange]);

  const defsQuery = useNodeDefinitions(props.definitions === undefined);
  const defList = useMemo(() => props.definitions ?? defsQuery.data ?? [], [props.definitions, defsQuery.data]);
  const defs = useMemo(() => new Map(defList.map((d) => [d.id, d])), [defList]);

  const checks = useLiveChecks(ir, props.workflowId);
  const problems = useMemo(() => new ProblemStore(), []);
  useLayoutEffect(() => {
    problems.set(checks.checkedIr ? problemsByNode(checks.checkedIr, checks.problems) : new Map());
  }, [problems, checks.checkedIr, checks.problems]);

  const pick = (nodeId: string, path: string) => {
    setView("canvas");
    store.getState().requestFocus(nodeId, path);
  };

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
    <EditorStoreContext.Provider value={store}>
      <CommandsContext.Provider value={commands}>
        <div className="ir-editor">
          <div className="editor-toolbar">
            <div role="tablist" aria-label="Editor view" className="tabs">
              {tab("canvas", "Canvas")}
              {tab("json", "JSON")}
            </div>
            <ActionButton id="undo" />
            <ActionButton id="redo" />
            {readOnly && <span className="muted">Read-only</span>}
          </div>
          <div id={`${uid}-view-panel`} role="tabpanel" aria-labelledby={`${uid}-view-${view}`} className="editor-body">
            {view === "canvas" ? (
              <ReactFlowProvider>
                <CanvasEditor
                  kind={props.kind}
                  defs={defs}
                  defList={defList}
                  defsLoading={props.definitions === undefined && defsQuery.isPending}
                  defsError={defsQuery.error ? `Node types could not be loaded: ${defsQuery.error.message}` : undefined}
                  problemStore={problems}
                  envVars={props.envVars}
                  preview={preview}
                />
              </ReactFlowProvider>
            ) : (
              <div className="json-mode">
                <Suspense fallback={<Loading what="the JSON editor" />}>
                  <JsonView
                    ir={ir}
                    onChange={(next) => store.getState().commit(next, "json")}
                    readOnly={readOnly}
                    problems={checks.problems}
                    checkedIr={checks.checkedIr}
                  />
                </Suspense>
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
      </CommandsContext.Provider>
    </EditorStoreContext.Provider>
  );
}
