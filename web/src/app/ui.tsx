// Small building blocks shared by Studio's pages: error and loading states, dialogs, dates, downloads.
import { useEffect, useRef, type ReactNode } from "react";
import { ApiError } from "../api/client";

// ErrorMessage shows an API error where it happened: its message, each detail with its field path, and the
// request id to quote when reporting it.
export function ErrorMessage({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const api = error instanceof ApiError ? error : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return (
    <div className="error" role="alert">
      <p>
        {title && <strong>{title}: </strong>}
        {message}
      </p>
      {api && api.details.length > 0 && (
        <ul className="error-details">
          {api.details.map((d, i) => (
            <li key={i}>
              {d.path && <code>{d.path}</code>} {d.nodeId && <span className="muted">node {d.nodeId}</span>} {d.message}
              {typeof d.line === "number" && (
                <span className="muted">
                  {" "}
                  (line {String(d.line)}, column {String(d.column)})
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
      {api?.requestId && <p className="muted small">Request {api.requestId}</p>}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="loading" role="status">
      Loading {what}…
    </p>
  );
}

// FIRST_FIELD finds the field a dialog opens with the focus in.
const FIRST_FIELD =
  "input:not([type=hidden]):not([disabled]), select:not([disabled]), textarea:not([disabled]), .cm-content";

// Dialog is a modal <dialog>: focus moves into it, Escape closes it, and focus goes back when it closes.
export function Dialog({
  title,
  onClose,
  children,
  wide,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    const before = document.activeElement as HTMLElement | null;
    if (!d.open) d.showModal();
    // the field marked data-autofocus, else the first field, takes the focus (the browser would focus the first
    // button, the close button; React's autoFocus runs while the dialog is still closed)
    (d.querySelector<HTMLElement>("[data-autofocus]") ?? d.querySelector<HTMLElement>(FIRST_FIELD))?.focus();
    const onCancel = (e: Event) => {
      e.preventDefault();
      close.current();
    };
    d.addEventListener("cancel", onCancel);
    return () => {
      d.removeEventListener("cancel", onCancel);
      if (d.open) d.close();
      before?.focus?.();
    };
  }, []);
  const titleId = `dlg-${title.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <dialog ref={ref} className={wide ? "dialog wide" : "dialog"} aria-labelledby={titleId}>
      <div className="dialog-head">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon" aria-label="Close" onClick={() => close.current()}>
          ×
        </button>
      </div>
      {children}
    </dialog>
  );
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "medium" });

export function formatTime(iso?: string | null): string {
  if (!iso) return "—";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateFormat.format(d);
}

// formatDuration gives the time between two instants in ms, s or min.
export function formatDuration(start?: string | null, end?: string | null): string {
  if (!start) return "—";
  const a = new Date(start).getTime();
  const b = end ? new Date(end).getTime() : Date.now();
  if (Number.isNaN(a) || Number.isNaN(b)) return "—";
  const ms = Math.max(0, b - a);
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

// downloadJSON saves a value as a pretty-printed JSON file.
export function downloadJSON(filename: string, value: unknown): void {
  downloadBlob(filename, new Blob([JSON.stringify(value, null, 2) + "\n"], { type: "application/json" }));
}

// downloadBlob has the browser save blob as filename.
export function downloadBlob(filename: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

// fileSlug makes a file name part from a workflow's name.
export function fileSlug(name: string): string {
  const s = name
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return s || "workflow";
}

export function StatusBadge({ status, detail }: { status: string; detail?: string }) {
  return (
    <span className={`badge status-${status}`}>
      {status}
      {detail ? ` · ${detail}` : ""}
    </span>
  );
}

export function Json({ value, label }: { value: unknown; label: string }) {
  if (value === undefined) return <p className="muted">none</p>;
  return (
    <pre className="json" aria-label={label} tabIndex={0}>
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}
