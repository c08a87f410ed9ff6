import { SETTINGS_KIT_MESSAGES as M } from "@linewatch/contracts";
import { Button } from "@mui/material";
import { cleanup, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useMemo, useState } from "react";
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
import { inlineEditColumn } from "./InlineEditCell";
import { InlineEditGrid, inlineEditActions, UnsavedChip } from "./InlineEditGrid";
import type { SettingsColumn } from "./settings-grid";
import { useExpandableRows } from "./useExpandableRows";
import { type InlineRowEditOptions, UNSAVED_ROW_CLASS, useInlineRowEdit } from "./useInlineRowEdit";

beforeAll(() => installResizeObserver());
afterEach(cleanup);

// A small grid shaped like Line Management's (requirements.md settings §2.9, §5 "Inline threshold edit").
type Row = { id: string; name: string; thresholdHours: number | null; windowDays: number };
const ROWS: Row[] = [
  { id: "l1", name: "Axle", thresholdHours: 12, windowDays: 7 },
  { id: "l2", name: "Brake", thresholdHours: null, windowDays: 30 },
];

const validateThreshold = (text: string) => {
  if (text.trim() === "") return null;
  if (!/^-?\d+$/.test(text.trim())) return "Must be a whole number";
  const n = Number(text);
  if (n < 0) return "Must be greater than or equal to 0";
  if (n > 1_000_000) return "Must be less than or equal to 1000000";
  return null;
};
const validateDays = (text: string) => {
  const n = Number(text);
  return /^\d+$/.test(text.trim()) && n >= 1 && n <= 90 ? null : "Must be between 1 and 90";
};

function Harness(p: Omit<InlineRowEditOptions<Row>, "onCancel"> & { onRows?: (rows: Row[]) => void }) {
  const [rows, setRows] = useState(ROWS);
  const edit = useInlineRowEdit<Row>({
    ...p,
    onSave: p.collect
      ? undefined
      : async (row, previous) => {
          const saved = (await p.onSave?.(row, previous)) ?? row;
          setRows((rs) => rs.map((r) => (r.id === saved.id ? saved : r)));
          return saved;
        },
  });
  const columns: SettingsColumn<Row>[] = [
    { field: "name", headerName: "Name", flex: 1 },
    inlineEditColumn<Row>({
      field: "thresholdHours",
      headerName: "Ingestion Alert Threshold",
      width: 220,
      validate: validateThreshold,
      parse: (t) => (t.trim() === "" ? null : Number(t)),
      inputLabel: (r) => `Ingestion Alert Threshold of ${r.name}`,
      inputMode: "numeric",
    }),
    inlineEditColumn<Row>({
      field: "windowDays",
      headerName: "Overview Alert Filter",
      width: 220,
      validate: validateDays,
      parse: Number,
      inputLabel: (r) => `Overview Alert Filter of ${r.name}`,
    }),
    {
      field: "actions",
      type: "actions",
      width: 120,
      getActions: ({ row }) => inlineEditActions(edit, row.id, { name: row.name, field: "thresholdHours" }),
    },
  ];
  const shown = edit.withUnsaved(rows);
  return (
    <>
      <Button disabled={!edit.isDirty} onClick={() => edit.clearUnsaved()}>
        Discard Changes
      </Button>
      <InlineEditGrid edit={edit} label="Lines" emptyText="No lines" rows={shown} columns={columns} />
    </>
  );
}

const rowOf = (name: string) => {
  const row = screen
    .getAllByRole("row")
    .find((r) => r.querySelector('[role="gridcell"]') && r.textContent?.includes(name));
  if (!row) throw new Error(`no row ${name}`);
  return row;
};

