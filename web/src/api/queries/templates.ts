// The templates of a new workflow (app/templates.ts): the repository's examples, part of the build, read once.
import { queryOptions } from "@tanstack/react-query";
import { loadTemplates } from "../../app/templates";

export const templateQueries = {
  all: () => queryOptions({ queryKey: ["templates"] as const, queryFn: loadTemplates, staleTime: Infinity }),
};
