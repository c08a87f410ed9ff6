import type { TStation } from "@linewatch/contracts";

// A saved monitor whose signals changed in Signal Management (issue #15): a signal switched off or
// given another entity type is left out of its evaluations, and the monitor runs on the others.
// Its form and the line overview say so, from the line's active signals (the tree's query).

/** The monitor's signal ids that are not active measurements of the line (any more). */
export function unmonitoredSignalIds(
  signalIds: readonly string[],
  activeStations: readonly TStation[],
): string[] {
  const measured = new Set<string>();
  for (const s of activeStations)
    for (const x of s.signals) if (x.isSignalActive && x.entityType === "MEASUREMENT") measured.add(x.id);
  return signalIds.filter((id) => !measured.has(id));
}

export { UNMONITORED_TEXT } from "@linewatch/contracts";
