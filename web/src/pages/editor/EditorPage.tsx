import { useCallback, useEffect, useMemo, useState } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../api/client";
import type { TestResult } from "../../api/models";
import { runQueries } from "../../api/queries/runs";
import { workflowQueries } from "../../api/queries/workflows";
import { canonicalJSON } from "../../app/canonical";
import { Link } from "../../app/Link";
import { starterIR } from "../../app/templates";
import { downloadJSON, ErrorMessage, fileSlug, Loading } from "../../app/ui";
import { IrEditor } from "../../editor/IrEditor";
import { layOutOnOpen, needsLayout } from "../../editor/openLayout";
import { StepValuesContext, stepValuesOf, type StepValue, type StepValuesValue } from "../../editor/stepValues";
import type { WorkflowIR } from "../../ir/types";
import { isNotFound, WorkflowNotFound } from "../NotFound";
import { RecentRuns } from "../run/RecentRuns";
import { DeployPanel } from "./DeployPanel";
import { InvokePanel } from "./InvokePanel";
import { RunPanel } from "./RunPanel";
import { SettingsPanel } from "./SettingsPanel";
import { TestPanel } from "./TestPanel";
import { useEditorQueries } from "./useEditorQueries";
import { useLeaveQuestion } from "./useLeaveQuestion";

const NO_TEST: ReadonlyMap<string, StepValue> = new Map();

type Panel = "test" | "deploy" | "run" | "settings" | "runs";

