import { AUDIT_PAGE_SIZE } from "@linewatch/contracts";
import { describe, expect, it } from "vitest";
import { auditOffset, auditQueryString, auditViewFromParams, auditViewToParams } from "./audit-log.filters";

const USER = "00000000-0000-4000-8000-000000000003";

describe("audit log view in the address", () => {
  it("reads back the view it wrote, so a link reproduces it", () => {
    const view = {
      filter: {
        resource: "spc_limit" as const,
        userId: USER,
        from: "2026-11-01T05:00:00.000Z",
        to: "2026-11-02T05:00:00.000Z",
      },
      page: 3,
    };
    const params = auditViewToParams(view);
    expect(params.toString()).toContain("resource=spc_limit");
    expect(auditViewFromParams(new URLSearchParams(params.toString()))).toEqual(view);
  });

  it("leaves out values that are not valid and starts at the first page", () => {
    expect(
      auditViewFromParams(new URLSearchParams("resource=planet&user=bob&from=yesterday&to=&page=-2")),
    ).toEqual({ filter: {}, page: 1 });
    expect(auditViewToParams({ filter: {}, page: 1 }).toString()).toBe("");
  });
});

describe("auditQueryString", () => {
  it("names the filter as the API does, with paging when asked", () => {
    const qs = new URLSearchParams(
      auditQueryString(
        { resource: "line", userId: USER },
        { limit: AUDIT_PAGE_SIZE, offset: auditOffset(2) },
      ),
    );
    expect(Object.fromEntries(qs)).toEqual({
      resource: "line",
      userId: USER,
      limit: String(AUDIT_PAGE_SIZE),
      offset: String(AUDIT_PAGE_SIZE),
    });
    expect(auditQueryString({})).toBe("");
  });
});
