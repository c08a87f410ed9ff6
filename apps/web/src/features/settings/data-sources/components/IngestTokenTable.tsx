import type { TIngestToken } from "@linewatch/contracts";
import {
  Box,
  Button,
  Chip,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from "@mui/material";
import { formatDateTime } from "../../../../shared/format";

export type IngestTokenTableProps = {
  tokens: TIngestToken[];
  timeZone: string;
  onRevoke: (token: TIngestToken) => void;
};

/** The plant's ingest tokens: name, prefix, created, last used and whether revoked. */
export function IngestTokenTable({ tokens, timeZone, onRevoke }: IngestTokenTableProps) {
  if (tokens.length === 0) {
    return (
      <Paper variant="outlined" sx={{ p: 3, textAlign: "center" }}>
        <Typography color="text.secondary">No ingest tokens</Typography>
      </Paper>
    );
  }
  const time = (iso: string) => <time dateTime={iso}>{formatDateTime(iso, timeZone)}</time>;
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label="Ingest tokens">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Prefix</TableCell>
            <TableCell>Created</TableCell>
            <TableCell>Last used</TableCell>
            <TableCell>Status</TableCell>
            <TableCell align="right">
              <Box component="span" sx={visuallyHidden}>
                Actions
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {tokens.map((t) => (
            <TableRow key={t.id} data-testid="ingest-token-row">
              <TableCell component="th" scope="row" sx={{ overflowWrap: "anywhere" }}>
                {t.name}
              </TableCell>
              <TableCell>
                <Box component="code" sx={{ fontFamily: "monospace" }}>
                  {t.prefix}…
                </Box>
              </TableCell>
              <TableCell>{time(t.createdAt)}</TableCell>
              <TableCell>{t.lastUsedAt ? time(t.lastUsedAt) : "Never"}</TableCell>
              <TableCell>
                {t.revokedAt ? (
                  <Chip size="small" label={`Revoked ${formatDateTime(t.revokedAt, timeZone)}`} />
                ) : (
                  <Chip size="small" color="success" variant="outlined" label="Active" />
                )}
              </TableCell>
              <TableCell align="right">
                {!t.revokedAt && (
                  <Button
                    size="small"
                    color="error"
                    onClick={() => onRevoke(t)}
                    aria-label={`Revoke ingest token ${t.name}`}
                  >
                    Revoke
                  </Button>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

// "1px", not 1: in sx a number up to 1 is a fraction (width 1 is 100 % of the positioned
// ancestor), which made the Data Sources page scroll sideways by the page's width.
const visuallyHidden = {
  position: "absolute",
  width: "1px",
  height: "1px",
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
} as const;
