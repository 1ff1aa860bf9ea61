// ActionButton runs an editor action through the command manager; it is disabled while the action cannot run and
// names the action's keys (aria-keyshortcuts).
import type { ReactNode } from "react";
import { ariaKeyShortcuts } from "./keys";
import { useActionEnabled, useCommands } from "./useCommands";

export function ActionButton({ id, children }: { id: string; children?: ReactNode }) {
  const commands = useCommands();
  const enabled = useActionEnabled(id);
  const a = commands.action(id);
  if (!a) return null;
  return (
    <button
      type="button"
      onClick={() => void commands.run(id)}
      disabled={!enabled}
      aria-keyshortcuts={ariaKeyShortcuts(a.keys)}
    >
      {children ?? a.label}
    </button>
  );
}
