import { DATA_SOURCE_MESSAGES } from "@linewatch/contracts";
import { Alert, Box, Skeleton, Typography } from "@mui/material";

export type IngestorInfoProps = { ingestorId?: string; isLoading: boolean; isError: boolean };

/** The current plant's ingestor id; a failed fetch leaves it empty and says so (requirements.md monitor-forms §8). */
export function IngestorInfo({ ingestorId, isLoading, isError }: IngestorInfoProps) {
  if (isError) return <Alert severity="error">{DATA_SOURCE_MESSAGES.ingestorError}</Alert>;
  return (
    <Box sx={{ display: "flex", gap: 1, alignItems: "baseline", flexWrap: "wrap" }}>
      <Typography variant="body2" color="text.secondary" component="span" id="ingestor-id-label">
        Ingestor ID
      </Typography>
      {isLoading ? (
        <Skeleton width={300} aria-label="Loading ingestor" />
      ) : (
        <Typography
          component="span"
          aria-labelledby="ingestor-id-label"
          data-testid="ingestor-id"
          sx={{ fontFamily: "monospace", fontSize: "0.875rem", userSelect: "all" }}
        >
          {ingestorId ?? ""}
        </Typography>
      )}
    </Box>
  );
}
