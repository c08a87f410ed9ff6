import type { TPlant } from "@linewatch/contracts";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import { Box, Button, Typography } from "@mui/material";
import { lazy, Suspense, useState } from "react";
import { useDialogs } from "../../../shared/ui/settings/useDialogs";
import { useCancelCsvUpload, useUploadPartRecordsCsv } from "./api/mutations";
import { useCsvUploadProgress } from "./api/queries";

// Dialogs load their code when first opened (issue #17).
const CsvUploadDialog = lazy(() =>
  import("./components/CsvUploadDialog").then((m) => ({ default: m.CsvUploadDialog })),
);

/**
 * CSV upload of part records on the Data Sources page (administrators): a button and its dialog.
 * Each upload gets an id of its own, by which its progress is polled and Cancel reaches it.
 */
export function CsvUploadSection({ plant }: { plant: TPlant }) {
  const upload = useUploadPartRecordsCsv(plant.id);
  const cancel = useCancelCsvUpload(plant.id);
  const [uploadId, setUploadId] = useState<string | null>(null);
  const progress = useCsvUploadProgress(plant.id, uploadId);
  const dialogs = useDialogs<{ upload: undefined }>();
  return (
    <Box
      component="section"
      aria-labelledby="csv-upload-title-section"
      sx={{ display: "flex", alignItems: "center", gap: 1, flexWrap: "wrap" }}
    >
      <Box sx={{ flexGrow: 1 }}>
        <Typography variant="h6" component="h3" id="csv-upload-title-section">
          CSV upload
        </Typography>
        <Typography variant="body2" color="text.secondary">
          Load part records from a CSV file: one row per record, one column per signal.
        </Typography>
      </Box>
      <Button
        variant="outlined"
        startIcon={<UploadFileIcon />}
        onClick={() => dialogs.open("upload", undefined)}
      >
        Upload CSV
      </Button>
      {dialogs.isOpen("upload") && (
        <Suspense fallback={null}>
          <CsvUploadDialog
            plantName={plant.name}
            onUpload={async (vars) => {
              const id = crypto.randomUUID();
              setUploadId(id);
              try {
                return await upload.mutateAsync({ ...vars, uploadId: id });
              } finally {
                setUploadId(null);
              }
            }}
            progress={progress.data}
            onCancel={() =>
              uploadId
                ? cancel.mutateAsync(uploadId).then(
                    () => true,
                    () => false,
                  )
                : Promise.resolve(false)
            }
            onClose={dialogs.close}
          />
        </Suspense>
      )}
    </Box>
  );
}
