// The organization's and the active project's environment variables (GET /api/env-vars) and where they are used.
import { api, ok, pageQuery } from "../client";
import { cursorPages } from "./cursor";

export const envVarKeys = {
  all: ["env-vars"] as const,
};

export const envVarQueries = {
  list: () =>
    cursorPages([...envVarKeys.all, "list"] as const, (cursor) =>
      ok(api.GET("/api/env-vars", { params: { query: pageQuery(100, cursor) } })),
    ),
  usage: () =>
    cursorPages([...envVarKeys.all, "usage"] as const, (cursor) =>
      ok(api.GET("/api/env-vars/usage", { params: { query: pageQuery(100, cursor) } })),
    ),
};
