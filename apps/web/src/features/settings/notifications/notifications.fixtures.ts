import type { TLine } from "@linewatch/contracts";
import { testLine, testMe, testPlant } from "../../../test/fixtures";

// What the Teams and ETQ Reliance page tests share: a plant on UTC, its administrator, and lines
// with stable ids (line n ends in 1n).

export const plant = testPlant({ timeZone: "UTC" });
export const me = testMe({ email: "admin@acme.test", isAdministrator: true, selectedPlantId: plant.id });
export const line = (n: number, name: string): TLine =>
  testLine({
    id: `00000000-0000-4000-8000-00000000001${n}`,
    plantId: plant.id,
    name,
    alertViewingWindowDays: 90,
  });
