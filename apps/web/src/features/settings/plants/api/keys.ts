import { plantKeys } from "../../../../shared/data/plants/keys";

/**
 * The Plants page's list (inactive plants included) lives under the top bar's key, so a change
 * invalidates both with plantKeys.all.
 */
export const plantAdminKeys = {
  all: plantKeys.all,
  withInactive: [...plantKeys.all, "with-inactive"] as const,
};
