import { DATA_SOURCE_MESSAGES, type TCreateDataSourceBody, type TDataSource } from "@linewatch/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../../shared/api/client";
import { useSnackbar } from "../../../../shared/ui/SnackbarProvider";
import { dataSourceKeys } from "./keys";

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
