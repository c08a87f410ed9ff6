import { defaultLine, type TLine } from "@linewatch/contracts";
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useSaveSelection } from "../../shared/data/plants/mutations";
import { type PlantLine, PlantLineContext } from "../../shared/data/plants/plant-line";
import { usePlantLines, usePlants } from "../../shared/data/plants/queries";
import { useMe } from "../../shared/data/session/queries";

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
  const plantsQ = usePlants(!!me);
  const plants = plantsQ.data ?? [];
  const plant = plants.find((p) => p.id === plantId) ?? plants[0] ?? null;
  const linesQ = usePlantLines(plant?.id ?? null);
  // A deactivated line is hidden from the top bar, the home page and every line selector
  // (Settings → Line Management); a link to it still opens its overview (useLine asks the server).
  const lines = useMemo(() => (linesQ.data ?? []).filter((l) => l.active), [linesQ.data]);
  const line = lines.find((l) => l.id === lineId) ?? defaultLine(lines);
  const shownPlantId = plant?.id ?? null;

  const { mutate } = useSaveSelection();

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
  return <PlantLineContext.Provider value={value}>{children}</PlantLineContext.Provider>;
}
