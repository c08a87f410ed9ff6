import type { TFormMonitorType, TSignal, TSignalGroup, TStation } from "@linewatch/contracts";
import { singleStrategy, type TSignalSelection, toggleStrategy } from "./selection";

// The signal tree as pure data (requirements.md monitor-forms §2 "Signals tab", §5 "Signal selection"):
// an index built once per data load, the search over it, the flattened rows the virtualised list
// draws, and the selection rules. Nothing here touches React, so the benchmark runs it as is.

/** Only measurements can be monitored (the server refuses any other entity type). */
export const isSelectableSignal = (s: Pick<TSignal, "entityType">) => s.entityType === "MEASUREMENT";

/** A signal's name as the tree shows it: the friendly name when it has one. */
export const signalLabel = (s: Pick<TSignal, "name" | "friendlyName">) => s.friendlyName?.trim() || s.name;

/** A measurement (selectable) or a part attribute (listed: it is filtered in Data Filters). */
export type TTreeItemKind = "signal" | "attribute";
/** `row` is the item's tree row, made once: a keystroke then allocates only the station rows. */
export type TIndexedItem = { kind: TTreeItemKind; signal: TSignal; search: string; row: TTreeRow };
export type TIndexedStation = { station: TStation; search: string; items: TIndexedItem[] };
export type TIndexedGroup = { group: TSignalGroup; search: string };

export type TSignalTreeIndex = {
  stations: TIndexedStation[];
  groups: TIndexedGroup[];
  /** Every active signal of the line, whatever its type (group members and selections resolve here). */
  signalById: Map<string, TSignal>;
  groupById: Map<string, TSignalGroup>;
  /** The match of an empty search: everything, built once. */
  all: TTreeMatch;
};

export type TTreeMatch = {
  query: string;
  stations: { station: TIndexedStation; items: readonly TIndexedItem[] }[];
  groups: TIndexedGroup[];
};

const itemKind = (s: TSignal): TTreeItemKind | null =>
  s.entityType === "MEASUREMENT" ? "signal" : s.entityType === "PART_ATTRIBUTE" ? "attribute" : null;

/**
 * The lowercase search keys are computed here, once per load of the line's signals and groups, so
 * a keystroke only runs `includes` over prepared strings. Limits, results, component ids, units and
 * unknown signals are left out of the tree: they cannot be monitored and belong to a measurement.
 */
export function buildSignalTreeIndex(stations: TStation[], groups: TSignalGroup[]): TSignalTreeIndex {
  const signalById = new Map<string, TSignal>();
  const indexed: TIndexedStation[] = stations.map((station) => {
    const items: TIndexedItem[] = [];
    for (const signal of station.signals) {
      signalById.set(signal.id, signal);
      const kind = itemKind(signal);
      if (!kind) continue;
      // NUL between the two names: a query never matches across them.
      items.push({
        kind,
        signal,
        search: `${signal.name}\u0000${signal.friendlyName ?? ""}`.toLowerCase(),
        row: { kind, key: `${kind}:${signal.id}`, level: 3, signal },
      });
    }
    return { station, search: station.name.toLowerCase(), items };
  });
  const indexedGroups = groups.map((group) => ({ group, search: group.signalGroupName.toLowerCase() }));
  return {
    stations: indexed,
    groups: indexedGroups,
    signalById,
    groupById: new Map(groups.map((g) => [g.signalGroupUuid, g])),
    all: {
      query: "",
      stations: indexed.map((station) => ({ station, items: station.items })),
      groups: indexedGroups,
    },
  };
}

export const normaliseQuery = (q: string) => q.trim().toLowerCase();

/**
 * Stations, signals (name or friendly name), part attributes and groups containing the query. A
 * station whose name matches keeps all its items; otherwise it appears with its matching items only.
 */
