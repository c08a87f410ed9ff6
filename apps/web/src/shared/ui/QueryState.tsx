import { Alert, Box, Button, CircularProgress } from "@mui/material";
import type { ReactNode } from "react";

/** Loading, error (with retry) and empty states for a query, so no screen is ever blank. */
export function QueryState(p: {
  isLoading: boolean;
  error: unknown;
  onRetry?: () => void;
  isEmpty?: boolean;
  empty?: ReactNode;
  errorTitle?: string;
  children: ReactNode;
}) {
  if (p.isLoading)
    return (
      <Box sx={{ display: "flex", justifyContent: "center", p: 4 }} role="progressbar" aria-label="Loading">
        <CircularProgress />
      </Box>
    );
  if (p.error)
    return (
      <Alert
        severity="error"
        action={
          p.onRetry && (
            <Button color="inherit" size="small" onClick={p.onRetry}>
              Retry
            </Button>
          )
        }
      >
        {p.errorTitle ? `${p.errorTitle}: ` : ""}
        {p.error instanceof Error ? p.error.message : String(p.error)}
      </Alert>
    );
  if (p.isEmpty) return <>{p.empty}</>;
  return <>{p.children}</>;
}
