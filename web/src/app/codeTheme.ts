// codeTheme: Studio's look for every CodeMirror editor (code fields, the SQL console). Its colours are the design
// tokens of tokens.css, so one theme serves light and dark: switching the theme recolours open editors without
// rebuilding them (decision 732). The highlight style replaces CodeMirror's default one, whose colours are made for
// a white page and fall below WCAG AA on a dark one.
import { HighlightStyle, syntaxHighlighting } from "@codemirror/language";
import { EditorView } from "@codemirror/view";
import type { Extension } from "@codemirror/state";
import { tags as t } from "@lezer/highlight";

const chrome = EditorView.theme({
  "&": { color: "var(--fg)", backgroundColor: "var(--bg)" },
  ".cm-content": { caretColor: "var(--fg)" },
  ".cm-cursor, .cm-dropCursor": { borderLeftColor: "var(--fg)" },
  "&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection":
    { backgroundColor: "var(--code-selection)" },
  ".cm-activeLine": { backgroundColor: "var(--code-active-line)" },
  ".cm-gutters": { backgroundColor: "var(--panel)", color: "var(--muted)", borderRight: "1px solid var(--border)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--code-active-line)" },
  ".cm-placeholder": { color: "var(--muted)" },
  ".cm-matchingBracket, &.cm-focused .cm-matchingBracket": { backgroundColor: "var(--accent-bg)", color: "inherit" },
  ".cm-nonmatchingBracket, &.cm-focused .cm-nonmatchingBracket": { color: "var(--danger)" },
  ".cm-tooltip": { backgroundColor: "var(--bg)", color: "var(--fg)", border: "1px solid var(--border)" },
  ".cm-tooltip-autocomplete > ul > li": { color: "var(--fg)" },
  ".cm-tooltip-autocomplete > ul > li[aria-selected]": { backgroundColor: "var(--accent)", color: "var(--on-accent)" },
  ".cm-completionDetail, .cm-completionInfo": { color: "var(--muted)" },
  ".cm-tooltip-autocomplete > ul > li[aria-selected] .cm-completionDetail": { color: "var(--on-accent)" },
  ".cm-completionMatchedText": { textDecoration: "underline", color: "inherit" },
  ".cm-panels": { backgroundColor: "var(--panel)", color: "var(--fg)" },
  ".cm-foldPlaceholder": { backgroundColor: "var(--neutral-bg)", color: "var(--neutral-fg)", border: "none" },
  ".cm-lintRange-error": { textDecorationColor: "var(--danger)" },
});

const highlight = HighlightStyle.define([
  { tag: [t.keyword, t.operatorKeyword, t.modifier, t.controlKeyword], color: "var(--code-keyword)" },
  { tag: [t.string, t.special(t.string), t.regexp], color: "var(--code-string)" },
  { tag: [t.number, t.bool, t.null, t.atom], color: "var(--code-number)" },
  { tag: [t.comment, t.lineComment, t.blockComment], color: "var(--code-comment)", fontStyle: "italic" },
  { tag: [t.propertyName, t.attributeName], color: "var(--code-property)" },
  {
    tag: [t.definition(t.variableName), t.function(t.variableName), t.typeName, t.className],
    color: "var(--code-name)",
    fontWeight: "600",
  },
  { tag: [t.variableName, t.name, t.punctuation, t.operator, t.bracket], color: "var(--code-name)" },
  { tag: t.invalid, color: "var(--code-literal)" },
  { tag: t.heading, fontWeight: "700" },
  { tag: t.emphasis, fontStyle: "italic" },
  { tag: t.strong, fontWeight: "700" },
  { tag: t.link, textDecoration: "underline" },
]);

/** codeTheme is the extension every Studio CodeMirror editor adds (after minimalSetup or basicSetup). */
export const codeTheme: Extension = [chrome, syntaxHighlighting(highlight)];
