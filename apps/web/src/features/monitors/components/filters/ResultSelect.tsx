import {
  MONITOR_FORM_LAYOUT,
  MONITOR_FORM_TEXTS,
  QUERY_MESSAGES,
  type TMonitorFormValues,
} from "@linewatch/contracts";
import { Alert, Box, Button, Link, MenuItem, TextField } from "@mui/material";
import { useFormContext, useWatch } from "react-hook-form";
import { Link as RouterLink } from "react-router";
import { useAssociatedResultClassifications, useSignalGroups } from "../../../signals/api/queries";
import { remember } from "../../../signals/remembered";
import { useMonitorFormCtx } from "../MonitorFormContext";
import { RESULT_ASSOCIATION_WARNING, resultAssociationOf, selectedSignalIds } from "./filters.logic";

const T = MONITOR_FORM_TEXTS.result;
const RESULTS = [
  { value: "pass", label: T.pass },
  { value: "fail", label: T.fail },
] as const;
const NOT_CONFIGURED = QUERY_MESSAGES.resultNotConfigured;
/** Settings opens the section named in its query string (SettingsPage). */
const SIGNAL_MANAGEMENT_HREF = "/settings?section=SIGNAL_MANAGEMENT";

/**
 * Result (requirements.md monitor-forms §2 "Data Filters tab"): pass / fail through the selected signals' result
 * classifications. 'Not Configured' and disabled when none of them has any; a warning with a
 * 'Configure now' link when some selected signal has no result association.
 */
export function ResultSelect() {
  const ctx = useMonitorFormCtx();
  const { control, setValue } = useFormContext<TMonitorFormValues>();
  const [lineId, signalUuids, groupUuids, selected] = useWatch({
    control,
    name: ["line_uuid", "signal_uuids", "signal_group_uuids", "pass_fail_filter"],
  });
  const groupsQ = useSignalGroups({
    customerUuid: ctx.customerId,
    plantUuid: ctx.plant.id,
    // Group members matter only when groups are selected.
    lineUuid: groupUuids.length ? lineId : null,
  });
  const signalIds = selectedSignalIds(signalUuids, groupUuids, groupsQ.data);
  const classQ = useAssociatedResultClassifications(signalIds ?? []);
  const isLoading = (groupUuids.length > 0 && groupsQ.isLoading) || classQ.isLoading;
  const failed = groupsQ.error ?? classQ.error;
  const association = resultAssociationOf(signalIds ?? [], classQ.data);
  const isDisabled = isLoading || !!failed || !association.isConfigured;

  return (
    <Box sx={{ display: "grid", gap: 1 }}>
      <TextField
        select
        label={T.label}
        size="small"
        value={association.isConfigured ? selected : []}
        disabled={isDisabled}
        onChange={(e) => {
          const v = e.target.value as unknown as ("pass" | "fail")[];
          setValue("pass_fail_filter", v, { shouldDirty: true });
        }}
        slotProps={{
          input: { readOnly: ctx.readOnly },
          select: {
            multiple: true,
            displayEmpty: true,
            renderValue: (v) => {
              if (isLoading) return T.loading;
              if (!association.isConfigured) return NOT_CONFIGURED;
              const values = v as string[];
              return values.length
                ? RESULTS.filter((r) => values.includes(r.value))
                    .map((r) => r.label)
                    .join(", ")
                : T.all;
            },
            MenuProps: {
              slotProps: {
                paper: {
                  // MUI gives a select's menu the select's width as its min-width (685 px in
                  // this column): the spec's 177 × 250 px bound holds only with it overridden.
                  style: {
                    maxHeight: MONITOR_FORM_LAYOUT.resultMenuMaxHeight,
                    width: MONITOR_FORM_LAYOUT.resultMenuWidth,
                    minWidth: 0,
                    maxWidth: MONITOR_FORM_LAYOUT.resultMenuWidth,
                  },
                },
              },
            },
          },
          inputLabel: { shrink: true },
        }}
      >
        {RESULTS.map((r) => (
          <MenuItem key={r.value} value={r.value}>
            {r.label}
          </MenuItem>
        ))}
      </TextField>
      {failed && (
        <Alert
          severity="error"
          action={
            <Button
              color="inherit"
              size="small"
              onClick={() => (groupsQ.error ? groupsQ.refetch() : classQ.refetch())}
            >
              {MONITOR_FORM_TEXTS.retry}
            </Button>
          }
        >
          {T.loadError}
        </Alert>
      )}
      {!isLoading && !failed && association.lacking.length > 0 && (
        <Alert severity="warning">
          {RESULT_ASSOCIATION_WARNING.before}'
          <Link
            component={RouterLink}
            to={SIGNAL_MANAGEMENT_HREF}
            onClick={() => remember(lineId || null, association.lacking[0] ?? null)}
          >
            {RESULT_ASSOCIATION_WARNING.link}
          </Link>
          '{RESULT_ASSOCIATION_WARNING.after}
        </Alert>
      )}
    </Box>
  );
}
