import { useMutation } from "@tanstack/react-query";
import { api } from "../../api/client";

/** Remembers the user's plant and line on the server (the top bar's pick). */
export const useSaveSelection = () =>
  useMutation({
    mutationFn: (body: { selectedPlantId?: string | null; selectedLineId?: string | null }) =>
      api("PATCH", "/api/auth/me/selection", body),
  });
