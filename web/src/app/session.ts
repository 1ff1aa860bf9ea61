// The signed-in session: read once from GET /api/auth/session (401 means signed out), kept in TanStack Query
// under sessionKeys.all (api/queries/session.ts), and the CSRF token handed to the API client.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { setCsrfToken } from "../api/client";
import { sessionKeys, sessionQueries } from "../api/queries/session";
import type { SignedIn } from "../api/models";

export function useSession() {
  return useQuery(sessionQueries.current());
}

// useSetSession records a session answer (sign-in, sign-up, switching project) and drops every other cached
// answer, which belonged to the previous user or project.
export function useSetSession() {
  const qc = useQueryClient();
  return (s: SignedIn | null) => {
    setCsrfToken(s?.csrfToken ?? "");
    qc.removeQueries({ predicate: (q) => q.queryKey[0] !== sessionKeys.all[0] });
    qc.setQueryData(sessionKeys.all, s);
  };
}
