// Form fields and tables shared by Studio's pages, so that every screen labels, describes and reports its fields
// the same way: a text field with its hint and its error, a value shown once with a Copy button, and a table whose
// header names its columns (and an unnamed actions column for screen readers), and the dialog that renames things.
import { useState, type InputHTMLAttributes, type ReactNode } from "react";
import { useMutation } from "@tanstack/react-query";
import { fieldErrors, validateName, type FieldErrors } from "../api/forms";
import { Dialog, ErrorMessage } from "./ui";

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "value" | "onChange" | "type">;

// Field is a labelled input with an optional hint and the error of its value (from the form's own checks or the
// API's field errors); the input is described by both and marked invalid while there is an error.
export function Field({
  id,
  label,
  type = "text",
  value,
  onChange,
  error,
  hint,
  ...input
}: {
  id: string;
  label: ReactNode;
  type?: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
  hint?: ReactNode;
} & InputProps) {
  const described = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        name={id}
        {...input}
        id={id}
        type={type}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        onChange={(e) => onChange(e.target.value)}
      />
      {hint && (
        <p id={`${id}-hint`} className="hint">
          {hint}
        </p>
      )}
      {error && <FieldError id={`${id}-error`}>{error}</FieldError>}
    </div>
  );
}

// FieldError is the error of one field, under it; the field names it in aria-describedby.
export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="field-error">
      {children}
    </p>
  );
}

// CopyField shows a value the server gives only once (a key, a secret, a link) read-only, selected on focus, with a
// Copy button and what copying did in words (a browser may refuse the clipboard: then the user copies by hand).
export function CopyField({ id, label, value, what }: { id: string; label: string; value: string; what: string }) {
  const [copied, setCopied] = useState("");
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("Copied to the clipboard.");
    } catch {
      setCopied(`The browser did not allow copying: select the ${what} and copy it by hand.`);
      (document.getElementById(id) as HTMLInputElement | null)?.select();
    }
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input id={id} readOnly value={value} spellCheck={false} onFocus={(e) => e.target.select()} />
        <button type="button" className="primary" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p className="muted small" role="status">
        {copied}
      </p>
    </div>
  );
}

// DataTable is a table with a header row of column names; with actions, a last column for each row's buttons,
// named for screen readers only.
export function DataTable({
  columns,
  actions,
  className,
  label,
  children,
}: {
  columns: ReactNode[];
  actions?: boolean;
  className?: string;
  label?: string;
  children: ReactNode;
}) {
  return (
    <table className={className ? `table ${className}` : "table"} aria-label={label}>
      <thead>
        <tr>
          {columns.map((c, i) => (
            <th key={i} scope="col">
              {c}
            </th>
          ))}
          {actions && (
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          )}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}

// RenameDialog asks for a new name of something (a workflow, a connection): the name is checked as the API checks
// names before it is sent, save sends it, and the API's refusal is shown at the field (or under it when it is not
// about the name). The dialog closes after a save.
export function RenameDialog({
  id,
  current,
  save,
  onClose,
}: {
  id: string;
  current: string;
  save: (name: string) => Promise<unknown>;
  onClose: () => void;
}) {
  const [name, setName] = useState(current);
  const [errors, setErrors] = useState<FieldErrors>({});
  const m = useMutation({
    mutationFn: () => save(name.trim()),
    onSuccess: onClose,
    onError: (err) => setErrors(fieldErrors(err, ["name"])),
  });
  return (
    <Dialog title={`Rename ${current}`} onClose={onClose}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const err = validateName(name);
          setErrors(err ? { name: err } : {});
          if (!err) m.mutate();
        }}
      >
        <Field id={id} label="Name" value={name} autoFocus onChange={setName} error={errors.name} />
        {errors[""] && <ErrorMessage error={m.error} title="Not renamed" />}
        <div className="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={m.isPending}>
            Rename
          </button>
        </div>
      </form>
    </Dialog>
  );
}

// ConfirmDialog asks before an action that cannot be undone or changes something at once: what it does in words
// (children), the API's refusal under them, Cancel, and the action's button (danger for destructive ones).
export function ConfirmDialog({
  title,
  action,
  danger,
  failure,
  error,
  pending,
  onConfirm,
  onClose,
  children,
}: {
  title: string;
  action: string;
  danger?: boolean;
  failure: string;
  error: unknown;
  pending: boolean;
  onConfirm: () => void;
  onClose: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog title={title} onClose={onClose}>
      {children}
      <ErrorMessage error={error} title={failure} />
      <div className="actions">
        <button type="button" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className={danger ? "danger primary" : "primary"} onClick={onConfirm} disabled={pending}>
          {action}
        </button>
      </div>
    </Dialog>
  );
}
