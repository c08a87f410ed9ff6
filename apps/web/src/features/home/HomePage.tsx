import { isNoIngestion, LINE_MESSAGES } from "@linewatch/contracts";
import {
  Chip,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from "@mui/material";
import { Link as RouterLink } from "react-router";
import { usePlantLine } from "../../shared/data/plants/plant-line";
import { formatDateTime } from "../../shared/format";
import { QueryState } from "../../shared/ui/QueryState";

/** Home: the plant's lines with status, last data received and the "No Ingestion" chip. */
export function HomePage() {
  const { plant, lines, isLoading, error, plants } = usePlantLine();
  return (
    <Stack spacing={2}>
      <Typography variant="h5" component="h1">
        {plant ? plant.name : "Lines"}
      </Typography>
      <QueryState
        isLoading={isLoading}
        error={error}
        isEmpty={plants.length === 0 || lines.length === 0}
        empty={
          <Typography color="text.secondary">
            {plants.length === 0
              ? "No plants are set up for this customer yet."
              : "No lines exist for this plant."}
          </Typography>
        }
      >
        <TableContainer component={Paper}>
          <Table aria-label="Lines">
            <TableHead>
              <TableRow>
                <TableCell>Line</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Last data received ({plant?.timeZone})</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {lines.map((l) => (
                <TableRow key={l.id} hover>
                  <TableCell>
                    <RouterLink to={`/lines/${l.id}`}>{l.friendlyName || l.name}</RouterLink>
                    {l.isNewLine && <Chip label="New" size="small" color="info" sx={{ ml: 1 }} />}
                  </TableCell>
                  <TableCell>
                    <Chip
                      label={l.active ? "Enabled" : "Disabled"}
                      color={l.active ? "success" : "default"}
                      size="small"
                      variant={l.active ? "filled" : "outlined"}
                    />
                  </TableCell>
                  <TableCell>
                    {l.lastIngestedTime && plant
                      ? formatDateTime(l.lastIngestedTime, plant.timeZone)
                      : "No data yet"}
                    {isNoIngestion(l) && (
                      <Chip label={LINE_MESSAGES.noIngestion} color="warning" size="small" sx={{ ml: 1 }} />
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      </QueryState>
    </Stack>
  );
}
