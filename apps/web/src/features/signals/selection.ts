// How a click (or Space / Enter) on a tree node changes a selection: pure strategies a user of the
// signal tree picks from, and the predicate that says which nodes may be chosen at all.

/** What is chosen: signals and signal groups, each in the order chosen. */
export type TSignalSelection = { signal_uuids: string[]; signal_group_uuids: string[] };

/** A node one can choose: a signal or a signal group. */
export type TSelectableNode = { kind: "signal"; id: string } | { kind: "group"; id: string };

/** true: selectable; false: not; a string: not selectable, and why (the row's tooltip). */
export type TSelectableVerdict = boolean | string;
export type TSelectablePredicate = (node: TSelectableNode) => TSelectableVerdict;
export const everyNodeSelectable: TSelectablePredicate = () => true;

/** The modifier keys held when a node was chosen. */
export type TSelectGesture = { shiftKey?: boolean; ctrlKey?: boolean; metaKey?: boolean };

export type TSelectionContext = {
  gesture: TSelectGesture;
  /** The signal chosen last without Shift (a range starts there), or null. */
  anchor: string | null;
  /** The selectable signals in tree order, across stations (see signalOrder). */
  order: readonly string[];
};

export type TSelectionStrategy = (
  sel: TSignalSelection,
  node: TSelectableNode,
  ctx: TSelectionContext,
) => TSignalSelection;

const toggleIn = (ids: string[], id: string) =>
  ids.includes(id) ? ids.filter((x) => x !== id) : [...ids, id];

/** Each choice adds the node or removes it (MVD's signals and groups). */
export const toggleStrategy: TSelectionStrategy = (sel, node) =>
  node.kind === "signal"
    ? { ...sel, signal_uuids: toggleIn(sel.signal_uuids, node.id) }
    : { ...sel, signal_group_uuids: toggleIn(sel.signal_group_uuids, node.id) };

/**
 * One signal at most (SVD): a signal replaces the selection, groups included; choosing the chosen
 * one again clears it. A chosen group is removed (it can only be left over from another type).
 */
export const singleStrategy: TSelectionStrategy = (sel, node) => {
  if (node.kind === "group")
    return sel.signal_group_uuids.includes(node.id)
      ? { ...sel, signal_group_uuids: sel.signal_group_uuids.filter((x) => x !== node.id) }
      : { signal_uuids: [], signal_group_uuids: [node.id] };
  const only = sel.signal_uuids.length === 1 && sel.signal_uuids[0] === node.id;
  return { signal_uuids: only ? [] : [node.id], signal_group_uuids: [] };
};

/** A file manager's click: a plain choice selects that node alone, Ctrl (⌘ on a Mac) toggles it. */
export const ctrlToggleStrategy: TSelectionStrategy = (sel, node, ctx) => {
  if (ctx.gesture.ctrlKey || ctx.gesture.metaKey) return toggleStrategy(sel, node, ctx);
  return node.kind === "signal"
    ? { signal_uuids: [node.id], signal_group_uuids: [] }
    : { signal_uuids: [], signal_group_uuids: [node.id] };
};

/**
 * Shift on a signal adds every signal from the anchor to it, in tree order across stations (what
 * is already chosen stays); without Shift, or without an anchor in the order, `base` decides.
 */
export const withShiftRange =
  (base: TSelectionStrategy): TSelectionStrategy =>
  (sel, node, ctx) => {
    if (!ctx.gesture.shiftKey || node.kind !== "signal" || ctx.anchor === null) return base(sel, node, ctx);
    const from = ctx.order.indexOf(ctx.anchor);
    const to = ctx.order.indexOf(node.id);
    if (from < 0 || to < 0) return base(sel, node, ctx);
    const range = ctx.order.slice(Math.min(from, to), Math.max(from, to) + 1);
    const have = new Set(sel.signal_uuids);
    return { ...sel, signal_uuids: [...sel.signal_uuids, ...range.filter((id) => !have.has(id))] };
  };

/** The tree's signals (measurements) in order, station by station, that the predicate allows. */
export function signalOrder(
  index: { stations: readonly { items: readonly { kind: string; signal: { id: string } }[] }[] },
  isSelectable: TSelectablePredicate = everyNodeSelectable,
): string[] {
  const out: string[] = [];
  for (const s of index.stations)
    for (const item of s.items)
      if (item.kind === "signal" && isSelectable({ kind: "signal", id: item.signal.id }) === true)
        out.push(item.signal.id);
  return out;
}
