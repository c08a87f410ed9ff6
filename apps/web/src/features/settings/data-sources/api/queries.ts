import {
  CSV_UPLOAD_PROGRESS_POLL_MS,
  DATA_SOURCE_MESSAGES,
  type TCsvUploadProgress,
  type TDataSource,
  type TDataSourceInsight,
  type TIngestor,
  type TIngestToken,
  type TMqttCredential,
} from "@linewatch/contracts";
import { useQuery } from "@tanstack/react-query";
import { get } from "../../../../shared/api/client";
import { dataSourceKeys } from "./keys";

/** GET /api/plants/{plantId}/ingestor (requirements.md monitor-forms §7). Without a plant there is nothing to ask. */
export function useIngestor(plantId: string | undefined) {
  return useQuery({
    queryKey: plantId ? dataSourceKeys.ingestor(plantId) : ["plants", "none", "ingestor"],
    queryFn: () => {
      // requirements.md monitor-forms §8: fetching without a plant throws this message.
      if (!plantId) throw new Error(DATA_SOURCE_MESSAGES.plantRequired);
      return get<TIngestor>(`/api/plants/${plantId}/ingestor`);
    },
    enabled: !!plantId,
    staleTime: 5 * 60_000, // one ingestor per plant, created with it: it does not change
  });
}

/** GET /api/plants/{plantId}/data-sources (requirements.md monitor-forms §7). */
export function useDataSources(plantId: string | undefined) {
  return useQuery({
    queryKey: plantId ? dataSourceKeys.list(plantId) : ["data-sources", "plant", "none"],
    queryFn: () => get<TDataSource[]>(`/api/plants/${plantId}/data-sources`),
    enabled: !!plantId,
  });
}

/** GET /api/data-sources/{dataSourceId}: one source, for the insight mapping page. */
export function useDataSource(dataSourceId: string | undefined) {
  return useQuery({
    queryKey: dataSourceId ? dataSourceKeys.detail(dataSourceId) : ["data-sources", "detail", "none"],
    queryFn: () => get<TDataSource>(`/api/data-sources/${dataSourceId}`),
    enabled: !!dataSourceId,
  });
}

/** GET /api/data-sources/{dataSourceId}/insight: sampled messages, their mapping, dead letters. */
export function useDataSourceInsight(dataSourceId: string | undefined) {
  return useQuery({
    queryKey: dataSourceId ? dataSourceKeys.insight(dataSourceId) : ["data-sources", "insight", "none"],
    queryFn: () => get<TDataSourceInsight>(`/api/data-sources/${dataSourceId}/insight`),
    enabled: !!dataSourceId,
  });
}

/** GET /api/plants/{plantId}/ingest-tokens: the plant's tokens, newest first, never their secrets. */
export function useIngestTokens(plantId: string | undefined) {
  return useQuery({
    queryKey: plantId ? dataSourceKeys.ingestTokens(plantId) : ["plants", "none", "ingest-tokens"],
    queryFn: () => get<TIngestToken[]>(`/api/plants/${plantId}/ingest-tokens`),
    enabled: !!plantId,
  });
}

/** GET /api/plants/{plantId}/mqtt-credential: the plant's MQTT username and when its password was set. */
export function useMqttCredential(plantId: string | undefined) {
  return useQuery({
    queryKey: plantId ? dataSourceKeys.mqttCredential(plantId) : ["plants", "none", "mqtt-credential"],
    queryFn: () => get<TMqttCredential>(`/api/plants/${plantId}/mqtt-credential`),
    enabled: !!plantId,
  });
}

/**
 * GET /api/plants/{plantId}/part-records/csv/{uploadId}/progress every CSV_UPLOAD_PROGRESS_POLL_MS
 * while an upload runs (issue 32 §4). The first requests may come before the server has the upload
 * and the last after it has ended: those answer 404, and polling goes on with the last counts kept.
 */
export function useCsvUploadProgress(plantId: string | undefined, uploadId: string | null) {
  return useQuery({
    queryKey:
      plantId && uploadId
        ? dataSourceKeys.csvUploadProgress(plantId, uploadId)
        : ["plants", "none", "csv-uploads", "none", "progress"],
    queryFn: () => get<TCsvUploadProgress>(`/api/plants/${plantId}/part-records/csv/${uploadId}/progress`),
    enabled: !!plantId && !!uploadId,
    refetchInterval: CSV_UPLOAD_PROGRESS_POLL_MS,
    retry: false,
    gcTime: 0, // an ended upload's counts are of no use later
  });
}