// EditorPage is /workflows/:id: the workflow's current version in the editor, Save version, Export, and the
// panels for settings, deploy and run.
export default function EditorPage({ workflowId }: { workflowId: string }) {
  const [draft, setDraft] = useState<WorkflowIR | undefined>(undefined);
  const { full, save } = useEditorQueries(workflowId, () => setDraft(undefined));
  const w = full.data?.workflow;
  const loaded = useMemo<WorkflowIR | undefined>(() => {
    if (!full.data) return undefined;
    return full.data.currentVersion?.ir ?? starterIR(full.data.workflow.name, full.data.workflow.kind);
  }, [full.data]);
  // an IR without positions (or with coinciding ones) opens laid out: the laid-out IR is the starting point, so
  // its positions are saved with the next version without marking the draft as changed
  const [laidOut, setLaidOut] = useState<{ from: WorkflowIR; ir: WorkflowIR } | null>(null);
  // (asked once per loaded IR: at 5,000 nodes it is a walk over all of them)
  const loadedNeedsLayout = useMemo(() => loaded !== undefined && needsLayout(loaded), [loaded]);
  const layoutPending = loadedNeedsLayout && laidOut?.from !== loaded;
  useEffect(() => {
    if (!loaded || !loadedNeedsLayout) return;
    let live = true;
    layOutOnOpen(loaded).then(
      (ir) => live && setLaidOut({ from: loaded, ir }),
      () => live && setLaidOut({ from: loaded, ir: loaded }), // no layout: drawn as stored
    );
    return () => {
      live = false;
    };
  }, [loaded, loadedNeedsLayout]);
  const base = laidOut && laidOut.from === loaded ? laidOut.ir : loaded;
  // the side panel is closed at first, so the editor has the page's whole width
  const [panel, setPanel] = useState<Panel | null>(null);
  // draft is undefined until the user changes something: the loaded version is shown as it is, also when a
  // refetch brings a newer one
  const ir = draft ?? base;
  // written out only once there is a draft to compare (at 5,000 nodes it is a good part of the opening's work)
  const hasDraft = draft !== undefined;
  const baseText = useMemo(() => (base && hasDraft ? canonicalJSON(base) : ""), [base, hasDraft]);
  const dirty = useMemo(() => draft !== undefined && canonicalJSON(draft) !== baseText, [draft, baseText]);
  const noVersion = full.data !== undefined && full.data.currentVersion === null;

  useLeaveQuestion(dirty, "This workflow has unsaved changes. Leave and lose them?");

  const onChange = useCallback((next: WorkflowIR) => setDraft(next), []);
  // the last test's values by node, and the pinned outputs: shown on the canvas, in node panels and in completion
  const qc = useQueryClient();
  const [tested, setTested] = useState<ReadonlyMap<string, StepValue> | null>(null);
  const onTestResult = useCallback((r: TestResult) => setTested(stepValuesOf(r)), []);
  const isWorkflow = full.data?.workflow.kind === "workflow";
  const pinnedQuery = useQuery({ ...workflowQueries.pinnedOutputs(workflowId), enabled: isWorkflow });
  // before a test, completion shows the values of the workflow's last run
  const runsQuery = useQuery({ ...runQueries.ofWorkflow(workflowId), enabled: isWorkflow && tested === null });
  const lastRunId = runsQuery.data?.data[0]?.id;
  const lastRun = useQuery({ ...runQueries.one(lastRunId ?? ""), enabled: lastRunId !== undefined && tested === null });
  const lastRunSteps = lastRun.data?.steps;
  const runValues = useMemo(() => stepValuesOf({ steps: lastRunSteps }), [lastRunSteps]);
  const pinMutation = useMutation({
    mutationFn: (outputs: Record<string, unknown>) =>
      ok(
        api.PUT("/api/workflows/{workflowId}/pinned-outputs", {
          params: { path: { workflowId } },
          body: { outputs },
        }),
      ),
    onSuccess: (stored) => qc.setQueryData(workflowQueries.pinnedOutputs(workflowId).queryKey, stored),
  });
  const pinnedOutputs = pinnedQuery.data?.outputs;
  const { mutate: putPins } = pinMutation;
  const stepValues = useMemo<StepValuesValue>(() => {
    const pinned = (pinnedOutputs ?? {}) as Record<string, unknown>;
    return {
      values: tested ?? NO_TEST,
      completionValues: tested ?? runValues,
      pinned,
      pin: pinnedOutputs
        ? (nodeId, output) => {
            const next = { ...pinned };
            if (output === undefined) delete next[nodeId];
            else next[nodeId] = output;
            putPins(next);
          }
        : undefined,
    };
  }, [tested, runValues, pinnedOutputs, putPins]);
  const envVarNames = useMemo(() => full.data?.workflow.envVars.map((v) => v.name) ?? [], [full.data]);

  if (full.isPending || layoutPending) return <Loading what="the workflow" />;
  if (full.isError && isNotFound(full.error)) return <WorkflowNotFound workflowId={workflowId} error={full.error} />;
  if (full.isError)
    return (
      <main className="page">
        <h1>Workflow</h1>
        <ErrorMessage error={full.error} title="The workflow could not be loaded" />
        <p>
          <Link href="/">Back to the workflows</Link>
        </p>
      </main>
    );
  if (!w || !ir) return null;
  const version = full.data.currentVersion;
  const isFunction = w.kind === "script";

  return (
    <main className="page editor-page">
      <div className="page-head">
        <div>
          <p className="crumbs">
            <Link href="/">Workflows</Link> / {isFunction ? "function" : "workflow"}
          </p>
          <h1>{w.name}</h1>
          <p className="muted small">
            <span>{version ? `Version ${version.version}` : "No version saved yet"}</span>
            {dirty && <span className="badge status-paused">unsaved changes</span>}
            {full.data.activeDeployment && (
              <>
                {" · "}
                <span className="badge status-complete">deployed</span>
              </>
            )}
          </p>
        </div>
        <div className="head-actions">
          <div className="segmented" role="group" aria-label="Side panel">
            {(["test", "deploy", "run", "runs", "settings"] as Panel[])
              .filter((p) => !(isFunction && (p === "runs" || p === "test")))
              .map((p) => (
                <button
                  key={p}
                  type="button"
                  aria-pressed={panel === p}
                  aria-controls={panel === p ? "side-panel" : undefined}
                  onClick={() => setPanel(panel === p ? null : p)}
                >
                  {p === "test"
                    ? "Test"
                    : p === "deploy"
                      ? "Deploy"
                      : p === "run"
                        ? isFunction
                          ? "Invoke"
                          : "Run"
                        : p === "runs"
                          ? "Runs"
                          : "Settings"}
                </button>
              ))}
          </div>
          <Link href={`/workflows/${w.id}/versions`} className="button">
            Versions
          </Link>
          <button
            type="button"
            onClick={() => downloadJSON(`${fileSlug(w.name)}${version ? `.v${version.version}` : ""}.ir.json`, ir)}
          >
            Export
          </button>
          <button
            type="button"
            className="primary"
            disabled={save.isPending || (!dirty && !noVersion)}
            onClick={() => save.mutate(ir)}
          >
            {save.isPending ? "Saving…" : "Save version"}
          </button>
        </div>
      </div>
      {save.isError && <ErrorMessage error={save.error} title="The version was not saved" />}
      {pinMutation.isError && <ErrorMessage error={pinMutation.error} title="The pinned outputs were not saved" />}
      {save.isSuccess && !dirty && (
        <p className="ok" role="status">
          Saved as version {save.data.version}.
        </p>
      )}
      <div className={panel ? "editor-layout with-side" : "editor-layout"}>
        <section className="editor-main" aria-label="Editor">
          <StepValuesContext.Provider value={stepValues}>
            <IrEditor ir={ir} onChange={onChange} kind={w.kind} workflowId={w.id} envVars={envVarNames} />
          </StepValuesContext.Provider>
        </section>
        {panel && (
          <aside className="side" aria-label="Workflow tools">
            <div className="side-close">
              <button type="button" className="icon" aria-label="Close the side panel" onClick={() => setPanel(null)}>
                ×
              </button>
            </div>
            <div id="side-panel">
              {panel === "test" && (
                <TestPanel
                  workflowId={w.id}
                  ir={ir}
                  pinnedCount={Object.keys(stepValues.pinned).length}
                  onResult={onTestResult}
                />
              )}
              {panel === "deploy" && <DeployPanel full={full.data} dirty={dirty} />}
              {panel === "run" && (isFunction ? <InvokePanel full={full.data} /> : <RunPanel full={full.data} />)}
              {panel === "runs" && <RecentRuns workflowId={w.id} />}
              {panel === "settings" && <SettingsPanel workflow={w} ir={ir} onIrChange={onChange} />}
            </div>
          </aside>
        )}
      </div>
    </main>
  );
}
