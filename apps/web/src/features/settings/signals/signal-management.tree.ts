import { SIGNAL_MANAGEMENT_TEXT as TEXT, type TSignal, type TStation } from "@linewatch/contracts";
import {
  ctrlToggleStrategy,
  type TSelectablePredicate,
  type TSelectionStrategy,
  withShiftRange,
} from "../../signals/selection";
import { isRowOpen, normaliseQuery, rowKey, type TTreeRow } from "../../signals/signal-tree";

// Signal Management's station/signal tree as pure data (requirements.md settings §2.8 "Tree behaviour"): every
// signal of the line whatever its type or status, searchable by station, name and friendly name,
// flattened into the rows the shared virtual tree (features/signals) draws.

type TItem = { signal: TSignal; search: string; row: TTreeRow };
type TIndexedStation = { station: TStation; search: string; items: TItem[] };
export type TManagementIndex = {
  stations: TIndexedStation[];
  signalById: Map<string, TSignal>;
  stationById: Map<string, TStation>;
  /** Every signal id in tree order, station by station (shift ranges run along it). */
  order: string[];
};

export function buildManagementIndex(stations: TStation[]): TManagementIndex {
  const signalById = new Map<string, TSignal>();
  const order: string[] = [];
  const indexed = stations.map((station) => ({
    station,
    search: station.name.toLowerCase(),
    items: station.signals.map((signal) => {
      signalById.set(signal.id, signal);
      order.push(signal.id);
      return {
        signal,
        // NUL between the names: a query never matches across them.
        search: `${signal.name}\u0000${signal.friendlyName ?? ""}`.toLowerCase(),
        row: { kind: "signal", key: `signal:${signal.id}`, level: 3, signal } as TTreeRow,
      };
    }),
  }));
  return { stations: indexed, signalById, stationById: new Map(stations.map((s) => [s.id, s])), order };
}

export type TManagementMatch = { query: string; stations: { station: TIndexedStation; items: TItem[] }[] };

/** A station whose name matches keeps all its signals; otherwise only its matching signals. */
export function searchManagementTree(index: TManagementIndex, rawQuery: string): TManagementMatch {
  const query = normaliseQuery(rawQuery);
  if (query === "")
    return { query, stations: index.stations.map((station) => ({ station, items: station.items })) };
  const out: TManagementMatch["stations"] = [];
  for (const station of index.stations) {
    if (station.search.includes(query)) out.push({ station, items: station.items });
    else {
      const items = station.items.filter((i) => i.search.includes(query));
      if (items.length > 0) out.push({ station, items });
    }
  }
  return { query, stations: out };
}

/** Station rows, and the signal rows of the open ones (stations start open). */
export function flattenManagementTree(match: TManagementMatch, toggled: ReadonlySet<string>): TTreeRow[] {
  const rows: TTreeRow[] = [];
  for (const { station, items } of match.stations) {
    const key = rowKey.station(station.station.id);
    const open = isRowOpen(key, toggled);
    rows.push({ kind: "station", key, level: 2, station: station.station, count: items.length, open });
    if (!open) continue;
    for (const item of items) rows.push(item.row);
    if (items.length === 0) rows.push({ kind: "empty", key: `empty:${key}`, level: 3, text: TEXT.noSignals });
  }
  return rows;
}

// ── Selection modes (requirements.md settings §2.8, §6 multiselect tree and shift select) ────────────────────────

/** Entity types that take part in associations (a measurement with its limits and result). */
export const ASSOCIABLE_TYPES = new Set(["MEASUREMENT", "RESULT", "UPPER_LIMIT", "LOWER_LIMIT"]);
export type TTreeMode = "default" | "association" | "classification";

/** Which signals may be chosen in a mode; a string is the row's tooltip. */
export function selectablePredicate(
  mode: TTreeMode,
  signalById: ReadonlyMap<string, TSignal>,
): TSelectablePredicate {
  if (mode === "classification") return () => TEXT.lockedWhileClassifications;
  if (mode === "association")
    return (node) => {
      const s = node.kind === "signal" ? signalById.get(node.id) : undefined;
      return s && ASSOCIABLE_TYPES.has(s.entityType) ? true : TEXT.onlyAssociable;
    };
  return () => true;
}

/** A plain click chooses the signal alone. */
const replaceStrategy: TSelectionStrategy = (_sel, node) =>
  node.kind === "signal"
    ? { signal_uuids: [node.id], signal_group_uuids: [] }
    : { signal_uuids: [], signal_group_uuids: [] };

/** With the multiselect flag ctrl / meta toggles; with the shift-select flag shift adds a range. */
export function managementStrategy(flags: {
  multiselectTree: boolean;
  shiftSelect: boolean;
}): TSelectionStrategy {
  const base = flags.multiselectTree ? ctrlToggleStrategy : replaceStrategy;
  return flags.shiftSelect ? withShiftRange(base) : base;
}

export { readRemembered, remember, SESSION_KEYS } from "../../signals/remembered";
