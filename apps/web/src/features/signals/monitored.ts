import type { TSignalGroup, TStation } from "@linewatch/contracts";

// A saved monitor whose signals changed in Signal Management (issue #15): a signal switched off or
// given another entity type is left out of its evaluations, and the monitor runs on the others.
// Its form and the line overview say so, from the line's active signals (the tree's query) and its
// signal groups' members (the signal groups endpoint), by the worker's rule
// (apps/server/src/modules/evaluation/window.plan.ts `selectedSignals`): the monitor watches its
// listed signals and the members of its groups that are active measurements.

export type TUnmonitored = {
  /** Listed signals (signal_uuids) that are not active measurements: they block a save. */
  listed: string[];
  /** Members of its signal groups (not listed) that are not active measurements: left out silently. */
  grouped: string[];
  /** None of the signals it reaches is an active measurement: its evaluations record NO_DATA. */
  isNoneLeft: boolean;
};

/**
 * The signals a monitor reaches (listed, then through its groups) that are not active measurements
 * of the line (any more). `groups` undefined (not loaded yet) counts no group member.
 */
export function unmonitoredSignals(
  filter: { signal_uuids: readonly string[]; signal_group_uuids: readonly string[] },
  activeStations: readonly TStation[],
  groups: readonly TSignalGroup[] | undefined,
): TUnmonitored {
  const measured = new Set<string>();
  for (const s of activeStations)
    for (const x of s.signals) if (x.isSignalActive && x.entityType === "MEASUREMENT") measured.add(x.id);
  const listed = [...new Set(filter.signal_uuids)];
  const members = new Set<string>();
  for (const id of filter.signal_group_uuids)
    for (const m of groups?.find((g) => g.signalGroupUuid === id)?.signalUuids ?? [])
      if (!listed.includes(m)) members.add(m);
  const reached = [...listed, ...members];
  return {
    listed: listed.filter((id) => !measured.has(id)),
    grouped: [...members].filter((id) => !measured.has(id)),
    isNoneLeft: reached.length > 0 && reached.every((id) => !measured.has(id)),
  };
}

export { UNMONITORED_TEXT } from "@linewatch/contracts";
