import { API_TOKEN_TEXTS, type TApiToken } from "@linewatch/contracts";
import {
  Box,
  Button,
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
import { useTexts } from "../../../../shared/i18n/language";

export type ApiTokenTableProps = {
  tokens: TApiToken[];
  timeZone: string;
  now: number;
  onRevoke: (token: TApiToken) => void;
};

/** The user's API tokens: name (and prefix), scope, created, expires, last used, Revoke. */
export function ApiTokenTable({ tokens, timeZone, now, onRevoke }: ApiTokenTableProps) {
  const T = useTexts(API_TOKEN_TEXTS);
  if (tokens.length === 0) {
    return (
      <Paper variant="outlined" sx={{ p: 2, textAlign: "center" }}>
        <Typography color="text.secondary">{T.noTokens}</Typography>
      </Paper>
    );
  }
  const time = (iso: string) => <time dateTime={iso}>{formatDateTime(iso, timeZone)}</time>;
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table size="small" aria-label={T.title}>
        <TableHead>
          <TableRow>
            <TableCell>{T.columns.name}</TableCell>
            <TableCell>{T.columns.scope}</TableCell>
            <TableCell>{T.columns.created}</TableCell>
            <TableCell>{T.columns.expires}</TableCell>
            <TableCell>{T.columns.lastUsed}</TableCell>
            <TableCell align="right">
              <Box component="span" sx={visuallyHidden}>
                {T.columns.actions}
              </Box>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {tokens.map((t) => (
            <TableRow key={t.id} data-testid="api-token-row">
              <TableCell component="th" scope="row" sx={{ overflowWrap: "anywhere" }}>
                {t.name}
                <Box
                  component="code"
                  sx={{ display: "block", fontFamily: "monospace", color: "text.secondary" }}
                >
                  {t.prefix}…
                </Box>
              </TableCell>
              <TableCell>{T.scopes[t.scope]}</TableCell>
              <TableCell>{time(t.createdAt)}</TableCell>
              <TableCell>{Date.parse(t.expiresAt) <= now ? T.expired : time(t.expiresAt)}</TableCell>
              <TableCell>{t.lastUsedAt ? time(t.lastUsedAt) : T.never}</TableCell>
              <TableCell align="right">
                <Button
                  size="small"
                  color="error"
                  onClick={() => onRevoke(t)}
                  aria-label={T.revokeLabel(t.name)}
                >
                  {T.revoke}
                </Button>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

// "1px", not 1: in sx a number up to 1 is a fraction of the positioned ancestor.
const visuallyHidden = {
  position: "absolute",
  width: "1px",
  height: "1px",
  overflow: "hidden",
  clip: "rect(0 0 0 0)",
  whiteSpace: "nowrap",
} as const;
