import { PLANT_TEXTS, type TCreatePlantBody, type TPlant, type TUpdatePlantBody } from "@linewatch/contracts";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../api/client";
import { useSnackbar } from "../../ui/SnackbarProvider";
import { plantKeys } from "./keys";

/** Remembers the user's plant and line on the server (the top bar's pick). */
export const useSaveSelection = () =>
  useMutation({
    mutationFn: (body: { selectedPlantId?: string | null; selectedLineId?: string | null }) =>
      api("PATCH", "/api/auth/me/selection", body),
  });

/**
 * POST /api/plants. Errors go back to the caller (the form places them under its fields); the
 * top bar's plants and the Plants page's list are refetched.
 */
export function useCreatePlant() {
  const qc = useQueryClient();
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: (body: TCreatePlantBody) => api<TPlant>("POST", "/api/plants", body),
    onSuccess: () => {
      snackbar(PLANT_TEXTS.created);
      return qc.invalidateQueries({ queryKey: plantKeys.all });
    },
  });
}

/** PATCH /api/plants/:plantId: rename, time zone, deactivate or reactivate. */
export function useUpdatePlant() {
  const qc = useQueryClient();
  const snackbar = useSnackbar();
  return useMutation({
    mutationFn: (v: { plantId: string; body: TUpdatePlantBody }) =>
      api<TPlant>("PATCH", `/api/plants/${encodeURIComponent(v.plantId)}`, v.body),
    onSuccess: (_plant, v) => {
      const { active } = v.body;
      snackbar(
        active === false
          ? PLANT_TEXTS.deactivated
          : active === true
            ? PLANT_TEXTS.reactivated
            : PLANT_TEXTS.saved,
      );
    },
    onSettled: () => qc.invalidateQueries({ queryKey: plantKeys.all }),
  });
}
