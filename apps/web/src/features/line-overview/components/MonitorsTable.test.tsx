import type { TMonitor } from "@linewatch/contracts";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { UNMONITORED_TEXT } from "../../signals/monitored";
import { buildStation, fixtureId } from "../../signals/signal-tree.fixtures";
import { MonitorsTable } from "./MonitorsTable";

afterEach(cleanup);

const S1 = fixtureId(5, 1);
const S2 = fixtureId(5, 2);
const monitor = (id: number, signal_uuids: string[]): TMonitor =>
  ({
    monitor_uuid: fixtureId(6, id),
    monitor_name: `Monitor ${id}`,
    monitor_type: "mvd",
    active: true,
    frequency: 10,
    notes: "",
    use_excluded_part_ids: false,
    use_excluded_model_numbers: false,
    monitor_filter: { signal_uuids, signal_group_uuids: [] },
  }) as unknown as TMonitor;

describe("MonitorsTable", () => {
  it("marks a monitor whose signal was switched off in Signal Management", () => {
    const active = [buildStation(fixtureId(1, 1), "OP10", [{ id: S1, name: "Torque" }])];
    render(
      <MemoryRouter>
        <MonitorsTable
          monitors={[monitor(1, [S1, S2]), monitor(2, [S1])]}
          timeZone="UTC"
          activeStations={active}
        />
      </MemoryRouter>,
    );
    const chips = screen.getAllByText(UNMONITORED_TEXT.chip);
    expect(chips).toHaveLength(1);
    expect(chips[0]?.closest("[title]")?.getAttribute("title")).toBe(UNMONITORED_TEXT.chipTitle(1));
    expect(chips[0]?.closest("tr")?.textContent).toContain("Monitor 1");
  });
});
