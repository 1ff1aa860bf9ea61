import { useQueryClient } from "@tanstack/react-query";
import { sessionKeys } from "../../../api/queries/session";

// Small helpers of the team page.
export function article(role: string): string {
  return /^[aeiou]/.test(role) ? "an" : "a";
}

// refreshSession reads the session again after a change of the user's own membership (roles shown in the top bar).
export function useRefreshSession() {
  const qc = useQueryClient();
  return () => void qc.invalidateQueries({ queryKey: sessionKeys.all });
}
