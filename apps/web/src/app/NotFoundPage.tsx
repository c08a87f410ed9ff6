import { Typography } from "@mui/material";

/** Any path inside the signed-in frame that no page answers. */
export function NotFoundPage() {
  return <Typography>Page not found</Typography>;
}
