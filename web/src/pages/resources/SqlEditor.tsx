// SqlEditor is the D1 console's editor: CodeMirror 6 with SQLite highlighting, table-name completion and
// Ctrl-Enter (Cmd-Enter) to run.
import { useEffect, useRef } from "react";
import { autocompletion } from "@codemirror/autocomplete";
import { sql, SQLite } from "@codemirror/lang-sql";
import { EditorState, Prec } from "@codemirror/state";
import { EditorView, keymap, lineNumbers, placeholder } from "@codemirror/view";
import { minimalSetup } from "codemirror";
import { codeTheme } from "../../app/codeTheme";

export function SqlEditor({
  id,
  labelId,
  describedBy,
  value,
  onChange,
  onRun,
  tables,
}: {
  id: string;
  labelId: string;
  describedBy?: string;
  value: string;
  onChange: (v: string) => void;
  onRun: () => void;
  tables: string[];
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const change = useRef(onChange);
  const run = useRef(onRun);
  change.current = onChange;
  run.current = onRun;
  const tableKey = tables.join("\n");

  useEffect(() => {
    const schema = Object.fromEntries(tables.map((t) => [t, []]));
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: view.current?.state.doc.toString() ?? value,
        extensions: [
          Prec.highest(
            keymap.of([
              {
                key: "Mod-Enter",
                run: () => {
                  run.current();
                  return true;
                },
              },
            ]),
          ),
          minimalSetup,
          codeTheme,
          lineNumbers(),
          EditorView.lineWrapping,
          sql({ dialect: SQLite, schema, upperCaseKeywords: true }),
          autocompletion({ icons: false }),
          placeholder("SELECT * FROM …"),
          EditorView.contentAttributes.of({
            "aria-labelledby": labelId,
            ...(describedBy ? { "aria-describedby": describedBy } : {}),
          }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) change.current(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
    };
    // the editor is made again only when the table names change (completion); the text is kept
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tableKey, labelId, describedBy]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const cur = v.state.doc.toString();
    if (cur !== value) v.dispatch({ changes: { from: 0, to: cur.length, insert: value } });
  }, [value]);

  return <div id={id} ref={host} className="code-field sql-field" />;
}
