// JsonView edits the IR as JSON text (the editor's JSON tab) in a CodeMirror editor: line numbers, folding (the
// gutter's arrows, or Ctrl+Shift+[ and ] at the cursor), search, and a linter that marks, at their line, where the
// text stops being JSON, where it is no IR, and the server's validation problems at the lines of their nodes and
// fields (jsonLint.ts). A change that reads as an IR is passed on at once, as one undoable edit of the editor; one
// that does not is kept in the text, with its error, until it does.
import { useEffect, useId, useRef, useState } from "react";
import { json } from "@codemirror/lang-json";
import { linter, lintGutter, type Diagnostic } from "@codemirror/lint";
import { EditorState, StateEffect, type Text } from "@codemirror/state";
import { EditorView } from "@codemirror/view";
import { basicSetup } from "codemirror";
import { codeTheme } from "../app/codeTheme";
import type { IrProblem, WorkflowIR } from "../ir/types";
import { lineOf, parseText, problemDiagnostics, type ParsedText } from "./jsonLint";

export interface JsonViewProps {
  ir: WorkflowIR;
  onChange: (ir: WorkflowIR) => void;
  readOnly?: boolean;
  // problems: the last validation answer's problems, about checkedIr; shown at their nodes' lines
  problems?: IrProblem[];
  checkedIr?: WorkflowIR | null;
}

const LINT_DELAY_MS = 250;
const NO_PROBLEMS: IrProblem[] = [];

// a new validation answer: the linter runs again though the text has not changed
const problemsChanged = StateEffect.define<null>();

// the text of each document read once, by the change listener and the linter alike
const parsedTexts = new WeakMap<Text, ParsedText>();
function parsed(state: EditorState): ParsedText {
  let p = parsedTexts.get(state.doc);
  if (!p) parsedTexts.set(state.doc, (p = parseText(state)));
  return p;
}

function textOf(ir: WorkflowIR): string {
  return JSON.stringify(ir, null, 2);
}

export function JsonView({ ir, onChange, readOnly, problems = NO_PROBLEMS, checkedIr = null }: JsonViewProps) {
  const labelId = useId();
  const errorId = useId();
  const hintId = useId();
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ ir, onChange, problems, checkedIr });
  latest.current = { ir, onChange, problems, checkedIr };
  // emitted: the last IR this view handed out (the page passing it back is no new text); outside: a change of the
  // text made here to show an IR from outside (not handed back out)
  const emitted = useRef<WorkflowIR | null>(null);
  const outside = useRef(false);
  const [error, setError] = useState<{ line: number; column: number; message: string } | null>(null);

  useEffect(() => {
    const lint = linter(
      (v): Diagnostic[] => {
        const p = parsed(v.state);
        if (p.problem) {
          const { from, message } = p.problem;
          return [{ from, to: from, severity: "error", source: "JSON", message }];
        }
        return problemDiagnostics(v.state, latest.current.problems, latest.current.checkedIr);
      },
      {
        delay: LINT_DELAY_MS,
        needsRefresh: (u) => u.transactions.some((t) => t.effects.some((e) => e.is(problemsChanged))),
      },
    );
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: textOf(latest.current.ir),
        extensions: [
          basicSetup,
          codeTheme,
          json(),
          lint,
          lintGutter(),
          // read-only text stays focusable, so keyboard users can reach, scroll, fold and select it
          EditorState.readOnly.of(!!readOnly),
          EditorView.contentAttributes.of({
            "aria-labelledby": labelId,
            "aria-describedby": `${hintId} ${errorId}`,
            // a tab stop of its own also for axe, whose scrollable-region check does not count contenteditable
            tabindex: "0",
            ...(readOnly ? { "aria-readonly": "true" } : {}),
          }),
          EditorView.updateListener.of((u) => {
            if (!u.docChanged) return;
            const p = parsed(u.state);
            if (p.problem) {
              setError({ ...lineOf(u.state, p.problem.from), message: p.problem.message });
              return;
            }
            setError(null);
            if (outside.current) return;
            emitted.current = p.ir;
            latest.current.onChange(p.ir);
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
  }, [readOnly, labelId, errorId, hintId]);

  // an IR from outside (undo, a version loaded, an edit on the canvas): shown unless it is what the text says
  useEffect(() => {
    const v = view.current;
    if (!v || ir === emitted.current) return;
    const p = parsed(v.state);
    // a text being edited that does not read yet is kept
    if (p.problem) return;
    const next = textOf(ir);
    if (JSON.stringify(p.ir) === JSON.stringify(ir)) return;
    outside.current = true;
    try {
      v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: next } });
    } finally {
      outside.current = false;
    }
  }, [ir]);

  useEffect(() => {
    view.current?.dispatch({ effects: problemsChanged.of(null) });
  }, [problems, checkedIr]);

  return (
    <div className="ir-json-editor">
      <span id={labelId} className="label">
        IR (JSON)
      </span>
      <div ref={host} className="code-field json-field" />
      <p id={hintId} className="hint">
        {readOnly ? "Read-only." : "A change applies as soon as the text is a valid IR."}
      </p>
      <p id={errorId} role="alert" className="field-error">
        {error && `Line ${error.line}, column ${error.column}: ${error.message}`}
      </p>
    </div>
  );
}
