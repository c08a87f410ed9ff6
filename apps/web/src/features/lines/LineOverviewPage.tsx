import { Paper, Typography } from "@mui/material";
import { useParams } from "react-router";
import { usePlantLine } from "../../app/context/PlantLineContext";

/** The line overview (alerts and monitors) arrives with the monitoring engine. */
export function LineOverviewPage() {
  const { lineId } = useParams();
  const { lines } = usePlantLine();
  const line = lines.find((l) => l.id === lineId);
  return (
    <Paper sx={{ p: 4 }} variant="outlined">
      <Typography variant="h5" component="h1" gutterBottom>
        {line ? line.friendlyName || line.name : "Line"}
      </Typography>
      <Typography color="text.secondary">This section is not available yet</Typography>
    </Paper>
  );
}
