import { CSV_MESSAGES, type TCsvUploadResult } from "@linewatch/contracts";
import {
  Alert,
  Box,
  Paper,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from "@mui/material";

/** Rejected rows listed in the dialog; the answer holds up to 1,000. */
const SHOWN_REJECTED = 100;

/** What an upload did: rows read, stored, duplicates, and the first rejected rows with reasons. */
export function CsvUploadSummary({ result }: { result: TCsvUploadResult }) {
  const rejectedTotal = result.rejected.length + result.rejectedMore;
  const shown = result.rejected.slice(0, SHOWN_REJECTED);
  const notListed = rejectedTotal - shown.length;
  const stats: [string, number][] = [
    ["Rows read", result.rows],
    ["Stored", result.stored],
    ["Duplicates", result.duplicates],
    ["Rejected", rejectedTotal],
  ];
  const cancelled =
    result.cancelledAfterLine === null
      ? null
      : CSV_MESSAGES.cancelled(result.stored, result.cancelledAfterLine);
  const problem = cancelled ?? result.error;
  return (
    <Box data-testid="csv-upload-summary">
      <Alert severity={problem ? "warning" : rejectedTotal ? "info" : "success"} sx={{ mb: 2 }}>
        {problem ?? (rejectedTotal ? "Upload finished with rejected rows" : "Upload finished")}
      </Alert>
      <Box
        component="dl"
        sx={{
          display: "grid",
          gridTemplateColumns: "repeat(4, 1fr)",
          gap: 1,
          m: 0,
          mb: 2,
          "& > div": { border: 1, borderColor: "divider", borderRadius: 1, p: 1.5 },
          "& dt": { color: "text.secondary", typography: "body2" },
          "& dd": { m: 0, typography: "h6" },
        }}
      >
        {stats.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value.toLocaleString("en-US")}</dd>
          </div>
        ))}
      </Box>
      {shown.length > 0 && (
        <>
          <Typography variant="subtitle2" component="h3" gutterBottom>
            Rejected rows
          </Typography>
          <TableContainer component={Paper} variant="outlined" sx={{ maxHeight: 260 }}>
            <Table size="small" stickyHeader aria-label="Rejected rows">
              <TableHead>
                <TableRow>
                  <TableCell sx={{ width: 80 }}>Line</TableCell>
                  <TableCell>Reason</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {shown.map((r) => (
                  <TableRow key={`${r.row}-${r.reason}`}>
                    <TableCell>{r.row}</TableCell>
                    <TableCell sx={{ overflowWrap: "anywhere" }}>{r.reason}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {notListed > 0 && (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
              and {notListed.toLocaleString("en-US")} more rejected rows not listed
            </Typography>
          )}
        </>
      )}
    </Box>
  );
}
