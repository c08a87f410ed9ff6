import { SHELL_TEXTS } from "@linewatch/contracts";
import { Alert, Box, Button, CircularProgress } from "@mui/material";
import type { ReactNode } from "react";
import { ApiError } from "../api/client";
import { useTexts } from "../i18n/language";

/**
 * Loading, error (with retry) and empty states for a query, so no screen is ever blank. A 404 is
 * not retried (it cannot succeed): it offers `notFoundAction`, the way back, instead.
 */
export function QueryState(p: {
  isLoading: boolean;
  error: unknown;
  onRetry?: () => void;
  isEmpty?: boolean;
  empty?: ReactNode;
  errorTitle?: string;
  notFoundAction?: ReactNode;
  children: ReactNode;
}) {
  const T = useTexts(SHELL_TEXTS);
  if (p.isLoading)
    return (
      <Box sx={{ display: "flex", justifyContent: "center", p: 4 }} role="progressbar" aria-label={T.loading}>
        <CircularProgress />
      </Box>
    );
  if (p.error) {
    const isNotFound = p.error instanceof ApiError && p.error.status === 404;
    return (
      <Alert
        severity="error"
        action={
          isNotFound
            ? p.notFoundAction
            : p.onRetry && (
                <Button color="inherit" size="small" onClick={p.onRetry}>
                  {T.retry}
                </Button>
              )
        }
      >
        {p.errorTitle ? `${p.errorTitle}: ` : ""}
        {p.error instanceof Error ? p.error.message : String(p.error)}
      </Alert>
    );
  }
  if (p.isEmpty) return <>{p.empty}</>;
  return <>{p.children}</>;
}
