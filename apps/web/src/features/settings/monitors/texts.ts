import { MONITOR_MESSAGES, type TFormMonitorType } from "@linewatch/contracts";

// User-facing text of the SVD / MVD monitor administration pages (requirements.md settings §2.7, §8
// "Monitors"). MONITOR_MESSAGES in contracts holds the save and error texts these pages share.

const TYPE_LABEL: Record<TFormMonitorType, string> = { svd: "SVD", mvd: "MVD" };

export const MONITORS_ADMIN_TEXTS = {
  pageTitle: (type: TFormMonitorType) => `${TYPE_LABEL[type]} Monitors`,
  drawerTitle: MONITOR_MESSAGES.adminDrawerTitle,
  empty: MONITOR_MESSAGES.adminEmpty,
  newMonitor: "New monitor",
  lineLabel: "Line",
  noLines: "No lines exist for this plant.",
  errorLoading: "Error loading monitors",
  nameColumn: "Monitor name",
  activeColumn: "Active",
  activeLabel: (name: string) => `Active: ${name}`,
  editLabel: (name: string) => `Edit ${name}`,
  deleteLabel: (name: string) => `Delete ${name}`,
  // requirements.md settings §8 "Monitors": the delete confirmation.
  deleteTitle: MONITOR_MESSAGES.deleteTitle,
  deleteText: MONITOR_MESSAGES.deleteText,
  deleteIrreversible: MONITOR_MESSAGES.deleteIrreversible,
  deleteConfirm: "Delete",
  /** The spec names no success text for a delete; this one says what happened. */
  deleted: "Monitor deleted",
} as const;
