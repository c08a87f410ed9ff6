import {
  CSV_MESSAGES,
  CSV_UPLOAD_MAX_BYTES,
  mapCsvHeader,
  type TCsvColumn,
  type TCsvUploadProgress,
  type TCsvUploadResult,
} from "@linewatch/contracts";
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  Typography,
} from "@mui/material";
import { useRef, useState } from "react";
import { ConfirmDialog } from "../../../../shared/ui/ConfirmDialog";
import type { CsvUploadVariables } from "../api/mutations";
import { readCsvHeader } from "../csv-header";
import { CsvDropZone } from "./CsvDropZone";
import { CsvUploadProgress } from "./CsvUploadProgress";
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
  /** The running upload's counts from the server, while it runs. */
  progress: TCsvUploadProgress | undefined;
  /**
   * Asks the server to stop the running upload; true when it took the request (the upload then
   * answers with what was stored), false when it did not have the upload (not there yet, or ended).
   */
  onCancel: () => Promise<boolean>;
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
 * upload's progress, the server's processing with rows read and stored, and the summary. Cancel
 * works throughout (issue 32 §4): the server stops and the summary says what was stored; closing
 * while busy asks first. Mounted only while open.
 */
export function CsvUploadDialog({ plantName, onUpload, progress, onCancel, onClose }: CsvUploadDialogProps) {
  const [file, setFile] = useState<File | null>(null);
  const [header, setHeader] = useState<string[] | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [line, setLine] = useState("");
  const [station, setStation] = useState("");
  const [phase, setPhase] = useState<Phase>({ kind: "pick" });
  const [isCancelling, setIsCancelling] = useState(false);
  const [isConfirmingClose, setIsConfirmingClose] = useState(false);
  const abort = useRef<AbortController | null>(null);
  const phaseKind = useRef(phase.kind);
  phaseKind.current = phase.kind;

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
      setIsCancelling(false);
      setIsConfirmingClose(false);
    }
  };

  const cancelUpload = async () => {
    setIsConfirmingClose(false);
    if (isCancelling) return;
    setIsCancelling(true);
    const isTaken = await onCancel();
    // The server does not have the upload yet: stop sending it instead (nothing was stored). Once
    // all is sent, a refusal means it has just ended and its answer is on the way.
    if (!isTaken && phaseKind.current === "uploading") abort.current?.abort();
  };

  return (
    <Dialog
      open
      onClose={() => (isBusy ? setIsConfirmingClose(true) : onClose())}
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
            {isBusy && (
              <CsvUploadProgress
                sent={phase.kind === "uploading" ? phase : null}
                counts={progress}
                isCancelling={isCancelling}
              />
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
            {isBusy ? (
              <Button onClick={() => void cancelUpload()} disabled={isCancelling}>
                Cancel upload
              </Button>
            ) : (
              <Button onClick={onClose}>Cancel</Button>
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
      <ConfirmDialog
        open={isConfirmingClose && isBusy}
        title={CSV_MESSAGES.confirmCloseTitle}
        confirmLabel={CSV_MESSAGES.confirmCloseYes}
        cancelLabel={CSV_MESSAGES.confirmCloseNo}
        destructive
        onConfirm={() => void cancelUpload()}
        onCancel={() => setIsConfirmingClose(false)}
      >
        {CSV_MESSAGES.confirmCloseText}
      </ConfirmDialog>
    </Dialog>
  );
}
