import {
  DATA_SOURCE_MESSAGES,
  INGEST_MESSAGES,
  type TCreateDataSourceBody,
  type TCreateIngestTokenBody,
  type TCreateIngestTokenResponse,
  type TCsvUploadProgress,
  type TCsvUploadResult,
  type TDataSource,
  type TIngestToken,
  type TRotateMqttPasswordResponse,
} from "@linewatch/contracts";
import { api } from "../../../../shared/api/client";
import {
  errorMessage,
  type ResourceMutationOptions,
  useResourceMutation,
} from "../../../../shared/api/useResourceMutation";
import { plantKeys } from "../../../../shared/data/plants/keys";
import { dataSourceKeys } from "./keys";
import { type CsvUploadOptions, postCsv } from "./upload";

const plantRequired = (plantId: string | undefined): string => {
  if (!plantId) throw new Error(DATA_SOURCE_MESSAGES.plantRequired);
  return plantId;
};

/**
 * DELETE /api/data-sources/{id}: on success the spec's success alert and a list refresh
 * (requirements.md monitor-forms §4, §7). Failures go to the caller, which shows the error modal.
 */
export function useDeleteDataSource(
  plantId: string | undefined,
  options?: ResourceMutationOptions<null, TDataSource>,
) {
  return useResourceMutation(
    {
      mutationFn: (source) => api<null>("DELETE", `/api/data-sources/${source.id}`),
      invalidate: (qc, source, _d, error) => {
        if (!error) qc.removeQueries({ queryKey: dataSourceKeys.detail(source.id) });
        // A failed delete may mean someone else already removed it: refresh either way.
        if (plantId) return qc.invalidateQueries({ queryKey: dataSourceKeys.list(plantId) });
      },
      successText: DATA_SOURCE_MESSAGES.deleted,
      errorText: false,
    },
    options,
  );
}

/** POST /api/plants/{plantId}/data-sources. Errors (409 name taken, 400) go to the dialog. */
export function useCreateDataSource(
  plantId: string | undefined,
  options?: ResourceMutationOptions<TDataSource, TCreateDataSourceBody>,
) {
  return useResourceMutation(
    {
      mutationFn: (body) =>
        api<TDataSource>("POST", `/api/plants/${plantRequired(plantId)}/data-sources`, body),
      invalidate: (qc, _body, source) => {
        if (!source) return;
        qc.setQueryData(dataSourceKeys.detail(source.id), source);
        if (plantId) return qc.invalidateQueries({ queryKey: dataSourceKeys.list(plantId) });
      },
      successText: DATA_SOURCE_MESSAGES.created,
      errorText: false,
    },
    options,
  );
}

/** POST /api/plants/{plantId}/ingest-tokens: the answer holds the secret, shown once by the caller. */
export function useCreateIngestToken(
  plantId: string | undefined,
  options?: ResourceMutationOptions<TCreateIngestTokenResponse, TCreateIngestTokenBody>,
) {
  return useResourceMutation(
    {
      mutationFn: (body) =>
        api<TCreateIngestTokenResponse>("POST", `/api/plants/${plantRequired(plantId)}/ingest-tokens`, body),
      invalidate: (qc, _body, _answer, error) => {
        if (!error && plantId)
          return qc.invalidateQueries({ queryKey: dataSourceKeys.ingestTokens(plantId) });
      },
      successText: false,
      errorText: false,
    },
    options,
  );
}

/** DELETE /api/ingest-tokens/{tokenId}: the token stops working at once. */
export function useRevokeIngestToken(
  plantId: string | undefined,
  options?: ResourceMutationOptions<null, TIngestToken>,
) {
  return useResourceMutation(
    {
      mutationFn: (token) => api<null>("DELETE", `/api/ingest-tokens/${token.id}`),
      invalidate: (qc) => {
        if (plantId) return qc.invalidateQueries({ queryKey: dataSourceKeys.ingestTokens(plantId) });
      },
      successText: INGEST_MESSAGES.tokenRevoked,
      errorText: errorMessage,
    },
    options,
  );
}

/**
 * POST /api/plants/{plantId}/mqtt-credential/password: a new password, in the answer only (the
 * caller shows it once); the old one stops working and its clients are disconnected.
 */
export function useRotateMqttPassword(
  plantId: string | undefined,
  options?: ResourceMutationOptions<TRotateMqttPasswordResponse, void>,
) {
  return useResourceMutation(
    {
      mutationFn: () =>
        api<TRotateMqttPasswordResponse>(
          "POST",
          `/api/plants/${plantRequired(plantId)}/mqtt-credential/password`,
        ),
      invalidate: (qc, _v, answer) => {
        if (answer && plantId) qc.setQueryData(dataSourceKeys.mqttCredential(plantId), answer.credential);
      },
      successText: false,
      errorText: false,
    },
    options,
  );
}

export type CsvUploadVariables = { file: File; line?: string; station?: string } & CsvUploadOptions;

/**
 * POST /api/plants/{plantId}/part-records/csv with upload progress; `uploadId` (made by the caller)
 * lets it read the server's progress and cancel the upload. Stored rows may create lines, so the
 * plant's line list is refreshed afterwards.
 */
export function useUploadPartRecordsCsv(
  plantId: string | undefined,
  options?: ResourceMutationOptions<TCsvUploadResult, CsvUploadVariables & { uploadId?: string }>,
) {
  return useResourceMutation(
    {
      mutationFn: ({ file, line, station, uploadId, ...opts }) => {
        const query = new URLSearchParams();
        if (line) query.set("line", line);
        if (station) query.set("station", station);
        if (uploadId) query.set("upload", uploadId);
        const qs = query.toString() ? `?${query}` : "";
        return postCsv(`/api/plants/${plantRequired(plantId)}/part-records/csv${qs}`, file, opts);
      },
      invalidate: (qc) => {
        if (plantId) return qc.invalidateQueries({ queryKey: plantKeys.lines(plantId) });
      },
      successText: false,
      errorText: false,
    },
    options,
  );
}

/**
 * POST /api/plants/{plantId}/part-records/csv/{uploadId}/cancel (issue 32 §4): the server stops
 * reading the file and answers the upload itself with what was stored; a 404 (the upload has not
 * reached the server yet, or has just ended) goes to the caller.
 */
export function useCancelCsvUpload(
  plantId: string | undefined,
  options?: ResourceMutationOptions<TCsvUploadProgress, string>,
) {
  return useResourceMutation(
    {
      mutationFn: (uploadId) =>
        api<TCsvUploadProgress>(
          "POST",
          `/api/plants/${plantRequired(plantId)}/part-records/csv/${uploadId}/cancel`,
        ),
      invalidate: () => undefined, // the upload's answer says what changed
      successText: false,
      errorText: false,
    },
    options,
  );
}
