import { NO_DATA_ALERT_TEXTS, type TAlert } from "@linewatch/contracts";
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { AlertsTable } from "./AlertsTable";

afterEach(() => cleanup());

const alert = (over: Partial<TAlert>): TAlert => ({
  id: "00000000-0000-4000-8000-000000000041",
  lineId: "00000000-0000-4000-8000-000000000005",
  kind: "monitor",
  state: "OPEN",
  monitor: { id: "00000000-0000-4000-8000-000000000020", name: "Bore geometry", type: "mvd" },
  openedAt: "2026-11-22T10:00:00Z",
  lastSeenAt: "2026-11-22T10:05:00Z",
  count: 1,
  rule: "breach",
  score: 13.788,
  threshold: 0.01,
  summary: "p-value 0.000153 vs α 0.01, 9 of 25 parts above the UCL (mean T²/p 13.8)",
  resolvedAt: null,
  cause: null,
  ...over,
});

const noop = () => {};

describe("AlertsTable", () => {
  it("reads an MVD alert by its p-value against α, never as mean T² over α", () => {
    render(
      <AlertsTable
        alerts={[alert({})]}
        timeZone="America/Detroit"
        busy={false}
        onOpen={noop}
        onAcknowledge={noop}
        onComment={noop}
        onResolve={noop}
      />,
    );
    const table = screen.getByRole("table", { name: "Alerts" });
    expect(within(table).getByRole("columnheader", { name: "Latest evaluation" })).toBeInTheDocument();
    expect(
      within(table).getByText("p-value 0.000153 vs α 0.01, 9 of 25 parts above the UCL (mean T²/p 13.8)"),
    ).toBeInTheDocument();
    expect(within(table).queryByText(/13\.788 \/ 0\.010/)).not.toBeInTheDocument();
  });
});

describe("AlertsTable: a no-data alert", () => {
  it("shows 'No data' where a monitor's alert shows the monitor, with its hours since the last record", () => {
    render(
      <AlertsTable
        alerts={[
          alert({
            kind: "no_data",
            monitor: null,
            rule: "no_data",
            summary: NO_DATA_ALERT_TEXTS.summary(5, 2),
          }),
        ]}
        timeZone="UTC"
        busy={false}
        onOpen={noop}
        onAcknowledge={noop}
        onComment={noop}
        onResolve={noop}
      />,
    );
    const table = screen.getByRole("table", { name: "Alerts" });
    expect(within(table).getByText(NO_DATA_ALERT_TEXTS.title)).toBeInTheDocument();
    expect(within(table).getByText("No records for 5 h (No Data Alert after 2 h)")).toBeInTheDocument();
    expect(within(table).getByRole("button", { name: "Acknowledge" })).toBeInTheDocument();
  });
});
