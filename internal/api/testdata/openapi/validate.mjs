// Validates an OpenAPI document (the file named by argv[2]) against the
// OpenAPI 3.1 schema; prints the errors and exits 1 when it is not valid.
import { Validator } from "@seriousme/openapi-schema-validator";
import { readFileSync } from "node:fs";

const doc = JSON.parse(readFileSync(process.argv[2], "utf8"));
const result = await new Validator().validate(doc);
if (!result.valid) {
  console.error(JSON.stringify(result.errors, null, 2));
  process.exit(1);
}
