import { INGEST_MESSAGES, type TCreateIngestTokenResponse } from "@linewatch/contracts";
import { Box, Typography } from "@mui/material";
import { CopyButton } from "./CopyButton";
import { monoSx, SecretDialog, SecretField } from "./SecretDialog";

export type IngestTokenSecretDialogProps = {
  created: TCreateIngestTokenResponse;
  /** Where the API is reached, for the curl example (the page's own origin). */
  origin: string;
  onClose: () => void;
};

/** A curl call that sends one part record with the token (docs/monitoring.md "Part records"). */
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

/** The new token's secret, shown this once, with a curl call that uses it. */
export function IngestTokenSecretDialog({ created, origin, onClose }: IngestTokenSecretDialogProps) {
  const curl = curlExample(origin, created.secret);
  return (
    <SecretDialog
      title={`Ingest token ${created.token.name}`}
      warning={INGEST_MESSAGES.tokenCreated}
      onClose={onClose}
    >
      <SecretField label="Token" value={created.secret} testId="ingest-token-secret" />
      <Box>
        <Typography variant="subtitle2" component="h3" gutterBottom>
          Send part records with curl
        </Typography>
        <Box component="pre" sx={monoSx} data-testid="ingest-token-curl">
          {curl}
        </Box>
        <Box sx={{ mt: 1 }}>
          <CopyButton text={curl} label="Copy curl example" />
        </Box>
      </Box>
    </SecretDialog>
  );
}
