import type { TFeatureFlags, TLine } from "@linewatch/contracts";
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from "react";
import type { TSelectableNode, TSelectGesture } from "../../signals/selection";
import {
  emptyPlacement,
  moveSignal,
  syncPlacement,
  type TContainer,
  type TPlacement,
  withCurrentAssociations,
} from "./associations";
import {
  ASSOCIABLE_TYPES,
  flattenManagementTree,
  managementStrategy,
  readRemembered,
  remember,
  searchManagementTree,
  selectablePredicate,
  type TManagementIndex,
  type TTreeMode,
} from "./signal-management.tree";

const NOTHING: ReadonlySet<string> = new Set();
const flip = (set: ReadonlySet<string>, key: string) => {
  const next = new Set(set);
  if (!next.delete(key)) next.add(key);
  return next;
};

/**
 * The left pane's state (requirements.md settings §2.8 "Tree behaviour"): search, open stations, the selected
 * signals or the station being configured, the mode (default, association, classification) and the
 * association containers that follow the selection; the remembered line and signal.
 */
export function useManagementTree(p: {
  index: TManagementIndex;
  flags: Partial<TFeatureFlags> | undefined;
  lines: TLine[];
  lineId: string | null;
  setLineId: (id: string) => void;
}) {
  const { index, flags, lines, lineId, setLineId } = p;
  const [query, setQuery] = useState("");
  const deferredQuery = useDeferredValue(query);
  const match = useMemo(() => searchManagementTree(index, deferredQuery), [index, deferredQuery]);
  const [toggled, setToggled] = useState<ReadonlySet<string>>(NOTHING);
  const rows = useMemo(() => flattenManagementTree(match, toggled), [match, toggled]);

  const [selection, setSelection] = useState<string[]>([]);
  const [stationId, setStationId] = useState<string | null>(null);
  const [mode, setMode] = useState<TTreeMode>("default");
  const [placement, setPlacement] = useState<TPlacement>(emptyPlacement);
  const anchor = useRef<string | null>(null);

  // The remembered line and signal (requirements.md settings §2.8), once: the line when the plant's lines are known,
  // the signal when that line's signals are.
  const remembered = useRef(readRemembered());
  useEffect(() => {
    const r = remembered.current;
    if (!r.lineId || lines.length === 0) return;
    if (lines.some((l) => l.id === r.lineId)) setLineId(r.lineId);
    // A line of another plant: neither it nor its signal applies here.
    else r.signalId = null;
    r.lineId = null;
  }, [lines, setLineId]);
  useEffect(() => {
    const r = remembered.current;
    if (r.signalId && index.signalById.has(r.signalId)) {
      setSelection([r.signalId]);
      anchor.current = r.signalId;
      r.signalId = null;
    }
  }, [index]);
  useEffect(() => {
    if (lineId && !remembered.current.lineId) remember(lineId, selection[0] ?? null);
  }, [lineId, selection]);

  const selected = useMemo(
    () => selection.flatMap((id) => index.signalById.get(id) ?? []),
    [selection, index],
  );
  const selectedSet = useMemo(() => new Set(selection), [selection]);
  const station = stationId ? (index.stationById.get(stationId) ?? null) : null;

  // A line change clears the selection and resets the query and node filter (requirements.md settings §2.8).
  const changeLine = (id: string) => {
    if (id === lineId) return;
    setLineId(id);
    setSelection([]);
    setStationId(null);
    setMode("default");
    setPlacement(emptyPlacement());
    setQuery("");
    setToggled(NOTHING);
    anchor.current = null;
  };

  const isSelectable = useMemo(() => selectablePredicate(mode, index.signalById), [mode, index]);
  const order = useMemo(
    () =>
      mode === "association"
        ? index.order.filter((id) => isSelectable({ kind: "signal", id }) === true)
        : index.order,
    [mode, index, isSelectable],
  );
  const multiselectTree = flags?.multiselectTree ?? false;
  const shiftSelect = flags?.shiftSelect ?? false;
  const handleSelect = useCallback(
    (node: TSelectableNode, gesture: TSelectGesture) => {
      if (mode === "classification" || node.kind !== "signal") return;
      const strategy = managementStrategy({ multiselectTree, shiftSelect });
      setSelection((sel) => {
        const next = strategy({ signal_uuids: sel, signal_group_uuids: [] }, node, {
          gesture,
          anchor: anchor.current,
          order,
        }).signal_uuids;
        if (mode === "association") setPlacement((p) => syncPlacement(p, next, index.signalById));
        return next;
      });
      if (!gesture.shiftKey) anchor.current = node.id;
      setStationId(null);
    },
    [mode, multiselectTree, shiftSelect, order, index],
  );
  const handleToggleOpen = useCallback((key: string) => setToggled((s) => flip(s, key)), []);
  const handleConfigureStation = useCallback((s: { id: string }) => {
    setStationId(s.id);
    setSelection([]);
  }, []);

  /** Association editing starts from the selection and what its measurements are associated with. */
  const startAssociations = () => {
    const shown = withCurrentAssociations(selection, index.signalById).filter((id) =>
      ASSOCIABLE_TYPES.has(index.signalById.get(id)?.entityType ?? "UNKNOWN"),
    );
    setSelection(shown);
    setPlacement(syncPlacement(emptyPlacement(), shown, index.signalById));
    setMode("association");
  };
  const handleMove = (id: string, to: TContainer) => setPlacement((pl) => moveSignal(pl, id, to));

  return {
    startAssociations,
    handleMove,
    query,
    setQuery,
    match,
    rows,
    selection,
    setSelection,
    selected,
    selectedSet,
    station,
    stationId,
    mode,
    setMode,
    placement,
    setPlacement,
    isSelectable,
    changeLine,
    handleSelect,
    handleToggleOpen,
    handleConfigureStation,
  };
}
