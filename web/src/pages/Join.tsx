// The pages of the links the server hands out: the first-start setup link (/setup?token=setup_…, printed by
// `edgeflow serve` while no user exists) and an invitation's accept link (/invite?token=inv_…).
import { useState, type FormEvent } from "react";
import { useMutation } from "@tanstack/react-query";
import { useLocation, useSearch } from "wouter";
import { api, ApiError, ok } from "../api/client";
import { fieldErrors, validateSignUp, type FieldErrors } from "../api/forms";
import type { SignedIn } from "../api/models";
import { Field } from "../app/fields";
import { Link } from "../app/Link";
import { useSetSession } from "../app/session";
import { AccountFields, AuthFrame, Message } from "./Auth";

function tokenOf(search: string): string {
  return (new URLSearchParams(search).get("token") ?? "").trim();
}

// setupRefusal explains a refused setup link: the server answers 403 for a used or expired token and once a user
// exists.
export function setupRefusal(err: unknown): string | null {
  if (!(err instanceof ApiError) || err.status !== 403) return null;
  return "This setup link cannot be used any more: it works once, for a limited time, and only while the server has no user. While no user exists, `edgeflow admin setup-link` prints a fresh link; once the owner account exists, sign in or ask an admin for an invitation.";
}

// invitationRefusal explains a refused invitation (sign-up or accept) in the user's terms.
export function invitationRefusal(err: unknown): string | null {
  if (!(err instanceof ApiError)) return null;
  if (err.status === 404) return "No invitation has this link. Check that the whole link was copied, or ask an admin of the organization for a new invitation.";
  if (err.status === 403 || err.status === 409) return err.message;
  return null;
}

function Refusal({ text }: { text: string }) {
  return (
    <div className="error" role="alert">
      <p>
        <Message text={text} />
      </p>
    </div>
  );
}

function FormError({ text }: { text?: string }) {
  if (!text) return null;
  return (
    <p className="error" role="alert">
      <Message text={text} />
    </p>
  );
}

