import type { TLine, TPlant } from "@linewatch/contracts";
import { useMutation, useQuery } from "@tanstack/react-query";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { api, get } from "../../shared/api/client";
import { useMe } from "../auth/session";

export const plantKeys = {
  all: ["plants"] as const,
  lines: (plantId: string) => ["plants", plantId, "lines"] as const,
};

type PlantLine = {
  plants: TPlant[];
  plant: TPlant | null;
  lines: TLine[];
  line: TLine | null;
  isLoading: boolean;
  error: unknown;
  setPlantId: (id: string) => void;
  setLineId: (id: string | null) => void;
};

const Ctx = createContext<PlantLine | null>(null);

/** The plant and line picked in the top bar, remembered per user on the server. */
export function PlantLineProvider({ children }: { children: ReactNode }) {
  const me = useMe().data;
  const [plantId, setPlantIdState] = useState<string | null>(me?.selectedPlantId ?? null);
  const [lineId, setLineIdState] = useState<string | null>(me?.selectedLineId ?? null);
  const plantsQ = useQuery({
    queryKey: plantKeys.all,
    queryFn: () => get<TPlant[]>("/api/plants"),
    enabled: !!me,
  });
  const plants = plantsQ.data ?? [];
  const plant = plants.find((p) => p.id === plantId) ?? plants[0] ?? null;
  const linesQ = useQuery({
    queryKey: plant ? plantKeys.lines(plant.id) : ["plants", "none"],
    queryFn: () => get<TLine[]>(`/api/plants/${plant?.id}/lines`),
    enabled: !!plant,
  });
  const lines = linesQ.data ?? [];
  const line = lines.find((l) => l.id === lineId) ?? lines.find((l) => l.active) ?? lines[0] ?? null;

  const save = useMutation({
    mutationFn: (body: { selectedPlantId?: string | null; selectedLineId?: string | null }) =>
      api("PATCH", "/api/auth/me/selection", body),
  });
  const { mutate } = save;

  // A customer switch replaces the user: start from that user's remembered selection.
  useEffect(() => {
    setPlantIdState(me?.selectedPlantId ?? null);
    setLineIdState(me?.selectedLineId ?? null);
  }, [me?.selectedPlantId, me?.selectedLineId]);

  const setPlantId = useCallback(
    (id: string) => {
      setPlantIdState(id);
      setLineIdState(null);
      mutate({ selectedPlantId: id, selectedLineId: null });
    },
    [mutate],
  );
  const setLineId = useCallback(
    (id: string | null) => {
      setLineIdState(id);
      mutate({ selectedLineId: id });
    },
    [mutate],
  );

  const value = useMemo<PlantLine>(
    () => ({
      plants,
      plant,
      lines,
      line,
      isLoading: plantsQ.isLoading || linesQ.isLoading,
      error: plantsQ.error ?? linesQ.error,
      setPlantId,
      setLineId,
    }),
    [
      plants,
      plant,
      lines,
      line,
      plantsQ.isLoading,
      linesQ.isLoading,
      plantsQ.error,
      linesQ.error,
      setPlantId,
      setLineId,
    ],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function usePlantLine(): PlantLine {
  const v = useContext(Ctx);
  if (!v) throw new Error("usePlantLine needs a PlantLineProvider");
  return v;
}
