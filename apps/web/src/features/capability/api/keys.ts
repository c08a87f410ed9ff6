/** Query keys of the capability view (one signal, one period). */
export const capabilityKeys = {
  all: ["capability"] as const,
  view: (lineId: string, signalId: string, from: string, to: string) =>
    ["capability", lineId, signalId, from, to] as const,
};
