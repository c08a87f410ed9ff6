import { MONITOR_MESSAGES } from "@linewatch/contracts";

/** The Signals tab's wording (spec monitor-forms §2 "Signals tab"); tests read the same strings. */
export const SIGNALS_TAB_TEXT = {
  lineLabel: "Line",
  selectLine: "Select a line to see its stations and signals",
  searchPlaceholder: "Search for stations, signals or part attributes",
  searchLabel: "Search signals",
  noResults: "No results found",
  treeLabel: "Stations and signals",
  loadError: "Error loading signals",
  selectedItems: "Selected Items",
  noneSelected: "Nothing selected yet",
  mvdHint: MONITOR_MESSAGES.mvdSignalsWizard,
  svdHint: "Select one signal.",
  attributeHint: "Part attribute: filtered in Data Filters",
  groupsMvdOnly: "MVD monitors only",
  remove: (name: string) => `Remove ${name}`,
  signalCount: (n: number) => `${n} signal${n === 1 ? "" : "s"}`,
} as const;
