import { LinearProgress } from "@mui/material";
import { useNavigation } from "react-router";

/** A thin bar under the top bar while the next page's code loads (the current page stays). */
export function NavigationProgress() {
  const isLoading = useNavigation().state === "loading";
  return isLoading ? (
    <LinearProgress
      aria-label="Loading page"
      sx={{ position: "absolute", left: 0, right: 0, bottom: 0, height: 2 }}
    />
  ) : null;
}
