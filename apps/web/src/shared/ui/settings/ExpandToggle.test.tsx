import { SETTINGS_KIT_MESSAGES as M } from "@linewatch/contracts";
import { Button, Stack, TextField } from "@mui/material";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { installResizeObserver } from "../../../test/fixtures";
import { expandColumn } from "./ExpandToggle";
import type { FlatRow } from "./expandable-rows";
import {
  capSignals,
  capSignalTree,
  type CapModel as Model,
  type CapSignal as Signal,
} from "./expandable-rows.fixtures";
import { SettingsGrid } from "./SettingsGrid";
import type { SettingsColumn } from "./settings-grid";
import { useExpandableRows } from "./useExpandableRows";

beforeAll(() => installResizeObserver());
afterEach(cleanup);

function CapLimitsLike() {
  const tree = useExpandableRows<Signal, Model>({
    rows: capSignals,
    ...capSignalTree,
    initialSortModel: [{ field: "station", sort: "asc" }],
  });
  const columns: SettingsColumn<FlatRow<Signal, Model>>[] = [
    expandColumn<Signal, Model>({
      tree,
      label: (_s, isExpanded) => (isExpanded ? M.hideModels : M.seeModels),
      canExpand: (_s, count) => count > 0,
    }),
    { field: "station", headerName: "Station", width: 120 },
    { field: "signal", headerName: "Signal", width: 120 },
    { field: "model", headerName: "Model", width: 120, sortable: false },
    { field: "lsl", headerName: "LSL", width: 100, sortable: false },
  ];
  return <SettingsGrid label="Cap Limits" emptyText="No signals" columns={columns} {...tree.gridProps} />;
}

/** The data rows' texts, top to bottom. */
const rowTexts = () =>
  screen
    .getAllByRole("row")
    .filter((r) => r.querySelector('[role="gridcell"]'))
    .map((r) => r.textContent ?? "");

describe("expandable rows", { timeout: 30_000 }, () => {
  it("expands a signal into its models right under it, and collapses it again", async () => {
    const ue = userEvent.setup();
    render(<CapLimitsLike />);
    await screen.findByText("Torque");
    // Sorted by station: OP10 Bore, OP20 Torque, OP30 Angle (no models, no toggle).
    expect(rowTexts()).toHaveLength(3);
    expect(screen.getAllByRole("button", { name: M.seeModels })).toHaveLength(2);

    const torqueRow = screen.getAllByRole("row").find((r) => r.textContent?.includes("Torque"));
    const toggle = within(torqueRow as HTMLElement).getByRole("button", { name: M.seeModels });
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    await ue.click(toggle);
    const hide = await screen.findByRole("button", { name: M.hideModels });
    expect(hide).toHaveAttribute("aria-expanded", "true");
    const texts = rowTexts();
    const at = texts.findIndex((t) => t.includes("Torque"));
    expect(texts[at + 1]).toContain("M-100");
    expect(texts[at + 2]).toContain("M-200");
    expect(texts[at + 3]).toContain("Angle");

    await ue.click(hide);
    await waitFor(() => expect(screen.queryByText("M-100")).not.toBeInTheDocument());
  });

  it("keeps children under their parent when the grid is sorted", async () => {
    const ue = userEvent.setup();
    render(<CapLimitsLike />);
    for (const button of await screen.findAllByRole("button", { name: M.seeModels })) await ue.click(button);
    await screen.findByText("M-300");
    await ue.click(screen.getByRole("columnheader", { name: /Station/ }));
    await waitFor(() => expect(rowTexts()[0]).toContain("Angle"));
    // Descending by station: OP30, OP20 with its models, OP10 with its model.
    expect(rowTexts().map((t) => t.match(/Angle|Torque|Bore|M-\d00/)?.[0])).toEqual([
      "Angle",
      "Torque",
      "M-100",
      "M-200",
      "Bore",
      "M-300",
    ]);
  });

  it("is reached with the grid's arrow keys and toggles from the keyboard: Enter expands, Space collapses", async () => {
    const ue = userEvent.setup();
    render(<CapLimitsLike />);
    // From the first row's Station cell, the arrow key moves the grid's focus onto the toggle.
    await ue.click(await screen.findByRole("gridcell", { name: "OP10" }));
    await ue.keyboard("{ArrowLeft}");
    await waitFor(() => expect(document.activeElement?.getAttribute("aria-expanded")).toBe("false"));
    await ue.keyboard("{Enter}");
    const hide = await screen.findByRole("button", { name: M.hideModels });
    expect(await screen.findByText("M-300")).toBeInTheDocument();
    hide.focus();
    await ue.keyboard(" ");
    await waitFor(() => expect(screen.queryByText("M-300")).not.toBeInTheDocument());
  });
});

