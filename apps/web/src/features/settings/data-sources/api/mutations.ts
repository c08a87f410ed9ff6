import {
  DATA_SOURCE_MESSAGES,
  INGEST_MESSAGES,
  type TCreateDataSourceBody,
  type TCreateIngestTokenBody,
  type TCreateIngestTokenResponse,
  type TCsvUploadResult,
  type TDataSource,
  type TIngestToken,
  type TRotateMqttPasswordResponse,
} from "@linewatch/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../../shared/api/client";
import { plantKeys } from "../../../../shared/data/plants/keys";
import { useSnackbar } from "../../../../shared/ui/SnackbarProvider";
import { dataSourceKeys } from "./keys";
import { type CsvUploadOptions, postCsv } from "./upload";

/**
 * DELETE /api/data-sources/{id}: on success the spec's success alert and a list refresh
 * (spec monitor-forms §4, §7). Failures go to the caller, which shows the error modal.
 */
export function useDeleteDataSource(plantId: string | undefined) {
  const qc = useQueryClient();
  const snackbar = useSnackbar();
  return useMutation<null, Error, TDataSource>({
    mutationFn: (source) => api<null>("DELETE", `/api/data-sources/${source.id}`),
    onSuccess: (_, source) => {
      snackbar(DATA_SOURCE_MESSAGES.deleted);
      qc.removeQueries({ queryKey: dataSourceKeys.detail(source.id) });
    },
    // A failed delete may mean someone else already removed it: refresh either way.
    onSettled: () => {
      if (plantId) return qc.invalidateQueries({ queryKey: dataSourceKeys.list(plantId) });
    },
  });
}

/** POST /api/plants/{plantId}/data-sources. Errors (409 name taken, 400) go to the dialog. */
export function useCreateDataSource(plantId: string | undefined) {
  const qc = useQueryClient();
  const snackbar = useSnackbar();
  return useMutation<TDataSource, Error, TCreateDataSourceBody>({
    mutationFn: (body) => {
      if (!plantId) throw new Error(DATA_SOURCE_MESSAGES.plantRequired);
      return api<TDataSource>("POST", `/api/plants/${plantId}/data-sources`, body);
    },
    onSuccess: (source) => {
      snackbar(DATA_SOURCE_MESSAGES.created);
      qc.setQueryData(dataSourceKeys.detail(source.id), source);
      if (plantId) return qc.invalidateQueries({ queryKey: dataSourceKeys.list(plantId) });
    },
  });
}

/** POST /api/plants/{plantId}/ingest-tokens: the answer holds the secret, shown once by the caller. */
export function useCreateIngestToken(plantId: string | undefined) {
  const qc = useQueryClient();
  return useMutation<TCreateIngestTokenResponse, Error, TCreateIngestTokenBody>({
    mutationFn: (body) => {
      if (!plantId) throw new Error(DATA_SOURCE_MESSAGES.plantRequired);
      return api<TCreateIngestTokenResponse>("POST", `/api/plants/${plantId}/ingest-tokens`, body);
    },
    onSuccess: () => {
      if (plantId) return qc.invalidateQueries({ queryKey: dataSourceKeys.ingestTokens(plantId) });
    },
  });
}

/** DELETE /api/ingest-tokens/{tokenId}: the token stops working at once. */
export function useRevokeIngestToken(plantId: string | undefined) {
  const qc = useQueryClient();
  const snackbar = useSnackbar();
  return useMutation<null, Error, TIngestToken>({
    mutationFn: (token) => api<null>("DELETE", `/api/ingest-tokens/${token.id}`),
    onSuccess: () => snackbar(INGEST_MESSAGES.tokenRevoked),
    onError: (err) => snackbar(err.message, { severity: "error" }),
    onSettled: () => {
      if (plantId) return qc.invalidateQueries({ queryKey: dataSourceKeys.ingestTokens(plantId) });
    },
  });
}

/**
 * POST /api/plants/{plantId}/mqtt-credential/password: a new password, in the answer only (the
 * caller shows it once); the old one stops working and its clients are disconnected.
 */
export function useRotateMqttPassword(plantId: string | undefined) {
  const qc = useQueryClient();
  return useMutation<TRotateMqttPasswordResponse, Error, void>({
    mutationFn: () => {
      if (!plantId) throw new Error(DATA_SOURCE_MESSAGES.plantRequired);
      return api<TRotateMqttPasswordResponse>("POST", `/api/plants/${plantId}/mqtt-credential/password`);
    },
    onSuccess: (answer) => {
      if (plantId) qc.setQueryData(dataSourceKeys.mqttCredential(plantId), answer.credential);
    },
  });
}

export type CsvUploadVariables = { file: File; line?: string; station?: string } & CsvUploadOptions;

/**
 * POST /api/plants/{plantId}/part-records/csv with upload progress. Stored rows may create lines,
 * so the plant's line list is refreshed afterwards.
 */
export function useUploadPartRecordsCsv(plantId: string | undefined) {
  const qc = useQueryClient();
  return useMutation<TCsvUploadResult, Error, CsvUploadVariables>({
    mutationFn: ({ file, line, station, ...opts }) => {
      if (!plantId) throw new Error(DATA_SOURCE_MESSAGES.plantRequired);
      const query = new URLSearchParams();
      if (line) query.set("line", line);
      if (station) query.set("station", station);
      const qs = query.toString() ? `?${query}` : "";
      return postCsv(`/api/plants/${plantId}/part-records/csv${qs}`, file, opts);
    },
    onSettled: () => {
      if (plantId) return qc.invalidateQueries({ queryKey: plantKeys.lines(plantId) });
    },
  });
}
