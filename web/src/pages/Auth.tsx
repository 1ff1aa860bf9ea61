import { useState, type FormEvent } from "react";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useSearch } from "wouter";
import { api, ApiError, ok } from "../api/client";
import { fieldErrors, validateSignIn, validateSignUp, type FieldErrors } from "../api/forms";
import { signUpQueries } from "../api/queries/session";
import { Field } from "../app/fields";
import { Link } from "../app/Link";
import { useSetSession } from "../app/session";

/** AccountFields are the Name, Email and Password fields of every form that creates an account. */
export function AccountFields({
  name,
  email,
  password,
  errors,
  onName,
  onEmail,
  onPassword,
}: {
  name: string;
  email: string;
  password: string;
  errors: FieldErrors;
  onName: (v: string) => void;
  onEmail: (v: string) => void;
  onPassword: (v: string) => void;
}) {
  return (
    <>
      <Field id="name" label="Name" autoComplete="name" value={name} onChange={onName} error={errors.name} />
      <Field
        id="email"
        label="Email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={onEmail}
        error={errors.email}
      />
      <Field
        id="password"
        label="Password"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={onPassword}
        error={errors.password}
        hint="At least 8 characters; common passwords are refused."
      />
    </>
  );
}

export function AuthFrame({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <main className="auth">
      <div className="auth-card">
        <p className="brand">
          <span className="brand-mark" aria-hidden="true">
            ◆
          </span>{" "}
          edgeflow Studio
        </p>
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

export function SignInPage() {
  const search = useSearch();
  const setSession = useSetSession();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const m = useMutation({
    mutationFn: () => ok(api.POST("/api/auth/sign-in", { body: { email: email.trim(), password } })),
    onSuccess: (s) => setSession(s),
    onError: (err) => setErrors(fieldErrors(err, ["email", "password"])),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validateSignIn({ email, password });
    setErrors(v);
    if (Object.keys(v).length === 0) m.mutate();
  };
  return (
    <AuthFrame title="Sign in">
      <form onSubmit={submit} noValidate>
        <Field
          id="email"
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={setEmail}
          error={errors.email}
        />
        <Field
          id="password"
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          error={errors.password}
        />
        {errors[""] && (
          <p className="error" role="alert">
            {errors[""]}
          </p>
        )}
        <button type="submit" className="primary" disabled={m.isPending}>
          {m.isPending ? "Signing in…" : "Sign in"}
        </button>
      </form>
      <p className="muted">
        New to edgeflow? <Link href={`/sign-up${search ? `?${search}` : ""}`}>Create an account</Link>
      </p>
    </AuthFrame>
  );
}

export function SignUpPage() {
  const search = useSearch();
  const setSession = useSetSession();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [errors, setErrors] = useState<FieldErrors>({});
  const m = useMutation({
    mutationFn: () => ok(api.POST("/api/auth/sign-up", { body: { name: name.trim(), email: email.trim(), password } })),
    onSuccess: (s) => setSession(s),
    onError: (err) => {
      setErrors(fieldErrors(err, ["name", "email", "password"]));
      setRefused(err instanceof ApiError && err.status === 403 ? err.message : "");
    },
  });
  const [refused, setRefused] = useState("");
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const v = validateSignUp({ name, email, password });
    setErrors(v);
    setRefused("");
    if (Object.keys(v).length === 0) m.mutate();
  };
  return (
    <AuthFrame title="Create your account">
      <SignUpNote />
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
        {refused ? (
          <div className="error" role="alert">
            <p>
              <Message text={refused} />
            </p>
            <p className="muted">
              <Message text={setupLinkHint} />
            </p>
          </div>
        ) : (
          errors[""] && (
            <p className="error" role="alert">
              {errors[""]}
            </p>
          )
        )}
        <button type="submit" className="primary" disabled={m.isPending}>
          {m.isPending ? "Signing up…" : "Sign up"}
        </button>
      </form>
      <p className="muted">
        Have an account? <Link href={`/sign-in${search ? `?${search}` : ""}`}>Sign in</Link>
      </p>
    </AuthFrame>
  );
}

/**
 * signUpNote is what the sign-up page says before its form, from how the server signs people up
 * (GET /api/auth/sign-up): on a server without users in invite or closed mode, that the setup link `edgeflow serve`
 * printed makes the first account, so nobody fills in a form the server will refuse.
 */
export function signUpNote(options: { mode: string; firstUser: boolean } | undefined): string {
  if (!options || options.mode === "open") {
    return "Signing up gives you an organization and a project of your own.";
  }
  if (options.firstUser) {
    return "This server has no account yet. Its first account, the owner's, is made with the one-time setup link that `edgeflow serve` printed when it started (`edgeflow admin setup-link` prints a new one); open that link instead of this form.";
  }
  if (options.mode === "closed") {
    return "Sign-up is closed on this server: an administrator creates accounts. Sign in, or open the link you were given.";
  }
  return "Sign-up on this server is by invitation: open the invitation link an admin of your organization sent you.";
}

function SignUpNote() {
  const options = useQuery(signUpQueries.options());
  if (options.isPending) return <p className="muted">&nbsp;</p>;
  const text = signUpNote(options.data);
  const refusing = options.data !== undefined && options.data.mode !== "open";
  return (
    <p className={refusing ? "notice" : "muted"} role={refusing ? "note" : undefined}>
      <Message text={text} />
    </p>
  );
}

// setupLinkHint tells a refused sign-up where accounts come from on a server that does not sign anyone up.
export const setupLinkHint =
  "On a new server, the first account (the owner) is created with the one-time setup link that `edgeflow serve` prints; everyone else joins through an invitation link from an admin of their organization.";

// Message shows a sentence from Studio or the server: the first letter capitalized, `commands` in code.
export function Message({ text }: { text: string }) {
  const t = text.charAt(0).toUpperCase() + text.slice(1);
  return <>{t.split("`").map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part))}</>;
}
