import { useMemo, useState, type FormEvent } from "react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { fieldErrors, validateName, type FieldErrors } from "../../api/forms";
import { connectionKeys, connectionQueries } from "../../api/queries/connections";
import { useCursorList } from "../../api/queries/cursor";
import { ConfirmDialog, DataTable, Field, RenameDialog } from "../../app/fields";
import { Dialog, ErrorMessage, formatTime, Loading } from "../../app/ui";
import { byName } from "./list";
import type { Connection, VerifyTokenAnswer } from "./types";
import "./settings.css";

const tokenPattern = /^[A-Za-z0-9_-]{20,}$/;

// ConnectionsPage lists the provider accounts deployments go to: the organization's and the active project's.
export default function ConnectionsPage() {
  const invalidate = useInvalidate();
  const list = useCursorList(connectionQueries.list());
  const shown = useMemo(() => byName(list.items), [list.items]);
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<Connection | null>(null);
  const [rotating, setRotating] = useState<Connection | null>(null);
  const [deleting, setDeleting] = useState<Connection | null>(null);
  return (
    <main className="page settings">
      <div className="page-head">
        <div>
          <h1>Connections</h1>
          <p className="muted">The Cloudflare accounts and the local edge that workflows deploy to.</p>
        </div>
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          New connection
        </button>
      </div>
      {list.isPending && <Loading what="connections" />}
      <ErrorMessage error={list.error} title="The connections could not be loaded" />
      {list.isSuccess && shown.length === 0 && (
        <div className="empty">
          <p>There is no connection yet.</p>
          <p className="muted">
            Choose <strong>New connection</strong> to add a Cloudflare account or the local edge.
          </p>
        </div>
      )}
      {shown.length > 0 && (
        <DataTable columns={["Name", "Provider", "Account", "Shared with", "Updated"]} actions>
          {shown.map((c) => (
            <tr key={c.id}>
              <td className="strong">{c.name}</td>
              <td>{c.provider === "local" ? "local edge" : "Cloudflare"}</td>
              <td>
                <code className="small">{c.accountId}</code>
              </td>
              <td>{c.scope === "organization" ? "the organization" : "this project"}</td>
              <td className="small">{formatTime(c.updatedAt)}</td>
              <td className="row-actions">
                <button type="button" onClick={() => setRenaming(c)} aria-label={`Rename ${c.name}`}>
                  Rename
                </button>
                {c.provider === "cloudflare" && (
                  <button type="button" onClick={() => setRotating(c)} aria-label={`Rotate credentials of ${c.name}`}>
                    Rotate credentials
                  </button>
                )}
                <button type="button" className="danger" onClick={() => setDeleting(c)} aria-label={`Delete ${c.name}`}>
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      {list.hasNextPage && (
        <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          Load more
        </button>
      )}
      {creating && <CreateDialog onClose={() => setCreating(false)} />}
      {renaming && (
        <RenameDialog
          id="conn-rename"
          current={renaming.name}
          save={async (name) => {
            await api.patch<Connection>(`/api/connections/${renaming.id}`, { name });
            invalidate();
          }}
          onClose={() => setRenaming(null)}
        />
      )}
      {rotating && <RotateDialog c={rotating} onClose={() => setRotating(null)} />}
      {deleting && <DeleteDialog c={deleting} onClose={() => setDeleting(null)} />}
    </main>
  );
}

function useInvalidate() {
  const qc = useQueryClient();
  return () => void qc.invalidateQueries({ queryKey: connectionKeys.all });
}

// TokenField is a Cloudflare API token input with its check and its error.
function TokenField({
  id,
  label,
  value,
  onChange,
  error,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
  error?: string;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="password"
        autoComplete="off"
        spellCheck={false}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : `${id}-hint`}
        onChange={(e) => onChange(e.target.value)}
      />
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : (
        <p id={`${id}-hint`} className="muted small">
          A Cloudflare API token with the Workers Scripts, Workers KV, D1 and R2 permissions. It is stored encrypted and
          never shown again.
        </p>
      )}
    </div>
  );
}

function checkToken(token: string): string | undefined {
  if (token.trim() === "") return "Enter the API token.";
  if (!tokenPattern.test(token.trim())) return "A token is 20 or more letters, digits, _ or -.";
  return undefined;
}

// useVerify asks the API which accounts a token reaches, without storing it.
function useVerify() {
  return useMutation({
    mutationFn: (token: string) =>
      api.post<VerifyTokenAnswer>("/api/connections/verify-token", {
        provider: "cloudflare",
        credentials: { apiToken: token.trim() },
      }),
  });
}

function AccountChoice({
  answer,
  account,
  setAccount,
  error,
}: {
  answer: VerifyTokenAnswer;
  account: string;
  setAccount: (id: string) => void;
  error?: string;
}) {
  if (!answer.valid) return <p className="field-error" role="alert">Cloudflare refused this token: it is not valid or not active.</p>;
  if (answer.accounts.length === 0)
    return (
      <p className="field-error" role="alert">
        The token is valid but reaches no account. Give it access to an account in the Cloudflare dashboard.
      </p>
    );
  return (
    <fieldset className="field choice">
      <legend>Account ({answer.accounts.length === 1 ? "the one the token reaches" : `${answer.accounts.length} the token reaches`})</legend>
      {answer.accounts.map((a) => (
        <label key={a.id} className="radio">
          <input type="radio" name="account" value={a.id} checked={account === a.id} onChange={() => setAccount(a.id)} />
          {a.name} <code className="small muted">{a.id}</code>
        </label>
      ))}
      {error && <p className="field-error">{error}</p>}
    </fieldset>
  );
}

function CreateDialog({ onClose }: { onClose: () => void }) {
  const invalidate = useInvalidate();
  const [provider, setProvider] = useState<"cloudflare" | "local">("cloudflare");
  const [name, setName] = useState("");
  const [token, setToken] = useState("");
  const [account, setAccount] = useState("");
  const [scope, setScope] = useState<"organization" | "project">("organization");
  const [errors, setErrors] = useState<FieldErrors>({});
  const verify = useVerify();
  const create = useMutation({
    mutationFn: () =>
      api.post<Connection>(
        "/api/connections",
        provider === "local"
          ? { provider, name: name.trim() || "Local edge", scope }
          : { provider, name: name.trim(), scope, credentials: { apiToken: token.trim(), accountId: account } },
      ),
    onSuccess: () => {
      invalidate();
      onClose();
    },
    onError: (err) => setErrors(fieldErrors(err, ["name"])),
  });
  const answer = verify.data && verify.variables === token ? verify.data : undefined;
  const onVerify = () => {
    const err = checkToken(token);
    setErrors(err ? { token: err } : {});
    if (!err) verify.mutate(token, { onSuccess: (a) => setAccount(a.accounts.length === 1 ? a.accounts[0]!.id : "") });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const err: FieldErrors = {};
    if (provider === "cloudflare") {
      const n = validateName(name);
      if (n) err.name = n;
      const t = checkToken(token);
      if (t) err.token = t;
      else if (!answer) err.token = "Choose Verify token first: it shows the accounts the token reaches.";
      else if (!account) err.account = "Choose the account to deploy to.";
    } else if (name.trim() !== "") {
      const n = validateName(name);
      if (n) err.name = n;
    }
    setErrors(err);
    if (Object.keys(err).length === 0) create.mutate();
  };
  return (
    <Dialog title="New connection" onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <fieldset className="field choice">
          <legend>Provider</legend>
          <label className="radio">
            <input type="radio" name="provider" checked={provider === "cloudflare"} onChange={() => setProvider("cloudflare")} />
            Cloudflare account
          </label>
          <label className="radio">
            <input type="radio" name="provider" checked={provider === "local"} onChange={() => setProvider("local")} />
            Local edge (runs inside edgeflow, no credentials)
          </label>
        </fieldset>
        <Field id="conn-name" label="Name" value={name} placeholder={provider === "local" ? "Local edge" : "Production account"} onChange={setName} error={errors.name} />
        <fieldset className="field choice">
          <legend>Shared with</legend>
          <label className="radio">
            <input type="radio" name="scope" checked={scope === "organization"} onChange={() => setScope("organization")} />
            Every project of the organization
          </label>
          <label className="radio">
            <input type="radio" name="scope" checked={scope === "project"} onChange={() => setScope("project")} />
            The active project only
          </label>
        </fieldset>
        {provider === "cloudflare" && (
          <>
            <TokenField id="conn-token" label="API token" value={token} onChange={setToken} error={errors.token} />
            <div className="inline-actions">
              <button type="button" onClick={onVerify} disabled={verify.isPending}>
                {verify.isPending ? "Verifying…" : "Verify token"}
              </button>
            </div>
            <ErrorMessage error={verify.error} title="The token could not be checked" />
            {answer && <AccountChoice answer={answer} account={account} setAccount={setAccount} error={errors.account} />}
          </>
        )}
        {errors[""] && <ErrorMessage error={create.error} title="Not created" />}
        <div className="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={create.isPending}>
            {provider === "local" ? "Create local connection" : "Create connection"}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

// RotateDialog replaces a Cloudflare connection's token (and, when the new token reaches other accounts, the account).
function RotateDialog({ c, onClose }: { c: Connection; onClose: () => void }) {
  const invalidate = useInvalidate();
  const [token, setToken] = useState("");
  const [account, setAccount] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const verify = useVerify();
  const answer = verify.data && verify.variables === token ? verify.data : undefined;
  const m = useMutation({
    mutationFn: () =>
      api.patch<Connection>(`/api/connections/${c.id}`, { credentials: { apiToken: token.trim(), accountId: account } }),
    onSuccess: () => {
      invalidate();
      onClose();
    },
    onError: (err) => setErrors(fieldErrors(err, [])),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const err: FieldErrors = {};
    const t = checkToken(token);
    if (t) err.token = t;
    else if (!answer) err.token = "Choose Verify token first: it shows the accounts the token reaches.";
    else if (!answer.accounts.some((a) => a.id === account)) err.account = "Choose the account to deploy to.";
    setErrors(err);
    if (Object.keys(err).length === 0) m.mutate();
  };
  return (
    <Dialog title={`Rotate credentials of ${c.name}`} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <p className="muted">
          The new token replaces the stored one at once; deployments made with the old one keep running. Revoke the old
          token in the Cloudflare dashboard afterwards.
        </p>
        <TokenField id="rotate-token" label="New API token" value={token} onChange={setToken} error={errors.token} />
        <div className="inline-actions">
          <button
            type="button"
            disabled={verify.isPending}
            onClick={() => {
              const err = checkToken(token);
              setErrors(err ? { token: err } : {});
              if (!err) verify.mutate(token, { onSuccess: (a) => setAccount(a.accounts.length === 1 ? a.accounts[0]!.id : "") });
            }}
          >
            {verify.isPending ? "Verifying…" : "Verify token"}
          </button>
        </div>
        <ErrorMessage error={verify.error} title="The token could not be checked" />
        {answer && <AccountChoice answer={answer} account={account} setAccount={setAccount} error={errors.account} />}
        {errors[""] && <ErrorMessage error={m.error} title="Not changed" />}
        <div className="actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={m.isPending}>
            Replace credentials
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function DeleteDialog({ c, onClose }: { c: Connection; onClose: () => void }) {
  const invalidate = useInvalidate();
  const m = useMutation({
    mutationFn: () => api.del<void>(`/api/connections/${c.id}`),
    onSuccess: () => {
      invalidate();
      onClose();
    },
  });
  return (
    <ConfirmDialog
      title={`Delete ${c.name}?`}
      action="Delete connection"
      danger
      failure="Not deleted"
      error={m.error}
      pending={m.isPending}
      onConfirm={() => m.mutate()}
      onClose={onClose}
    >
      <p>
        Deployments can no longer use this connection. A connection an active deployment uses is refused: take those
        deployments down first. The provider account itself is not changed.
      </p>
    </ConfirmDialog>
  );
}
