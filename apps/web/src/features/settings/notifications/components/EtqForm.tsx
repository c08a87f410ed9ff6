import { ETQ_MESSAGES, type TRelianceConfig } from "@linewatch/contracts";
import { Box, Button, Stack, TextField } from "@mui/material";
import { useEffect } from "react";
import { type Resolver, useForm } from "react-hook-form";
import {
  ETQ_FIELDS,
  etqFormDefaults,
  etqFormErrors,
  MASKED_SECRET,
  type TEtqFormValues,
} from "../notifications.form";

export type EtqFormProps = {
  line: string;
  config: TRelianceConfig | null;
  isEditing: boolean;
  onSave: (values: TEtqFormValues) => void;
  onCancel: () => void;
  /** The form has edits that Cancel would drop (the page asks before dropping them). */
  onDirtyChange?: (isDirty: boolean) => void;
};

/**
 * A line's ETQ Reliance form, the row's detail (requirements.md settings §2.3): Reliance API Host, Client ID,
 * Client Secret (masked in view mode when one is stored), Token URL; Save needs a valid form and a
 * field says 'required' once touched and empty (§5). In view mode every field is read-only.
 */
export function EtqForm(p: EtqFormProps) {
  const hasStoredSecret = p.config?.hasClientSecret ?? false;
  const resolver: Resolver<TEtqFormValues> = (values) => {
    const errors = etqFormErrors(values, hasStoredSecret);
    return Object.keys(errors).length === 0
      ? { values, errors: {} }
      : {
          values: {},
          errors: Object.fromEntries(
            Object.entries(errors).map(([name, message]) => [name, { type: "required", message }]),
          ),
        };
  };
  const form = useForm<TEtqFormValues>({
    defaultValues: etqFormDefaults(p.config),
    mode: "onTouched",
    resolver,
  });
  const { errors, isValid, isDirty } = form.formState;
  const { onDirtyChange } = p;
  useEffect(() => {
    onDirtyChange?.(isDirty);
  }, [isDirty, onDirtyChange]);

  if (!p.isEditing) {
    return (
      <Box
        sx={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(260px, 1fr))", gap: 2 }}
        aria-label={`ETQ configuration for ${p.line}`}
        role="group"
      >
        {ETQ_FIELDS.map((f) => (
          <TextField
            key={f.name}
            label={f.label}
            size="small"
            value={
              f.name === "clientSecret" ? (hasStoredSecret ? MASKED_SECRET : "") : (p.config?.[f.name] ?? "")
            }
            slotProps={{ htmlInput: { readOnly: true } }}
          />
        ))}
      </Box>
    );
  }

  return (
    <Box
      component="form"
      noValidate
      aria-label={`ETQ configuration for ${p.line}`}
      onSubmit={form.handleSubmit(p.onSave)}
      onKeyDown={(e) => {
        if (e.key === "Escape") p.onCancel();
      }}
    >
      <Box sx={{ display: "grid", gridTemplateColumns: "repeat(auto-fill, minmax(260px, 1fr))", gap: 2 }}>
        {ETQ_FIELDS.map((f, i) => (
          <TextField
            key={f.name}
            label={f.label}
            size="small"
            required={!(f.name === "clientSecret" && hasStoredSecret)}
            type={f.name === "clientSecret" ? "password" : "text"}
            autoFocus={i === 0}
            autoComplete={f.name === "clientSecret" ? "new-password" : "off"}
            placeholder={
              f.name === "clientSecret" && hasStoredSecret ? ETQ_MESSAGES.keepStoredSecret : undefined
            }
            error={Boolean(errors[f.name])}
            helperText={errors[f.name]?.message}
            {...form.register(f.name)}
          />
        ))}
      </Box>
      <Stack direction="row" spacing={1} sx={{ mt: 2, justifyContent: "flex-end" }}>
        <Button onClick={p.onCancel}>Cancel</Button>
        <Button type="submit" variant="contained" disabled={!isValid}>
          Save
        </Button>
      </Stack>
    </Box>
  );
}
