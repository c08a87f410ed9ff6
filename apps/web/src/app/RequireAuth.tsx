import { SHELL_TEXTS } from "@linewatch/contracts";
import { Box, CircularProgress } from "@mui/material";
import { useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useEffect } from "react";
import { Navigate, useLocation } from "react-router";
import { onUnauthorized } from "../shared/api/client";
import { sessionKeys } from "../shared/data/session/keys";
import { useMe } from "../shared/data/session/queries";
import { followUserLanguage, useTexts } from "../shared/i18n/language";

/** Pages behind sign-in: no session sends the user to /login and back afterwards. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const T = useTexts(SHELL_TEXTS);
  const me = useMe();
  const qc = useQueryClient();
  const location = useLocation();
  useEffect(() => onUnauthorized(() => qc.setQueryData(sessionKeys.me, null)), [qc]);
  // The user's language (kept on the server), else the browser's; again whenever the user changes it.
  const isSignedIn = !!me.data;
  const language = me.data?.language ?? null;
  useEffect(() => {
    if (isSignedIn) void followUserLanguage(language);
  }, [isSignedIn, language]);
  if (me.isLoading)
    return (
      <Box sx={{ display: "grid", placeItems: "center", minHeight: "100vh" }}>
        <CircularProgress aria-label={T.loading} />
      </Box>
    );
  if (!me.data) return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return <>{children}</>;
}
