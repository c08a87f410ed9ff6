import type { GridSortModel } from "./settings-grid";

// An expandable grid gets flat rows (SettingsGrid has neither tree data nor detail panels):
// each parent followed by its children (Cap Limits: a signal, then one row per model number) or
// by one detail row (ETQ Reliance: the line's form) when it is expanded. Sorting happens here so
// that children stay under their parent, and pages count parents, not the rows under them.

/** Where a flat row sits: a parent, a child under `parentId`, or the detail of `parentId`. */
export type ExpandableRowMeta =
  | { kind: "parent"; isExpanded: boolean; childCount: number }
  | { kind: "child"; parentId: string }
  | { kind: "detail"; parentId: string };

export type ParentRow<P> = P & { id: string; __row: Extract<ExpandableRowMeta, { kind: "parent" }> };
export type ChildRow<C> = C & { id: string; __row: Extract<ExpandableRowMeta, { kind: "child" }> };
export type DetailRow<P> = { id: string; __row: Extract<ExpandableRowMeta, { kind: "detail" }>; parent: P };

/** A row as the grid gets it: the page's row plus where it sits. */
export type FlatRow<P, C> = ParentRow<P> | ChildRow<C> | DetailRow<P>;

/** The row is a parent: the page's row (a P) with its place. */
export const isParentRow = <P, C>(row: FlatRow<P, C>): row is ParentRow<P> => row.__row.kind === "parent";
/** The row is a child: a C under its parent (`__row.parentId`). */
export const isChildRow = <P, C>(row: FlatRow<P, C>): row is ChildRow<C> => row.__row.kind === "child";
/** The row is a parent's detail (its `parent`). */
export const isDetailRow = <P, C>(row: FlatRow<P, C>): row is DetailRow<P> => row.__row.kind === "detail";

export type Compare<T> = (a: T, b: T, field: string) => number;

export type FlattenOptions<P, C> = {
  getId: (row: P) => string;
  /** A parent's children (Cap Limits' models); none for a row that expands into a form. */
  getChildren?: (row: P) => readonly C[];
  getChildId?: (child: C, parent: P) => string;
  /** The row expands into one detail row below it (ETQ Reliance's form). */
  hasDetail?: boolean;
  expandedIds: ReadonlySet<string>;
  sortModel?: GridSortModel;
  compareParents?: Compare<P>;
  compareChildren?: Compare<C>;
  /** The page of parents to show (0-based) and how many parents a page holds; all when absent. */
  page?: { index: number; size: number };
};

export const detailRowId = (parentId: string) => `${parentId}::detail`;
const defaultChildId = (parentId: string, index: number) => `${parentId}::${index}`;

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: "base" });

/** Numbers by value, text by locale with numbers in it read as numbers, empty values last. */
export function compareValues(a: unknown, b: unknown): number {
  const isEmptyA = a == null || a === "";
  const isEmptyB = b == null || b === "";
  if (isEmptyA || isEmptyB) return isEmptyA === isEmptyB ? 0 : isEmptyA ? 1 : -1;
  if (typeof a === "number" && typeof b === "number") return a - b;
  return collator.compare(String(a), String(b));
}

export const compareByField = <T>(a: T, b: T, field: string) =>
  compareValues((a as Record<string, unknown>)[field], (b as Record<string, unknown>)[field]);

function sortBy<T>(rows: readonly T[], model: GridSortModel | undefined, compare: Compare<T>): T[] {
  const items = (model ?? []).filter((s) => s.sort != null);
  if (items.length === 0) return [...rows];
  // Array.prototype.sort is stable: rows equal on every field keep their order.
  return [...rows].sort((a, b) => {
    for (const { field, sort } of items) {
      const c = compare(a, b, field);
      if (c !== 0) return sort === "desc" ? -c : c;
    }
    return 0;
  });
}

/**
 * The flat rows of an expandable grid: parents sorted by the sort model, each expanded parent
 * followed by its children (sorted by the same model) or its detail row.
 */
export function flattenExpandableRows<P, C = never>(
  rows: readonly P[],
  o: FlattenOptions<P, C>,
): { rows: FlatRow<P, C>[]; parentCount: number } {
  const parents = sortBy(rows, o.sortModel, o.compareParents ?? compareByField);
  const shown = o.page
    ? parents.slice(o.page.index * o.page.size, (o.page.index + 1) * o.page.size)
    : parents;
  const flat: FlatRow<P, C>[] = [];
  for (const parent of shown) {
    const id = o.getId(parent);
    const children = o.getChildren?.(parent) ?? [];
    const isExpanded = o.expandedIds.has(id);
    flat.push({
      ...parent,
      id,
      __row: { kind: "parent", isExpanded, childCount: o.hasDetail ? 1 : children.length },
    });
    if (!isExpanded) continue;
    if (o.hasDetail) {
      flat.push({ id: detailRowId(id), __row: { kind: "detail", parentId: id }, parent });
      continue;
    }
    const indexed = children.map((child, index) => ({ child, index }));
    const compareChildren = o.compareChildren ?? compareByField;
    for (const { child, index } of sortBy(indexed, o.sortModel, (a, b, f) =>
      compareChildren(a.child, b.child, f),
    )) {
      flat.push({
        ...child,
        id: o.getChildId?.(child, parent) ?? defaultChildId(id, index),
        __row: { kind: "child", parentId: id },
      });
    }
  }
  return { rows: flat, parentCount: parents.length };
}