export function searchSignalTree(index: TSignalTreeIndex, rawQuery: string): TTreeMatch {
  const query = normaliseQuery(rawQuery);
  if (query === "") return index.all;
  const stations: TTreeMatch["stations"] = [];
  for (const station of index.stations) {
    if (station.search.includes(query)) {
      stations.push({ station, items: station.items });
      continue;
    }
    let items: TIndexedItem[] | null = null;
    for (const item of station.items) {
      if (!item.search.includes(query)) continue;
      if (items === null) items = [];
      items.push(item);
    }
    if (items) stations.push({ station, items });
  }
  return { query, stations, groups: index.groups.filter((g) => g.search.includes(query)) };
}

export const isEmptyMatch = (m: TTreeMatch) => m.stations.length === 0 && m.groups.length === 0;

// ── Rows ────────────────────────────────────────────────────────────────────────────────────

export const SECTION_LABELS = { groups: "Signals Groups", stations: "Stations" } as const;
/** The tree's own wording (requirements.md monitor-forms §2 "Signals tab"). */
export const SIGNAL_TREE_TEXT = {
  treeLabel: "Stations and signals",
  attributeHint: "Part attribute: filtered in Data Filters",
  groupsMvdOnly: "MVD monitors only",
  signalCount: (n: number) => `${n} signal${n === 1 ? "" : "s"}`,
} as const;
export const EMPTY_ROW_TEXT = {
  groups: "No signal groups on this line",
  stations: "No stations on this line",
  station: "No active signals to monitor",
  group: "No signals in this group",
} as const;

export type TTreeRow =
  | { kind: "section"; key: string; level: 1; section: "groups" | "stations"; count: number; open: boolean }
  | { kind: "group"; key: string; level: 2; group: TSignalGroup; open: boolean }
  | { kind: "member"; key: string; level: 3; signalId: string; signal: TSignal | null }
  | { kind: "station"; key: string; level: 2; station: TStation; count: number; open: boolean }
  | { kind: "signal"; key: string; level: 3; signal: TSignal }
  | { kind: "attribute"; key: string; level: 3; signal: TSignal }
  | { kind: "empty"; key: string; level: 2 | 3; text: string };

export const rowKey = {
  section: (s: "groups" | "stations") => `section:${s}`,
  group: (id: string) => `group:${id}`,
  station: (id: string) => `station:${id}`,
} as const;

/** Sections and stations start open, groups closed; `toggled` holds the keys flipped from that. */
const openByDefault = (key: string) => !key.startsWith("group:");
export const isRowOpen = (key: string, toggled: ReadonlySet<string>) =>
  openByDefault(key) !== toggled.has(key);

/**
 * The visible rows, in order: the Signals Groups section (groups, and the members of open ones),
 * then the Stations section (stations, and the measurements and part attributes of open ones).
 * While searching, a section without matches is left out.
 */
export function flattenSignalTree(
  index: Pick<TSignalTreeIndex, "signalById">,
  match: TTreeMatch,
  toggled: ReadonlySet<string>,
): TTreeRow[] {
  const rows: TTreeRow[] = [];
  const searching = match.query !== "";

  if (!searching || match.groups.length > 0) {
    const key = rowKey.section("groups");
    const open = isRowOpen(key, toggled);
    rows.push({ kind: "section", key, level: 1, section: "groups", count: match.groups.length, open });
    if (open && match.groups.length === 0)
      rows.push({ kind: "empty", key: `empty:${key}`, level: 2, text: EMPTY_ROW_TEXT.groups });
    if (open)
      for (const { group } of match.groups) {
        const gKey = rowKey.group(group.signalGroupUuid);
        const gOpen = isRowOpen(gKey, toggled);
        rows.push({ kind: "group", key: gKey, level: 2, group, open: gOpen });
        if (!gOpen) continue;
        for (const signalId of group.signalUuids)
          rows.push({
            kind: "member",
            key: `member:${group.signalGroupUuid}:${signalId}`,
            level: 3,
            signalId,
            signal: index.signalById.get(signalId) ?? null,
          });
        if (group.signalUuids.length === 0)
          rows.push({ kind: "empty", key: `empty:${gKey}`, level: 3, text: EMPTY_ROW_TEXT.group });
      }
  }

  if (!searching || match.stations.length > 0) {
    const key = rowKey.section("stations");
    const open = isRowOpen(key, toggled);
    rows.push({ kind: "section", key, level: 1, section: "stations", count: match.stations.length, open });
    if (open && match.stations.length === 0)
      rows.push({ kind: "empty", key: `empty:${key}`, level: 2, text: EMPTY_ROW_TEXT.stations });
    if (open)
      for (const { station, items } of match.stations) {
        const sKey = rowKey.station(station.station.id);
        const sOpen = isRowOpen(sKey, toggled);
        rows.push({
          kind: "station",
          key: sKey,
          level: 2,
          station: station.station,
          count: items.length,
          open: sOpen,
        });
        if (!sOpen) continue;
        for (const item of items) rows.push(item.row);
        if (items.length === 0)
          rows.push({ kind: "empty", key: `empty:${sKey}`, level: 3, text: EMPTY_ROW_TEXT.station });
      }
  }
  return rows;
}

