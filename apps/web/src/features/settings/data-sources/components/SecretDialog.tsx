import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  Typography,
} from "@mui/material";
import { type ReactNode, useId } from "react";
import { CopyButton } from "./CopyButton";

export const monoSx = {
  fontFamily: "monospace",
  fontSize: 13,
  bgcolor: "action.hover",
  borderRadius: 1,
  p: 1.5,
  m: 0,
  whiteSpace: "pre-wrap",
  overflowWrap: "anywhere",
} as const;

/**
 * A secret shown this once (an ingest token, an MQTT password): the server keeps only its hash.
 * Closes by its button only, so a stray click outside does not lose the secret.
 */
export function SecretDialog(p: {
  title: ReactNode;
  warning: string;
  children: ReactNode;
  onClose: () => void;
}) {
  const titleId = useId();
  return (
    <Dialog open aria-labelledby={titleId} maxWidth="md" fullWidth>
      <DialogTitle id={titleId}>{p.title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity="warning">{p.warning}</Alert>
          {p.children}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={p.onClose}>
          Done
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** One value of the secret, with its label and a copy button ("Copy <label>"). */
export function SecretField(p: { label: string; value: string; testId: string; copyLabel?: string }) {
  return (
    <Box>
      <Typography variant="subtitle2" component="h3" gutterBottom>
        {p.label}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
        <Box component="code" sx={{ ...monoSx, flexGrow: 1 }} data-testid={p.testId}>
          {p.value}
        </Box>
        <CopyButton text={p.value} label={p.copyLabel ?? `Copy ${p.label.toLowerCase()}`} />
      </Stack>
    </Box>
  );
}
