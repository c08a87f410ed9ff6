import { describe, expect, it } from "vitest";
import { featureFlagAccess } from "./feature-flags.js";

describe("featureFlagAccess", () => {
  it("lets provider staff change the flags, administrators only see them, users neither", () => {
    expect(featureFlagAccess({ isAdministrator: true, isProviderStaff: true })).toEqual({
      canView: true,
      canChange: true,
    });
    expect(featureFlagAccess({ isAdministrator: false, isProviderStaff: true })).toEqual({
      canView: true,
      canChange: true,
    });
    expect(featureFlagAccess({ isAdministrator: true, isProviderStaff: false })).toEqual({
      canView: true,
      canChange: false,
    });
    expect(featureFlagAccess({ isAdministrator: false, isProviderStaff: false })).toEqual({
      canView: false,
      canChange: false,
    });
  });
});
