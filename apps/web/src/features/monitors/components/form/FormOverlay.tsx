import { Backdrop, CircularProgress, Typography } from "@mui/material";

/** The form's loading and saving overlays (requirements.md monitor-forms §2 "Overlays"). */
export function FormOverlay(p: { text: string }) {
  return (
    <Backdrop
      open
      sx={{
        position: "absolute",
        zIndex: 5,
        bgcolor: "rgba(255,255,255,0.7)",
        flexDirection: "column",
        gap: 1,
      }}
    >
      <CircularProgress size={28} />
      <Typography color="text.secondary">{p.text}</Typography>
    </Backdrop>
  );
}
