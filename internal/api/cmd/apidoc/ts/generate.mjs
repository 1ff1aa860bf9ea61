// Writes Studio's API types (TypeScript) to stdout from the OpenAPI document in the file named by argv[2], with
// openapi-typescript. `make apidoc` (go run ./internal/api/cmd/apidoc) runs it and writes web/src/api/schema.gen.ts;
// the Go test TestStudioTypesCurrent fails when that file differs from what this prints.
import openapiTS, { astToString } from "openapi-typescript";
import { readFileSync } from "node:fs";

const doc = JSON.parse(readFileSync(process.argv[2], "utf8"));

// Examples document the API (docs/api.md shows them); as comments they would only make the types file longer.
(function dropExamples(v) {
  if (Array.isArray(v)) return v.forEach(dropExamples);
  if (v === null || typeof v !== "object") return;
  if ("schema" in v) delete v.example; // a media type's or a parameter's
  Object.values(v).forEach(dropExamples);
})(doc.paths);

const ast = await openapiTS(doc, {
  // A field the schema does not require may be left out, also when it states a default (an IR a client writes).
  defaultNonNullable: false,
  // An object schema without properties (an IR node's data) holds values of any type, not none.
  emptyObjectsUnknown: true,
  // Each schema also under its own name: `import type { Workflow } from "./schema.gen"`.
  rootTypes: true,
  rootTypesNoSchemaPrefix: true,
  rootTypesKeepCasing: true,
  silent: true,
});

process.stdout.write(
  "// Generated from the OpenAPI document of the route table (internal/api/routes.go) by `make apidoc`\n" +
    "// (internal/api/cmd/apidoc/ts/generate.mjs, openapi-typescript); do not edit. TestStudioTypesCurrent fails when it\n" +
    "// is out of date.\n\n" +
    astToString(ast),
);
