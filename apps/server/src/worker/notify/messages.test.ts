import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "../../modules/notifications/notifications.channels.js";
import { alertLink, MAX_ATTEMPTS, retryDelayMs, topDrivers } from "./messages.js";

describe("retry delays", () => {
  it("doubles from 5 s up to 1 h, and Retry-After wins (capped at 1 h)", () => {
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, null))).toEqual([5_000, 10_000, 20_000, 40_000]);
    expect(retryDelayMs(MAX_ATTEMPTS + 5, null)).toBe(3_600_000);
    expect(retryDelayMs(1, 7_000)).toBe(7_000);
    expect(retryDelayMs(1, 86_400_000)).toBe(3_600_000);
  });

  it("reads Retry-After as seconds or an HTTP date", () => {
    const now = new Date("2026-11-22T10:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120_000);
    expect(parseRetryAfter("Sun, 22 Nov 2026 10:00:30 GMT", now)).toBe(30_000);
    expect(parseRetryAfter(undefined, now)).toBeNull();
    expect(parseRetryAfter("soon", now)).toBeNull();
  });
});

describe("alert message parts", () => {
  it("ranks mvd drivers by summed contribution, at most three", () => {
    const details = {
      worstRows: [
        {
          topSignals: [
            { name: "A", contribution: 1 },
            { name: "B", contribution: 3 },
          ],
        },
        {
          topSignals: [
            { name: "C", contribution: 2.5 },
            { name: "A", contribution: 2.5 },
            { name: "D", contribution: 0.1 },
          ],
        },
      ],
    };
    expect(topDrivers(details)).toEqual([
      "A (contribution 3.5)",
      "B (contribution 3)",
      "C (contribution 2.5)",
    ]);
  });

  it("names the svd signal with its mean shift, and copes with no details", () => {
    expect(topDrivers({ signal: { name: "Torque" }, trainingMean: 10, evaluationMean: 12.5 })).toEqual([
      "Torque (mean 10 → 12.5)",
    ]);
    expect(topDrivers(null)).toEqual([]);
    expect(topDrivers({ code: "NO_DATA" })).toEqual([]);
  });

  it("links to the alert on its line", () => {
    expect(alertLink("https://lw.example.com/", { lineId: "l1", alertId: "a1" })).toBe(
      "https://lw.example.com/lines/l1?alert=a1",
    );
  });
});
