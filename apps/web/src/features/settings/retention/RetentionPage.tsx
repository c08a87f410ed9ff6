import { RETENTION_TEXTS, shortenedRetention, type TRetentionDays } from "@linewatch/contracts";
import { Alert, Paper, Stack, Typography } from "@mui/material";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { ConfirmDialog } from "../../../shared/ui/ConfirmDialog";
import { QueryState } from "../../../shared/ui/QueryState";
import { useLeaveGuard } from "../../../shared/ui/settings/useLeaveGuard";
import { useSaveRetention } from "./api/mutations";
import { useRetention } from "./api/queries";
import { RetentionForm } from "./components/RetentionForm";
import {
  placeRetentionError,
  type RetentionFormValues,
  retentionFormBody,
  retentionFormDefaults,
  retentionResolver,
} from "./retention.form";

/**
 * Settings → Data Management → Data retention (issue 31 §2; administrators only, the Settings menu
 * and the server decide): how long the customer's part records, evaluations, resolved alerts and
 * audit log are kept. Saving a shorter horizon asks first: the next housekeeping run deletes what
 * is older. Unsaved edits ask before the section is left.
 */
export function RetentionPage() {
  const T = RETENTION_TEXTS;
  const retentionQ = useRetention();
  const save = useSaveRetention();
  const stored = retentionQ.data;
  const form = useForm<RetentionFormValues>({
    defaultValues: stored && retentionFormDefaults(stored),
    mode: "onTouched",
    resolver: retentionResolver,
  });
  const [confirming, setConfirming] = useState<TRetentionDays | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const leaveDialog = useLeaveGuard(form.formState.isDirty && !save.isPending);

  // The stored values arrive (or come back after a save): the form starts from them.
  useEffect(() => {
    if (stored) form.reset(retentionFormDefaults(stored));
  }, [stored, form]);

  const submit = async (body: TRetentionDays) => {
    setFormError(null);
    try {
      await save.mutateAsync(body);
      setConfirming(null);
    } catch (err) {
      setConfirming(null);
      const placed = placeRetentionError(err);
      if (placed.field) form.setError(`${placed.field}.days`, { type: "server", message: placed.message });
      else setFormError(placed.message || T.saveError);
    }
  };
  const handleSubmit = (values: RetentionFormValues) => {
    if (!stored) return;
    const body = retentionFormBody(values);
    if (shortenedRetention(stored, body).length > 0) setConfirming(body);
    else void submit(body);
  };
  const shortened = stored && confirming ? shortenedRetention(stored, confirming) : [];

  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h2">
        {T.title}
      </Typography>
      <Typography color="text.secondary">{T.intro}</Typography>
      <Paper variant="outlined">
        <QueryState
          isLoading={retentionQ.isLoading}
          error={retentionQ.error}
          errorTitle={T.errorLoading}
          onRetry={() => retentionQ.refetch()}
        >
          {formError && (
            <Alert severity="error" sx={{ m: 2, mb: 0 }}>
              {formError}
            </Alert>
          )}
          <RetentionForm form={form} isSaving={save.isPending} onSubmit={handleSubmit} />
        </QueryState>
      </Paper>
      <ConfirmDialog
        open={confirming !== null}
        title={T.confirmTitle}
        confirmLabel={T.confirm}
        cancelLabel={T.cancel}
        destructive
        busy={save.isPending}
        onConfirm={() => confirming && void submit(confirming)}
        onCancel={() => setConfirming(null)}
      >
        <Stack spacing={1}>
          {shortened.map((s) => (
            <Typography key={s.field}>{T.confirmLine(s.field, s.days)}</Typography>
          ))}
        </Stack>
      </ConfirmDialog>
      {leaveDialog}
    </Stack>
  );
}
