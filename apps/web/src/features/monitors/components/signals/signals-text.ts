import { MONITOR_MESSAGES } from "@linewatch/contracts";
import { SIGNAL_TREE_TEXT } from "../../../signals/signal-tree";

/** The Signals tab's wording (spec monitor-forms §2 "Signals tab"); tests read the same strings. */
export const SIGNALS_TAB_TEXT = {
  lineLabel: "Line",
  selectLine: "Select a line to see its stations and signals",
  searchPlaceholder: "Search for stations, signals or part attributes",
  searchLabel: "Search signals",
  noResults: "No results found",
  treeLabel: SIGNAL_TREE_TEXT.treeLabel,
  loadError: "Error loading signals",
  selectedItems: "Selected Items",
  noneSelected: "Nothing selected yet",
  mvdHint: MONITOR_MESSAGES.mvdSignalsWizard,
  svdHint: "Select one signal.",
  attributeHint: SIGNAL_TREE_TEXT.attributeHint,
  groupsMvdOnly: SIGNAL_TREE_TEXT.groupsMvdOnly,
  remove: (name: string) => `Remove ${name}`,
  signalCount: SIGNAL_TREE_TEXT.signalCount,
} as const;
