import { SHELL_TEXTS } from "@linewatch/contracts";
import { Typography } from "@mui/material";
import { useTexts } from "../shared/i18n/language";

/** Any path inside the signed-in frame that no page answers. */
export function NotFoundPage() {
  const T = useTexts(SHELL_TEXTS);
  return (
    <Typography variant="h5" component="h1">
      {T.pageNotFound}
    </Typography>
  );
}
