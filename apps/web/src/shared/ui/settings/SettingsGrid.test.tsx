import { GRID_ROW_HEIGHT, SETTINGS_KIT_MESSAGES } from "@linewatch/contracts";
import { act, cleanup, render, renderHook, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { installMatchMedia, installResizeObserver } from "../../../test/fixtures";
import { BusyOverlay } from "./BusyOverlay";
import { SettingsGrid } from "./SettingsGrid";
import { useDialogs } from "./useDialogs";
import { useDiscardGuard } from "./useDiscardGuard";

beforeAll(() => installResizeObserver());
afterEach(cleanup);

const columns = [{ field: "name", headerName: "Name", flex: 1 }];
const rows = [
  { id: "1", name: "Axle Assembly" },
  { id: "2", name: "Brake Module" },
];

describe("SettingsGrid", { timeout: 30_000 }, () => {
  it("shows its rows at the spec's row height under its accessible name", async () => {
    render(<SettingsGrid label="Lines" emptyText="No lines" rows={rows} columns={columns} />);
    const grid = screen.getByRole("grid", { name: "Lines" });
    expect(await within(grid).findByText("Axle Assembly")).toBeInTheDocument();
    const row = within(grid)
      .getAllByRole("row")
      .find((r) => r.textContent?.includes("Brake Module"));
    expect(row?.style.getPropertyValue("--height") || row?.style.maxHeight).toContain(
      String(GRID_ROW_HEIGHT),
    );
  });

  it("says its empty text with no rows, and 'Error Loading Data' instead of rows when the load failed", async () => {
    const { rerender } = render(
      <SettingsGrid label="Lines" emptyText="No lines" rows={[]} columns={columns} />,
    );
    expect(await screen.findByText("No lines")).toBeInTheDocument();
    rerender(<SettingsGrid label="Lines" emptyText="No lines" rows={rows} columns={columns} isError />);
    expect((await screen.findByRole("alert")).textContent).toBe(SETTINGS_KIT_MESSAGES.errorLoadingData);
    expect(screen.queryByText("Axle Assembly")).not.toBeInTheDocument();
  });

  it("on a tablet names each value's column beside it, for eyes only, and keeps the grid's cells", async () => {
    // Below md (900 px): MUI's down("md") query is "(max-width:899.95px)".
    const matchMedia = installMatchMedia((query) => query.includes("max-width:899.95px"));
    try {
      const twoColumns = [...columns, { field: "plant", headerName: "Plant", flex: 1 }];
      render(
        <SettingsGrid
          label="Lines"
          emptyText="No lines"
          rows={[{ id: "1", name: "Axle Assembly", plant: "Detroit Assembly" }]}
          columns={twoColumns}
        />,
      );
      const grid = screen.getByRole("grid", { name: "Lines" });
      const cell = await within(grid).findByRole("gridcell", { name: "Axle Assembly" });
      expect(cell.textContent).toBe("NameAxle Assembly");
      expect(within(cell).getByText("Name")).toHaveAttribute("aria-hidden", "true");
      expect(within(grid).getByRole("gridcell", { name: "Detroit Assembly" })).toBeInTheDocument();
      // The headers still sort.
      expect(
        within(grid)
          .getAllByRole("columnheader")
          .map((h) => h.textContent),
      ).toEqual(["Name", "Plant"]);
    } finally {
      window.matchMedia = matchMedia;
    }
  });
});

describe("BusyOverlay and useDialogs", () => {
  it("shows 'Saving...' while open", () => {
    const { rerender } = render(<BusyOverlay open={false} />);
    expect(screen.queryByText(SETTINGS_KIT_MESSAGES.saving)).not.toBeInTheDocument();
    rerender(<BusyOverlay open />);
    expect(screen.getByRole("status")).toHaveTextContent(SETTINGS_KIT_MESSAGES.saving);
  });

  it("keeps one dialog open at a time, with the data it was opened with", () => {
    const { result } = renderHook(() => useDialogs<{ delete: { id: string }; rotate: undefined }>());
    act(() => result.current.open("delete", { id: "u1" }));
    expect(result.current.isOpen("delete")).toBe(true);
    expect(result.current.data("delete")).toEqual({ id: "u1" });
    act(() => result.current.open("rotate", undefined));
    expect(result.current.isOpen("delete")).toBe(false);
    expect(result.current.data("delete")).toBeUndefined();
    act(() => result.current.close());
    expect(result.current.isOpen("rotate")).toBe(false);
  });

  it("keeps a closed dialog's data while it fades away, until another opens or it is forgotten", () => {
    const { result } = renderHook(() => useDialogs<{ delete: { id: string }; secret: string }>());
    act(() => result.current.open("delete", { id: "u1" }));
    act(() => result.current.close());
    expect(result.current.isOpen("delete")).toBe(false);
    expect(result.current.data("delete")).toEqual({ id: "u1" });
    // Forgetting another dialog, or an open one, keeps it.
    act(() => result.current.forget("secret"));
    expect(result.current.data("delete")).toEqual({ id: "u1" });
    act(() => result.current.forget("delete"));
    expect(result.current.data("delete")).toBeUndefined();

    act(() => result.current.open("secret", "lwm_x"));
    act(() => result.current.forget("secret"));
    expect(result.current.data("secret")).toBe("lwm_x");
    act(() => result.current.closeAndForget());
    expect(result.current.isOpen("secret")).toBe(false);
    expect(result.current.data("secret")).toBeUndefined();
  });
});

function Guarded({ isDirty, onLeave }: { isDirty: boolean; onLeave: () => void }) {
  const { guard, dialog } = useDiscardGuard(isDirty);
  return (
    <>
      <button type="button" onClick={() => guard(onLeave)}>
        Leave
      </button>
      {dialog}
    </>
  );
}

describe("useDiscardGuard", () => {
  it("leaves at once when nothing is unsaved, and asks first when something is", async () => {
    const left: string[] = [];
    const ue = userEvent.setup();
    const { rerender } = render(<Guarded isDirty={false} onLeave={() => left.push("clean")} />);
    await ue.click(screen.getByRole("button", { name: "Leave" }));
    expect(left).toEqual(["clean"]);
    rerender(<Guarded isDirty onLeave={() => left.push("dirty")} />);
    await ue.click(screen.getByRole("button", { name: "Leave" }));
    const dialog = await screen.findByRole("dialog", { name: SETTINGS_KIT_MESSAGES.discardTitle });
    expect(dialog).toHaveTextContent(SETTINGS_KIT_MESSAGES.discardText);
    await ue.click(within(dialog).getByRole("button", { name: SETTINGS_KIT_MESSAGES.discardContinue }));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(left).toEqual(["clean"]);
    await ue.click(screen.getByRole("button", { name: "Leave" }));
    await ue.click(await screen.findByRole("button", { name: SETTINGS_KIT_MESSAGES.discardExit }));
    expect(left).toEqual(["clean", "dirty"]);
  });
});
