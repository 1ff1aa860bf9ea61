import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, ok } from "../../../api/client";
import { connectionKeys } from "../../../api/queries/connections";
import type { VerifyResult } from "../../../api/models";

// The Cloudflare token's field, its check and its verification, shared by the create and rotate dialogs.

// tokenPattern is what a Cloudflare API token looks like; anything else is refused before it is sent.
const tokenPattern = /^[A-Za-z0-9_-]{20,}$/;

// useInvalidate refreshes every list of connections.
export function useInvalidate() {
  const qc = useQueryClient();
  return () => void qc.invalidateQueries({ queryKey: connectionKeys.all });
}

// TokenField is a Cloudflare API token input with its check and its error.
export function TokenField({
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

export function checkToken(token: string): string | undefined {
  if (token.trim() === "") return "Enter the API token.";
  if (!tokenPattern.test(token.trim())) return "A token is 20 or more letters, digits, _ or -.";
  return undefined;
}

// useVerify asks the API which accounts a token reaches, without storing it.
export function useVerify() {
  return useMutation({
    mutationFn: (token: string) =>
      ok(api.POST("/api/connections/verify-token", { body: { provider: "cloudflare", credentials: { apiToken: token.trim() } } })),
  });
}

export function AccountChoice({
  answer,
  account,
  setAccount,
  error,
}: {
  answer: VerifyResult;
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