// Shaped like ETQ Reliance (requirements.md settings §2.3): a line's row expands into its form.
type Config = { id: string; line: string; apiHost: string };
function EtqLike() {
  const [configs, setConfigs] = useState<Config[]>([
    { id: "l1", line: "Axle", apiHost: "" },
    { id: "l2", line: "Brake", apiHost: "https://etq.example" },
  ]);
  const tree = useExpandableRows<Config>({ rows: configs, getId: (c) => c.id, hasDetail: true });
  const columns: SettingsColumn<FlatRow<Config, never>>[] = [
    expandColumn<Config, never>({
      tree,
      isIconOnly: true,
      label: (c, isExpanded) => `${isExpanded ? "Close" : "Edit"} ${c.line}`,
      renderDetail: (c) => (
        <ConfigForm
          config={c}
          onSave={(apiHost) => {
            setConfigs((cs) => cs.map((x) => (x.id === c.id ? { ...x, apiHost } : x)));
            tree.setExpanded(c.id, false);
          }}
          onCancel={() => tree.setExpanded(c.id, false)}
        />
      ),
    }),
    { field: "line", headerName: "Line", width: 140 },
    { field: "apiHost", headerName: "Reliance API Host", width: 240 },
  ];
  return (
    <SettingsGrid label="ETQ Reliance Integrations" emptyText="none" columns={columns} {...tree.gridProps} />
  );
}

function ConfigForm(p: { config: Config; onSave: (apiHost: string) => void; onCancel: () => void }) {
  const [apiHost, setApiHost] = useState(p.config.apiHost);
  return (
    <Stack direction="row" spacing={1}>
      <TextField
        size="small"
        label={`Reliance API Host of ${p.config.line}`}
        value={apiHost}
        onChange={(e) => setApiHost(e.target.value)}
      />
      <Button onClick={() => p.onSave(apiHost)}>Save</Button>
      <Button onClick={p.onCancel}>Cancel</Button>
    </Stack>
  );
}

describe("a row that expands into a form", { timeout: 30_000 }, () => {
  it("opens the form under its row, takes typing (arrows and space included), and closes on save", async () => {
    const ue = userEvent.setup();
    render(<EtqLike />);
    const toggle = await screen.findByRole("button", { name: "Edit Axle" });
    await ue.click(toggle);
    expect(screen.getByRole("button", { name: "Close Axle" })).toHaveAttribute("aria-expanded", "true");
    const host = await screen.findByRole("textbox", { name: "Reliance API Host of Axle" });
    const texts = rowTexts();
    expect(texts[0]).toContain("Axle");
    expect(texts[1]).toContain("Save");
    expect(texts[2]).toContain("Brake");

    await ue.type(host, "https://etq x{ArrowLeft}{Backspace}.test");
    expect(host).toHaveValue("https://etq.testx");
    await ue.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(screen.queryByRole("textbox")).not.toBeInTheDocument());
    expect(rowTexts()[0]).toContain("https://etq.testx");
    expect(screen.getByRole("button", { name: "Edit Axle" })).toHaveAttribute("aria-expanded", "false");
  });
});
