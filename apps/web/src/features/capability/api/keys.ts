/** Query keys of the capability view (one signal, one period, every model or one). */
export const capabilityKeys = {
  all: ["capability"] as const,
  view: (lineId: string, signalId: string, from: string, to: string, model: string | null = null) =>
    ["capability", lineId, signalId, from, to, model] as const,
};
