import type { TCapMonitorStatus } from "@linewatch/contracts";
import { useQuery } from "@tanstack/react-query";
import { get } from "../../../../shared/api/client";
import { capAlertsKeys } from "./keys";

/** Each cap monitor's latest evaluation (state, Ppk) and latest alert on the line. */
export const useCapMonitorStatus = (lineId: string | null | undefined) =>
  useQuery({
    queryKey: capAlertsKeys.status(lineId ?? "none"),
    queryFn: () => get<TCapMonitorStatus[]>(`/api/lines/${lineId}/cap-monitors/status`),
    enabled: !!lineId,
  });
