// The organization's audit log (GET /api/audit), newest first.
import type { AuditEntry } from "../../pages/settings/types";
import { cursorPages } from "./cursor";

export const auditQueries = {
  // list: the entries path asks for (GET /api/audit with its filters), page after page.
  list: (organizationId: string, path: string) => cursorPages<AuditEntry>(["audit", organizationId, path] as const, path, 50),
};
