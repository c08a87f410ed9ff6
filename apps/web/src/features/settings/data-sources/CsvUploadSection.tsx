import type { TPlant } from "@linewatch/contracts";
import UploadFileIcon from "@mui/icons-material/UploadFile";
import { Box, Button, Typography } from "@mui/material";
import { lazy, Suspense } from "react";
import { useDialogs } from "../../../shared/ui/settings/useDialogs";
import { useUploadPartRecordsCsv } from "./api/mutations";

// Dialogs load their code when first opened (issue #17).
const CsvUploadDialog = lazy(() =>
  import("./components/CsvUploadDialog").then((m) => ({ default: m.CsvUploadDialog })),
);

/** CSV upload of part records on the Data Sources page (administrators): a button and its dialog. */
export function CsvUploadSection({ plant }: { plant: TPlant }) {
  const upload = useUploadPartRecordsCsv(plant.id);
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
            onUpload={(vars) => upload.mutateAsync(vars)}
            onClose={dialogs.close}
          />
        </Suspense>
      )}
    </Box>
  );
}