function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("inline row editing", { timeout: 30_000 }, () => {
  it("keeps an invalid field open with its message under it, and Enter saves once it is valid", async () => {
    const saved: Row[] = [];
    const ue = userEvent.setup();
    render(<Harness onSave={(row) => void saved.push(row)} />);
    await ue.click(await screen.findByRole("button", { name: `${M.edit} Axle` }));
    const days = await screen.findByRole("textbox", { name: "Overview Alert Filter of Axle" });
    await ue.clear(days);
    await ue.type(days, "91");
    expect(await screen.findByText("Must be between 1 and 90")).toBeInTheDocument();
    expect(days).toHaveAttribute("aria-invalid", "true");
    await ue.keyboard("{Enter}");
    await ue.click(screen.getByRole("button", { name: `${M.save} Axle` }));
    expect(saved).toEqual([]);
    expect(screen.getByRole("textbox", { name: "Overview Alert Filter of Axle" })).toBeInTheDocument();

    const threshold = screen.getByRole("textbox", { name: "Ingestion Alert Threshold of Axle" });
    await ue.clear(threshold);
    expect(screen.queryByText("Must be a whole number")).not.toBeInTheDocument();
    await ue.clear(days);
    await ue.type(days, "14{Enter}");
    await waitFor(() => expect(saved).toHaveLength(1));
    // Empty is allowed for the threshold and stored as nothing; the days as a number.
    expect(saved[0]).toMatchObject({ id: "l1", thresholdHours: null, windowDays: 14 });
    await waitFor(() => expect(screen.queryByRole("textbox")).not.toBeInTheDocument());
    expect(rowOf("Axle")).toHaveTextContent("14");
  });

  it("Escape and Cancel drop what was typed; only one row is in edit at a time", async () => {
    const ue = userEvent.setup();
    render(<Harness onSave={() => undefined} />);
    await ue.click(await screen.findByRole("button", { name: `${M.edit} Axle` }));
    expect(screen.getByRole("button", { name: `${M.edit} Brake` })).toBeDisabled();
    const threshold = await screen.findByRole("textbox", { name: "Ingestion Alert Threshold of Axle" });
    await waitFor(() => expect(document.activeElement).toBe(threshold));
    await ue.type(threshold, "5");
    await ue.keyboard("{Escape}");
    await waitFor(() => expect(screen.queryByRole("textbox")).not.toBeInTheDocument());
    expect(rowOf("Axle")).toHaveTextContent("12");

    await ue.click(screen.getByRole("button", { name: `${M.edit} Brake` }));
    await ue.type(await screen.findByRole("textbox", { name: "Ingestion Alert Threshold of Brake" }), "8");
    await ue.click(screen.getByRole("button", { name: `${M.cancel} Brake` }));
    await waitFor(() => expect(screen.queryByRole("textbox")).not.toBeInTheDocument());
    expect(rowOf("Brake").textContent).not.toContain("8");
  });

  it("is pending while the save runs, then keeps the server's message under the field with what was typed", async () => {
    let pending = deferred<Row | undefined>();
    const ue = userEvent.setup();
    render(
      <Harness
        onSave={() => pending.promise}
        fieldErrorOf={(e) => ({ field: "thresholdHours", message: (e as Error).message })}
      />,
    );
    await ue.click(await screen.findByRole("button", { name: `${M.edit} Axle` }));
    const threshold = await screen.findByRole("textbox", { name: "Ingestion Alert Threshold of Axle" });
    await ue.clear(threshold);
    await ue.type(threshold, "48");
    await ue.click(screen.getByRole("button", { name: `${M.save} Axle` }));
    await waitFor(() => expect(threshold).toBeDisabled());
    expect(screen.getByRole("button", { name: `${M.cancel} Axle` })).toBeDisabled();

    pending.reject(new Error("Unable to find the line"));
    expect(await screen.findByText("Unable to find the line")).toBeInTheDocument();
    const again = screen.getByRole("textbox", {
      name: "Ingestion Alert Threshold of Axle",
    }) as HTMLInputElement;
    await waitFor(() => expect(again).not.toBeDisabled());
    expect(again).toHaveValue("48");

    // Typing again clears the server's message; a save that succeeds closes the row.
    await ue.type(again, "0");
    expect(screen.queryByText("Unable to find the line")).not.toBeInTheDocument();
    pending = deferred<Row | undefined>();
    await ue.click(screen.getByRole("button", { name: `${M.save} Axle` }));
    pending.resolve(undefined);
    await waitFor(() => expect(screen.queryByRole("textbox")).not.toBeInTheDocument());
    expect(rowOf("Axle")).toHaveTextContent("480");
  });

  it("collects saved rows as unsaved until the page saves or discards them", async () => {
    const ue = userEvent.setup();
    render(<Harness collect />);
    await ue.click(await screen.findByRole("button", { name: `${M.edit} Brake` }));
    await ue.type(
      await screen.findByRole("textbox", { name: "Ingestion Alert Threshold of Brake" }),
      "6{Enter}",
    );
    await waitFor(() => expect(rowOf("Brake").classList.contains(UNSAVED_ROW_CLASS)).toBe(true));
    expect(rowOf("Brake")).toHaveTextContent("6");
    expect(rowOf("Axle").classList.contains(UNSAVED_ROW_CLASS)).toBe(false);

    await ue.click(screen.getByRole("button", { name: "Discard Changes" }));
    await waitFor(() => expect(rowOf("Brake").classList.contains(UNSAVED_ROW_CLASS)).toBe(false));
    expect(within(rowOf("Brake")).queryByText("6")).not.toBeInTheDocument();
  });
});

