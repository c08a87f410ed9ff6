import { AUDIT_RESOURCES, AUDIT_TEXTS, type TUserRow } from "@linewatch/contracts";
import { MenuItem, Stack, TextField } from "@mui/material";
import { fromPlantInput, toPlantInput } from "../../../shared/plant-time";
import type { TAuditFilter } from "../audit-log.filters";

export const ANY = "any";

/**
 * The audit log's filters: resource, user and period. The period is entered on the wall clock of
 * `timeZone` (the plant's, as every time in the product), and kept as instants.
 */
export function AuditFilters(p: {
  filter: TAuditFilter;
  users: readonly Pick<TUserRow, "id" | "email">[];
  timeZone: string;
  onChange: (filter: TAuditFilter) => void;
}) {
  const { filter } = p;
  const set = (patch: Partial<TAuditFilter>) => {
    const next = { ...filter, ...patch };
    for (const k of Object.keys(next) as (keyof TAuditFilter)[]) if (next[k] === undefined) delete next[k];
    p.onChange(next);
  };
  // The selected user stays selectable while the list loads (or after the user left).
  const users =
    filter.userId && !p.users.some((u) => u.id === filter.userId)
      ? [...p.users, { id: filter.userId, email: filter.userId }]
      : p.users;
  return (
    <Stack direction={{ xs: "column", md: "row" }} spacing={2}>
      <TextField
        select
        size="small"
        label="Resource"
        value={filter.resource ?? ANY}
        onChange={(e) =>
          set({
            resource: e.target.value === ANY ? undefined : (e.target.value as TAuditFilter["resource"]),
          })
        }
        sx={{ minWidth: 200 }}
      >
        <MenuItem value={ANY}>Any</MenuItem>
        {AUDIT_RESOURCES.map((r) => (
          <MenuItem key={r} value={r}>
            {AUDIT_TEXTS.resourceLabels[r]}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label="User"
        value={filter.userId ?? ANY}
        onChange={(e) => set({ userId: e.target.value === ANY ? undefined : e.target.value })}
        sx={{ minWidth: 240 }}
      >
        <MenuItem value={ANY}>Any</MenuItem>
        {users.map((u) => (
          <MenuItem key={u.id} value={u.id}>
            {u.email}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        type="datetime-local"
        size="small"
        label="From"
        value={filter.from ? toPlantInput(new Date(filter.from), p.timeZone) : ""}
        onChange={(e) => set({ from: fromPlantInput(e.target.value, p.timeZone) ?? undefined })}
        slotProps={{ inputLabel: { shrink: true } }}
      />
      <TextField
        type="datetime-local"
        size="small"
        label="To"
        value={filter.to ? toPlantInput(new Date(filter.to), p.timeZone) : ""}
        onChange={(e) => set({ to: fromPlantInput(e.target.value, p.timeZone) ?? undefined })}
        slotProps={{ inputLabel: { shrink: true } }}
      />
    </Stack>
  );
}
