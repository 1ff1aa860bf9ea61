import { describe, expect, it } from "vitest";
import { ApiError } from "./client";
import { fieldErrors, parseJsonObject, validateName, validateSignIn, validateSignUp } from "./forms";

describe("form checks", () => {
  it("sign-up names every missing or bad field at once", () => {
    expect(validateSignUp({ name: " ", email: "nope", password: "short" })).toEqual({
      name: "Enter your name.",
      email: "Enter an email address such as ada@example.com.",
      password: "Use at least 8 characters.",
    });
    expect(validateSignUp({ name: "Ada", email: "ada@example.com", password: "        " }).password).toMatch(/spaces/);
    expect(validateSignUp({ name: "Ada", email: "ada@example.com", password: "long enough" })).toEqual({});
  });

  it("sign-in needs an email and a password", () => {
    expect(Object.keys(validateSignIn({ email: "", password: "" })).sort()).toEqual(["email", "password"]);
    expect(validateSignIn({ email: "a@b.c", password: "x" })).toEqual({});
  });

  it("names follow the API's rules", () => {
    expect(validateName("")).toBeDefined();
    expect(validateName("x".repeat(201))).toBeDefined();
    expect(validateName("a\u202eb")).toBeDefined();
    expect(validateName("Order confirmation")).toBeUndefined();
  });

  it("params must be a JSON object", () => {
    expect(parseJsonObject('{"a":1}')).toEqual({ value: { a: 1 } });
    expect(parseJsonObject("")).toEqual({ value: {} });
    expect(parseJsonObject("[1]")).toEqual({ error: "Enter a JSON object: { … }." });
    expect("error" in parseJsonObject("{a:1}")).toBe(true);
  });

  it("maps an API error's details to the form's fields", () => {
    const err = new ApiError(422, "validation_failed", "bad", [
      { path: "/email", message: "already taken" },
      { path: "/organizationName", message: "too long" },
    ]);
    expect(fieldErrors(err, ["email", "password"])).toEqual({
      email: "already taken",
      "": "/organizationName: too long",
    });
    expect(fieldErrors(new ApiError(401, "unauthorized", "wrong email or password"), ["email"])).toEqual({
      "": "wrong email or password",
    });
  });
});
