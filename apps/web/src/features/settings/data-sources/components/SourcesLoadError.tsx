import { DATA_SOURCE_MESSAGES } from "@linewatch/contracts";
import { Alert, AlertTitle, Button, CircularProgress } from "@mui/material";
import { ApiError } from "../../../../shared/api/client";

export type SourcesLoadErrorProps = { error: unknown; isRetrying: boolean; onRetry: () => void };

/** The list could not load: 'Fetch Sources Error', 'Status : {status}' and a Retry (requirements.md monitor-forms §8). */
export function SourcesLoadError({ error, isRetrying, onRetry }: SourcesLoadErrorProps) {
  const status = error instanceof ApiError ? error.status : "unknown";
  return (
    <Alert
      severity="error"
      role="alert"
      action={
        <Button
          color="inherit"
          size="small"
          onClick={onRetry}
          disabled={isRetrying}
          startIcon={isRetrying ? <CircularProgress size={14} color="inherit" /> : undefined}
        >
          Retry
        </Button>
      }
    >
      <AlertTitle>{DATA_SOURCE_MESSAGES.fetchError}</AlertTitle>
      <div>{DATA_SOURCE_MESSAGES.fetchErrorStatus(status)}</div>
      <div>{DATA_SOURCE_MESSAGES.fetchDatasourcesError}</div>
    </Alert>
  );
}
