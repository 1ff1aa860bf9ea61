// The editor's actions, in the order the context menu and the command palette list them.
import { autoLayoutAction } from "./autoLayout";
import { copyAction } from "./copy";
import { deleteSelectedAction } from "./deleteSelected";
import { duplicateAction } from "./duplicate";
import { pasteAction } from "./paste";
import { redoAction } from "./redo";
import { selectAllAction } from "./selectAll";
import type { EditorAction } from "./types";
import { undoAction } from "./undo";

export const editorActions: readonly EditorAction[] = [
  undoAction,
  redoAction,
  copyAction,
  pasteAction,
  duplicateAction,
  deleteSelectedAction,
  selectAllAction,
  autoLayoutAction,
];
