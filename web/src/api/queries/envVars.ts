// The organization's and the active project's environment variables (GET /api/env-vars) and where they are used.
import type { EnvVarUse, GlobalEnvVar } from "../../pages/settings/types";
import { cursorPages } from "./cursor";

export const envVarKeys = {
  all: ["env-vars"] as const,
};

export const envVarQueries = {
  list: () => cursorPages<GlobalEnvVar>([...envVarKeys.all, "list"] as const, "/api/env-vars", 100),
  usage: () => cursorPages<EnvVarUse>([...envVarKeys.all, "usage"] as const, "/api/env-vars/usage", 100),
};
