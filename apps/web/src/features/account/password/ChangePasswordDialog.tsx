import {
  AUTH_MESSAGES,
  PASSWORD_CHANGE_TEXTS,
  PASSWORD_MIN_LENGTH,
  type TFieldProblem,
} from "@linewatch/contracts";
import {
  Alert,
  Button,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
} from "@mui/material";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { ApiError } from "../../../shared/api/client";
import { localizeMessage, useTexts } from "../../../shared/i18n/language";
import { useChangePassword } from "./api/mutations";

type Values = { currentPassword: string; newPassword: string; repeatPassword: string };

/**
 * The user menu's Change password (issue 33 §2): the current password, the new one twice. A wrong
 * current password shows under its field; too many wrong ones (the sign-in limits) above the form.
 * Mounted only while open, so each opening starts empty.
 */
export function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
  const T = useTexts(PASSWORD_CHANGE_TEXTS);
  const change = useChangePassword();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    getValues,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<Values>({
    defaultValues: { currentPassword: "", newPassword: "", repeatPassword: "" },
    mode: "onTouched",
  });

  const submit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      await change.mutateAsync({ currentPassword: v.currentPassword, newPassword: v.newPassword });
      onClose();
    } catch (err) {
      const message = localizeMessage(AUTH_MESSAGES, err instanceof Error ? err.message : String(err));
      const fields = err instanceof ApiError ? (err.body.fields as TFieldProblem[] | undefined) : undefined;
      if (fields?.some((f) => f.field === "currentPassword")) setError("currentPassword", { message });
      else setFormError(message);
    }
  });
  const requestClose = () => {
    if (!isSubmitting) onClose();
  };

  return (
    <Dialog
      open
      // A click beside a half-filled form does not lose it.
      onClose={(_, reason) => !(reason === "backdropClick" && isDirty) && requestClose()}
      aria-labelledby="change-password-title"
      maxWidth="xs"
      fullWidth
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id="change-password-title">{T.title}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {formError && <Alert severity="error">{formError}</Alert>}
            <TextField
              {...register("currentPassword", { required: T.currentRequired })}
              type="password"
              label={T.currentPassword}
              autoComplete="current-password"
              required
              fullWidth
              autoFocus
              disabled={isSubmitting}
              error={!!errors.currentPassword}
              helperText={errors.currentPassword?.message}
            />
            <TextField
              {...register("newPassword", {
                validate: (v) => v.length >= PASSWORD_MIN_LENGTH || T.tooShort(PASSWORD_MIN_LENGTH),
              })}
              type="password"
              label={T.newPassword}
              autoComplete="new-password"
              required
              fullWidth
              disabled={isSubmitting}
              error={!!errors.newPassword}
              helperText={errors.newPassword?.message ?? T.passwordHelp(PASSWORD_MIN_LENGTH)}
            />
            <TextField
              {...register("repeatPassword", {
                validate: (v) => v === getValues("newPassword") || T.passwordsDiffer,
              })}
              type="password"
              label={T.repeatPassword}
              autoComplete="new-password"
              required
              fullWidth
              disabled={isSubmitting}
              error={!!errors.repeatPassword}
              helperText={errors.repeatPassword?.message}
            />
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={requestClose} disabled={isSubmitting}>
            {T.cancel}
          </Button>
          <Button
            type="submit"
            variant="contained"
            disabled={isSubmitting}
            startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
          >
            {T.submit}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
