// Studio's download of a version as a wrangler project: on the versions page, "Wrangler project" saves the archive
// the export route answers (docs/export.md), named as the server names it, holding the project's files.
import { expect, test } from "@playwright/test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { repoDir, useStudio } from "./harness.mjs";

let studio;
useStudio({ edge: false }, (s) => (studio = s));

// tarNames lists the names of a tar archive's entries (ustar headers: the name in the first 100 bytes, the size in
// octal at 124, the data in 512-byte blocks).
function tarNames(tar) {
  const names = [];
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const field = (from, len) =>
      header
        .subarray(from, from + len)
        .toString("utf8")
        .replace(/\0.*$/s, "");
    const prefix = field(345, 155);
    names.push(prefix ? `${prefix}/${field(0, 100)}` : field(0, 100));
    const size = parseInt(field(124, 12).trim() || "0", 8);
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return names;
}

test("a user downloads a version as a wrangler project", async () => {
  const user = await studio.apiSignUp();
  const ir = JSON.parse(readFileSync(path.join(repoDir, "examples", "hello.json"), "utf8"));
  const w = await studio.api(user, "POST", "/api/workflows", { name: "Hello Export" });
  await studio.api(user, "POST", `/api/workflows/${w.id}/versions`, { ir });
  const page = await studio.newPage(user.context);
  await page.goto(`/workflows/${w.id}/versions`);

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download version 1 as a wrangler project" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("hello-export-v1-wrangler.tar.gz");
  const names = tarNames(gunzipSync(readFileSync(await file.path())));
  for (const f of ["wrangler.jsonc", "package.json", "README.md", "src/index.ts"]) expect(names).toContain(f);
  await expect(page.getByRole("alert")).toHaveCount(0);
});
