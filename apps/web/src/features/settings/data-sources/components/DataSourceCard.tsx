import type { TDataSource } from "@linewatch/contracts";
import DeleteOutlineIcon from "@mui/icons-material/DeleteOutlineOutlined";
import InsightsIcon from "@mui/icons-material/Insights";
import { Box, Button, Card, CardActions, CardContent, IconButton, Tooltip, Typography } from "@mui/material";
import { useId } from "react";
import { formatDateTime } from "../../../../shared/format";
import { HistoryButton } from "../../../audit-log/components/HistoryButton";

export type DataSourceCardProps = {
  source: TDataSource;
  /** The plant's time zone: Created shows in it (requirements.md monitor-forms §7 "device timezone from the plant"). */
  timeZone: string;
  onInsight: (source: TDataSource) => void;
  onDelete: (source: TDataSource) => void;
};

/** One data source: Name, Created, Topic, an Insight button and a delete icon (requirements.md monitor-forms §2). */
export function DataSourceCard({ source, timeZone, onInsight, onDelete }: DataSourceCardProps) {
  const nameId = useId();
  return (
    <Card
      variant="outlined"
      component="article"
      aria-labelledby={nameId}
      data-testid="data-source-card"
      sx={{ display: "flex", flexDirection: "column" }}
    >
      <CardContent sx={{ flexGrow: 1, pb: 1 }}>
        <Box
          component="dl"
          sx={{
            m: 0,
            display: "grid",
            gridTemplateColumns: "auto 1fr",
            columnGap: 2,
            rowGap: 0.75,
            "& dt": { color: "text.secondary", typography: "body2" },
            "& dd": { m: 0, typography: "body2", minWidth: 0, overflowWrap: "anywhere" },
          }}
        >
          <dt>Name</dt>
          <dd>
            <Typography id={nameId} component="span" sx={{ fontWeight: 600 }}>
              {source.name}
            </Typography>
          </dd>
          <dt>Created</dt>
          <dd>
            <time dateTime={source.createdAt} title={timeZone}>
              {formatDateTime(source.createdAt, timeZone)}
            </time>
          </dd>
          <dt>Topic</dt>
          <dd>
            <Box component="code" sx={{ fontFamily: "monospace", fontSize: "0.875rem" }}>
              {source.topic}
            </Box>
          </dd>
        </Box>
      </CardContent>
      <CardActions sx={{ justifyContent: "space-between", px: 2, pb: 1.5 }}>
        <Button
          size="small"
          variant="outlined"
          startIcon={<InsightsIcon />}
          aria-describedby={nameId}
          onClick={() => onInsight(source)}
        >
          Insight
        </Button>
        {/* After the delete icon, so Tab still goes from Insight to Delete. */}
        <Box sx={{ display: "flex", alignItems: "center", gap: 0.5 }}>
          <Tooltip title="Delete">
            <IconButton
              aria-label={`Delete data source ${source.name}`}
              color="error"
              onClick={() => onDelete(source)}
            >
              <DeleteOutlineIcon />
            </IconButton>
          </Tooltip>
          <HistoryButton resource="data_source" items={[{ id: source.id, name: source.name }]} />
        </Box>
      </CardActions>
    </Card>
  );
}
