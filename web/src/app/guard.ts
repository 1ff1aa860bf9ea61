// Which URLs need a session, and where Studio goes before and after signing in.

// /setup (the first-start setup link) is public too; /invite is handled apart, as it serves both the signed-out and
// the signed-in user.
const publicPaths = new Set(["/sign-in", "/sign-up", "/setup"]);

export function isPublicPath(path: string): boolean {
  return publicPaths.has(path);
}

// signInLocation is where a signed-out visit of a private URL goes: the sign-in page, remembering the URL.
export function signInLocation(pathWithSearch: string): string {
  if (pathWithSearch === "/" || pathWithSearch === "") return "/sign-in";
  return `/sign-in?next=${encodeURIComponent(pathWithSearch)}`;
}

// afterSignIn is where Studio goes after signing in: the remembered URL when it is one of Studio's own pages, else
// the workflow list. Anything that could leave the site (//host, a scheme, a backslash) falls back to "/".
export function afterSignIn(search: string): string {
  const next = new URLSearchParams(search).get("next");
  if (!next || !next.startsWith("/") || next.startsWith("//") || next.includes("\\")) return "/";
  if (isPublicPath(next.split("?")[0] ?? "")) return "/";
  return next;
}
