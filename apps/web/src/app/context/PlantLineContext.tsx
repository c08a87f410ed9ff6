import { defaultLine, type TLine, type TPlant } from "@linewatch/contracts";
import { useMutation, useQuery } from "@tanstack/react-query";
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { api, get } from "../../shared/api/client";
import { useMe } from "../auth/session";

export const plantKeys = {
  all: ["plants"] as const,
  lines: (plantId: string) => ["plants", plantId, "lines"] as const,
  line: (lineId: string) => ["lines", lineId] as const,
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
  /** The page shows this line: the top bar switches to it (and its plant) and remembers it. */
  followLine: (line: Pick<TLine, "id" | "plantId">) => void;
};

const Ctx = createContext<PlantLine | null>(null);

/**
 * The plant and line picked in the top bar, remembered per user on the server. A page about one
 * line (its overview, its monitors) decides: the top bar follows the page (usePageLine).
 */
export function PlantLineProvider({ children }: { children: ReactNode }) {
  const me = useMe().data;
  const [pickedPlantId, setPlantIdState] = useState<string | null>(me?.selectedPlantId ?? null);
  const [pickedLineId, setLineIdState] = useState<string | null>(me?.selectedLineId ?? null);
  // The line of the page shown (usePageLine): it wins over the remembered pick, even when the
  // session arrives after the page's line, until the user picks in the top bar again.
  const [followed, setFollowed] = useState<{ plantId: string; lineId: string } | null>(null);
  const plantId = followed?.plantId ?? pickedPlantId;
  const lineId = followed?.lineId ?? pickedLineId;
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
  const line = lines.find((l) => l.id === lineId) ?? defaultLine(lines);
  const shownPlantId = plant?.id ?? null;

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
  const customerId = me?.customer.id;
  const lastCustomerId = useRef(customerId);
  useEffect(() => {
    if (lastCustomerId.current && customerId !== lastCustomerId.current) setFollowed(null);
    lastCustomerId.current = customerId;
  }, [customerId]);

  const setPlantId = useCallback(
    (id: string) => {
      setFollowed(null);
      setPlantIdState(id);
      setLineIdState(null);
      mutate({ selectedPlantId: id, selectedLineId: null });
    },
    [mutate],
  );
  const setLineId = useCallback(
    (id: string | null) => {
      // The line is picked in the plant shown (which may be a followed page's plant).
      setFollowed(null);
      setPlantIdState(shownPlantId);
      setLineIdState(id);
      mutate(shownPlantId ? { selectedPlantId: shownPlantId, selectedLineId: id } : { selectedLineId: id });
    },
    [mutate, shownPlantId],
  );
  // What the top bar shows now, read by followLine without making it change on every pick.
  const shown = useRef({ plantId: plant?.id ?? null, lineId: line?.id ?? null });
  shown.current = { plantId: plant?.id ?? null, lineId: line?.id ?? null };
  const followLine = useCallback(
    (next: Pick<TLine, "id" | "plantId">) => {
      if (shown.current.plantId === next.plantId && shown.current.lineId === next.id) return;
      shown.current = { plantId: next.plantId, lineId: next.id };
      setFollowed({ plantId: next.plantId, lineId: next.id });
      mutate({ selectedPlantId: next.plantId, selectedLineId: next.id });
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
      followLine,
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
      followLine,
    ],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function usePlantLine(): PlantLine {
  const v = useContext(Ctx);
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
  const q = useQuery({
    queryKey: plantKeys.line(lineId ?? "none"),
    queryFn: () => get<TLine>(`/api/lines/${lineId}`),
    enabled: !!lineId && !known,
  });
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
