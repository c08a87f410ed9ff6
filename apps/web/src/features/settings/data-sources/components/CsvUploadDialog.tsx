import {
  CSV_MESSAGES,
  CSV_UPLOAD_MAX_BYTES,
  mapCsvHeader,
  type TCsvColumn,
  type TCsvUploadResult,
} from "@linewatch/contracts";
import {
  Alert,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Stack,
  TextField,
  Typography,
} from "@mui/material";
import { useRef, useState } from "react";
import type { CsvUploadVariables } from "../api/mutations";
import { formatBytes, readCsvHeader } from "../csv-header";
import { CsvDropZone } from "./CsvDropZone";
import { CsvUploadSummary } from "./CsvUploadSummary";

type Phase =
  | { kind: "pick" }
  | { kind: "uploading"; loaded: number; total: number }
  | { kind: "processing" }
  | { kind: "done"; result: TCsvUploadResult }
  | { kind: "failed"; message: string };

export type CsvUploadDialogProps = {
  plantName: string;
  onUpload: (vars: CsvUploadVariables) => Promise<TCsvUploadResult>;
  onClose: () => void;
};

/** "2 record fields, 3 measurements, 2 limits, 1 result, 1 attribute". */
function describeColumns(columns: TCsvColumn[]): string {
  const n = (kinds: TCsvColumn["kind"][]) => columns.filter((c) => kinds.includes(c.kind)).length;
  const parts: [number, string][] = [
    [n(["fixed"]), "record field"],
    [n(["measurement"]), "measurement"],
    [n(["lower", "upper"]), "limit"],
    [n(["result"]), "result"],
    [n(["attribute"]), "attribute"],
  ];
  return parts
    .filter(([count]) => count > 0)
    .map(([count, word]) => `${count} ${word}${count === 1 ? "" : "s"}`)
    .join(", ");
}

/**
 * Upload part records from a CSV file (README "CSV upload"): pick or drop a file, optional Line
 * and Station for rows without them, the header checked here before anything is sent, then the
 * upload's progress, the server's processing, and the summary. Mounted only while open.
 */
