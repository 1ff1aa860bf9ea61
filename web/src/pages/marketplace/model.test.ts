import { describe, expect, it } from "vitest";
import {
  changeVerb,
  compareVersions,
  filtersFromSearch,
  isAdminRole,
  queryProblem,
  requiredSecrets,
  searchFromFilters,
} from "./model";

describe("catalog filters in the URL", () => {
  it("round-trip through the query string, words trimmed and spaces collapsed", () => {
    expect(searchFromFilters({ q: "  send   email ", category: "Email" })).toBe("q=send+email&category=Email");
    expect(filtersFromSearch("q=send+email&category=Developer+Tools")).toEqual({
      q: "send email",
      category: "Developer Tools",
    });
    expect(searchFromFilters({ q: "", category: "" })).toBe("");
    expect(filtersFromSearch("")).toEqual({ q: "", category: "" });
  });
  it("refuses a search the API would refuse", () => {
    expect(queryProblem("x".repeat(100))).toBeUndefined();
    expect(queryProblem("x".repeat(101))).toBe("Use at most 100 characters (this search has 101).");
  });
});

describe("versions", () => {
  it("are ordered by semver precedence", () => {
    expect(compareVersions("1.10.0", "1.9.0")).toBe(1);
    expect(compareVersions("2.0.0-beta.1", "2.0.0")).toBe(-1);
    expect(compareVersions("2.0.0-beta.2", "2.0.0-beta.10")).toBe(-1);
    expect(compareVersions("2.0.0-alpha", "2.0.0-1")).toBe(1);
    expect(compareVersions("1.0.0", "1.0.0")).toBe(0);
  });
  it("name moving up an update and moving down a downgrade", () => {
    expect(changeVerb("1.0.0", "1.1.0")).toBe("Update");
    expect(changeVerb("2.0.0", "1.0.0")).toBe("Downgrade");
  });
});

describe("requiredSecrets", () => {
  it("lists the secret fields by env var with what they are for", () => {
    const def = {
      configSchema: {
        model: { type: "string", label: "Model" },
        apiKey: {
          type: "secret",
          label: "API key",
          description: "An OpenAI API key.",
          required: true,
          envVarName: "OPENAI_API_KEY",
        },
        org: { type: "secret", label: "Organization", envVarName: "OPENAI_ORG" },
      },
    };
    expect(requiredSecrets(def)).toEqual([
      { envVarName: "OPENAI_API_KEY", label: "API key", description: "An OpenAI API key.", required: true },
      { envVarName: "OPENAI_ORG", label: "Organization", description: undefined, required: false },
    ]);
    expect(requiredSecrets(null)).toEqual([]);
  });
});

describe("roles", () => {
  it("let owners and admins change the installation", () => {
    expect(isAdminRole("owner")).toBe(true);
    expect(isAdminRole("admin")).toBe(true);
    expect(isAdminRole("member")).toBe(false);
    expect(isAdminRole(undefined)).toBe(false);
  });
});
