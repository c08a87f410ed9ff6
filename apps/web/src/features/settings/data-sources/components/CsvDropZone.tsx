import UploadFileIcon from "@mui/icons-material/UploadFile";
import { Box, Button, Typography } from "@mui/material";
import { type DragEvent, useState } from "react";
import { formatBytes } from "../csv-header";

export type CsvDropZoneProps = {
  file: File | null;
  disabled?: boolean;
  onFile: (file: File) => void;
};

/** Choose a CSV file with the file picker or by dropping it here. */
export function CsvDropZone({ file, disabled, onFile }: CsvDropZoneProps) {
  const [isOver, setOver] = useState(false);
  const over = (e: DragEvent) => {
    e.preventDefault();
    if (!disabled) setOver(true);
  };
  const drop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    const dropped = e.dataTransfer.files[0];
    if (dropped && !disabled) onFile(dropped);
  };
  return (
    <Box
      onDragOver={over}
      onDragEnter={over}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      data-testid="csv-drop-zone"
      sx={{
        border: 2,
        borderStyle: "dashed",
        borderColor: isOver ? "primary.main" : "divider",
        bgcolor: isOver ? "action.hover" : undefined,
        borderRadius: 1,
        p: 3,
        textAlign: "center",
      }}
    >
      <UploadFileIcon color="action" fontSize="large" />
      <Typography sx={{ mb: 1 }}>
        {file ? (
          <>
            <strong>{file.name}</strong> ({formatBytes(file.size)})
          </>
        ) : (
          "Drop a CSV file here, or"
        )}
      </Typography>
      <Button variant="outlined" component="label" disabled={disabled}>
        {file ? "Choose another file" : "Choose file"}
        <input
          type="file"
          accept=".csv,text/csv"
          aria-label="CSV file"
          hidden
          onChange={(e) => {
            const chosen = e.target.files?.[0];
            if (chosen) onFile(chosen);
            // Choosing the same file again still fires a change.
            e.target.value = "";
          }}
        />
      </Button>
    </Box>
  );
}
