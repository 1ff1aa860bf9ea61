import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { api, ok } from "../../../api/client";
import { fieldErrors, type FieldErrors } from "../../../api/forms";
import { ConfirmDialog } from "../../../app/fields";
import { Dialog, ErrorMessage } from "../../../app/ui";
import type { Connection } from "../../../api/models";

import { AccountChoice, checkToken, TokenField, useInvalidate, useVerify } from "./token";

// The connections page's dialogs for one connection: rotating its credentials and deleting it.

// RotateDialog replaces a Cloudflare connection's token (and, when the new token reaches other accounts, the account).
export function RotateDialog({ c, onClose }: { c: Connection; onClose: () => void }) {
  const invalidate = useInvalidate();
  const [token, setToken] = useState("");
  const [account, setAccount] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const verify = useVerify();
  const answer = verify.data && verify.variables === token ? verify.data : undefined;
  const m = useMutation({
    mutationFn: () =>
      ok(
        api.PATCH("/api/connections/{id}", {
          params: { path: { id: c.id } },
          body: { credentials: { apiToken: token.trim(), accountId: account } },
        }),
      ),
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

export function DeleteDialog({ c, onClose }: { c: Connection; onClose: () => void }) {
  const invalidate = useInvalidate();
  const m = useMutation({
    mutationFn: () => ok(api.DELETE("/api/connections/{id}", { params: { path: { id: c.id } } })),
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
