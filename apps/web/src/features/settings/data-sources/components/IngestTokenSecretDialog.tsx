import { INGEST_MESSAGES, type TCreateIngestTokenResponse } from "@linewatch/contracts";
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
import { CopyButton } from "./CopyButton";

export type IngestTokenSecretDialogProps = {
  created: TCreateIngestTokenResponse;
  /** Where the API is reached, for the curl example (the page's own origin). */
  origin: string;
  onClose: () => void;
};

/** A curl call that sends one part record with the token (monitoring.md "Part records"). */
export function curlExample(origin: string, secret: string): string {
  const record = {
    line: "Line 1",
    station: "OP20",
    partId: "SN-000123",
    modelNumber: "M-100",
    timestamp: "2026-11-22T10:15:03.120Z",
    op: 1,
    measurements: { Torque: 12.31 },
    limits: { Torque: { lower: 11, upper: 13.5 } },
    results: { Result: "PASS" },
    attributes: { Shift: "A" },
  };
  return [
    `curl -X POST '${origin}/api/ingest' \\`,
    `  -H 'Authorization: Bearer ${secret}' \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d '${JSON.stringify([record])}'`,
  ].join("\n");
}

const mono = {
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
 * The new token's secret, shown this once: the server keeps only its hash. Closes by its button
 * only, so a stray click outside does not lose the secret.
 */
export function IngestTokenSecretDialog({ created, origin, onClose }: IngestTokenSecretDialogProps) {
  const curl = curlExample(origin, created.secret);
  return (
    <Dialog open aria-labelledby="ingest-token-secret-title" maxWidth="md" fullWidth>
      <DialogTitle id="ingest-token-secret-title">Ingest token {created.token.name}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Alert severity="warning">{INGEST_MESSAGES.tokenCreated}</Alert>
          <Box>
            <Typography variant="subtitle2" component="h3" gutterBottom>
              Token
            </Typography>
            <Stack direction="row" spacing={1} sx={{ alignItems: "center" }}>
              <Box component="code" sx={{ ...mono, flexGrow: 1 }} data-testid="ingest-token-secret">
                {created.secret}
              </Box>
              <CopyButton text={created.secret} label="Copy token" />
            </Stack>
          </Box>
          <Box>
            <Typography variant="subtitle2" component="h3" gutterBottom>
              Send part records with curl
            </Typography>
            <Box component="pre" sx={mono} data-testid="ingest-token-curl">
              {curl}
            </Box>
            <Box sx={{ mt: 1 }}>
              <CopyButton text={curl} label="Copy curl example" />
            </Box>
          </Box>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          Done
        </Button>
      </DialogActions>
    </Dialog>
  );
}
