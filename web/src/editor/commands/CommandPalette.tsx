// CommandPalette (Ctrl+K, ⌘K on macOS, or the toolbar's Commands) finds an editor action by name and runs it: a
// modal dialog with a search field and the list of actions that match, each with its keys. The arrow keys choose,
// Enter runs the chosen action, Escape closes; an action that cannot run now is listed as unavailable. The actions
// whose name starts with the words typed come first.
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import { Dialog } from "../../app/ui";
import { useEditorStore } from "../store";
import { shownBinding } from "./keys";
import { useCommands } from "./useCommands";

export function CommandPalette({ onClose }: { onClose: () => void }) {
  const commands = useCommands();
  const uid = useId();
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  // the search field takes the focus once the dialog is open (the dialog, a child, opens first)
  useEffect(() => input.current?.focus(), []);
  const enabled = useEditorStore(() => commands.actions.map((a) => commands.enabled(a.id)).join(","));
  const on = new Map(commands.actions.map((a, i) => [a.id, enabled.split(",")[i] === "true"]));
  const shown = useMemo(() => {
    const words = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
    const found = commands.actions.filter((a) =>
      words.every((w) => a.label.toLowerCase().includes(w) || a.id.includes(w)),
    );
    // the actions whose name starts with what was typed first
    const starts = (a: (typeof found)[number]) => (words[0] && a.label.toLowerCase().startsWith(words[0]) ? 0 : 1);
    return [...found].sort((a, b) => starts(a) - starts(b));
  }, [commands, query]);
  const current = shown[Math.min(active, shown.length - 1)];
  const optionId = (id: string) => `${uid}-${id}`;
  const run = (id: string) => {
    if (!on.get(id)) return;
    onClose();
    void commands.run(id);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      const n = shown.length;
      if (n > 0) setActive((i) => (Math.min(i, n - 1) + (e.key === "ArrowDown" ? 1 : n - 1)) % n);
    } else if (e.key === "Enter") {
      e.preventDefault();
      if (current) run(current.id);
    }
    e.stopPropagation();
  };
  return (
    <Dialog title="Commands" onClose={onClose}>
      <div className="command-palette">
        <label htmlFor={`${uid}-q`}>Search commands</label>
        <input
          ref={input}
          id={`${uid}-q`}
          type="text"
          role="combobox"
          aria-expanded="true"
          aria-controls={`${uid}-list`}
          aria-autocomplete="list"
          aria-activedescendant={current ? optionId(current.id) : undefined}
          autoComplete="off"
          spellCheck={false}
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
        />
        <ul id={`${uid}-list`} role="listbox" aria-label="Commands">
          {shown.map((a) => (
            <li
              key={a.id}
              id={optionId(a.id)}
              role="option"
              aria-selected={a === current}
              aria-disabled={!on.get(a.id) || undefined}
              onClick={() => run(a.id)}
            >
              <span>{a.label}</span>
              {!on.get(a.id) && <span className="muted"> (unavailable now)</span>}
              {a.keys[0] && <kbd>{shownBinding(a.keys[0])}</kbd>}
            </li>
          ))}
        </ul>
        {shown.length === 0 && <p className="muted">No command matches “{query}”.</p>}
      </div>
    </Dialog>
  );
}
