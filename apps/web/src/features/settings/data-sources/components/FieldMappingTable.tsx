import { INSIGHT_MESSAGES, type TInsightRecord } from "@linewatch/contracts";
import {
  Alert,
  Box,
  Chip,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from "@mui/material";

const from = (where: "body" | "topic" | null) => (where === "topic" ? " (from the topic)" : "");

/** One record of a message: where it goes (line, station) and which signal each field feeds. */
export function FieldMappingTable({ record }: { record: TInsightRecord }) {
  const place = (label: string, value: string | null, where: "body" | "topic" | null, isNew: boolean) => (
    <Typography variant="body2" component="span">
      {label}: <strong>{value ?? "none"}</strong>
      {from(where)}
      {isNew && <Chip size="small" label={`new ${label.toLowerCase()}`} sx={{ ml: 1 }} />}
    </Typography>
  );
  return (
    <Box>
      <Stack direction="row" spacing={3} useFlexGap sx={{ flexWrap: "wrap", mb: 1 }}>
        {place("Line", record.line, record.lineFrom, record.isNewLine)}
        {place("Station", record.station, record.stationFrom, record.isNewStation)}
        <Typography variant="body2" component="span">
          Part: <strong>{record.partId ?? "none"}</strong>
        </Typography>
        <Typography variant="body2" component="span">
          Timestamp: <strong>{record.timestamp ?? "none"}</strong>
        </Typography>
      </Stack>
      {record.problem && (
        <Alert severity="error" sx={{ mb: 1 }}>
          Would be rejected: {record.problem}
        </Alert>
      )}
      {record.fields.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No signal fields in this record.
        </Typography>
      ) : (
        <Table size="small" aria-label="Field mapping">
          <TableHead>
            <TableRow>
              <TableCell>Field</TableCell>
              <TableCell>Value</TableCell>
              <TableCell>Station</TableCell>
              <TableCell>Signal</TableCell>
              <TableCell>Entity type</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {record.fields.map((f) => (
              <TableRow key={f.path}>
                <TableCell sx={{ fontFamily: "monospace", overflowWrap: "anywhere" }}>{f.path}</TableCell>
                <TableCell sx={{ fontFamily: "monospace", overflowWrap: "anywhere" }}>
                  {f.value ?? "null"}
                </TableCell>
                <TableCell>{record.station ?? "none"}</TableCell>
                <TableCell sx={{ overflowWrap: "anywhere" }}>
                  {f.signalName}
                  {f.isNew && (
                    <Chip
                      size="small"
                      color="info"
                      variant="outlined"
                      label={INSIGHT_MESSAGES.newSignal}
                      sx={{ ml: 1 }}
                    />
                  )}
                  {f.problem && (
                    <Typography variant="caption" color="error" component="div">
                      {f.problem}
                    </Typography>
                  )}
                </TableCell>
                <TableCell>{f.entityType}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
