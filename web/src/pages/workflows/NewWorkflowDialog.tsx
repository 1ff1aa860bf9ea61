import { useState, type FormEvent } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useLocation } from "wouter";
import { api, ApiError, ok } from "../../api/client";
import { fieldErrors, validateName, type FieldErrors } from "../../api/forms";
import { templateQueries } from "../../api/queries/templates";
import { workflowKeys } from "../../api/queries/workflows";
import type { WorkflowKind } from "../../api/models";
import { Field } from "../../app/fields";
import { parseIRText } from "../../app/templates";
import { Dialog, ErrorMessage, Loading } from "../../app/ui";
import type { WorkflowIR } from "../../ir/types";

type Source = "blank" | "template" | "import";

// NewWorkflowDialog asks for a name, the kind and where to start from; Create stores the workflow at once (with a
// first version when it starts from a template or a file) and opens its editor.
export function NewWorkflowDialog({ onClose }: { onClose: () => void }) {
  const qc = useQueryClient();
  const [, navigate] = useLocation();
  const [name, setName] = useState("");
  const [kind, setKind] = useState<WorkflowKind>("workflow");
  const [source, setSource] = useState<Source>("blank");
  const [templateId, setTemplateId] = useState("");
  const [imported, setImported] = useState<{ file: string; ir: WorkflowIR } | null>(null);
  const [importError, setImportError] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const templates = useQuery({ ...templateQueries.all(), enabled: source === "template" });
  const forKind = (templates.data ?? []).filter((t) => t.kind === kind);
  const template = forKind.find((t) => t.id === templateId) ?? forKind[0];

  const create = useMutation({
    mutationFn: async () => {
      const ir = source === "template" ? template?.ir : source === "import" ? imported?.ir : undefined;
      const w = await ok(api.POST("/api/workflows", { body: { name: name.trim(), kind } }));
      if (ir) {
        try {
          await ok(
            api.POST("/api/workflows/{workflowId}/versions", {
              params: { path: { workflowId: w.id } },
              body: { ir: { ...ir, kind, metadata: { ...ir.metadata, name: name.trim() } } },
            }),
          );
        } catch (err) {
          // the IR was refused: take back the empty workflow made for it, so a retry does not leave a duplicate
          await ok(api.DELETE("/api/workflows/{id}", { params: { path: { id: w.id } } })).catch(() => undefined);
          throw err;
        }
      }
      return w;
    },
    onSuccess: (w) => {
      void qc.invalidateQueries({ queryKey: workflowKeys.lists });
      onClose();
      navigate(`/workflows/${w.id}`);
    },
    onError: (err) => setErrors(fieldErrors(err, ["name"])),
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v: FieldErrors = {};
    const nameErr = validateName(name);
    if (nameErr) v.name = nameErr;
    if (source === "template" && !template) v.template = "Choose a template.";
    if (source === "import" && !imported) v.file = importError || "Choose an IR file to import.";
    setErrors(v);
    if (Object.keys(v).length === 0) create.mutate();
  };

  const onFile = async (file: File | undefined) => {
    setImported(null);
    setImportError("");
    if (!file) return;
    const parsed = parseIRText(await file.text());
    if ("error" in parsed) {
      setImportError(parsed.error);
      return;
    }
    setImported({ file: file.name, ir: parsed.ir });
    setKind(parsed.ir.kind === "script" ? "script" : "workflow");
    if (name.trim() === "" && parsed.ir.metadata?.name) setName(parsed.ir.metadata.name);
  };

  return (
    <Dialog title="New workflow" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <Field id="new-name" label="Name" value={name} autoFocus onChange={setName} error={errors.name} />
        <fieldset>
          <legend>Kind</legend>
          <label className="choice">
            <input type="radio" name="kind" value="workflow" checked={kind === "workflow"} onChange={() => setKind("workflow")} />
            Workflow <span className="muted">— durable steps, sleeps and events, started by a trigger</span>
          </label>
          <label className="choice">
            <input type="radio" name="kind" value="script" checked={kind === "script"} onChange={() => setKind("script")} />
            Function <span className="muted">— answers HTTP requests at its URL</span>
          </label>
        </fieldset>
        <fieldset>
          <legend>Start from</legend>
          <label className="choice">
            <input type="radio" name="source" checked={source === "blank"} onChange={() => setSource("blank")} />
            Blank
          </label>
          <label className="choice">
            <input type="radio" name="source" checked={source === "template"} onChange={() => setSource("template")} />
            A template
          </label>
          <label className="choice">
            <input type="radio" name="source" checked={source === "import"} onChange={() => setSource("import")} />
            An IR file
          </label>
        </fieldset>
        {source === "template" && (
          <div className="field">
            {templates.isPending && <Loading what="templates" />}
            <ErrorMessage error={templates.error} />
            {templates.isSuccess && forKind.length === 0 && <p className="muted">No template of this kind.</p>}
            {forKind.length > 0 && (
              <>
                <label htmlFor="new-template">Template</label>
                <select id="new-template" value={template?.id ?? ""} onChange={(e) => setTemplateId(e.target.value)}>
                  {forKind.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.name}
                    </option>
                  ))}
                </select>
                {template && <p className="hint">{template.description}</p>}
              </>
            )}
            {errors.template && <p className="field-error">{errors.template}</p>}
          </div>
        )}
        {source === "import" && (
          <div className="field">
            <label htmlFor="new-file">IR file</label>
            <input
              id="new-file"
              type="file"
              accept=".json,application/json"
              onChange={(e) => void onFile(e.target.files?.[0])}
              aria-describedby="new-file-hint"
            />
            <p id="new-file-hint" className="hint">
              A workflow IR (.json or .ir.json), for example one exported from Studio. It becomes version 1.
            </p>
            {imported && (
              <p className="ok">
                {imported.file}: {imported.ir.nodes.length} nodes
                {imported.ir.kind === "script" ? ", a function" : ""}
              </p>
            )}
            {(importError || errors.file) && <p className="field-error">{importError || errors.file}</p>}
          </div>
        )}
        {create.error instanceof ApiError && create.error.code !== "validation_failed" ? (
          <ErrorMessage error={create.error} title="Not created" />
        ) : (
          errors[""] && <ErrorMessage error={create.error} title="Not created" />
        )}
        <div className="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={create.isPending}>
            {create.isPending ? "Creating…" : "Create"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
