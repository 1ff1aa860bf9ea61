// The signed-in session: read once from GET /api/auth/session (401 means signed out), kept in TanStack Query
// under ["session"], and the CSRF token handed to the API client.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { api, ApiError, setCsrfToken } from "../api/client";
import type { Session } from "../api/types";

export const sessionKey = ["session"] as const;

async function loadSession(): Promise<Session | null> {
  try {
    const s = await api.get<Session>("/api/auth/session");
    setCsrfToken(s.csrfToken);
    return s;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) {
      setCsrfToken("");
      return null;
    }
    throw err;
  }
}

export function useSession() {
  return useQuery({ queryKey: sessionKey, queryFn: loadSession, staleTime: Infinity });
}

// useSetSession records a session answer (sign-in, sign-up, switching project) and drops every other cached
// answer, which belonged to the previous user or project.
export function useSetSession() {
  const qc = useQueryClient();
  return (s: Session | null) => {
    setCsrfToken(s?.csrfToken ?? "");
    qc.removeQueries({ predicate: (q) => q.queryKey[0] !== "session" });
    qc.setQueryData(sessionKey, s);
  };
}
