import { describe, expect, it } from "vitest";
import { afterSignIn, isPublicPath, signInLocation } from "./guard";

describe("route guards", () => {
  it("only sign-in, sign-up and the setup link are public", () => {
    expect(isPublicPath("/sign-in")).toBe(true);
    expect(isPublicPath("/sign-up")).toBe(true);
    expect(isPublicPath("/setup")).toBe(true);
    expect(isPublicPath("/invite")).toBe(false);
    expect(isPublicPath("/")).toBe(false);
    expect(isPublicPath("/workflows/wf_1")).toBe(false);
  });

  it("a private URL goes to sign-in remembering where it was, and back after", () => {
    const to = signInLocation("/workflows/wf_1/runs/run_2?x=1");
    expect(to).toBe("/sign-in?next=%2Fworkflows%2Fwf_1%2Fruns%2Frun_2%3Fx%3D1");
    expect(afterSignIn(to.split("?")[1]!)).toBe("/workflows/wf_1/runs/run_2?x=1");
    expect(signInLocation("/")).toBe("/sign-in");
    expect(afterSignIn("")).toBe("/");
  });

  it("signing in from an invitation's link comes back to it", () => {
    const next = "/invite?token=inv_abc";
    expect(afterSignIn(`next=${encodeURIComponent(next)}`)).toBe(next);
    expect(afterSignIn(`next=${encodeURIComponent("/setup?token=setup_x")}`)).toBe("/");
  });

  it("never sends the user off the site after sign-in", () => {
    for (const next of [
      "//evil.example",
      "https://evil.example",
      "/\\evil.example",
      "javascript:alert(1)",
      "/sign-in",
    ]) {
      expect(afterSignIn(`next=${encodeURIComponent(next)}`)).toBe("/");
    }
  });
});
