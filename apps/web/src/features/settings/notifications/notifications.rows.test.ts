import { INTEGRATION_MESSAGES as M, type TRelianceConfig, type TTeamsWebhook } from "@linewatch/contracts";
import { describe, expect, it } from "vitest";
import { connectionChip, etqRows, hasFailedDelivery, historyItems, teamsRows } from "./notifications.rows";

const line = (id: string, name: string, friendlyName: string | null = null) => ({ id, name, friendlyName });
const lines = [line("l3", "Line 10"), line("l1", "Line 2"), line("l2", "axle", "Axle A")];
const hook: TTeamsWebhook = {
  id: "w1",
  lineId: "l1",
  lastModifiedDateTime: "2026-11-22T10:00:00Z",
  urlHost: "prod.logic.azure.com",
  lastTest: null,
};
const config = (lineId: string, connectionStatus: TRelianceConfig["connectionStatus"]): TRelianceConfig => ({
  id: `c-${lineId}`,
  lineId,
  apiHost: "https://etq.example",
  clientId: "c",
  tokenEndpoint: "https://etq.example/token",
  connectionStatus,
  updatedTime: "2026-11-22T10:00:00Z",
  hasClientSecret: true,
  lastTest: null,
});

describe("teamsRows", () => {
  it("gives every line a row, sorted by line (numbers as numbers), configured or not", () => {
    const rows = teamsRows(lines, [hook]);
    expect(rows.map((r) => r.line)).toEqual(["Axle A", "Line 2", "Line 10"]);
    expect(rows.map((r) => r.status)).toEqual([M.notConfigured, M.configured, M.notConfigured]);
    expect(rows[1]).toMatchObject({ webhookId: "w1", urlHost: "prod.logic.azure.com", url: "" });
  });

  it("attaches each line's delivery health", () => {
    const health = { lineId: "l1", lastAttempt: null, failuresLast24h: 2, retryingAlerts: 1 };
    expect(teamsRows(lines, [hook], [health]).find((r) => r.id === "l1")?.health).toBe(health);
  });
});

describe("etqRows", () => {
  it("words the chip from the connection status and filters by Configured / Not Configured", () => {
    const configs = { l1: config("l1", "SUCCESS"), l3: config("l3", "ERROR") };
    const all = etqRows(lines, configs);
    expect(all.map((r) => [r.line, r.chip])).toEqual([
      ["Axle A", M.notConfigured],
      ["Line 2", M.connectionActive],
      ["Line 10", M.connectionFailed],
    ]);
    expect(etqRows(lines, configs, [], M.configured).map((r) => r.line)).toEqual(["Line 2", "Line 10"]);
    expect(etqRows(lines, configs, [], M.notConfigured).map((r) => r.line)).toEqual(["Axle A"]);
  });

  it("shows an untested configuration as Configured", () => {
    expect(connectionChip(config("l1", null))).toBe(M.configured);
    expect(connectionChip(null)).toBe(M.notConfigured);
  });
});

describe("historyItems", () => {
  it("offers the history of each configured line's configuration, by its id, ordered by line", () => {
    const configs = [config("l3", null), config("l2", null), { ...config("gone", null) }];
    expect(historyItems(lines, configs)).toEqual([
      { id: "c-l2", name: "Axle A" },
      { id: "c-l3", name: "Line 10" },
    ]);
    expect(historyItems(lines, [hook])).toEqual([{ id: "w1", name: "Line 2" }]);
  });
});

describe("hasFailedDelivery", () => {
  it("is true only when the last attempt failed", () => {
    const at = "2026-11-22T10:00:00Z";
    const h = (ok: boolean | null) => ({
      lineId: "l1",
      lastAttempt: ok == null ? null : { at, ok, httpStatus: 500, error: ok ? null : "x" },
      failuresLast24h: 0,
      retryingAlerts: 0,
    });
    expect(hasFailedDelivery(h(false))).toBe(true);
    expect(hasFailedDelivery(h(true))).toBe(false);
    expect(hasFailedDelivery(h(null))).toBe(false);
    expect(hasFailedDelivery(null)).toBe(false);
  });
});
