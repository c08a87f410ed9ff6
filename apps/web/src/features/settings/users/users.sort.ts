import type { TUserRow } from "@linewatch/contracts";
import type { GridSortModel } from "../../../shared/ui/settings/settings-grid";

/** Default sort: last login descending (requirements.md settings §2.6, §9). */
export const DEFAULT_USER_SORT: GridSortModel = [{ field: "lastLogin", sort: "desc" }];

/**
 * Sorts the saved rows ourselves so a new row can stay on top whatever the sort (the grid
 * has no row pinning). Never logged in counts as the oldest login.
 */
export function sortUsers<R extends TUserRow>(
  rows: R[],
  model: GridSortModel,
  locationLabelOf: (row: R) => string,
): R[] {
  const item = model[0];
  if (!item?.sort) return rows;
  const dir = item.sort === "asc" ? 1 : -1;
  const value = (r: R): string => {
    switch (item.field) {
      case "lastLogin":
        return r.lastLogin ?? "";
      case "role":
        return r.role;
      case "location":
        return locationLabelOf(r).toLowerCase();
      default:
        return r.email.toLowerCase();
    }
  };
  return [...rows].sort((a, b) => {
    const va = value(a);
    const vb = value(b);
    if (va === vb) return a.email.localeCompare(b.email);
    return va < vb ? -dir : dir;
  });
}