/** The index of the row that holds `rows[i]` (its station, group or section), or -1. */
export function parentRowIndex(rows: readonly TTreeRow[], i: number): number {
  const level = rows[i]?.level ?? 1;
  for (let j = i - 1; j >= 0; j--) if ((rows[j] as TTreeRow).level < level) return j;
  return -1;
}

// ── Selection (requirements.md monitor-forms §5 "Signal selection") ──────────────────────────────────────────────────

export type { TSignalSelection } from "./selection";

/** Groups are for MVD monitors only: an SVD monitor looks at exactly one signal. */
export const canSelectGroups = (type: TFormMonitorType) => type === "mvd";

const NO_GESTURE = { gesture: {}, anchor: null, order: [] };

/**
 * A monitor's choice of a signal: MVD adds or removes it (toggleStrategy); SVD replaces the chosen
 * one, and choosing it again clears it (singleStrategy).
 */
export function toggleSignal(type: TFormMonitorType, sel: TSignalSelection, id: string): TSignalSelection {
  const strategy = canSelectGroups(type) ? toggleStrategy : singleStrategy;
  return strategy(sel, { kind: "signal", id }, NO_GESTURE);
}

/** MVD: the group is added or removed. SVD: a group can only be removed (left from another type). */
export function toggleGroup(type: TFormMonitorType, sel: TSignalSelection, id: string): TSignalSelection {
  if (canSelectGroups(type) || sel.signal_group_uuids.includes(id))
    return toggleStrategy(sel, { kind: "group", id }, NO_GESTURE);
  return sel;
}

export type TSelectedItem = { kind: "signal" | "group"; id: string; name: string; detail: string };

export const SELECTED_ITEM_TEXT = {
  notOnLine: "Not an active signal of this line",
  groupNotOnLine: "Not a signal group of this line",
  groupSize: (n: number) => `Group of ${n} signal${n === 1 ? "" : "s"}`,
} as const;

/**
 * The Selected Items preview: the chosen signals, then the chosen groups, in the order chosen. An
 * id the line no longer has (an inactive signal of a saved monitor) is still listed, so it can be
 * removed.
 */
export function selectedItems(
  index: Pick<TSignalTreeIndex, "signalById" | "groupById">,
  sel: TSignalSelection,
): TSelectedItem[] {
  const signals = sel.signal_uuids.map((id): TSelectedItem => {
    const s = index.signalById.get(id);
    return s
      ? { kind: "signal", id, name: signalLabel(s), detail: s.stationName }
      : { kind: "signal", id, name: id, detail: SELECTED_ITEM_TEXT.notOnLine };
  });
  const groups = sel.signal_group_uuids.map((id): TSelectedItem => {
    const g = index.groupById.get(id);
    return g
      ? {
          kind: "group",
          id,
          name: g.signalGroupName,
          detail: SELECTED_ITEM_TEXT.groupSize(g.signalUuids.length),
        }
      : { kind: "group", id, name: id, detail: SELECTED_ITEM_TEXT.groupNotOnLine };
  });
  return [...signals, ...groups];
}
