import { PLANT_TEXTS, type TCreatePlantBody, type TPlant, type TUpdatePlantBody } from "@linewatch/contracts";
import { api } from "../../api/client";
import { type ResourceMutationOptions, useResourceMutation } from "../../api/useResourceMutation";
import { plantKeys } from "./keys";

type SelectionBody = { selectedPlantId?: string | null; selectedLineId?: string | null };

/** Remembers the user's plant and line on the server (the top bar's pick): nothing to say or refetch. */
export const useSaveSelection = (options?: ResourceMutationOptions<unknown, SelectionBody>) =>
  useResourceMutation(
    {
      mutationFn: (body) => api("PATCH", "/api/auth/me/selection", body),
      invalidate: () => undefined,
      successText: false,
      errorText: false,
    },
    options,
  );

/**
 * POST /api/plants. Errors go back to the caller (the form places them under its fields); the
 * top bar's plants and the Plants page's list are refetched once a plant is made.
 */
export function useCreatePlant(options?: ResourceMutationOptions<TPlant, TCreatePlantBody>) {
  return useResourceMutation(
    {
      mutationFn: (body) => api<TPlant>("POST", "/api/plants", body),
      invalidate: (qc, _v, _plant, error) => !error && qc.invalidateQueries({ queryKey: plantKeys.all }),
      successText: PLANT_TEXTS.created,
      errorText: false,
    },
    options,
  );
}

type UpdatePlantVars = { plantId: string; body: TUpdatePlantBody };

/** PATCH /api/plants/:plantId: rename, time zone, deactivate or reactivate. */
export function useUpdatePlant(options?: ResourceMutationOptions<TPlant, UpdatePlantVars>) {
  return useResourceMutation(
    {
      mutationFn: (v) => api<TPlant>("PATCH", `/api/plants/${encodeURIComponent(v.plantId)}`, v.body),
      invalidate: (qc) => qc.invalidateQueries({ queryKey: plantKeys.all }),
      successText: (_plant, v) =>
        v.body.active === false
          ? PLANT_TEXTS.deactivated
          : v.body.active === true
            ? PLANT_TEXTS.reactivated
            : PLANT_TEXTS.saved,
      errorText: false,
    },
    options,
  );
}
