import type { TSpcSignalLimits, TStation } from "@linewatch/contracts";
import { useQuery } from "@tanstack/react-query";
import { get } from "../../../../shared/api/client";
import { spcLimitsKeys } from "./keys";

export const spcLimitsPath = (lineId: string) => `/api/line-config/spc-signal-limits?line-id=${lineId}`;

/** GET /api/line-config/spc-signal-limits?line-id= (requirements.md settings §7): the line's measurements and their limits. */
export const useSpcLimits = (lineId: string | null | undefined) =>
  useQuery({
    queryKey: spcLimitsKeys.line(lineId ?? "none"),
    queryFn: () => get<TSpcSignalLimits[]>(spcLimitsPath(lineId as string)),
    enabled: !!lineId,
  });

/** Every signal of the line (active or not): the names a limit formula may reference. */
export const useLineSignals = (lineId: string | null | undefined) =>
  useQuery({
    queryKey: spcLimitsKeys.lineSignals(lineId ?? "none"),
    queryFn: () => get<TStation[]>(`/api/lines/${lineId}/signals`),
    enabled: !!lineId,
  });
