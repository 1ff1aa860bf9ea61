// The organization's audit log (GET /api/audit), newest first.
import { api, ok } from "../client";
import { cursorPages, withPage } from "./cursor";

export const auditQueries = {
  // list: the entries that search asks for (the query string of GET /api/audit's filters), page after page.
  list: (organizationId: string, search: string) =>
    cursorPages(["audit", organizationId, search] as const, (cursor) =>
      ok(api.GET("/api/audit", { querySerializer: () => withPage(search, 50, cursor) })),
    ),
};
