import type { TFormMonitorType } from "@linewatch/contracts";
import { Box } from "@mui/material";
import { useVirtualizer } from "@tanstack/react-virtual";
import {
  type KeyboardEvent,
  type Ref,
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { canSelectGroups, parentRowIndex, SIGNAL_TREE_TEXT, type TTreeRow } from "../signal-tree";
import { ROW_HEIGHT, SignalTreeRow } from "./SignalTreeRow";

export type SignalTreeHandle = { focusActiveRow: () => void };

export type SignalTreeProps = {
  rows: TTreeRow[];
  type: TFormMonitorType;
  readOnly: boolean;
  selectedSignals: ReadonlySet<string>;
  selectedGroups: ReadonlySet<string>;
  onToggleSignal: (id: string) => void;
  onToggleGroup: (id: string) => void;
  onToggleOpen: (key: string) => void;
  handleRef?: Ref<SignalTreeHandle>;
};

const PAGE_ROWS = 10;

/**
 * The stations/groups tree as one virtual list of rows (only the rows in view are in the DOM).
 * Keyboard: one row is in the Tab order (the active one, or the first in view); arrow keys move,
 * Right/Left open and close (Left from a child goes to its parent), Home/End/PageUp/PageDown jump,
 * Space/Enter chooses a signal or group, or opens a station.
 */
export function SignalTree(p: SignalTreeProps) {
  const { rows, onToggleOpen } = p;
  const scrollRef = useRef<HTMLDivElement>(null);
  const [activeKey, setActiveKey] = useState<string | null>(null);
  const focusPending = useRef(false);
  const found = activeKey === null ? -1 : rows.findIndex((r) => r.key === activeKey);
  const activeIndex = found < 0 ? 0 : found;

  const getItemKey = useCallback((i: number) => rows[i]?.key ?? i, [rows]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    getItemKey,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const tabbableIndex = items.some((v) => v.index === activeIndex) ? activeIndex : (items[0]?.index ?? -1);

  // Move the focus once the row the keyboard went to is drawn (scrolling draws it a frame later).
  useEffect(() => {
    if (!focusPending.current) return;
    const el = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${activeIndex}"]`);
    if (el) {
      focusPending.current = false;
      el.focus({ preventScroll: true });
    }
  });

  const moveTo = (i: number) => {
    if (rows.length === 0) return;
    const n = Math.max(0, Math.min(rows.length - 1, i));
    setActiveKey(rows[n]?.key ?? null);
    focusPending.current = true;
    virtualizer.scrollToIndex(n, { align: "auto" });
  };

  useImperativeHandle(p.handleRef, () => ({ focusActiveRow: () => moveTo(activeIndex) }));

  // The latest props, read by the row callbacks so those stay the same between renders (rows are memo).
  const latest = useRef(p);
  useLayoutEffect(() => {
    latest.current = p;
  });
  const activate = useCallback((row: TTreeRow) => {
    const { readOnly, type, selectedGroups } = latest.current;
    if (row.kind === "signal") {
      if (!readOnly) latest.current.onToggleSignal(row.signal.id);
    } else if (row.kind === "group") {
      const id = row.group.signalGroupUuid;
      if (!readOnly && (canSelectGroups(type) || selectedGroups.has(id))) latest.current.onToggleGroup(id);
      else latest.current.onToggleOpen(row.key);
    } else if (row.kind === "section" || row.kind === "station") latest.current.onToggleOpen(row.key);
  }, []);
  const handleFocusRow = useCallback((key: string) => setActiveKey(key), []);

  const handleKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const row = rows[activeIndex];
    if (!row) return;
    const open = "open" in row ? row.open : undefined;
    switch (e.key) {
      case "ArrowDown":
        moveTo(activeIndex + 1);
        break;
      case "ArrowUp":
        moveTo(activeIndex - 1);
        break;
      case "Home":
        moveTo(0);
        break;
      case "End":
        moveTo(rows.length - 1);
        break;
      case "PageDown":
        moveTo(activeIndex + PAGE_ROWS);
        break;
      case "PageUp":
        moveTo(activeIndex - PAGE_ROWS);
        break;
      case "ArrowRight":
        if (open === false) onToggleOpen(row.key);
        else if (open === true) moveTo(activeIndex + 1);
        break;
      case "ArrowLeft":
        if (open === true) onToggleOpen(row.key);
        else moveTo(parentRowIndex(rows, activeIndex));
        break;
      case "Enter":
      case " ":
        activate(row);
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  return (
    <Box
      ref={scrollRef}
      role="tree"
      aria-label={SIGNAL_TREE_TEXT.treeLabel}
      aria-multiselectable={p.type === "mvd" ? true : undefined}
      onKeyDown={handleKeyDown}
      sx={{ flex: "1 1 0", minHeight: 0, overflow: "auto", position: "relative" }}
    >
      <Box sx={{ height: virtualizer.getTotalSize(), position: "relative", width: "100%" }}>
        {items.map((v) => {
          const row = rows[v.index] as TTreeRow;
          let selected: boolean | undefined;
          let selectable = false;
          if (row.kind === "signal") {
            selected = p.selectedSignals.has(row.signal.id);
            selectable = !p.readOnly;
          } else if (row.kind === "group") {
            const isChosen = p.selectedGroups.has(row.group.signalGroupUuid);
            selected = canSelectGroups(p.type) || isChosen ? isChosen : undefined;
            selectable = !p.readOnly && (canSelectGroups(p.type) || isChosen);
          }
          return (
            <SignalTreeRow
              key={v.key}
              row={row}
              index={v.index}
              start={v.start}
              selected={selected}
              selectable={selectable}
              type={p.type}
              tabbable={v.index === tabbableIndex}
              onActivate={activate}
              onToggleOpen={onToggleOpen}
              onFocusRow={handleFocusRow}
            />
          );
        })}
      </Box>
    </Box>
  );
}
