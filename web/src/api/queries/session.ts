// The signed-in session (GET /api/auth/session): read once and kept until a sign-in, a sign-out or a switch of
// project replaces it. Every other answer in the cache belongs to the session's user and project.
import { queryOptions } from "@tanstack/react-query";
import { api, ApiError, ok, setCsrfToken } from "../client";
import type { SignedIn } from "../models";

export const sessionKeys = {
  all: ["session"] as const,
};

// loadSession answers the session, or null when signed out (401); it hands the session's CSRF token to the client.
async function loadSession(): Promise<SignedIn | null> {
  try {
    const s = await ok(api.GET("/api/auth/session"));
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

export const sessionQueries = {
  current: () => queryOptions({ queryKey: sessionKeys.all, queryFn: loadSession, staleTime: Infinity }),
};

export const signUpKeys = {
  options: ["sign-up-options"] as const,
};

// signUpQueries: how the server signs people up (GET /api/auth/sign-up, public), which the sign-up page says
// before its form.
export const signUpQueries = {
  options: () =>
    queryOptions({
      queryKey: signUpKeys.options,
      queryFn: () => ok(api.GET("/api/auth/sign-up")),
      retry: false,
      staleTime: 60_000,
    }),
};
