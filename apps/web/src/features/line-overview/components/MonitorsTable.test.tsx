import { LINE_MESSAGES, type TMonitor } from "@linewatch/contracts";
import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { UNMONITORED_TEXT } from "../../signals/monitored";
import { buildStation, fixtureId } from "../../signals/signal-tree.fixtures";
import { MonitorsTable } from "./MonitorsTable";

afterEach(cleanup);

const S1 = fixtureId(5, 1);
const S2 = fixtureId(5, 2);
const G1 = fixtureId(7, 1);
const monitor = (
  id: number,
  signal_uuids: string[],
  signal_group_uuids: string[] = [],
  monitor_type: TMonitor["monitor_type"] = "mvd",
): TMonitor =>
  ({
    monitor_uuid: fixtureId(6, id),
    monitor_name: `Monitor ${id}`,
    monitor_type,
    active: true,
    frequency: 10,
    notes: "",
    use_excluded_part_ids: false,
    use_excluded_model_numbers: false,
    monitor_filter: { signal_uuids, signal_group_uuids },
  }) as unknown as TMonitor;

describe("MonitorsTable", () => {
  it("shows an inactive line's monitors as stopped, with no next run", () => {
    const next = new Date(Date.now() - 3_600_000).toISOString();
    const m = { ...monitor(1, [S1]), next_run_at: next } as TMonitor;
    const { rerender } = render(
      <MemoryRouter>
        <MonitorsTable monitors={[m]} timeZone="UTC" />
      </MemoryRouter>,
    );
    const row = () => screen.getByText("Monitor 1").closest("tr")?.textContent ?? "";
    expect(row()).toContain("Yes");
    expect(row()).not.toContain(LINE_MESSAGES.monitorStoppedWithLine);
    expect(row().endsWith("–")).toBe(false);
    rerender(
      <MemoryRouter>
        <MonitorsTable monitors={[m]} timeZone="UTC" isLineActive={false} />
      </MemoryRouter>,
    );
    expect(row()).toContain(LINE_MESSAGES.monitorStoppedWithLine);
    expect(row().endsWith("–")).toBe(true);
  });

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

  it("counts the signals a monitor reaches through its signal groups, and says when none is left", () => {
    const active = [buildStation(fixtureId(1, 1), "OP10", [{ id: S1, name: "Torque" }])];
    const groups = [{ signalGroupUuid: G1, signalGroupName: "Tightening", signalUuids: [S1, S2] }];
    render(
      <MemoryRouter>
        <MonitorsTable
          monitors={[monitor(1, [S1], [G1]), monitor(2, [S1]), monitor(3, [S2])]}
          timeZone="UTC"
          activeStations={active}
          signalGroups={groups}
        />
      </MemoryRouter>,
    );
    const titleOf = (name: string) =>
      screen.getByText(name).closest("tr")?.querySelector("[title]")?.getAttribute("title");
    expect(screen.getAllByText(UNMONITORED_TEXT.chip)).toHaveLength(2);
    expect(titleOf("Monitor 1")).toBe(UNMONITORED_TEXT.chipTitle(1));
    expect(titleOf("Monitor 2")).toBeUndefined();
    expect(titleOf("Monitor 3")).toBe(UNMONITORED_TEXT.chipTitleNoneLeft);
  });

  it("marks a cap monitor whose measurement was switched off or converted: it records no data", () => {
    const active = [buildStation(fixtureId(1, 1), "OP10", [{ id: S1, name: "Torque" }])];
    render(
      <MemoryRouter>
        <MonitorsTable
          monitors={[monitor(1, [S2], [], "cap"), monitor(2, [S1], [], "cap")]}
          timeZone="UTC"
          activeStations={active}
        />
      </MemoryRouter>,
    );
    const chips = screen.getAllByText(UNMONITORED_TEXT.chip);
    expect(chips).toHaveLength(1);
    expect(chips[0]?.closest("tr")?.textContent).toContain("Monitor 1");
    expect(chips[0]?.closest("[title]")?.getAttribute("title")).toBe(UNMONITORED_TEXT.chipTitleNoneLeft);
  });
});
