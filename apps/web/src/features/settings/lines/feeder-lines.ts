import type { TFeederLineInfo } from "@linewatch/contracts";

export const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

/**
 * The feeder tree as shown: plants with the lines whose name (or friendly name, or plant name)
 * holds the search, ignoring case; a plant without such lines is left out.
 */
export function feederTree(info: TFeederLineInfo, search: string) {
  const q = search.trim().toLowerCase();
  return info.plants
    .map((p) => ({
      id: p.id,
      name: p.name,
      lines: p.lines
        .map((l) => ({ id: l.id, label: l.friendlyName || l.name, name: l.name }))
        .filter(
          (l) =>
            !q ||
            p.name.toLowerCase().includes(q) ||
            l.label.toLowerCase().includes(q) ||
            l.name.toLowerCase().includes(q),
        ),
    }))
    .filter((p) => p.lines.length > 0);
}

/** The Plant / Line rows of the editor's feeder table, in the tree's order. */
export function feederTableRows(info: TFeederLineInfo | undefined, ids: readonly string[]) {
  if (!info) return [];
  return info.plants.flatMap((p) =>
    p.lines
      .filter((l) => ids.includes(l.id))
      .map((l) => ({ id: l.id, plant: p.name, line: l.friendlyName || l.name })),
  );
}
