import type { TLine, TPlant } from "@linewatch/contracts";
import { createContext, useContext, useEffect } from "react";
import { useLineById } from "./queries";

export type PlantLine = {
  plants: TPlant[];
  plant: TPlant | null;
  lines: TLine[];
  line: TLine | null;
  isLoading: boolean;
  error: unknown;
  setPlantId: (id: string) => void;
  setLineId: (id: string | null) => void;
  /** The page shows this line: the top bar switches to it (and its plant) and remembers it. */
  followLine: (line: Pick<TLine, "id" | "plantId">) => void;
};

/**
 * The plant and line picked in the top bar, remembered per user on the server. The shell
 * provides it (app/context/PlantLineContext.tsx); features read it through the hooks below.
 */
export const PlantLineContext = createContext<PlantLine | null>(null);

export function usePlantLine(): PlantLine {
  const v = useContext(PlantLineContext);
  if (!v) throw new Error("usePlantLine needs a PlantLineProvider");
  return v;
}

/**
 * One line by id, of any plant of the customer: from the top bar's list when it is there,
 * otherwise from the server (a link to another plant's line).
 */
export function useLine(lineId: string | null | undefined) {
  const { lines } = usePlantLine();
  const known = lineId ? lines.find((l) => l.id === lineId) : undefined;
  const q = useLineById(lineId, !known);
  const line = known ?? q.data ?? null;
  return {
    line,
    isLoading: !!lineId && !line && q.isLoading,
    error: known ? null : q.error,
    refetch: q.refetch,
  };
}

/**
 * The line a page is about, and its plant: the page decides, so the top bar switches to them
 * and times use that plant's time zone (a link shared between colleagues opens what it points to).
 */
export function usePageLine(lineId: string | null | undefined) {
  const { plants, followLine } = usePlantLine();
  const found = useLine(lineId);
  const { line } = found;
  useEffect(() => {
    if (line) followLine({ id: line.id, plantId: line.plantId });
  }, [line, followLine]);
  const plant = line ? (plants.find((p) => p.id === line.plantId) ?? null) : null;
  return { ...found, plant };
}
