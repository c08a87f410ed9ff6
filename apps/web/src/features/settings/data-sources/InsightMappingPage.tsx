import { DATA_SOURCE_MESSAGES, INSIGHT_MESSAGES, ZId } from "@linewatch/contracts";
import ArrowBackIcon from "@mui/icons-material/ArrowBack";
import RefreshIcon from "@mui/icons-material/Refresh";
import { Alert, Box, Button, CircularProgress, Paper, Stack, Typography } from "@mui/material";
import { Navigate, Link as RouterLink, useSearchParams } from "react-router";
import { ApiError } from "../../../shared/api/client";
import { usePlantLine } from "../../../shared/data/plants/plant-line";
import { useMe } from "../../../shared/data/session/queries";
import { QueryState } from "../../../shared/ui/QueryState";
import { useDataSource, useDataSourceInsight } from "./api/queries";
import { DataSourceDetails } from "./components/DataSourceDetails";
import { DeadLetterList } from "./components/DeadLetterList";
import { InsightMessages } from "./components/InsightMessages";

const BACK_TO = "/settings?section=DATA_SOURCES";

/**
 * /settings/insight-mapping?sourceId=&mappingVersion= (docs/architecture.md "routes"), opened by a data
 * source's Insight button: the source itself, its last received messages with how each field
 * maps to a line, station and signal, and its dead letters (administrators only).
 */
export function InsightMappingPage() {
  const me = useMe().data;
  const { plant } = usePlantLine();
  const [params] = useSearchParams();
  const parsedId = ZId.safeParse(params.get("sourceId"));
  const sourceId = parsedId.success ? parsedId.data : undefined;
  const mappingVersion = params.get("mappingVersion") ?? "";
  const sourceQ = useDataSource(sourceId);
  const insightQ = useDataSourceInsight(sourceQ.data ? sourceId : undefined);
  const timeZone = insightQ.data?.timeZone ?? plant?.timeZone ?? "UTC";

  if (me && !me.isAdministrator) return <Navigate to="/settings" replace />;

  const isNotFound = !sourceId || (sourceQ.error instanceof ApiError && sourceQ.error.status === 404);

  return (
    <Stack spacing={2} sx={{ maxWidth: 960 }} component="section" aria-labelledby="insight-mapping-title">
      <Box>
        <Button component={RouterLink} to={BACK_TO} startIcon={<ArrowBackIcon />}>
          Back to {DATA_SOURCE_MESSAGES.title}
        </Button>
      </Box>
      <Typography variant="h5" component="h1" id="insight-mapping-title">
        Insight mapping{sourceQ.data ? ` : ${sourceQ.data.name}` : ""}
      </Typography>
      {isNotFound ? (
        <Paper variant="outlined" sx={{ p: 3 }}>
          <Alert severity="warning">{DATA_SOURCE_MESSAGES.notFound}</Alert>
          <Typography sx={{ mt: 2 }} color="text.secondary">
            It may have been deleted, or the link is incomplete. Pick a source on the Data Sources page.
          </Typography>
        </Paper>
      ) : sourceQ.isPending ? (
        <CircularProgress aria-label="Loading data source" />
      ) : (
        <QueryState isLoading={false} error={sourceQ.error} onRetry={() => void sourceQ.refetch()}>
          {sourceQ.data && (
            <Stack spacing={3}>
              <DataSourceDetails source={sourceQ.data} timeZone={timeZone} mappingVersion={mappingVersion} />
              <Box sx={{ display: "flex", justifyContent: "flex-end", mb: -2 }}>
                <Button
                  startIcon={insightQ.isFetching ? <CircularProgress size={16} /> : <RefreshIcon />}
                  onClick={() => void insightQ.refetch()}
                  disabled={insightQ.isFetching}
                >
                  Refresh messages
                </Button>
              </Box>
              <Stack spacing={1} component="section" aria-labelledby="insight-messages-title">
                <Typography variant="h6" component="h2" id="insight-messages-title">
                  Last received messages
                </Typography>
                <QueryState
                  isLoading={insightQ.isPending}
                  error={insightQ.error}
                  errorTitle={INSIGHT_MESSAGES.loadError}
                  onRetry={() => void insightQ.refetch()}
                >
                  {insightQ.data && <InsightMessages messages={insightQ.data.messages} timeZone={timeZone} />}
                </QueryState>
              </Stack>
              <Stack spacing={1} component="section" aria-labelledby="dead-letters-title">
                <Typography variant="h6" component="h2" id="dead-letters-title">
                  Dead letters{insightQ.data ? ` (${insightQ.data.deadLetterCount})` : ""}
                </Typography>
                <QueryState
                  isLoading={insightQ.isPending}
                  error={insightQ.error}
                  errorTitle={INSIGHT_MESSAGES.loadError}
                  onRetry={() => void insightQ.refetch()}
                >
                  {insightQ.data && (
                    <DeadLetterList
                      deadLetters={insightQ.data.deadLetters}
                      total={insightQ.data.deadLetterCount}
                      timeZone={timeZone}
                    />
                  )}
                </QueryState>
              </Stack>
            </Stack>
          )}
        </QueryState>
      )}
    </Stack>
  );
}
