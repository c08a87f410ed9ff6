import { Box } from "@mui/material";
import { useVirtualizer } from "@tanstack/react-virtual";
import {
  type KeyboardEvent,
  type ReactNode,
  type Ref,
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import {
  everyNodeSelectable,
  type TSelectableNode,
  type TSelectablePredicate,
  type TSelectGesture,
} from "../selection";
import { parentRowIndex, SIGNAL_TREE_TEXT, type TTreeRow } from "../signal-tree";
import { ROW_HEIGHT, SignalTreeRow } from "./SignalTreeRow";

export type SignalTreeHandle = { focusActiveRow: () => void };

export type SignalTreeProps = {
  rows: TTreeRow[];
  /** Several nodes may be chosen (checkboxes, aria-multiselectable) or one (radio buttons). */
  multiselectable: boolean;
  readOnly: boolean;
  selectedSignals: ReadonlySet<string>;
  selectedGroups: ReadonlySet<string>;
  /** Which nodes may be chosen; a string says why not (the row's tooltip). Default: every node. */
  isSelectable?: TSelectablePredicate;
  /** A node was chosen (click, Space or Enter) with these modifier keys; a selection strategy decides. */
  onSelect: (node: TSelectableNode, gesture: TSelectGesture) => void;
  onToggleOpen: (key: string) => void;
  /** Row slots after the text: chips and actions (keep them stable: rows are memoised). */
  renderChips?: (row: TTreeRow) => ReactNode;
  renderActions?: (row: TTreeRow) => ReactNode;
  handleRef?: Ref<SignalTreeHandle>;
};

/** The node a row stands for, when it is one that can be chosen. */
export const nodeOfRow = (row: TTreeRow): TSelectableNode | null =>
  row.kind === "signal"
    ? { kind: "signal", id: row.signal.id }
    : row.kind === "group"
      ? { kind: "group", id: row.group.signalGroupUuid }
      : null;

const PAGE_ROWS = 10;
/** Room a row keeps at its right for the actions laid over it (px). */
const ACTIONS_WIDTH = 170;

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
  const activate = useCallback((row: TTreeRow, gesture: TSelectGesture) => {
    const cur = latest.current;
    const node = nodeOfRow(row);
    if (node) {
      const isChosen = (node.kind === "signal" ? cur.selectedSignals : cur.selectedGroups).has(node.id);
      const verdict = (cur.isSelectable ?? everyNodeSelectable)(node);
      if (!cur.readOnly && (verdict === true || isChosen)) cur.onSelect(node, gesture);
      // A group that cannot be chosen opens and closes instead.
      else if (row.kind === "group") cur.onToggleOpen(row.key);
    } else if (row.kind === "section" || row.kind === "station") cur.onToggleOpen(row.key);
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
        activate(row, { shiftKey: e.shiftKey, ctrlKey: e.ctrlKey, metaKey: e.metaKey });
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  // Actions (buttons) are not part of a tree item: they lie over their rows in a layer of their
  // own, in the Tab order after the tree, and a row keeps room for them.
  const actionsOf = (row: TTreeRow) => p.renderActions?.(row) ?? null;
  return (
    <Box ref={scrollRef} sx={{ flex: "1 1 0", minHeight: 0, overflow: "auto", position: "relative" }}>
      <Box
        role="tree"
        aria-label={SIGNAL_TREE_TEXT.treeLabel}
        aria-multiselectable={p.multiselectable ? true : undefined}
        onKeyDown={handleKeyDown}
        sx={{ height: virtualizer.getTotalSize(), position: "relative", width: "100%" }}
      >
        {items.map((v) => {
          const row = rows[v.index] as TTreeRow;
          const node = nodeOfRow(row);
          let selected: boolean | undefined;
          let selectable = false;
          let verdict: boolean | string = false;
          if (node) {
            const isChosen = (node.kind === "signal" ? p.selectedSignals : p.selectedGroups).has(node.id);
            verdict = (p.isSelectable ?? everyNodeSelectable)(node);
            // A signal always shows whether it is chosen; a group only when it could be.
            selected = node.kind === "signal" || verdict === true || isChosen ? isChosen : undefined;
            selectable = !p.readOnly && (verdict === true || isChosen);
          }
          return (
            <SignalTreeRow
              key={v.key}
              row={row}
              index={v.index}
              start={v.start}
              selected={selected}
              selectable={selectable}
              verdict={verdict}
              multiselectable={p.multiselectable}
              tabbable={v.index === tabbableIndex}
              onActivate={activate}
              onToggleOpen={onToggleOpen}
              onFocusRow={handleFocusRow}
              renderChips={p.renderChips}
              actionsWidth={actionsOf(row) !== null ? ACTIONS_WIDTH : undefined}
            />
          );
        })}
      </Box>
      {p.renderActions ? (
        <Box sx={{ position: "absolute", top: 0, left: 0, width: "100%", height: 0 }}>
          {items.map((v) => {
            const actions = actionsOf(rows[v.index] as TTreeRow);
            return actions === null ? null : (
              <Box
                key={v.key}
                sx={{
                  position: "absolute",
                  top: 0,
                  right: 8,
                  height: ROW_HEIGHT,
                  transform: `translateY(${v.start}px)`,
                  display: "flex",
                  alignItems: "center",
                }}
              >
                {actions}
              </Box>
            );
          })}
        </Box>
      ) : null}
    </Box>
  );
}
