import type {
  TBacktest,
  TBacktestBody,
  TModelNumber,
  TMonitor,
  TMonitorFormBounds,
  TMonitorPreview,
  TMonitorPreviewBody,
  TMonitorRule,
  TMonitorType,
  TPartAttribute,
} from "@linewatch/contracts";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { api, get } from "../../../shared/api/client";
import { monitorKeys } from "./keys";

/** The line's monitors of one type (or all), sorted by the server by name. */
export const useMonitorList = (lineId: string | null | undefined, type?: TMonitorType) =>
  useQuery({
    queryKey: monitorKeys.list(lineId ?? "none", type),
    queryFn: () => get<TMonitor[]>(`/api/lines/${lineId}/monitors${type ? `?type=${type}` : ""}`),
    enabled: !!lineId,
  });

/** One monitor (POST get-by-id, spec §7); null when it does not exist. */
export const fetchMonitorById = (monitorId: string) =>
  api<TMonitor | null>("POST", "/api/tasks/get-by-id", { taskId: monitorId });

export const useMonitor = (monitorId: string | null | undefined) =>
  useQuery({
    queryKey: monitorKeys.byId(monitorId ?? "none"),
    queryFn: () => fetchMonitorById(monitorId as string),
    enabled: !!monitorId,
  });

export const fetchMonitorRules = (monitorId: string) =>
  get<TMonitorRule[]>(`/api/notifications/monitor-rules/${monitorId}`);

export const useMonitorRules = (monitorId: string | null | undefined) =>
  useQuery({
    queryKey: monitorKeys.rules(monitorId ?? "none"),
    queryFn: () => fetchMonitorRules(monitorId as string),
    enabled: !!monitorId,
  });

export const fetchNextMonitorName = (lineId: string, type: TMonitorType) =>
  get<{ name: string }>(`/api/lines/${lineId}/monitors/next-name?type=${type}`).then((r) => r.name);

/** MVD_QUERY_MAX_RECORD_COUNT of this installation (records range, default records). */
export const useMonitorFormBounds = () =>
  useQuery({
    queryKey: monitorKeys.formBounds,
    queryFn: () => get<TMonitorFormBounds>("/api/monitors/form-bounds"),
    staleTime: Number.POSITIVE_INFINITY,
  });

export const usePartAttributes = (lineId: string | null | undefined) =>
  useQuery({
    queryKey: monitorKeys.partAttributes(lineId ?? "none"),
    queryFn: () => get<TPartAttribute[]>(`/api/lines/${lineId}/part-attributes`),
    enabled: !!lineId,
  });

export const useModelNumbers = (lineId: string | null | undefined) =>
  useQuery({
    queryKey: monitorKeys.modelNumbers(lineId ?? "none"),
    queryFn: () => get<TModelNumber[]>(`/api/lines/${lineId}/model-numbers`),
    enabled: !!lineId,
  });

/** What the monitor would see and report now; the previous answer stays while the next loads. */
export const useMonitorPreview = (body: TMonitorPreviewBody | null) =>
  useQuery({
    queryKey: monitorKeys.preview(body),
    queryFn: () => api<TMonitorPreview>("POST", "/api/monitors/preview", body),
    enabled: !!body,
    placeholderData: keepPreviousData,
    retry: false,
  });

/**
 * What the monitor would have done over the backtest period; the previous answer stays while the
 * next loads, and a request whose settings changed meanwhile is aborted.
 */
export const useMonitorBacktest = (body: TBacktestBody | null) =>
  useQuery({
    queryKey: monitorKeys.backtest(body),
    queryFn: ({ signal }) => api<TBacktest>("POST", "/api/monitors/backtest", body, { signal }),
    enabled: !!body,
    placeholderData: keepPreviousData,
    retry: false,
  });
