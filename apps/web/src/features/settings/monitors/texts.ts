import type { TFormMonitorType } from "@linewatch/contracts";

// User-facing text of the SVD / MVD monitor administration pages (spec settings §2.7, §8
// "Monitors"). MONITOR_MESSAGES in contracts holds the save and error texts these pages share.

const TYPE_LABEL: Record<TFormMonitorType, string> = { svd: "SVD", mvd: "MVD" };

export const MONITORS_ADMIN_TEXTS = {
  pageTitle: (type: TFormMonitorType) => `${TYPE_LABEL[type]} Monitors`,
  drawerTitle: (type: TFormMonitorType) => `${TYPE_LABEL[type]} Monitor Details`,
  empty: (type: TFormMonitorType) => `No ${TYPE_LABEL[type]} monitors found`,
  newMonitor: "New monitor",
  lineLabel: "Line",
  noLines: "No lines exist for this plant.",
  errorLoading: "Error loading monitors",
  nameColumn: "Monitor name",
  activeColumn: "Active",
  activeLabel: (name: string) => `Active: ${name}`,
  editLabel: (name: string) => `Edit ${name}`,
  deleteLabel: (name: string) => `Delete ${name}`,
  // spec settings §8 "Monitors": the delete confirmation.
  deleteTitle: "Delete this monitor?",
  deleteText: "You are about to permanently delete the monitor :",
  deleteIrreversible: "This is irreversible.",
  deleteConfirm: "Delete",
  /** The spec names no success text for a delete; this one says what happened. */
  deleted: "Monitor deleted",
} as const;