export function CsvUploadDialog({ plantName, onUpload, onClose }: CsvUploadDialogProps) {
  const [file, setFile] = useState<File | null>(null);
  const [header, setHeader] = useState<string[] | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [line, setLine] = useState("");
  const [station, setStation] = useState("");
  const [phase, setPhase] = useState<Phase>({ kind: "pick" });
  const abort = useRef<AbortController | null>(null);

  const defaults = { line: line.trim() || undefined, station: station.trim() || undefined };
  const mapped = header ? mapCsvHeader(header, defaults) : null;
  const headerError = mapped && "error" in mapped ? mapped.error : null;
  const isBusy = phase.kind === "uploading" || phase.kind === "processing";
  const canUpload = !!file && !!mapped && !headerError && !fileError && phase.kind === "pick";

  const choose = async (f: File) => {
    setFile(f);
    setHeader(null);
    setPhase({ kind: "pick" });
    if (f.size > CSV_UPLOAD_MAX_BYTES) return setFileError(CSV_MESSAGES.tooLarge);
    setFileError(null);
    try {
      setHeader(await readCsvHeader(f));
    } catch (err) {
      setFileError(`The file could not be read: ${(err as Error).message}`);
    }
  };

  const upload = async () => {
    if (!file || !canUpload) return;
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ kind: "uploading", loaded: 0, total: file.size });
    try {
      const result = await onUpload({
        file,
        ...defaults,
        signal: controller.signal,
        // All bytes sent means the server is at work, even before the upload's load event.
        onProgress: (loaded, total) =>
          setPhase((p) =>
            p.kind !== "uploading"
              ? p
              : loaded >= total
                ? { kind: "processing" }
                : { kind: "uploading", loaded, total },
          ),
        onUploaded: () => setPhase((p) => (p.kind === "uploading" ? { kind: "processing" } : p)),
      });
      setPhase({ kind: "done", result });
    } catch (err) {
      if (err instanceof DOMException && err.name === "AbortError") setPhase({ kind: "pick" });
      else setPhase({ kind: "failed", message: err instanceof Error ? err.message : String(err) });
    } finally {
      abort.current = null;
    }
  };

  const percent =
    phase.kind === "uploading" && phase.total ? Math.round((phase.loaded / phase.total) * 100) : 0;

  return (
    <Dialog
      open
      onClose={() => !isBusy && onClose()}
      aria-labelledby="csv-upload-title"
      maxWidth="md"
      fullWidth
    >
      <DialogTitle id="csv-upload-title">Upload part records to {plantName}</DialogTitle>
      <DialogContent>
        {phase.kind === "done" ? (
          <CsvUploadSummary result={phase.result} />
        ) : (
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Typography variant="body2" color="text.secondary">
              One row per part record, one column per signal. Columns line, station, partId, modelNumber,
              timestamp and op fill the record; Name is a measurement, result:Name a result, attr:Name a part
              attribute, lower:Name and upper:Name the limits of measurement Name. Up to{" "}
              {CSV_UPLOAD_MAX_BYTES / 1_048_576} MB.
            </Typography>
            <CsvDropZone file={file} disabled={isBusy} onFile={(f) => void choose(f)} />
            <Stack direction={{ xs: "column", sm: "row" }} spacing={2}>
              <TextField
                label="Line"
                value={line}
                onChange={(e) => setLine(e.target.value)}
                disabled={isBusy}
                fullWidth
                helperText="For rows without a line (no line column or an empty cell)"
              />
              <TextField
                label="Station"
                value={station}
                onChange={(e) => setStation(e.target.value)}
                disabled={isBusy}
                fullWidth
                helperText="For rows without a station"
              />
            </Stack>
            {(fileError ?? headerError) && <Alert severity="error">{fileError ?? headerError}</Alert>}
            {mapped && "columns" in mapped && !fileError && (
              <Typography variant="body2" data-testid="csv-columns">
                {mapped.columns.length} columns: {describeColumns(mapped.columns)}
              </Typography>
            )}
            {phase.kind === "uploading" && (
              <Box>
                <LinearProgress variant="determinate" value={percent} aria-label="Upload progress" />
                <Typography variant="body2" sx={{ mt: 0.5 }}>
                  Uploading… {percent}% ({formatBytes(phase.loaded)} of {formatBytes(phase.total)})
                </Typography>
              </Box>
            )}
            {phase.kind === "processing" && (
              <Box>
                <LinearProgress aria-label="Processing" />
                <Typography variant="body2" sx={{ mt: 0.5 }}>
                  Processing… the rows are being checked and stored.
                </Typography>
              </Box>
            )}
            {phase.kind === "failed" && <Alert severity="error">{phase.message}</Alert>}
          </Stack>
        )}
      </DialogContent>
      <DialogActions>
        {phase.kind === "done" ? (
          <>
            <Button
              onClick={() => {
                setFile(null);
                setHeader(null);
                setPhase({ kind: "pick" });
              }}
            >
              Upload another file
            </Button>
            <Button variant="contained" onClick={onClose}>
              Close
            </Button>
          </>
        ) : (
          <>
            {phase.kind === "uploading" ? (
              <Button onClick={() => abort.current?.abort()}>Cancel upload</Button>
            ) : (
              <Button onClick={onClose} disabled={phase.kind === "processing"}>
                Cancel
              </Button>
            )}
            {phase.kind === "failed" ? (
              <Button variant="contained" onClick={() => setPhase({ kind: "pick" })}>
                Try again
              </Button>
            ) : (
              <Button variant="contained" onClick={() => void upload()} disabled={!canUpload}>
                Upload
              </Button>
            )}
          </>
        )}
      </DialogActions>
    </Dialog>
  );
}
