import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { api, ok } from "../../../api/client";
import { fieldErrors, validateName, type FieldErrors } from "../../../api/forms";
import { Field } from "../../../app/fields";
import { Dialog, ErrorMessage } from "../../../app/ui";

import { AccountChoice, checkToken, TokenField, useInvalidate, useVerify } from "./token";
// CreateDialog creates a Cloudflare connection (its token verified, an account chosen) or a local one.
export function CreateDialog({ onClose }: { onClose: () => void }) {
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
      ok(
        api.POST("/api/connections", {
          body:
            provider === "local"
              ? { provider, name: name.trim() || "Local edge", scope }
              : { provider, name: name.trim(), scope, credentials: { apiToken: token.trim(), accountId: account } },
        }),
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
