import { loadavg } from "node:os";

/** The 1, 5 and 15 minute load averages: every bench prints them at its start and end. */
export const loadAverage = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(" / ");
