// Rows shaped like Cap Limits' (requirements.md settings §2.5): a signal expands into one row per model
// number. The expandable rows' tests share them.

export type CapModel = { model: string; lsl: number | null };
export type CapSignal = { id: string; station: string; signal: string; models: CapModel[] };

/** Three signals out of station order; the last has no models. */
export const capSignals: CapSignal[] = [
  {
    id: "s1",
    station: "OP20",
    signal: "Torque",
    models: [
      { model: "M-100", lsl: 1 },
      { model: "M-200", lsl: 2 },
    ],
  },
  { id: "s2", station: "OP10", signal: "Bore", models: [{ model: "M-300", lsl: 3 }] },
  { id: "s3", station: "OP30", signal: "Angle", models: [] },
];

export const capSignalTree = {
  getId: (s: CapSignal) => s.id,
  getChildren: (s: CapSignal) => s.models,
};
