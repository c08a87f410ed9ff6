import { describe, expect, it } from "vitest";
import { isApiPath, normalisePath } from "./request-path.js";

describe("normalisePath", () => {
  it("reads every spelling of an /api path as /api/…", () => {
    for (const url of [
      "/api/auth/me",
      "/%61pi/auth/me",
      "/%61%70%69/auth/me",
      "/API/auth/me",
      "//api/auth/me",
      "/api//auth/me",
      "/./api/auth/me",
      "/x/../api/auth/me",
      "/x/%2e%2e/api/auth/me",
      "/api/auth/me?x=/y",
    ]) {
      expect(normalisePath(url), url).toBe("/api/auth/me");
      expect(isApiPath(normalisePath(url)), url).toBe(true);
    }
  });

  it("keeps a trailing slash and the root, stops at the root, and judges malformed encodings as sent", () => {
    expect(normalisePath("/api/")).toBe("/api/");
    expect(normalisePath("/api/x/..")).toBe("/api/");
    expect(normalisePath("/")).toBe("/");
    expect(normalisePath("/../../api/x")).toBe("/api/x");
    expect(normalisePath("/api/%zz")).toBe("/api/%zz");
    expect(isApiPath(normalisePath("/apix/y"))).toBe(false);
    expect(isApiPath(normalisePath("/assets/app.js"))).toBe(false);
  });
});
