import {
  BACKTEST_STREAM_TYPE,
  type TBacktest,
  type TBacktestBody,
  type TBacktestStreamLine,
  type TModelNumber,
  type TMonitor,
  type TMonitorFormBounds,
  type TMonitorPreview,
  type TMonitorPreviewBody,
  type TMonitorRule,
  type TMonitorType,
  type TPartAttribute,
  ZBacktestStreamLine,
} from "@linewatch/contracts";
import { hashKey, keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ApiError, api, apiStream, get, UNREADABLE_ANSWER } from "../../../shared/api/client";
import { monitorKeys } from "./keys";

/** The line's monitors of one type (or all), sorted by the server by name. */
export const useMonitorList = (lineId: string | null | undefined, type?: TMonitorType) =>
  useQuery({
    queryKey: monitorKeys.list(lineId ?? "none", type),
    queryFn: () => get<TMonitor[]>(`/api/lines/${lineId}/monitors${type ? `?type=${type}` : ""}`),
    enabled: !!lineId,
  });

/** One monitor (POST get-by-id, requirements.md monitor-forms §7); null when it does not exist. */
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

/** How far a streamed backtest has come: the replay's evaluations and the slot reached. */
export type TBacktestProgress = Omit<Extract<TBacktestStreamLine, { type: "progress" }>, "type">;

/**
 * One backtest, streamed (issue #27): progress lines go to `onProgress` as the server's replay
 * moves; resolves with the result line's backtest, throws an error line's message. A server or
 * mock answering plain JSON is taken as it is. Aborting `signal` drops the request, and the server
 * stops the computation.
 */
export async function fetchBacktest(
  body: TBacktestBody,
  opts: { signal?: AbortSignal; onProgress?: (p: TBacktestProgress) => void } = {},
): Promise<TBacktest> {
  let result: TBacktest | null = null;
  const answer = await apiStream("POST", "/api/monitors/backtest", body, {
    accept: BACKTEST_STREAM_TYPE,
    signal: opts.signal,
    onLine: (raw) => {
      const parsed = ZBacktestStreamLine.safeParse(raw);
      if (!parsed.success) throw new ApiError(0, "Unreadable Answer", UNREADABLE_ANSWER);
      const line = parsed.data;
      if (line.type === "error") throw new ApiError(line.status, "", line.message);
      if (line.type === "result") result = line.backtest;
      // A line read just before an abort is no news for anyone.
      else if (!opts.signal?.aborted) opts.onProgress?.({ done: line.done, total: line.total, at: line.at });
    },
  });
  if (!answer.streamed) return answer.json as TBacktest;
  if (!result) throw new ApiError(0, "Incomplete Answer", "The backtest ended without a result.");
  return result;
}

/**
 * What the monitor would have done over the backtest period; the previous answer stays while the
 * next loads, and a request whose settings changed meanwhile is aborted. `progress` is the running
 * request's (null before its first progress line); `cancel` stops it, server side too, and keeps
 * these settings from asking again until `runAgain` (or other settings).
 */
export function useMonitorBacktest(body: TBacktestBody | null) {
  const qc = useQueryClient();
  const [progress, setProgress] = useState<TBacktestProgress | null>(null);
  const [cancelledHash, setCancelledHash] = useState<string | null>(null);
  const queryKey = monitorKeys.backtest(body);
  const isCancelled = cancelledHash === hashKey(queryKey);
  const query = useQuery({
    queryKey,
    queryFn: ({ signal }) => {
      setProgress(null);
      return fetchBacktest(body as TBacktestBody, { signal, onProgress: setProgress });
    },
    // Cancelled settings stay cancelled: no refetch on focus, reconnect or a remount of the observer.
    enabled: !!body && !isCancelled,
    placeholderData: keepPreviousData,
    retry: false,
  });
  return {
    query,
    progress,
    isCancelled,
    cancel: () => {
      setCancelledHash(hashKey(queryKey));
      void qc.cancelQueries({ queryKey, exact: true });
    },
    runAgain: () => {
      setCancelledHash(null);
      // Fetching at once (not on the next render's enabling) keeps the panel's status row, and the
      // focus on its button, through the change.
      void query.refetch();
    },
  };
}
