import { describe, expect, it } from "vitest";
import { defaultFeatureFlags } from "./feature-flags.js";
import { settingsMenu } from "./settings.js";

const labels = (opts: Parameters<typeof settingsMenu>[0]) =>
  settingsMenu(opts).map((g) => [g.title, g.items.map((i) => i.label)]);

describe("settingsMenu (requirements.md settings §2.1)", () => {
  const on = defaultFeatureFlags(true);
  it("gives administrators every group and item in the spec's order", () => {
    expect(labels({ isAdministrator: true, flags: on, etqOverride: false })).toEqual([
      ["Anomaly Monitors", ["Single-Variate (SVD)", "Multi-Variate (MVD)"]],
      ["Capability Metrics", ["Alerts", "Limits"]],
      [
        "Data Management",
        ["Data Sources", "Signal Management", "Line Management", "Plants", "Data retention"],
      ],
      ["Integrations", ["Microsoft Teams", "ETQ Reliance"]],
      ["Users", ["Users"]],
    ]);
  });

  it("hides Data Sources, Plants, Data retention and Users from users", () => {
    const menu = labels({ isAdministrator: false, flags: on, etqOverride: false });
    expect(menu.map(([t]) => t)).not.toContain("Users");
    expect(menu[2]).toEqual(["Data Management", ["Signal Management", "Line Management"]]);
  });

  it("shows MVD only with its flag, ETQ with its flag or the customer override", () => {
    const off = { ...on, mvdMonitorCreation: false, etqIntegration: false };
    const menu = labels({ isAdministrator: true, flags: off, etqOverride: false });
    expect(menu[0]).toEqual(["Anomaly Monitors", ["Single-Variate (SVD)"]]);
    expect(menu[3]).toEqual(["Integrations", ["Microsoft Teams"]]);
    expect(labels({ isAdministrator: true, flags: off, etqOverride: true })[3]).toEqual([
      "Integrations",
      ["Microsoft Teams", "ETQ Reliance"],
    ]);
  });
});
