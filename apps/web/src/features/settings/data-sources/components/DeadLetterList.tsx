import { INSIGHT_MESSAGES, type TDeadLetter } from "@linewatch/contracts";
import {
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
import { PayloadBlock } from "./PayloadBlock";

export type DeadLetterListProps = { deadLetters: TDeadLetter[]; total: number; timeZone: string };

/** Messages of the source that could not be stored, newest first, with the reason and payload. */
export function DeadLetterList({ deadLetters, total, timeZone }: DeadLetterListProps) {
  if (deadLetters.length === 0) {
    return (
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography color="text.secondary">{INSIGHT_MESSAGES.noDeadLetters}</Typography>
      </Paper>
    );
  }
  return (
    <>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Dead letters">
          <TableHead>
            <TableRow>
              <TableCell sx={{ width: 190 }}>Received</TableCell>
              <TableCell sx={{ width: "25%" }}>Topic</TableCell>
              <TableCell>Reason and payload</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {deadLetters.map((d) => (
              <TableRow key={d.id} data-testid="dead-letter" sx={{ verticalAlign: "top" }}>
                <TableCell>
                  <time dateTime={d.receivedAt}>{formatDateTime(d.receivedAt, timeZone)}</time>
                </TableCell>
                <TableCell sx={{ fontFamily: "monospace", overflowWrap: "anywhere" }}>
                  {d.topic ?? "—"}
                </TableCell>
                <TableCell sx={{ overflowWrap: "anywhere" }}>
                  <Typography variant="body2" sx={{ mb: 0.5 }}>
                    {d.reason}
                  </Typography>
                  <PayloadBlock label="Payload" payload={d.payload} />
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      {total > deadLetters.length && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          Showing the newest {deadLetters.length} of {total} dead letters.
        </Typography>
      )}
    </>
  );
}
