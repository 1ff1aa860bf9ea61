// CodeField is a CodeMirror 6 editor for code fields: TypeScript (or JSON) highlighting and completion of {{…}}
// expressions from the options its owner gives.
import { useEffect, useRef } from "react";
import { autocompletion, type CompletionContext, type CompletionResult } from "@codemirror/autocomplete";
import { javascript } from "@codemirror/lang-javascript";
import { json } from "@codemirror/lang-json";
import { Compartment, EditorState, type Extension } from "@codemirror/state";
import { EditorView, lineNumbers, placeholder as cmPlaceholder } from "@codemirror/view";
import { minimalSetup } from "codemirror";
import { codeTheme } from "../app/codeTheme";
import { openExpression, type ExpressionOption } from "../ir/expressions";

export interface CodeFieldProps {
  id: string;
  labelId: string;
  describedBy?: string;
  value: string;
  onChange?: (value: string) => void;
  language: "typescript" | "json" | "text";
  readOnly?: boolean;
  placeholder?: string;
  invalid?: boolean;
  // expressionOptions gives what {{…}} may name here; read when completion opens.
  expressionOptions?: () => ExpressionOption[];
  lineNumbers?: boolean;
  minLines?: number;
}

// expressionSource completes the {{…}} expression before the cursor; an option closes the expression when the text
// after the cursor does not already.
export function expressionSource(options: () => ExpressionOption[]) {
  return (ctx: CompletionContext): CompletionResult | null => {
    const line = ctx.state.doc.lineAt(ctx.pos);
    const open = openExpression(line.text.slice(0, ctx.pos - line.from));
    if (!open) return null;
    const closed = ctx.state.sliceDoc(ctx.pos, ctx.pos + 2) === "}}";
    return {
      from: line.from + open.from,
      options: options().map((o) => ({
        label: o.path,
        detail: o.value !== undefined ? `= ${o.value}` : o.detail,
        info: o.value !== undefined ? o.detail : undefined,
        type: "variable",
        apply: closed ? o.path : o.path + "}}",
      })),
      validFor: /^[A-Za-z0-9_.$\-[\]]*$/,
    };
  };
}

// contentAttributes names the editable part for assistive technology: its label, its description and its problems.
function contentAttributes(p: Pick<CodeFieldProps, "labelId" | "describedBy" | "readOnly">): Extension {
  return EditorView.contentAttributes.of({
    "aria-labelledby": p.labelId,
    ...(p.readOnly ? { "aria-readonly": "true", tabindex: "0" } : {}),
    ...(p.describedBy ? { "aria-describedby": p.describedBy } : {}),
  });
}

export function CodeField(props: CodeFieldProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  // the attributes change with the field's problems; they are reconfigured in place, so the editor keeps its focus
  // and what is being typed when a validation answer arrives
  const attributes = useRef(new Compartment());
  const onChange = useRef(props.onChange);
  const options = useRef(props.expressionOptions);
  onChange.current = props.onChange;
  options.current = props.expressionOptions;

  useEffect(() => {
    const exts: Extension[] = [
      minimalSetup,
      codeTheme,
      EditorView.lineWrapping,
      // read-only text stays focusable, so keyboard users can reach, scroll and select it
      EditorState.readOnly.of(!!props.readOnly),
      attributes.current.of(contentAttributes(props)),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) onChange.current?.(u.state.doc.toString());
      }),
    ];
    if (props.lineNumbers) exts.push(lineNumbers());
    if (props.placeholder) exts.push(cmPlaceholder(props.placeholder));
    if (props.language === "typescript") exts.push(javascript({ typescript: true }));
    if (props.language === "json") exts.push(json());
    if (!props.readOnly)
      exts.push(autocompletion({ override: [expressionSource(() => options.current?.() ?? [])], icons: false }));
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({ doc: props.value, extensions: exts }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // the editor is made once per field; value and attribute changes from outside arrive through the effects below
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.language, props.readOnly, props.placeholder, props.lineNumbers]);

  useEffect(() => {
    view.current?.dispatch({ effects: attributes.current.reconfigure(contentAttributes(props)) });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.labelId, props.describedBy, props.readOnly]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    const cur = v.state.doc.toString();
    if (cur !== props.value) v.dispatch({ changes: { from: 0, to: cur.length, insert: props.value } });
  }, [props.value]);

  const style = props.minLines ? { minHeight: `${props.minLines * 1.45}em` } : undefined;
  return <div id={props.id} ref={host} className={"code-field" + (props.invalid ? " invalid" : "")} style={style} />;
}

// focusField focuses a form control by id, or the editable part of a code field.
export function focusField(id: string): boolean {
  const el = document.getElementById(id);
  if (!el) return false;
  const target = el.matches("input,select,textarea,button")
    ? el
    : el.querySelector<HTMLElement>(".cm-content, input, select, textarea");
  (target ?? el).focus();
  (target ?? el).scrollIntoView?.({ block: "nearest" });
  return true;
}
