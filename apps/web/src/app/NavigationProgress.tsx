import { SHELL_TEXTS } from "@linewatch/contracts";
import { LinearProgress } from "@mui/material";
import { useNavigation } from "react-router";
import { useTexts } from "../shared/i18n/language";

/** A thin bar under the top bar while the next page's code loads (the current page stays). */
export function NavigationProgress() {
  const T = useTexts(SHELL_TEXTS);
  const isLoading = useNavigation().state === "loading";
  return isLoading ? (
    <LinearProgress
      aria-label={T.loadingPage}
      sx={{ position: "absolute", left: 0, right: 0, bottom: 0, height: 2 }}
    />
  ) : null;
}
