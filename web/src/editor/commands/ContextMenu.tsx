// ContextMenu lists the editor's actions at the pointer (or the focused node) as a menu: each item says its keys and
// is disabled while its action cannot run. The arrow keys, Home and End move between the items, Enter or Space runs
// one, Escape, Tab or a click elsewhere closes the menu; focus goes back where it was.
import { useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import { useEditorStore } from "../store";
import { ariaKeyShortcuts, shownBinding } from "./keys";
import { useCommands } from "./useCommands";

export interface MenuAt {
  x: number;
  y: number;
}

export function ContextMenu({ at, onClose }: { at: MenuAt; onClose: () => void }) {
  const commands = useCommands();
  // which items can run now, as one string so that the store answers the same value while nothing changes
  const enabled = useEditorStore(() => commands.actions.map((a) => commands.enabled(a.id)).join(","));
  const on = enabled.split(",").map((x) => x === "true");
  const ref = useRef<HTMLUListElement>(null);
  const [pos, setPos] = useState(at);
  const close = useRef(onClose);
  close.current = onClose;

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    // keep the menu inside the window
    const b = el.getBoundingClientRect();
    setPos({
      x: Math.max(0, Math.min(at.x, window.innerWidth - b.width - 4)),
      y: Math.max(0, Math.min(at.y, window.innerHeight - b.height - 4)),
    });
    const before = document.activeElement as HTMLElement | null;
    el.querySelector<HTMLElement>("[role=menuitem]")?.focus();
    const away = (e: PointerEvent) => {
      if (!el.contains(e.target as Node)) close.current();
    };
    document.addEventListener("pointerdown", away, true);
    return () => {
      document.removeEventListener("pointerdown", away, true);
      if (before && document.contains(before)) before.focus();
    };
  }, [at]);

  const items = () => [...(ref.current?.querySelectorAll<HTMLElement>("[role=menuitem]") ?? [])];
  const move = (e: KeyboardEvent, to: (i: number, n: number) => number) => {
    e.preventDefault();
    const list = items();
    const i = list.indexOf(document.activeElement as HTMLElement);
    list[to(i, list.length)]?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "ArrowDown") move(e, (i, n) => (i + 1) % n);
    else if (e.key === "ArrowUp") move(e, (i, n) => (i - 1 + n) % n);
    else if (e.key === "Home") move(e, () => 0);
    else if (e.key === "End") move(e, (_i, n) => n - 1);
    else if (e.key === "Escape" || e.key === "Tab") {
      e.preventDefault();
      onClose();
    }
    e.stopPropagation();
  };
  const run = (id: string, i: number) => {
    if (!on[i]) return;
    onClose();
    void commands.run(id);
  };
  return (
    <ul
      ref={ref}
      role="menu"
      aria-label="Canvas actions"
      className="context-menu"
      style={{ left: pos.x, top: pos.y }}
      onKeyDown={onKeyDown}
    >
      {commands.actions.map((a, i) => (
        <li
          key={a.id}
          role="menuitem"
          tabIndex={-1}
          aria-disabled={!on[i] || undefined}
          aria-keyshortcuts={ariaKeyShortcuts(a.keys)}
          onClick={() => run(a.id, i)}
          onKeyDown={(e) => {
            if (e.key === "Enter" || e.key === " ") {
              e.preventDefault();
              run(a.id, i);
            }
          }}
        >
          <span>{a.label}</span>
          {a.keys[0] && <kbd>{shownBinding(a.keys[0])}</kbd>}
        </li>
      ))}
    </ul>
  );
}