export function SetupPage() {
  const token = tokenOf(useSearch());
  const setSession = useSetSession();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [organizationName, setOrganizationName] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refused, setRefused] = useState("");
  const m = useMutation({
    mutationFn: () => {
      const body: Record<string, string> = { name: name.trim(), email: email.trim(), password, setupToken: token };
      if (organizationName.trim()) body.organizationName = organizationName.trim();
      return ok(api.POST("/api/auth/sign-up", { body }));
    },
    // The session makes the app leave this public page for the workflow list.
    onSuccess: (s) => setSession(s),
    onError: (err) => {
      const r = setupRefusal(err);
      setRefused(r ?? "");
      setErrors(r ? {} : fieldErrors(err, ["name", "email", "password", "organizationName"]));
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validateSignUp({ name, email, password });
    if (organizationName.trim().length > 200) v.organizationName = "Use at most 200 characters.";
    setErrors(v);
    setRefused("");
    if (Object.keys(v).length === 0) m.mutate();
  };
  if (!token)
    return (
      <AuthFrame title="Create the owner account">
        <Refusal text="This page needs the setup link's token (/setup?token=…). Open the whole link that `edgeflow serve` printed; while no user exists, `edgeflow admin setup-link` prints a fresh one." />
        <p className="muted">
          Have an account? <Link href="/sign-in">Sign in</Link>
        </p>
      </AuthFrame>
    );
  return (
    <AuthFrame title="Create the owner account">
      <p className="muted">
        This server has no user yet. The account you create owns the server's first organization, with a project
        named Default; you invite everyone else from there.
      </p>
      <form onSubmit={submit} noValidate>
        <AccountFields
          name={name}
          email={email}
          password={password}
          errors={errors}
          onName={setName}
          onEmail={setEmail}
          onPassword={setPassword}
        />
        <Field
          id="organizationName"
          label="Organization name (optional)"
          autoComplete="organization"
          value={organizationName}
          onChange={setOrganizationName}
          error={errors.organizationName}
          hint="Left empty, it is “<your name>'s organization”; you can rename it later."
        />
        {refused ? <Refusal text={refused} /> : <FormError text={errors[""]} />}
        <button type="submit" className="primary" disabled={m.isPending}>
          {m.isPending ? "Creating account…" : "Create account"}
        </button>
      </form>
      <p className="muted">
        Have an account? <Link href="/sign-in">Sign in</Link>
      </p>
    </AuthFrame>
  );
}

// InvitePage is the page of an invitation's link: signed out, it signs a new user up with the invitation (or
// leads to sign-in, which comes back here); signed in, it accepts the invitation for the current user.
export function InvitePage({ session }: { session: SignedIn | null }) {
  const search = useSearch();
  const token = tokenOf(search);
  if (!token)
    return (
      <AuthFrame title="Join an organization">
        <Refusal text="This page needs the invitation link's token (/invite?token=…). Open the whole link you were sent, or ask an admin of the organization for a new invitation." />
        <p className="muted">
          <Link href="/">Go to Studio</Link>
        </p>
      </AuthFrame>
    );
  return session ? <AcceptInvitation token={token} session={session} /> : <SignUpWithInvitation token={token} />;
}

function AcceptInvitation({ token, session }: { token: string; session: SignedIn }) {
  const [, navigate] = useLocation();
  const setSession = useSetSession();
  const [refused, setRefused] = useState("");
  const m = useMutation({
    mutationFn: () => ok(api.POST("/api/invitations/accept", { body: { token } })),
    onSuccess: (s) => {
      navigate("/", { replace: true });
      setSession(s);
    },
    onError: (err) => setRefused(invitationRefusal(err) ?? (err instanceof Error ? err.message : String(err))),
  });
  return (
    <AuthFrame title="Join an organization">
      <p>You were invited to an organization on edgeflow.</p>
      <p className="muted">
        Accepting adds your account, {session.user.email}, to it and makes it your active organization. The
        invitation must have been sent to this email address.
      </p>
      {refused && <Refusal text={refused} />}
      <button type="button" className="primary" disabled={m.isPending} onClick={() => m.mutate()}>
        {m.isPending ? "Accepting…" : "Accept invitation"}
      </button>
      <p className="muted">
        <Link href="/">Not now: go to Studio</Link>
      </p>
    </AuthFrame>
  );
}

function SignUpWithInvitation({ token }: { token: string }) {
  const [, navigate] = useLocation();
  const setSession = useSetSession();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const [refused, setRefused] = useState("");
  const m = useMutation({
    mutationFn: () =>
      ok(api.POST("/api/auth/sign-up", { body: { name: name.trim(), email: email.trim(), password, invitationToken: token } })),
    onSuccess: (s) => {
      // Leave the invitation page first: signed in, it would offer to accept the invitation just used.
      navigate("/", { replace: true });
      setSession(s);
    },
    onError: (err) => {
      const r = invitationRefusal(err);
      // An already registered email is a 409 too; it belongs next to the email field.
      if (err instanceof ApiError && err.status === 409 && /already exists/.test(err.message)) {
        setRefused("");
        setErrors({ email: `${err.message}: sign in to accept the invitation instead.` });
        return;
      }
      setRefused(r ?? "");
      setErrors(r ? {} : fieldErrors(err, ["name", "email", "password"]));
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validateSignUp({ name, email, password });
    setErrors(v);
    setRefused("");
    if (Object.keys(v).length === 0) m.mutate();
  };
  const signIn = `/sign-in?next=${encodeURIComponent(`/invite?token=${token}`)}`;
  return (
    <AuthFrame title="Join an organization">
      <p>You were invited to an organization on edgeflow.</p>
      <p className="muted">Create your account with the email address the invitation was sent to.</p>
      <form onSubmit={submit} noValidate>
        <AccountFields
          name={name}
          email={email}
          password={password}
          errors={errors}
          onName={setName}
          onEmail={setEmail}
          onPassword={setPassword}
        />
        {refused ? <Refusal text={refused} /> : <FormError text={errors[""]} />}
        <button type="submit" className="primary" disabled={m.isPending}>
          {m.isPending ? "Signing up…" : "Sign up and join"}
        </button>
      </form>
      <p className="muted">
        Have an account? <Link href={signIn}>Sign in to accept</Link>
      </p>
    </AuthFrame>
  );
}
