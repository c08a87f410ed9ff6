import { SIGNAL_MANAGEMENT_MESSAGES as MSG, SIGNAL_MANAGEMENT_TEXT as TEXT } from "@linewatch/contracts";
import { Button, Stack, TextField, Typography } from "@mui/material";
import { useState } from "react";

/** requirements.md settings §5 "Friendly name (signal)": no leading whitespace. */
export const friendlyNameError = (v: string) => (/^\s/.test(v) ? MSG.noLeadingSpaces : null);

/**
 * Friendly Name, edited in place (requirements.md settings §4 "Friendly name edit"): default → Configure → editing with
 * Save and Cancel → default again after the save, whether it succeeded or failed.
 */
export function FriendlyNameField(p: {
  value: string | null;
  mixed: boolean;
  disabled: boolean;
  onSave: (name: string) => Promise<unknown>;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  const [isSaving, setIsSaving] = useState(false);
  const error = draft === null ? null : friendlyNameError(draft);

  const handleSave = async () => {
    if (draft === null || error) return;
    setIsSaving(true);
    try {
      await p.onSave(draft);
    } catch {
      // The mutation showed its message; the field returns to its default state either way.
    } finally {
      setIsSaving(false);
      setDraft(null);
    }
  };

  if (draft === null)
    return (
      <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
        <TextField
          size="small"
          label={TEXT.friendlyName}
          value={p.mixed ? TEXT.mixed : (p.value ?? "")}
          slotProps={{ input: { readOnly: true } }}
          disabled={p.disabled}
          sx={{ flex: 1 }}
        />
        <Button disabled={p.disabled || p.mixed} onClick={() => setDraft(p.value ?? "")}>
          {TEXT.configure}
        </Button>
      </Stack>
    );
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: "flex-start" }}>
      <TextField
        size="small"
        label={TEXT.friendlyName}
        value={draft}
        autoFocus
        disabled={isSaving}
        error={!!error}
        helperText={error ?? " "}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Enter") void handleSave();
          if (e.key === "Escape") setDraft(null);
        }}
        sx={{ flex: 1 }}
      />
      <Button variant="contained" disabled={!!error || isSaving} onClick={() => void handleSave()}>
        {TEXT.save}
      </Button>
      <Button disabled={isSaving} onClick={() => setDraft(null)}>
        {TEXT.cancel}
      </Button>
      {isSaving ? <Typography variant="caption">{TEXT.saving}</Typography> : null}
    </Stack>
  );
}
