import { DATA_SOURCE_MESSAGES, type TDataSource } from "@linewatch/contracts";
import { Box, Paper, Typography } from "@mui/material";
import { DataSourceCard } from "./DataSourceCard";

export type DataSourceListProps = {
  sources: TDataSource[];
  timeZone: string;
  onInsight: (source: TDataSource) => void;
  onDelete: (source: TDataSource) => void;
};

/** The cards, a few to a row; 'No data sources' when there are none (requirements.md monitor-forms §2). */
export function DataSourceList({ sources, timeZone, onInsight, onDelete }: DataSourceListProps) {
  if (sources.length === 0) {
    return (
      <Paper variant="outlined" sx={{ p: 4, textAlign: "center" }}>
        <Typography color="text.secondary">{DATA_SOURCE_MESSAGES.empty}</Typography>
      </Paper>
    );
  }
  return (
    <Box
      component="ul"
      aria-label={DATA_SOURCE_MESSAGES.title}
      sx={{
        listStyle: "none",
        m: 0,
        p: 0,
        display: "grid",
        gap: 2,
        gridTemplateColumns: "repeat(auto-fill, minmax(300px, 1fr))",
        "& > li": { display: "flex", flexDirection: "column", "& > *": { flexGrow: 1 } },
      }}
    >
      {sources.map((s) => (
        <li key={s.id}>
          <DataSourceCard source={s} timeZone={timeZone} onInsight={onInsight} onDelete={onDelete} />
        </li>
      ))}
    </Box>
  );
}
