import { Typography } from "@mui/material";

/** Any path inside the signed-in frame that no page answers. */
export function NotFoundPage() {
  return (
    <Typography variant="h5" component="h1">
      Page not found
    </Typography>
  );
}
