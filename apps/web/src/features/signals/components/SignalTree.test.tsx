import { Chip, IconButton } from "@mui/material";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { installResizeObserver } from "../../../test/fixtures";
import { buildSignalTreeIndex, flattenSignalTree, type TTreeRow } from "../signal-tree";
import { buildGroup, buildStation, fixtureId } from "../signal-tree.fixtures";
import { SignalTree } from "./SignalTree";

// jsdom has no layout: give scroll containers a size and a ResizeObserver so the virtual tree draws rows.
installResizeObserver();
Object.defineProperty(HTMLElement.prototype, "clientHeight", { configurable: true, get: () => 432 });
Object.defineProperty(HTMLElement.prototype, "clientWidth", { configurable: true, get: () => 600 });

afterEach(cleanup);

const A = fixtureId(2, 1);
const B = fixtureId(2, 2);
const G = fixtureId(3, 1);
const index = buildSignalTreeIndex(
  [
    buildStation(fixtureId(1, 1), "OP10", [
      { id: A, name: "Torque" },
      { id: B, name: "Angle" },
    ]),
  ],
  [buildGroup(G, "Press checks", [A, B])],
);
const rows = flattenSignalTree(index, index.all, new Set());

function renderTree(over: Partial<Parameters<typeof SignalTree>[0]> = {}) {
  const onSelect = vi.fn();
  const onToggleOpen = vi.fn();
  render(
    <SignalTree
      rows={rows}
      multiselectable
      readOnly={false}
      selectedSignals={new Set()}
      selectedGroups={new Set()}
      onSelect={onSelect}
      onToggleOpen={onToggleOpen}
      {...over}
    />,
  );
  return { onSelect, onToggleOpen };
}

describe("SignalTree (general)", () => {
  it("hands a chosen node and its modifier keys to onSelect", () => {
    const { onSelect } = renderTree();
    fireEvent.click(screen.getByRole("treeitem", { name: "Angle" }), { shiftKey: true });
    expect(onSelect).toHaveBeenCalledWith(
      { kind: "signal", id: B },
      { shiftKey: true, ctrlKey: false, metaKey: false },
    );
    fireEvent.click(screen.getByRole("treeitem", { name: "Press checks" }), { ctrlKey: true });
    expect(onSelect).toHaveBeenLastCalledWith(
      { kind: "group", id: G },
      { shiftKey: false, ctrlKey: true, metaKey: false },
    );
  });

  it("refuses a node its predicate refuses, with the reason as the row's tooltip", () => {
    const { onSelect } = renderTree({ isSelectable: (n) => (n.id === A ? "Already monitored" : true) });
    const torque = screen.getByRole("treeitem", { name: "Torque" });
    expect(torque).toHaveAttribute("aria-disabled", "true");
    expect(torque).toHaveAttribute("title", "Already monitored");
    fireEvent.click(torque);
    expect(onSelect).not.toHaveBeenCalled();
  });

  it("draws the chips and actions slots of each row; an action does not choose the row", () => {
    const onAction = vi.fn();
    const { onSelect } = renderTree({
      renderChips: (row: TTreeRow) =>
        row.kind === "signal" ? <Chip size="small" label={`chip ${row.signal.name}`} /> : null,
      renderActions: (row: TTreeRow) =>
        row.kind === "signal" ? (
          <IconButton size="small" aria-label={`act on ${row.signal.name}`} onClick={onAction}>
            ·
          </IconButton>
        ) : null,
    });
    expect(screen.getByText("chip Torque")).toBeInTheDocument();
    fireEvent.click(screen.getByRole("button", { name: "act on Angle" }));
    expect(onAction).toHaveBeenCalledTimes(1);
    expect(onSelect).not.toHaveBeenCalled();
  });

  it("shows radio buttons, not aria-multiselectable, when one node may be chosen", () => {
    renderTree({ multiselectable: false });
    expect(screen.getByRole("tree")).not.toHaveAttribute("aria-multiselectable");
  });
});
