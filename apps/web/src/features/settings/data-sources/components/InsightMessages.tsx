import { DATA_SOURCE_MESSAGES, INSIGHT_MESSAGES, type TInsightMessage } from "@linewatch/contracts";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import {
  Accordion,
  AccordionDetails,
  AccordionSummary,
  Alert,
  Box,
  Divider,
  Paper,
  Stack,
  Typography,
} from "@mui/material";
import { formatDateTime } from "../../../../shared/format";
import { FieldMappingTable } from "./FieldMappingTable";
import { PayloadBlock } from "./PayloadBlock";

export type InsightMessagesProps = { messages: TInsightMessage[]; timeZone: string };

/** The source's last received messages, newest first (open), each with its field mapping. */
export function InsightMessages({ messages, timeZone }: InsightMessagesProps) {
  if (messages.length === 0) {
    return (
      <Paper variant="outlined" sx={{ p: 3 }}>
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {INSIGHT_MESSAGES.noMessages}
        </Typography>
        <Alert severity="info">{DATA_SOURCE_MESSAGES.insightMappingNote}</Alert>
      </Paper>
    );
  }
  return (
    <Box data-testid="insight-messages">
      {messages.map((m, i) => (
        <Accordion key={m.id} defaultExpanded={i === 0} disableGutters variant="outlined">
          <AccordionSummary expandIcon={<ExpandMoreIcon />}>
            <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: "wrap", alignItems: "baseline" }}>
              <Typography variant="body2" component="time" dateTime={m.receivedAt}>
                {formatDateTime(m.receivedAt, timeZone)}
              </Typography>
              <Typography variant="body2" sx={{ fontFamily: "monospace", overflowWrap: "anywhere" }}>
                {m.topic}
              </Typography>
              <Typography variant="body2" color={m.error ? "error" : "text.secondary"}>
                {m.error
                  ? "not readable"
                  : `${m.records.length + m.moreRecords} record${m.records.length + m.moreRecords === 1 ? "" : "s"}`}
              </Typography>
            </Stack>
          </AccordionSummary>
          <AccordionDetails>
            <Stack spacing={2} divider={<Divider flexItem />}>
              {m.error && <Alert severity="error">{m.error}</Alert>}
              {m.records.map((r, k) => (
                // Records of one message have no id of their own: their place in it is stable.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                <FieldMappingTable key={k} record={r} />
              ))}
              {m.moreRecords > 0 && (
                <Typography variant="body2" color="text.secondary">
                  and {m.moreRecords} more records in this message
                </Typography>
              )}
              <PayloadBlock label="Payload" payload={m.payload} />
            </Stack>
          </AccordionDetails>
        </Accordion>
      ))}
    </Box>
  );
}
