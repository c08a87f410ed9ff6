import type { TMonitorType } from "@linewatch/contracts";

/** Query keys of the monitor forms and pages; the monitor lists are invalidated after saves. */
export const monitorKeys = {
  all: ["monitors"] as const,
  list: (lineId: string, type?: TMonitorType) => ["monitors", "list", lineId, type ?? "all"] as const,
  byId: (monitorId: string) => ["monitors", "by-id", monitorId] as const,
  rules: (monitorId: string) => ["monitors", "rules", monitorId] as const,
  nextName: (lineId: string, type: TMonitorType) => ["monitors", "next-name", lineId, type] as const,
  formBounds: ["monitors", "form-bounds"] as const,
  preview: (body: unknown) => ["monitors", "preview", body] as const,
  signals: (lineId: string) => ["lines", lineId, "signals", "active"] as const,
  signalGroups: (lineId: string) => ["lines", lineId, "signal-groups"] as const,
  partAttributes: (lineId: string) => ["lines", lineId, "part-attributes"] as const,
  modelNumbers: (lineId: string) => ["lines", lineId, "model-numbers"] as const,
  associatedClassifications: (signalIds: string[]) =>
    ["signals", "associated-result-classifications", [...signalIds].sort()] as const,
};
