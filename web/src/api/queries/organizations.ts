// An organization's team (GET /api/organizations/:id/…): its members and invitations.
import { queryOptions } from "@tanstack/react-query";
import { api, ok, pageQuery } from "../client";
import { cursorPages } from "./cursor";

export const organizationKeys = {
  // team: everything read about an organization's members and invitations.
  team: (organizationId: string) => ["team", organizationId] as const,
  members: (organizationId: string) => ["team", organizationId, "members"] as const,
};

const members = (organizationId: string, limit: number, cursor?: string) =>
  ok(api.GET("/api/organizations/{organizationId}/members", { params: { path: { organizationId }, query: pageQuery(limit, cursor) } }));

export const organizationQueries = {
  // members: the organization's members, page after page.
  members: (organizationId: string) =>
    cursorPages(organizationKeys.members(organizationId), (cursor) => members(organizationId, 50, cursor)),
  // firstMembers: its first 100 members (the audit log names its actors with them).
  firstMembers: (organizationId: string) =>
    queryOptions({
      queryKey: [...organizationKeys.members(organizationId), "first-page"] as const,
      queryFn: () => members(organizationId, 100),
    }),
  // invitations: the organization's invitations, page after page.
  invitations: (organizationId: string) =>
    cursorPages([...organizationKeys.team(organizationId), "invitations"] as const, (cursor) =>
      ok(
        api.GET("/api/organizations/{organizationId}/invitations", {
          params: { path: { organizationId }, query: pageQuery(50, cursor) },
        }),
      ),
    ),
};