// Cap Limits (requirements.md settings §2.5, §4 "SPC limits"): a signal expands into its models, whose limit
// cells are edited in place and wait, marked, for Save Changes.
function CapLimitsLike({ onSaveChanges }: { onSaveChanges: (changes: unknown[]) => void }) {
  const tree = useExpandableRows<Signal, Model>({ rows: capSignals, ...capSignalTree });
  const edit = useInlineRowEdit<FlatRow<Signal, Model>>({ collect: true });
  const columns: SettingsColumn<FlatRow<Signal, Model>>[] = [
    expandColumn<Signal, Model>({
      tree,
      label: (_s, isExpanded) => (isExpanded ? M.hideModels : M.seeModels),
    }),
    { field: "signal", headerName: "Signal", width: 120 },
    { field: "model", headerName: "Model", width: 120 },
    inlineEditColumn<FlatRow<Signal, Model>>({
      field: "lsl",
      headerName: "LSL",
      width: 160,
      validate: (t) => (t.trim() === "" || Number.isFinite(Number(t)) ? null : "Must be a number"),
      parse: (t) => (t.trim() === "" ? null : Number(t)),
      inputLabel: (r) => `LSL of ${"model" in r ? r.model : ""}`,
    }),
    {
      field: "state",
      headerName: "",
      width: 120,
      renderCell: ({ row }) => <UnsavedChip edit={edit} id={row.id} />,
    },
  ];
  const rows = useMemo(() => edit.withUnsaved(tree.rows), [edit.withUnsaved, tree.rows]);
  return (
    <>
      <Button
        disabled={edit.unsaved.size === 0}
        onClick={() => {
          onSaveChanges([...edit.unsaved.entries()]);
          edit.clearUnsaved();
        }}
      >
        Save Changes
      </Button>
      <InlineEditGrid
        edit={edit}
        label="Cap Limits"
        emptyText="No signals"
        columns={columns}
        {...tree.gridProps}
        rows={rows}
        isCellEditable={(p) => p.row.__row.kind === "child"}
      />
    </>
  );
}

describe("inline editing in expanded rows", { timeout: 30_000 }, () => {
  it("edits a model's limit in place, marks its row unsaved and hands the changes to Save Changes", async () => {
    const sent: unknown[][] = [];
    const ue = userEvent.setup();
    render(<CapLimitsLike onSaveChanges={(c) => sent.push(c)} />);
    await ue.click(within(rowOf("Torque")).getByRole("button", { name: M.seeModels }));
    await ue.dblClick(await screen.findByRole("gridcell", { name: "1" }));
    const lsl = await screen.findByRole("textbox", { name: "LSL of M-100" });
    await ue.clear(lsl);
    await ue.type(lsl, "0.5{Enter}");
    await waitFor(() => expect(rowOf("M-100").classList.contains(UNSAVED_ROW_CLASS)).toBe(true));
    expect(rowOf("M-100")).toHaveTextContent("0.5");
    expect(within(rowOf("M-100")).getByText(M.unsaved)).toBeInTheDocument();
    expect(rowOf("Torque").classList.contains(UNSAVED_ROW_CLASS)).toBe(false);

    await ue.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(sent).toEqual([[["s1::0", { lsl: 0.5 }]]]);
    await waitFor(() => expect(rowOf("M-100").classList.contains(UNSAVED_ROW_CLASS)).toBe(false));
  });
});
