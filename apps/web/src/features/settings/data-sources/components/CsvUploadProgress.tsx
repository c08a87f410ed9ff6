import { CSV_MESSAGES, type TCsvUploadProgress } from "@linewatch/contracts";
import { Box, LinearProgress, Typography } from "@mui/material";
import { formatBytes } from "../csv-header";

export type CsvUploadProgressProps = {
  /** Bytes sent so far of all, while the file is being sent; null once it is all sent. */
  sent: { loaded: number; total: number } | null;
  /** The server's counts so far (polled), once it has them. */
  counts: TCsvUploadProgress | undefined;
  isCancelling: boolean;
};

/**
 * A running CSV upload (issue 32 §4): the bytes sent, then the server's processing, with the rows
 * read and stored so far beside the bar, and a line while Cancel is being carried out.
 */
export function CsvUploadProgress({ sent, counts, isCancelling }: CsvUploadProgressProps) {
  const percent = sent?.total ? Math.round((sent.loaded / sent.total) * 100) : 0;
  return (
    <Box>
      {sent ? (
        <>
          <LinearProgress variant="determinate" value={percent} aria-label="Upload progress" />
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            Uploading… {percent}% ({formatBytes(sent.loaded)} of {formatBytes(sent.total)})
          </Typography>
        </>
      ) : (
        <>
          <LinearProgress aria-label="Processing" />
          <Typography variant="body2" sx={{ mt: 0.5 }}>
            Processing… the rows are being checked and stored.
          </Typography>
        </>
      )}
      {counts && (
        <Typography variant="body2" data-testid="csv-upload-counts" aria-live="polite">
          {CSV_MESSAGES.progress(counts.rowsRead, counts.stored)}
        </Typography>
      )}
      {isCancelling && (
        <Typography variant="body2" color="warning.main">
          {CSV_MESSAGES.cancelling}
        </Typography>
      )}
    </Box>
  );
}
