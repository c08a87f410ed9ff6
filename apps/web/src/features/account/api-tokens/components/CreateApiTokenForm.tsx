import {
  API_TOKEN_BOUNDS,
  API_TOKEN_SCOPES,
  API_TOKEN_TEXTS,
  type TApiTokenScope,
  type TCreateApiTokenBody,
} from "@linewatch/contracts";
import { Button, CircularProgress, MenuItem, Stack, TextField, Typography } from "@mui/material";
import { useForm } from "react-hook-form";
import { useTexts } from "../../../../shared/i18n/language";

type Values = { name: string; expiresInDays: string; scope: TApiTokenScope };

/** A new token's name, lifetime and scope; cleared after each token made. */
export function CreateApiTokenForm({
  onSubmit,
}: {
  onSubmit: (body: TCreateApiTokenBody) => Promise<unknown>;
}) {
  const T = useTexts(API_TOKEN_TEXTS);
  const {
    register,
    handleSubmit,
    reset,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<Values>({
    defaultValues: { name: "", expiresInDays: String(API_TOKEN_BOUNDS.defaultDays), scope: "read" },
    mode: "onTouched",
  });
  const submit = handleSubmit(async (v) => {
    try {
      await onSubmit({ name: v.name.trim(), expiresInDays: Number(v.expiresInDays), scope: v.scope });
      reset();
    } catch {
      // The mutation has said what went wrong; the form keeps what was typed.
    }
  });
  const isDayCount = (v: string) => {
    const n = Number(v);
    return Number.isInteger(n) && n >= 1 && n <= API_TOKEN_BOUNDS.maxDays;
  };
  return (
    <Stack
      component="form"
      onSubmit={submit}
      noValidate
      spacing={1.5}
      aria-labelledby="api-token-create-heading"
    >
      <Typography variant="subtitle1" component="h3" id="api-token-create-heading">
        {T.createHeading}
      </Typography>
      <Stack direction={{ xs: "column", sm: "row" }} spacing={1.5} sx={{ alignItems: "flex-start" }}>
        <TextField
          {...register("name", {
            validate: (v) => (v.trim().length > 0 && v.trim().length <= API_TOKEN_BOUNDS.nameMax) || T.name,
          })}
          label={T.name}
          required
          size="small"
          disabled={isSubmitting}
          error={!!errors.name}
          sx={{ flexGrow: 1 }}
        />
        <TextField
          {...register("expiresInDays", {
            validate: (v) => isDayCount(v) || T.expiresHelp(API_TOKEN_BOUNDS.maxDays),
          })}
          label={T.expiresInDays}
          type="number"
          required
          size="small"
          disabled={isSubmitting}
          error={!!errors.expiresInDays}
          helperText={T.expiresHelp(API_TOKEN_BOUNDS.maxDays)}
          slotProps={{ htmlInput: { min: 1, max: API_TOKEN_BOUNDS.maxDays, step: 1 } }}
          sx={{ width: { sm: 150 } }}
        />
        <TextField
          {...register("scope")}
          select
          label={T.scope}
          size="small"
          value={watch("scope")}
          disabled={isSubmitting}
          sx={{ width: { sm: 150 } }}
        >
          {API_TOKEN_SCOPES.map((s) => (
            <MenuItem key={s} value={s}>
              {T.scopes[s]}
            </MenuItem>
          ))}
        </TextField>
        <Button
          type="submit"
          variant="contained"
          disabled={isSubmitting}
          startIcon={isSubmitting ? <CircularProgress size={16} color="inherit" /> : undefined}
          sx={{ whiteSpace: "nowrap", mt: { sm: 0.25 } }}
        >
          {T.create}
        </Button>
      </Stack>
    </Stack>
  );
}
